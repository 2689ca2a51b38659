"""UTF-16 escapes in string files: a surrogate pair written as two escapes (`\\ud83d\\ude00`, how
JSON, YAML, Android, `.strings` and properties write an emoji) reads as the one character it
stands for and its value is translated; a lone surrogate (`\\ud800`, no Unicode text) is never
sent: its value keeps its bytes, and the run goes on (it used to stop every file with an internal
UnicodeEncodeError), whether it is in a value, a key (the context) or a table cell. Never silently:
such a value counts as untranslated, is a problem of its file (by key) and its file's warning,
on stderr too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import hymt
from pipelines import translate_files, write
from table_helpers import run_files

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats.android.escapes import decoded
from hymt_cli.formats.apple.lexer import unescape as strings_unescape
from hymt_cli.formats.escaped import EscapedRun
from hymt_cli.formats.properties import unescape as properties_unescape
from hymt_cli.formats.registry import format_for_path
from hymt_cli.text.segments import is_translatable, join_surrogates

PAIR = "Hi \\ud83d\\ude00 there"
LONE = "Bye\\ud800 now"


def _fill(template: str, pair: str = PAIR, lone: str = LONE) -> str:
    return template.replace("PAIR", pair).replace("LONE", lone)


FILES = {
    "a.json": _fill('{"pair": "PAIR", "lone": "LONE", "\\udc00": "Key only"}\n'),
    "a.yml": _fill('pair: "PAIR"\nlone: "LONE"\n'),
    "a.strings": _fill(
        '"pair" = "PAIR";\n"lone" = "LONE";\n', PAIR.replace("\\u", "\\U"), LONE.replace("\\u", "\\U")
    ),
    "strings.xml": _fill(
        '<resources>\n<string name="pair">PAIR</string>\n<string name="lone">LONE</string>\n</resources>\n'
    ),
    "a.properties": _fill("pair = PAIR\nlone = LONE\n"),
}


def test_pairs_join_and_lone_surrogates_are_not_sendable() -> None:
    assert join_surrogates("a\ud83d\ude00b\ud800") == "a\U0001f600b\ud800"
    assert not is_translatable("Bye\ud800 now")
    assert is_translatable("Hi \U0001f600 there")
    assert strings_unescape("\\Ud83d\\Ude00") == "\U0001f600"
    assert properties_unescape("\\ud83d\\ude00 \\ud800") == "\U0001f600 \ud800"
    assert decoded(EscapedRun.plain(0, "\\ud83d\\ude00")).decoded == "\U0001f600"


@pytest.mark.parametrize("name", sorted(FILES))
def test_escaped_surrogates_translate_or_stay(tmp_path: Path, name: str) -> None:
    source = write(tmp_path / "src", name, FILES[name])
    report, outputs = translate_files([source], PseudoEngine, tmp_path / "out", lang="ru")
    assert report.files_failed == 0, [f.error for f in report.files if f.error]
    [file] = report.files
    assert file.untranslated == 1 and file.segments == file.translated + 1 >= 2
    assert file.warning is not None and file.warning.startswith(
        f"{source}: 1 segment(s) hold a lone surrogate"
    )
    assert file.warning.endswith("keep their source text: lone")
    assert [p.problem for p in file.problems] == [
        "lone: holds a lone surrogate U+D800 (no Unicode text): kept as in the source"
    ]
    out = outputs[source].read_bytes().decode("utf-8")
    lone_source = LONE.replace("\\u", "\\U") if name.endswith(".strings") else LONE
    assert lone_source in out  # the lone surrogate's value keeps its bytes
    assert "Hi " not in out and "there" not in out  # the emoji's value was translated
    fmt = format_for_path(source)
    reread = fmt.parse(out)  # type: ignore[union-attr]
    assert any("\U0001f600" in s.text for s in reread.segments), name


def test_lone_surrogate_cells_stay_in_json_lines(tmp_path: Path) -> None:
    source = write(tmp_path, "rows.jsonl", _fill('{"t": "LONE"}\n{"t": "PAIR"}\n'))
    report = run_files([source], PseudoEngine, out=tmp_path / "out", columns=["t"])
    assert report.files_failed == 0, [f.error for f in report.files if f.error]
    [file] = report.files
    assert file.untranslated == 1 and file.warning is not None and "lone surrogate" in file.warning
    first, second = (tmp_path / "out" / "de" / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    assert first == _fill('{"t": "LONE"}')
    assert "\U0001f600" in json.loads(second)["t"] and "there" not in json.loads(second)["t"]


def test_a_lone_surrogate_is_a_warning_on_stderr(tmp_path: Path) -> None:
    source = write(tmp_path, "locales/en/app.json", FILES["a.json"])
    done = hymt("translate", str(source), "--to", "de", "--engine", "pseudo", text=True)
    assert done.returncode == 0, done.stderr
    assert f"warning: {source}: 1 segment(s) hold a lone surrogate" in done.stderr
    assert "1 untranslated" in done.stderr and done.stdout == ""
