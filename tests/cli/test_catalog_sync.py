"""Keeping catalogs in sync from the command line (issue 26): the summary line counts each file's
keys, `--check` fails while any key is missing, stale or removed, and says which."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import hymt

ARGS = ("translate", "locales/en", "--to", "de", "--engine", "pseudo", "--no-cache")


def _source(project: Path, values: dict[str, str]) -> None:
    path = project / "locales/en/app.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values, indent=2) + "\n")


def test_the_summary_counts_keys_and_check_gates_on_missing_stale_and_removed(tmp_path: Path) -> None:
    _source(tmp_path, {"title": "Welcome", "save": "Save the file", "old": "An old key"})
    target = tmp_path / "locales/de/app.json"
    target.parent.mkdir(parents=True)
    target.write_text('{\n  "title": "Willkommen"\n}\n')  # a person's start
    first = hymt(*ARGS, cwd=tmp_path, text=True)
    assert first.returncode == 0, first.stderr
    assert (
        f"{Path('locales/de/app.json')}: 2 added, 1 kept (a person's), 0 updated, 0 removed, 0 unchanged"
        in first.stderr
    )
    assert first.stdout == ""
    assert hymt(*ARGS, "--check", cwd=tmp_path, text=True).returncode == 0

    _source(tmp_path, {"title": "Welcome", "save": "Save the document", "new": "A new key"})
    check = hymt(*ARGS, "--check", cwd=tmp_path, text=True)
    assert check.returncode == 5
    assert "keys: 1 missing, 1 stale, 1 removed from the source" in check.stderr
    assert json.loads(target.read_text())["title"] == "Willkommen"  # --check writes nothing

    second = hymt(*ARGS, cwd=tmp_path, text=True)
    assert "1 added, 1 kept (a person's), 1 updated, 1 removed, 0 unchanged" in second.stderr
    again = hymt(*ARGS, cwd=tmp_path, text=True)
    assert "1 up to date" in again.stderr and "0 file(s) written" in again.stderr
    assert hymt(*ARGS, "--check", cwd=tmp_path, text=True).returncode == 0
    keep = hymt(*ARGS, "--check", "--keep-removed", cwd=tmp_path, text=True)
    assert keep.returncode == 0
