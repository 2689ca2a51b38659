"""`--check` in CI: an output written with other settings of its format (a table's --columns,
--add-columns, --context-columns, --cell-format, a CSV's --delimiter) is stale, exit 5, with the
settings it was written with and those asked for now; settings that change how, not what, a
file is written (--rows-per-batch) leave it up to date, and a run with the new settings brings
it up to date. A Markdown file beside the catalog is not made stale by the catalog's settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.errors import ExitCode

CATALOG = b"sku,title,body\nA1,Red mug,Holds tea\nA2,Blue cup,Holds coffee\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "cat.csv").write_bytes(CATALOG)
    (tmp_path / "guide.md").write_text("# Guide\n\nRead this.\n")
    return tmp_path


def _run(project: Path, *extra: str, check: bool = False) -> tuple[int, str]:
    args = ("translate", "cat.csv", "guide.md", "--to", "de", "-o", "out", "--engine", "pseudo")
    result = hymt(
        *args, "--no-cache", "--no-config", *extra, *(("--check",) if check else ()), cwd=project, text=True
    )
    return result.returncode, result.stderr


@pytest.mark.parametrize(
    "changed, named",
    [
        (("--columns", "title"), "now: columns=('title',)"),
        (("--columns", "title,body", "--add-columns"), "add-columns=True"),
        (("--columns", "title,body", "--context-columns", "sku"), "context-columns=('sku',)"),
        (("--columns", "title,body", "--cell-format", "html"), "cell-format='html'"),
        (("--columns", "title,body", "--delimiter", ";"), "delimiter=';'"),
    ],
    ids=["columns", "add-columns", "context-columns", "cell-format", "delimiter"],
)
def test_other_format_settings_make_the_table_stale(
    project: Path, changed: tuple[str, ...], named: str
) -> None:
    code, err = _run(project, "--columns", "title,body")
    assert code == 0, err
    code, err = _run(project, "--columns", "title,body", "--rows-per-batch", "1", check=True)
    assert code == 0 and "all 2 output(s) up to date" in err, err
    code, err = _run(project, *changed, check=True)
    assert code == ExitCode.STALE, err
    stale = [line for line in err.splitlines() if line.startswith("stale: ")]
    assert len(stale) == 1 and "cat.csv: written with other format settings" in stale[0], err
    assert "(columns=('title', 'body'); now: " in stale[0] and named in stale[0]
    if "--delimiter" not in changed:  # (the file has no ';': read with it, it has no such column)
        assert _run(project, *changed)[0] == 0
        code, err = _run(project, *changed, check=True)
        assert code == 0, err
