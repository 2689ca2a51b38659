"""A setting is declared once, beside its owner: a format registered here with an option of its
own gets its flag (in `hymt translate --help-all`), its config key, its HYMT_* variable, its line in
`hymt config` and its Python keyword, and the format receives the value, whatever the layer."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from hymt_cli.cli.app import main
from hymt_cli.errors import UsageError
from hymt_cli.formats import FormatSpec, SplicingFormat, register, unregister
from hymt_cli.formats.base import Decoded, decode_utf8
from hymt_cli.formats.text import TextDocument, TextFormat
from hymt_cli.options import Options, OptionSet, Panel, option, settings_of
from hymt_cli.settings import Settings, all_settings
from hymt_cli.text.segments import Segment


@dataclass(frozen=True, slots=True)
class ShoutOptions(Options):
    shout_marks: int = option(
        1,
        "--shout-marks",
        minimum=0,
        metavar="N",
        panel=Panel.FORMATS,
        help="shout: exclamation marks after each line.",
    )


class ShoutFormat(SplicingFormat):
    """Plain text whose output lines end in `!` (as many as the option says)."""

    name = "shout"
    suffixes = (".shout",)

    def __init__(self, options: ShoutOptions) -> None:
        self.marks = options.shout_marks

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def parse(self, text: str) -> Shouted:
        return Shouted(TextFormat().parse(text), self.marks)


@dataclass(frozen=True)
class Shouted:
    text: TextDocument
    marks: int

    @property
    def segments(self) -> Sequence[Segment]:
        return self.text.segments

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        lines = self.text.reassemble(translated).split("\n")
        return "\n".join(line + "!" * self.marks if line else line for line in lines)


@pytest.fixture
def shout() -> Iterator[None]:
    register(
        FormatSpec(
            "shout", (".shout",), lambda options: ShoutFormat(options.of(ShoutOptions)), (ShoutOptions,)
        )
    )
    try:
        yield
    finally:
        unregister("shout")


def _hymt(
    *args: str, cwd: Path, env: dict[str, str] | None = None, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """hymt in this process (the format is registered here), from `cwd`."""
    monkeypatch.chdir(cwd)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_one_declaration_gives_a_flag_a_key_a_variable_and_a_keyword(
    shout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [setting] = settings_of(ShoutOptions)
    assert setting in all_settings()
    assert (setting.flag, setting.key, setting.env_name) == (
        "--shout-marks",
        "shout-marks",
        "HYMT_SHOUT_MARKS",
    )
    assert Settings.build(shout_marks=3).of(ShoutOptions).shout_marks == 3  # the Python keyword

    code, out, err = _hymt(
        "translate", "--help-all", cwd=tmp_path, env={"COLUMNS": "200"}, monkeypatch=monkeypatch
    )
    assert code == 0 and "--shout-marks N" in out and "exclamation marks" in out

    (tmp_path / "hymt.toml").write_text("shout-marks = 2\n")
    code, out, err = _hymt("config", cwd=tmp_path, monkeypatch=monkeypatch)
    assert code == 0, err
    [line] = [line for line in out.splitlines() if line.startswith("shout-marks")]
    assert line.split("#")[0].strip() == "shout-marks = 2" and line.endswith("# config hymt.toml")

    code, out, err = _hymt("config", cwd=tmp_path, env={"HYMT_SHOUT_MARKS": "4"}, monkeypatch=monkeypatch)
    assert "shout-marks = 4" in out and "env HYMT_SHOUT_MARKS" in out


def test_the_format_gets_the_value_from_every_layer(
    shout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.shout").write_text("Hello\nWorld\n", encoding="utf-8")
    (tmp_path / "hymt.toml").write_text('engine = "identity"\nno-cache = true\nshout-marks = 2\n')
    code, _, err = _hymt("translate", "a.shout", "--to", "fr", cwd=tmp_path, monkeypatch=monkeypatch)
    assert code == 0, err
    assert (tmp_path / "a.fr.shout").read_text(encoding="utf-8") == "Hello!!\nWorld!!\n"
    code, _, err = _hymt(
        "translate", "a.shout", "--to", "de", "--shout-marks", "0", cwd=tmp_path, monkeypatch=monkeypatch
    )
    assert code == 0, err
    assert (tmp_path / "a.de.shout").read_text(encoding="utf-8") == "Hello\nWorld\n"


def test_a_bad_value_names_its_flag_wherever_it_comes_from(
    shout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(UsageError, match="--shout-marks must be at least 0, not -1"):
        Settings.build(shout_marks=-1)
    (tmp_path / "hymt.toml").write_text("shout-marks = -1\n")
    code, _, err = _hymt("config", cwd=tmp_path, monkeypatch=monkeypatch)
    assert code == 2 and err.startswith("error: --shout-marks must be at least 0, not -1")
    assert OptionSet().of(ShoutOptions).shout_marks == 1  # a format asked for options nobody gave: defaults


def test_names_flags_and_keys_are_unique_across_owners() -> None:
    settings = all_settings()
    for attribute in ("name", "key", "flag"):
        values = [getattr(s, attribute) for s in settings]
        assert len(values) == len(set(values)), attribute


def test_a_new_format_option_is_a_per_path_setting_too(
    shout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "loud").mkdir()
    (tmp_path / "a.shout").write_text("Hello\n", encoding="utf-8")
    (tmp_path / "loud" / "b.shout").write_text("Hello\n", encoding="utf-8")
    (tmp_path / "hymt.toml").write_text(
        'engine = "identity"\nno-cache = true\n[[files]]\nglob = "loud/"\nshout-marks = 3\n'
    )
    code, _, err = _hymt("translate", ".", "--to", "fr", cwd=tmp_path, monkeypatch=monkeypatch)
    assert code == 0, err
    assert (tmp_path / "a.fr.shout").read_text(encoding="utf-8") == "Hello!\n"
    assert (tmp_path / "loud" / "b.fr.shout").read_text(encoding="utf-8") == "Hello!!!\n"
