"""A `translate` command line that gives only known settings is parsed with those alone
(cli/app.py: the other families' options stay unimported); that narrowing ends with the command
line, so the app run another way (typer's test runner, a second call) has every setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hymt_cli.cli.app import app, main


def _help_all() -> str:
    result = CliRunner().invoke(app, ["translate", "--help-all"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_narrowed_command_line_leaves_the_app_with_every_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _help_all()
    assert "--json-keys" in before or "--columns" in before  # another family's flags are listed
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "a.txt").write_text("Hello world.\n", encoding="utf-8")
    assert main(["translate", "a.txt", "--to", "de", "--engine", "pseudo", "--no-config"]) == 0
    assert (tmp_path / "a.de.txt").is_file()
    assert _help_all() == before
