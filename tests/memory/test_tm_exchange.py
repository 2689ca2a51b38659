"""`hymt tm export` / `hymt tm import`: lossless round trips, and malformed files refused in one
line (file and line named) or skipped with a count by reason, never a traceback."""

from __future__ import annotations

import http.server
import json
import tempfile
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from clirun import hymt
from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.errors import ExitCode, InputError
from hymt_cli.memory import Entry, TranslationMemory
from hymt_cli.memory.exchange import export_to_file, read_entries
from hymt_cli.memory.importing import MAX_RECORD_BYTES
from hymt_cli.text.languages import LANGUAGES


def _refused(path: Path, fmt: str | None = None) -> str:
    with pytest.raises(InputError) as info:
        read_entries(path, fmt)
    assert "\n" not in info.value.message
    assert info.value.exit_code == ExitCode.SOME_INPUTS_FAILED
    return info.value.message


def _jsonl(tmp_path: Path, *lines: str | bytes) -> Path:
    path = tmp_path / "tm.jsonl"
    path.write_bytes(b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines))
    return path


GOOD = json.dumps({"source": "Red", "target": "Rouge", "src_lang": "en", "tgt_lang": "fr"})


# -- JSON lines -----------------------------------------------------------------------------------
def test_jsonl_line_that_is_not_json_refuses_the_file(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, GOOD, GOOD, '{"source": "Blue" "target": "Bleu"}')
    assert _refused(path) == f"{path}: line 3: not JSON (Expecting ',' delimiter at column 19)"


def test_jsonl_not_utf8(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, GOOD, b'{"source": "caf\xe9", "target": "x", "tgt_lang": "fr"}')
    assert _refused(path) == f"{path}: line 2: not UTF-8 (byte 0xe9 at byte 16 of the line)"


def test_jsonl_huge_line_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path, GOOD, json.dumps({"source": "x" * MAX_RECORD_BYTES, "target": "y", "tgt_lang": "fr"})
    )
    assert _refused(path) == f"{path}: line 2: longer than 8 MiB, not a translation memory entry"


def test_jsonl_nesting_and_number_bombs(tmp_path: Path) -> None:
    deep = _jsonl(tmp_path, GOOD, "[" * 100_000 + "]" * 100_000)
    assert _refused(deep) == f"{deep}: line 2: JSON nested too deeply"
    digits = _jsonl(tmp_path, GOOD, '{"source": ' + "9" * 5000 + "}")
    assert _refused(digits).startswith(f"{digits}: line 2: not usable JSON (")


def test_jsonl_unusable_records_are_skipped_and_counted_by_reason(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        "\ufeff" + GOOD,  # a BOM on line 1 is fine
        "[1, 2]",  # 2: not an object
        json.dumps({"target": "Bleu", "tgt_lang": "fr"}),  # 3: source missing
        json.dumps({"source": 5, "target": "Cinq", "tgt_lang": "fr"}),  # 4: wrong type
        json.dumps({"source": "Green", "target": "Vert", "tgt_lang": "xx"}),  # 5: unknown language
        json.dumps({"source": "Gray", "target": "  ", "tgt_lang": "fr"}),  # 6: not translated
        json.dumps({"source": "\udcff", "target": "?", "tgt_lang": "fr"}),  # 7: lone surrogate
        "",
        json.dumps({"source": "Tea", "target": "Tee", "tgt_lang": "de-AT", "src_lang": None}),
        '"just a string"',  # 10: not an object
        json.dumps({"source": "One", "target": "Un", "tgt_lang": "fr", "src_lang": 1}),  # 11
    )
    result = read_entries(path)
    assert result.entries == [Entry("Red", "Rouge", "en", "fr"), Entry("Tea", "Tee", "auto", "de-AT")]
    assert result.skipped == 8
    assert result.describe_skipped() == (
        "skipped 8: 2 not a JSON object (first: line 2, list); 2 'source' missing or not a string (first: "
        "line 3); "
        "1 unknown language (first: line 5, 'xx'); 1 empty target (first: line 6); "
        "1 lone surrogate in the text (first: line 7); 1 'src_lang' not a string (first: line 11)"
    )


def test_jsonl_without_a_usable_entry_is_an_error(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, "[]", json.dumps({"source": "a", "target": "b", "tgt_lang": "klingon"}))
    assert _refused(path) == (
        f"{path}: no usable entries; skipped 2: 1 not a JSON object (first: line 1, list); "
        "1 unknown language (first: line 2, 'klingon')"
    )


# -- TMX ------------------------------------------------------------------------------------------
def _tmx(
    tmp_path: Path, body: str, *, header: str = '<header srclang="en" segtype="sentence"/>', prolog: str = ""
) -> Path:
    path = tmp_path / "tm.tmx"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog}<tmx version="1.4">\n{header}\n'
        f"<body>\n{body}</body>\n</tmx>\n",
        encoding="utf-8",
    )
    return path


def _tu(source: str, target: str, *, lang: str = "fr", attrs: str = "") -> str:
    return (
        f'<tu{attrs}><tuv xml:lang="en"><seg>{source}</seg></tuv>'
        f'<tuv xml:lang="{lang}"><seg>{target}</seg></tuv></tu>\n'
    )


def test_tmx_not_xml(tmp_path: Path) -> None:
    path = tmp_path / "tm.tmx"
    path.write_text("Red\tRouge\n", encoding="utf-8")
    assert _refused(path) == f"{path}: line 1, column 1: not well-formed XML (syntax error)"
    empty = tmp_path / "empty.tmx"
    empty.write_bytes(b"")
    assert _refused(empty) == f"{empty}: empty, no XML element"


def test_tmx_truncated(tmp_path: Path) -> None:
    whole = _tmx(tmp_path, _tu("Red", "Rouge") * 50).read_text(encoding="utf-8")
    path = tmp_path / "cut.tmx"
    path.write_text(whole[: len(whole) // 2].rsplit("<seg>", 1)[0] + "<seg>Ro", encoding="utf-8")
    message = _refused(path)
    assert message.startswith(f"{path}: line ") and message.endswith(
        ": the file ends inside <seg> (truncated?)"
    )


def test_tmx_wrong_root(tmp_path: Path) -> None:
    path = tmp_path / "page.tmx"
    path.write_text("<html><body><p>Red</p></body></html>", encoding="utf-8")
    assert _refused(path) == f"{path}: not a TMX file (root element <html>)"


def test_tmx_undefined_entity_is_not_well_formed(tmp_path: Path) -> None:
    path = _tmx(tmp_path, _tu("Red &nbsp; Blue", "Rouge"))
    assert _refused(path) == f"{path}: line 5, column 33: not well-formed XML (undefined entity)"


def test_tmx_entity_expansion_is_refused_before_any_expansion(tmp_path: Path) -> None:
    laughs = "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    path = _tmx(tmp_path, _tu("&lol9;", "Rouge"), prolog=f'<!DOCTYPE tmx [<!ENTITY lol0 "lol">{laughs}]>\n')
    assert _refused(path) == (
        f"{path}: line 2: a DOCTYPE with declarations (an internal DTD subset) is not "
        "accepted: entities are never expanded"
    )


def test_tmx_external_entities_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    declared = _tmx(
        tmp_path, _tu("&x;", "Rouge"), prolog=f'<!DOCTYPE tmx [<!ENTITY x SYSTEM "{secret.as_uri()}">]>\n'
    )
    assert "internal DTD subset" in _refused(declared)
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY x "EXPANDED">', encoding="utf-8")
    external = _tmx(tmp_path, _tu("a &x; b", "Rouge"), prolog=f'<!DOCTYPE tmx SYSTEM "{dtd}">\n')
    assert _refused(external) == (
        f"{external}: line 6: entity &x; is not defined in the file (external DTDs are not read)"
    )


def test_tmx_doctype_url_is_never_fetched(tmp_path: Path) -> None:
    """A DOCTYPE naming a DTD (as CAT tools write) is accepted; the DTD is not fetched."""
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'<!ENTITY x "FETCHED">')

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/tmx14.dtd"
        ok = _tmx(tmp_path, _tu("Red", "Rouge"), prolog=f'<!DOCTYPE tmx SYSTEM "{url}">\n')
        assert read_entries(ok).entries == [Entry("Red", "Rouge", "en", "fr")]
        uses = _tmx(tmp_path, _tu("&x;", "Rouge"), prolog=f'<!DOCTYPE tmx SYSTEM "{url}">\n')
        assert "entity &x; is not defined in the file" in _refused(uses)
    finally:
        server.shutdown()
        server.server_close()
    assert requests == []


def test_tmx_source_language_from_tu_header_or_neither(tmp_path: Path) -> None:
    body = _tu("Red", "Rouge", attrs=' srclang="en"') + _tu("Blue", "Bleu") + _tu("Green", "Vert")
    path = _tmx(tmp_path, body, header='<header segtype="sentence"/>')
    result = read_entries(path)
    assert result.entries == [Entry("Red", "Rouge", "en", "fr")]
    assert result.describe_skipped() == "skipped 2: 2 no srclang on <tu> or <header> (first: line 6)"
    none = _tmx(tmp_path, _tu("Blue", "Bleu"), header="")
    assert (
        _refused(none)
        == f"{none}: no usable entries; skipped 1: 1 no srclang on <tu> or <header> (first: line 5)"
    )


def test_tmx_unusable_units_are_skipped_and_counted(tmp_path: Path) -> None:
    body = "".join(
        [
            _tu("Red", "Rouge"),  # line 5: fine
            _tu('Press <bpt i="1">&lt;b&gt;</bpt>OK<ept i="1">&lt;/b&gt;</ept>', "Appuyez sur OK"),  # inline
            _tu("Blue", 'Bleu <ph x="1">{0}</ph>'),  # inline in the target
            _tu("Green", "Vert", lang="tlh"),  # unknown language
            _tu("Gray", ""),  # not translated
            '<tu><tuv xml:lang="en"><seg>Alone</seg></tuv></tu>\n',  # one tuv
            '<tu srclang="de"><tuv xml:lang="en"><seg>A</seg></tuv><tuv '
            'xml:lang="fr"><seg>B</seg></tuv></tu>\n',
            '<tu><tuv xml:lang="en"><seg>Esc</seg></tuv><tuv xml:lang="fr"><seg>'
            '<ph type="x-hymt-char">U+GGGG</ph></seg></tuv></tu>\n',  # bad placeholder
            '<tu><tuv xml:lang="en"><note>no seg</note></tuv><tuv xml:lang="fr"><seg>x</seg></tuv></tu>\n',
            _tu("Yellow", "Jaune", lang="fr-CA"),
        ]
    )
    result = read_entries(_tmx(tmp_path, body))
    assert result.entries == [Entry("Red", "Rouge", "en", "fr"), Entry("Yellow", "Jaune", "en", "fr-CA")]
    assert result.skips.counts == {
        "inline markup in <seg>": 2,
        "unknown language": 1,
        "empty target": 1,
        "fewer than two <tuv>": 1,
        "no <tuv> in the source language": 1,
        'malformed <ph type="x-hymt-char">': 1,
        "no <seg>": 1,
    }
    assert result.skips.first["inline markup in <seg>"] == "line 6"
    assert result.skips.first["unknown language"] == "line 8, 'tlh'"


# -- export -> import: lossless for any text --------------------------------------------------------
_AWKWARD = list(
    "\x00\x01\x08\t\n\x0b\x0c\r\x0e\x1b\x1f\x7f\x80\x85\x9f\u2028\u2029\ufeff\ufffe\uffff"
    "<>&;\"'] \u00a0\U0001f600"
)
_TEXT = st.text(alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(_AWKWARD)), min_size=1)
_ENTRY = st.tuples(
    _TEXT, _TEXT.filter(str.strip), st.sampled_from(["auto", *LANGUAGES]), st.sampled_from(list(LANGUAGES))
)


def _round_trip(fmt: str, entries: list[tuple[str, str, str, str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        first, second, file = Path(folder, "a.db"), Path(folder, "b.db"), Path(folder, f"tm.{fmt}")
        with TranslationMemory.open(first) as memory:
            memory.import_entries(Entry(*e) for e in entries)
            stored = list(memory.entries())
            assert export_to_file(memory.entries(), fmt, file) == len(entries)
        result = read_entries(file)
        assert result.skipped == 0
        with TranslationMemory.open(second) as memory:
            memory.import_entries(result.entries)
            assert list(memory.entries()) == stored
        assert sorted((e.source, e.target, e.src_lang, e.tgt_lang) for e in stored) == sorted(entries)


@settings(max_examples=60, deadline=None)
@given(st.lists(_ENTRY, min_size=1, max_size=8, unique_by=lambda e: (e[3], e[0])))
def test_tmx_round_trip_is_lossless(entries: list[tuple[str, str, str, str]]) -> None:
    _round_trip("tmx", entries)


@settings(max_examples=60, deadline=None)
@given(st.lists(_ENTRY, min_size=1, max_size=8, unique_by=lambda e: (e[3], e[0])))
def test_jsonl_round_trip_is_lossless(entries: list[tuple[str, str, str, str]]) -> None:
    _round_trip("jsonl", entries)


def test_tmx_export_of_control_characters_is_well_formed_xml_for_other_tools(tmp_path: Path) -> None:
    with TranslationMemory.open(tmp_path / "tm.db") as memory:
        memory.import_entries([Entry("bell\x07 and\r\nCRLF", "cloche\x07", "en", "fr")])
        export_to_file(memory.entries(), "tmx", tmp_path / "tm.tmx")
    text = (tmp_path / "tm.tmx").read_text(encoding="utf-8")
    assert '<seg>bell<ph type="x-hymt-char">U+0007</ph> and&#13;\nCRLF</seg>' in text
    ET.fromstring(text.encode("utf-8"))  # any XML reader accepts it


def test_texts_that_are_not_unicode_are_never_stored(tmp_path: Path) -> None:
    """Lone surrogates (from surrogateescape) cannot be UTF-8: left out, never a crash."""
    with TranslationMemory.open(tmp_path / "tm.db") as memory:
        assert (
            memory.import_entries([Entry("caf\udce9", "x", "en", "fr"), Entry("ok", "d'accord", "en", "fr")])
            == 1
        )
        assert [e.source for e in memory.entries()] == ["ok"]


# -- the command line -------------------------------------------------------------------------------
def test_cli_import_errors_are_one_line_exit_1_and_import_nothing(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, GOOD, "{oops")
    result = hymt("tm", "import", str(path), "--cache", str(tmp_path / "tm.db"))
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED
    assert result.stderr.decode() == (
        f"error: {path}: line 2: not JSON (Expecting property name enclosed in double quotes at column 2)\n"
    )
    assert not (tmp_path / "tm.db").exists()
    bomb = _tmx(tmp_path, _tu("&a;", "x"), prolog='<!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa">]>\n')
    result = hymt("tm", "import", str(bomb), "--cache", str(tmp_path / "tm.db"))
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED
    assert result.stderr.decode().startswith(f"error: {bomb}: line 2: a DOCTYPE with declarations")
    assert b"Traceback" not in result.stderr


def test_cli_import_reports_what_it_skipped(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, GOOD, "[]", json.dumps({"source": "a", "target": "b", "tgt_lang": "xx"}))
    result = hymt("tm", "import", str(path), "--cache", str(tmp_path / "tm.db"))
    assert result.returncode == ExitCode.OK, result.stderr
    assert result.stderr.decode() == (
        "hymt tm: imported 1 entries; skipped 2: 1 not a JSON object (first: line 2, "
        "list); 1 unknown language (first: line 3, 'xx')\n"
    )


def test_cli_export_then_import_with_control_characters(tmp_path: Path) -> None:
    source = _jsonl(tmp_path, json.dumps({"source": "a\x1bb\rc\x00", "target": "x\x0cy", "tgt_lang": "fr"}))
    assert hymt("tm", "import", str(source), "--cache", str(tmp_path / "a.db")).returncode == 0
    for fmt in ("tmx", "jsonl"):
        out = tmp_path / f"out.{fmt}"
        result = hymt("tm", "export", "--format", fmt, "-o", str(out), "--cache", str(tmp_path / "a.db"))
        assert result.returncode == 0, result.stderr
        result = hymt("tm", "import", str(out), "--cache", str(tmp_path / f"b-{fmt}.db"))
        assert result.stderr == b"hymt tm: imported 1 entries\n"
        with TranslationMemory.open(tmp_path / f"b-{fmt}.db") as memory:
            assert [(e.source, e.target) for e in memory.entries()] == [("a\x1bb\rc\x00", "x\x0cy")]


def test_cli_export_to_an_impossible_path_is_one_line(tmp_path: Path) -> None:
    source = _jsonl(tmp_path, GOOD)
    assert hymt("tm", "import", str(source), "--cache", str(tmp_path / "a.db")).returncode == 0
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = hymt("tm", "export", "-o", str(blocker / "out.tmx"), "--cache", str(tmp_path / "a.db"))
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED
    assert result.stderr.decode().splitlines()[0] == (
        f"error: {blocker / 'out.tmx'}: cannot write the export: {blocker} is a file, not a folder"
    )


def test_tm_uses_the_memory_translate_fills_from_the_environment_and_the_config(tmp_path: Path) -> None:
    """`cache` is one setting: HYMT_CACHE and hymt.toml's `cache` reach `hymt tm` as they reach
    `hymt translate` (tm once read the user cache's memory whatever they said)."""
    (tmp_path / "a.txt").write_text("Hello.\n", encoding="utf-8")
    env = {"HYMT_CACHE": str(tmp_path / "env.db")}
    assert (
        hymt("translate", "a.txt", "--to", "de", "--engine", "pseudo", cwd=tmp_path, env=env).returncode == 0
    )
    result = hymt("tm", "export", "--format", "jsonl", cwd=tmp_path, env=env, text=True)
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["source"] for line in result.stdout.splitlines()] == ["Hello."]
    (tmp_path / "hymt.toml").write_text('cache = "toml.db"\n', encoding="utf-8")
    source = _jsonl(tmp_path, json.dumps({"source": "Bye.", "target": "Tschüss.", "tgt_lang": "de"}))
    assert hymt("tm", "import", str(source), cwd=tmp_path, env={"HYMT_CACHE": None}).returncode == 0
    with TranslationMemory.open(tmp_path / "toml.db") as memory:
        assert [e.source for e in memory.entries()] == ["Bye."]
