"""Copy the real-world test corpus listed in tests/corpus/SOURCES into shared/corpus/.

The corpus files come from public repositories (their licenses let them be redistributed);
they are kept out of this repository's commits, so each checkout gathers them from local
git mirrors of those repositories. A SOURCES line (tab-separated):

    <file under shared/corpus/>  <owner/name>  <commit>  <path in that repository>  <license>  <sha256>

Each file is read with `git show <commit>:<path>` from `<mirrors>/<owner>+<name>/repo` (a bare
or a normal clone) and checked against its sha256. A path ending in `/` is a publication kept
unpacked (IDPF's EPUB 3 samples): its files are packed as an EPUB packs them (`mimetype` first),
every member stored, in path order, dated 1980-01-01, so that the archive and its sha256 are the
same wherever it is packed (files the mirror lacks, too large to be kept there, are left out).
Usage:

    python scripts/gather_corpus.py [--mirrors DIR]     # default DIR: $HYMT_MIRRORS or /work/.mirror
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "tests" / "corpus" / "SOURCES"
CORPUS = ROOT / "shared" / "corpus"


def _git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def gather(mirrors: Path) -> int:
    missing = 0
    CORPUS.mkdir(parents=True, exist_ok=True)
    (CORPUS / ".gitignore").write_text("*\n")  # never committed: see the module docstring
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 6:
            continue
        name, repo, commit, path, _license, digest = fields
        target = CORPUS / name
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == digest:
            continue
        git_dir = _git_dir(mirrors, repo)
        shown = _packed(git_dir, commit, path) if path.endswith("/") else _shown(git_dir, commit, path)
        if shown.returncode != 0 or hashlib.sha256(shown.stdout).hexdigest() != digest:
            print(f"missing: {name} ({repo}@{commit[:12]}:{path})", file=sys.stderr)
            missing += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.stdout)
    return 1 if missing else 0


def _shown(git_dir: Path, commit: str, path: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True, check=False
    )


def _packed(git_dir: Path, commit: str, folder: str) -> subprocess.CompletedProcess[bytes]:
    """The folder's files as one EPUB archive (see the module docstring); returncode 1: none."""
    listed = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", "--name-only", commit, folder],
        capture_output=True,
        check=False,
    )
    names = sorted(n for n in listed.stdout.decode("utf-8").split("\0") if n)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(names, key=lambda n: (n != folder + "mimetype", n)):
            blob = _shown(git_dir, commit, name)
            if blob.returncode == 0:
                archive.writestr(zipfile.ZipInfo(name[len(folder) :], (1980, 1, 1, 0, 0, 0)), blob.stdout)
    code = 0 if listed.returncode == 0 and names else 1
    return subprocess.CompletedProcess(listed.args, code, out.getvalue(), b"")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path(os.environ.get("HYMT_MIRRORS", "/work/.mirror")))
    return gather(parser.parse_args().mirrors)


if __name__ == "__main__":
    sys.exit(main())
