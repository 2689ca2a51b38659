"""Discovery never loses data nor hangs (issue 13): symlinks leading out of an input folder are
skipped with a warning unless --follow-symlinks; FIFOs, devices and symlinks to them are
skipped (reading one would hang); an -o folder inside the input tree is never read as input,
on this run or a later one."""

from __future__ import annotations

import json
import os
from pathlib import Path

from clirun import hymt

PSEUDO = ("--engine", "pseudo", "--no-cache", "--no-config")


def test_symlinks_out_of_the_tree_are_skipped_unless_followed(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "private.txt").write_text("Private notes.\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.txt").write_text("Guide.\n")
    (docs / "private.txt").symlink_to(secret / "private.txt")
    (docs / "linked").symlink_to(secret, target_is_directory=True)
    (docs / "alias.txt").symlink_to(docs / "guide.txt")  # inside the tree: fine
    result = hymt(
        "translate", str(docs), "--to", "de", *PSEUDO, "--report", str(tmp_path / "r.json"), text=True
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in docs.glob("*.de.txt")) == ["alias.de.txt", "guide.de.txt"]
    assert f"skipped 2 file(s): 1 symbolic link to a folder ({docs / 'linked'}), 1 symbolic link to" in (
        result.stderr
    )
    skipped = {
        Path(s["path"]).name: s["reason"] for s in json.loads((tmp_path / "r.json").read_text())["skipped"]
    }
    assert skipped["private.txt"].startswith(
        f"symbolic link to {secret / 'private.txt'}, outside the input folder"
    )
    followed = hymt("translate", str(docs), "--to", "fr", *PSEUDO, "--follow-symlinks", text=True)
    assert followed.returncode == 0, followed.stderr
    assert (docs / "private.fr.txt").is_file() and (docs / "linked" / "private.fr.txt").is_file()


def test_fifos_and_devices_are_skipped_not_read(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.txt").write_text("Guide.\n")
    os.mkfifo(docs / "pipe.txt")
    (docs / "zero.txt").symlink_to("/dev/zero")
    (docs / "null.md").symlink_to("/dev/null")
    result = hymt("translate", str(docs), "--to", "de", *PSEUDO, "-v", timeout=60, text=True)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in docs.glob("*.de.*")) == ["guide.de.txt"]
    assert f"skipped {docs / 'pipe.txt'}: not a regular file (a FIFO)" in result.stderr
    assert f"skipped {docs / 'zero.txt'}: not a regular file (a character device)" in result.stderr
    named = hymt("translate", "/dev/zero", "--to", "de", *PSEUDO, timeout=60, text=True)
    assert named.returncode == 1 and "not a regular file or folder (a character device)" in named.stderr


def test_an_output_folder_inside_the_input_tree_is_never_read(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.txt").write_text("Guide.\n")
    first = hymt("translate", "docs", "--to", "de", "-o", "docs/out", *PSEUDO, cwd=tmp_path, text=True)
    assert first.returncode == 0, first.stderr
    out = docs / "out" / "de" / "guide.txt"
    expected = out.read_bytes()
    second = hymt(
        "translate", "docs", "--to", "de,fr", "-o", "docs/out", *PSEUDO, "-v", cwd=tmp_path, text=True
    )
    assert second.returncode == 0, second.stderr
    assert "inside this run's output folder (-o)" in second.stderr
    assert out.read_bytes() == expected
    assert not (docs / "out" / "de" / "out").exists() and not (docs / "out" / "fr" / "out").exists()
    # a later run without -o: the earlier output tree is still not an input
    later = hymt("translate", "docs", "--to", "ja", *PSEUDO, "-v", cwd=tmp_path, text=True)
    assert later.returncode == 0, later.stderr
    assert sorted(str(p.relative_to(docs)) for p in docs.rglob("*.ja.txt")) == ["guide.ja.txt"]
    assert "written by hymt (an earlier run's output" in later.stderr


def test_outputs_in_a_killed_runs_journal_are_not_inputs(tmp_path: Path) -> None:
    """A run killed before it settled its manifest leaves the journal alone (manifest.py): the
    files listed there are still an earlier run's outputs, and the journal is no hidden file."""
    from hymt_cli.outputs.manifest import JOURNAL_NAME, MANIFEST_NAME, record

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.txt").write_text("Guide.\n")
    (docs / "anleitung.txt").write_text("Anleitung.\n")  # an output named like a source
    record(docs / "anleitung.txt", docs / "guide.txt", "p")
    assert (docs / JOURNAL_NAME).exists() and not (docs / MANIFEST_NAME).exists()
    run = hymt("translate", "docs", "--to", "fr", *PSEUDO, "-v", cwd=tmp_path, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in docs.glob("*.fr.txt")) == ["guide.fr.txt"]
    assert "skipped docs/anleitung.txt: written by hymt" in run.stderr
    assert JOURNAL_NAME not in run.stderr
