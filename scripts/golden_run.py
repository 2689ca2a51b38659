"""A golden run: every output and report of a fixed set of runs with the pseudo and identity engines,
as one listing of digests, so that a refactor can show it changed no byte (issue 35).

    python scripts/golden_run.py > before.txt      # on the old commit
    python scripts/golden_run.py > after.txt       # on the new one
    diff before.txt after.txt                      # nothing: the same outputs, reports and exit codes

The runs work on copies of samples/ and of the gathered corpus (shared/corpus/, see
scripts/gather_corpus.py) in a temporary folder: a folder run into an output folder, the same with the
identity engine, an in-place run that merges into the corpus' own translations, the same again (an
incremental run that should send nothing), `--check` after it, and a document through a pipe. Each
listing line is `<path>\t<sha256>` for a file the runs wrote, or `<run>\texit <code>`; reports are
listed with their timings taken out (the only fields that differ between two identical runs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TIMING_KEYS = ("seconds",)


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not any(k.endswith(t) for t in TIMING_KEYS)}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _digest(path: Path) -> str:
    data = path.read_bytes()
    if path.parent.name == "reports" and path.suffix == ".json":
        data = json.dumps(_untimed(json.loads(data)), sort_keys=True).encode()
    return hashlib.sha256(data).hexdigest()


def _runs(hymt: list[str]) -> list[tuple[str, list[str], str | None]]:
    """(name, arguments, stdin file) of each run, in order; later runs see what earlier ones wrote."""
    pseudo = ["--engine", "pseudo"]
    return [
        ("samples", ["translate", "samples", "--to", "de,ja,pt-BR", *pseudo, "-o", "out/samples"], None),
        ("identity", ["translate", "samples", "--to", "fr", "--engine=identity", "-o", "out/identity"], None),
        ("corpus", ["translate", "corpus", "--to", "de,fr,ru", *pseudo], None),
        ("corpus-again", ["translate", "corpus", "--to", "de,fr,ru", *pseudo], None),
        ("corpus-check", ["translate", "corpus", "--to", "de,fr,ru", *pseudo, "--check"], None),
        ("pipe", ["translate", "-", "--format", "md", "--to", "fr", *pseudo], "samples/docs/guide.md"),
    ]


def golden(hymt: list[str], work: Path) -> list[str]:
    shutil.copytree(ROOT / "samples", work / "samples")
    corpus = ROOT / "shared" / "corpus"
    if corpus.is_dir():
        shutil.copytree(corpus, work / "corpus", ignore=shutil.ignore_patterns(".gitignore"))
    else:
        (work / "corpus").mkdir()
        print("note: no shared/corpus (scripts/gather_corpus.py): the corpus runs see none", file=sys.stderr)
    (work / "reports").mkdir()
    lines = []
    # This checkout's hymt; a memory and logs of the run's own (platformdirs reads XDG_CACHE_HOME).
    env = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": str(work / ".hymt-cache")}
    env["PYTHONPATH"] = str(ROOT)
    for name, args, stdin in _runs(hymt):
        report = ["--report", f"reports/{name}.json"]
        with open(work / stdin, "rb") if stdin else open(os.devnull, "rb") as given:
            done = subprocess.run(
                [*hymt, *args, *report], cwd=work, env=env, stdin=given, capture_output=True, check=False
            )
        (work / "reports" / f"{name}.stdout").write_bytes(done.stdout)
        (work.parent / f"{name}.stderr").write_bytes(done.stderr)  # kept with --keep, never listed
        lines.append(f"{name}\texit {done.returncode}")
    for path in sorted(p for p in work.rglob("*") if p.is_file() and ".hymt-cache" not in p.parts):
        lines.append(f"{path.relative_to(work).as_posix()}\t{_digest(path)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hymt", default=f"{sys.executable} -m hymt_cli", help="the command that runs hymt")
    parser.add_argument("--keep", type=Path, help="keep the work folder here (it must not exist)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = args.keep or Path(temp) / "golden"
        hymt = args.hymt.split()
        hymt[0] = str(Path(hymt[0]).absolute()) if "/" in hymt[0] else shutil.which(hymt[0]) or hymt[0]
        print("\n".join(golden(hymt, work)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
