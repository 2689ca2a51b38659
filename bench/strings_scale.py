"""String files at scale: does a JSON file of N entries run in bounded memory and linear time?

Generates an i18next-style JSON file (nested sections of 100 keys; a third of the values with
`{{name}}`, a plural pair in every section, 30% of the values repeated), translates it with
`hymt translate FILE --engine identity` in a child process (no translation memory) and prints
the wall time, entries/s and the child's peak RSS (from `wait4`, that child alone):

    PYTHONPATH=. python bench/strings_scale.py --entries 125000,250000,500000

Memory is bounded when the peak RSS grows by little more than the file's own size as the
entries double (the file is held as text; its entries are parsed and translated a unit at a
time). Not a test: minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make(entries: int) -> str:
    sections = {}
    for s in range(0, entries, 100):
        section: dict[str, str] = {}
        for j in range(min(100, entries - s)):
            n = s + j
            if j == 0:
                section["items_one"] = "{{count}} item"
            elif j == 1:
                section["items_other"] = "{{count}} items"
            elif n % 10 < 3:
                section[f"k{j}"] = f"Save the changes to {{{{name}}}} before leaving ({n % 997})"
            else:
                section[f"k{j}"] = f"Open the settings of item number {n % 7000} in a new window"
        sections[f"section{s // 100}"] = section
    return json.dumps(sections, indent=2, ensure_ascii=False) + "\n"


def run(path: Path, out: Path) -> dict[str, float]:
    start = time.monotonic()
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hymt_cli",
            "translate",
            str(path),
            "--to",
            "de",
            "--engine",
            "identity",
            "--no-cache",
            "-o",
            str(out),
            "--report",
            str(out / "report.json"),
        ],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        raise SystemExit(child.stderr.read().decode() if child.stderr else "hymt failed")
    return {"seconds": round(seconds, 1), "peak_rss_mib": round(usage.ru_maxrss / 1024)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", default="125000,250000,500000")
    args = parser.parse_args(argv)
    print(
        f"{'entries':>9} {'file MiB':>9} {'seconds':>8} {'entries/s':>10} {'peak RSS MiB':>12} "
        f"{'identical':>9}"
    )
    for entries in (int(n) for n in args.entries.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "locales", "en", "big.json")
            path.parent.mkdir(parents=True)
            path.write_text(make(entries), encoding="utf-8")
            result = run(path, Path(tmp, "out"))
            same = Path(tmp, "out", "de", "big.json").read_bytes() == path.read_bytes()
            size = path.stat().st_size / 2**20
            print(
                f"{entries:>9,} {size:>9.1f} {result['seconds']:>8} {entries / result['seconds']:>10,.0f} "
                f"{result['peak_rss_mib']:>12,} {same!s:>9}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
