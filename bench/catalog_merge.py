"""Keeping a large catalog in sync: one new key merged into a target of N keys that exists.

Makes an i18next catalog of N keys (sections of 100, a plural pair in each, placeholders in a
third of the values), translates it once into `locales/de/` (pseudo engine, no memory), then,
each time on a fresh copy of that project, adds one key to the source and runs

    hymt translate locales/en --to de --engine pseudo --no-cache --report r.json

in a child process, printing wall and CPU time (user + system; each the best of --repeat), the
engine requests and the keys the report counts; and the same for a run where nothing changed
(0 requests, nothing written) and for the first, whole translation. Issue 26 asks for 1
request and under 2 s at 50,000 keys on the CI machine:

    PYTHONPATH=. python bench/catalog_merge.py --keys 50000
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def catalog(keys: int) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    for s in range(0, keys, 100):
        section: dict[str, str] = {}
        for j in range(min(100, keys - s)):
            n = s + j
            if j == 0:
                section["items_one"] = "{{count}} item"
            elif j == 1:
                section["items_other"] = "{{count}} items"
            elif n % 3 == 0:
                section[f"k{j}"] = f"Save the changes to {{{{name}}}} before leaving ({n})"
            else:
                section[f"k{j}"] = f"Open the settings of item number {n} in a new window"
        sections[f"section{s // 100}"] = section
    return sections


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def hymt(project: Path) -> dict[str, float]:
    """One run in a child process: wall and CPU seconds, engine requests, the file's key counts."""
    report = project / "r.json"
    start = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "hymt_cli", "translate", "locales/en", "--to", "de", "--engine", "pseudo"]
        + ["--no-cache", "--report", str(report), "-q"],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"hymt failed: {child.stderr.read().decode() if child.stderr else ''}")
    data = json.loads(report.read_text())
    keys = data["files"][0]["keys"]
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "requests": data["engine_requests"], **keys}


def best(base: Path, work: Path, change, repeat: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(base, work)
        change(work)
        runs.append(hymt(work))
    # wall and CPU time each at its best (the host's speed varies; CPU time varies less)
    return {**runs[0], "wall": min(r["wall"] for r in runs), "cpu": min(r["cpu"] for r in runs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", default="50000", help="catalog sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # hymt's bytecode compiled first, as `pip install` does: with PYTHONDONTWRITEBYTECODE set, a
    # module whose .pyc is missing or stale is compiled again by every run (0.4 s of 2).
    compileall.compile_dir(ROOT / "hymt_cli", quiet=1)
    print(f"{'keys':>8} {'run':<22} {'wall s':>7} {'cpu s':>6} {'requests':>8}  keys")
    for keys in (int(k) for k in args.keys.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            base, work = Path(tmp) / "base", Path(tmp) / "work"
            source = catalog(keys)
            write(base / "locales" / "en" / "app.json", source)
            first = hymt(base)

            grown = catalog(keys)
            grown["section0"]["brand_new"] = "A key added today, to be translated"

            def add_one(project: Path, grown: dict[str, dict[str, str]] = grown) -> None:
                write(project / "locales" / "en" / "app.json", grown)

            one = best(base, work, add_one, args.repeat)
            same = best(base, work, lambda project: None, args.repeat)
            for name, row in (
                ("first: whole catalog", first),
                ("one new key", one),
                ("nothing changed", same),
            ):
                counts = ", ".join(f"{row[k]:.0f} {k}" for k in ("added", "updated", "unchanged") if row[k])
                figures = f"{row['wall']:>7.2f} {row['cpu']:>6.2f} {row['requests']:>8.0f}"
                print(f"{keys:>8} {name:<22} {figures}  {counts}")
            print(f"{'':>8} one new key / nothing changed: {one['wall'] / same['wall']:.2f}x wall")


if __name__ == "__main__":
    main()
