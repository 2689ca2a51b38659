"""Per-path settings (issue 27): a config file's `[[files]]` entries give the paths their globs
match any setting of a format (and the format itself); the last match wins, a flag beats an
entry, `hymt config --file PATH` says what applies and from where, and an output's manifest
records the settings its own input was read with (so `--check` sees an entry change)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.errors import UsageError
from hymt_cli.formats import FORMATS
from hymt_cli.options import settings_of
from hymt_cli.settings import resolve
from hymt_cli.settings.schema import per_path_settings

PSEUDO = ("--engine", "pseudo", "--no-cache")
CONFIG = """\
to = "de"
[[files]]
glob = "data/*.csv"
columns = ["role"]

[[files]]
glob = "data/people.csv"
columns = ["name", "role"]
delimiter = ";"

[[files]]
glob = "*.mdx"
format = "md"
"""


def _project(root: Path) -> None:
    (root / "data").mkdir()
    (root / "hymt.toml").write_text(CONFIG)
    (root / "data" / "teams.csv").write_text("team,role\nCore,Maintainers of the code\n")
    (root / "data" / "people.csv").write_text("name;role\nAda;Writes the docs\n")
    (root / "page.mdx").write_text("# A page\n\nSome text.\n")
    (root / "other.tsv").write_text("a\tb\nx\ty\n")  # no entry: left alone, named


def _rows(path: Path, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text()), delimiter=delimiter))


def test_entries_give_each_path_its_settings_and_the_last_match_wins(tmp_path: Path) -> None:
    _project(tmp_path)
    result = hymt("translate", ".", "-o", "out", *PSEUDO, cwd=tmp_path, text=True)
    assert result.returncode == 0, result.stderr
    teams = _rows(tmp_path / "out/de/data/teams.csv")
    assert teams[1][0] == "Core" and teams[1][1] != "Maintainers of the code"  # columns = role
    people = _rows(tmp_path / "out/de/data/people.csv", ";")
    assert people[1][0] != "Ada" and people[1][1] != "Writes the docs"  # the later entry: both, ;
    page = (tmp_path / "out/de/page.mdx").read_text()
    assert page.startswith("# ") and "A page" not in page  # read as Markdown
    assert "skipped other.tsv: needs a setting: tsv needs --columns" in result.stderr

    checked = hymt("translate", ".", "-o", "out", *PSEUDO, "--check", cwd=tmp_path, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the manifest recorded each input's own columns: changing an entry makes that output stale
    (tmp_path / "hymt.toml").write_text(CONFIG.replace('columns = ["role"]', 'columns = ["team", "role"]'))
    checked = hymt("translate", ".", "-o", "out", *PSEUDO, "--check", cwd=tmp_path, text=True)
    assert checked.returncode == 5
    assert "teams.csv" in checked.stderr and "people.csv" not in checked.stderr
    assert "1 of 3 output(s) missing or stale" in checked.stderr


def test_a_flag_beats_an_entry(tmp_path: Path) -> None:
    _project(tmp_path)
    result = hymt("translate", "data/teams.csv", "--columns", "team", *PSEUDO, cwd=tmp_path, text=True)
    assert result.returncode == 0, result.stderr
    teams = _rows(tmp_path / "data/teams.de.csv")
    assert teams[1][0] != "Core" and teams[1][1] == "Maintainers of the code"


def test_config_file_shows_what_applies_and_from_where(tmp_path: Path) -> None:
    _project(tmp_path)
    shown = hymt("config", "--file", "data/people.csv", cwd=tmp_path, text=True)
    assert shown.returncode == 0, shown.stderr
    lines = {line.split("#")[0].strip(): line.split("#")[-1].strip() for line in shown.stdout.splitlines()}
    assert lines['format = "csv"'] == "by suffix"
    assert lines['columns = ["name", "role"]'] == "config hymt.toml [[files]] 2"
    assert lines['delimiter = ";"'] == "config hymt.toml [[files]] 2"
    assert lines['escaping = "quotes"'] == "default"
    assert "# matched by: hymt.toml [[files]] 1 (glob data/*.csv)" in shown.stdout
    assert shown.stdout.rstrip().endswith("# in a folder walk: taken")
    flagged = hymt("config", "--file", "data/people.csv", "--columns", "x", cwd=tmp_path, text=True).stdout
    assert 'columns = ["x"]' in flagged and "flag --columns" in flagged
    listed = hymt("config", cwd=tmp_path, text=True).stdout
    assert '# hymt.toml [[files]] 2: glob ["data/people.csv"] sets columns, delimiter' in listed
    other = hymt("config", "--file", "other.tsv", cwd=tmp_path, text=True).stdout
    assert "# in a folder walk: left alone: needs a setting: tsv needs --columns" in other


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('glob = "*.csv"\nto = "fr"', "'to' applies to the whole run, not to some paths"),
        ('glob = "*.csv"\ncolumnz = ["a"]', "unknown per-path setting 'columnz'"),
        ('glob = "*.csv"\ncell-format = "xml"', "--cell-format must be one of"),
        ('glob = "*.csv"\nformat = "pdf"', "unknown format 'pdf'"),
        ('columns = ["a"]', 'needs glob = "..."'),
    ],
)
def test_a_bad_entry_is_a_usage_error_naming_the_file_and_the_entry(
    tmp_path: Path, entry: str, message: str
) -> None:
    (tmp_path / "hymt.toml").write_text(f'[[files]]\nglob = "x"\n\n[[files]]\n{entry}\n')
    with pytest.raises(UsageError, match="hymt.toml: hymt.toml \\[\\[files\\]\\] 2") as raised:
        resolve({}, cwd=tmp_path, config=tmp_path / "hymt.toml")
    assert message in raised.value.message


def test_every_format_option_is_a_per_path_key() -> None:
    """Derived from the declarations: a format's new option is a per-path key with no other edit."""
    keys = {s.key for s in per_path_settings()}
    for spec in FORMATS.values():
        for owner in spec.option_types:
            assert {s.key for s in settings_of(owner)} <= keys, spec.name
    assert "format" in keys and "to" not in keys and "model" not in keys
