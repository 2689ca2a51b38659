"""Long documents at scale (issue 28): a text file of N short lines, or a Markdown file of N
paragraphs, through `hymt translate --engine identity` in a child process, with a fresh
translation memory (on, as by default) unless `--no-cache`:

    PYTHONPATH=. python bench/text_scale.py --lines 1000000,2000000,4000000
    PYTHONPATH=. python bench/text_scale.py --format md --lines 1000000,2000000,3000000 --no-cache

Prints the wall time, the child's CPU time (user + sys: the figure to compare on a shared
machine), lines/s, its peak RSS (all from `wait4`, that child alone), whether the output is the
input byte for byte, and each size's CPU time over the one before. Linear time keeps that
ratio near the sizes' ratio; bounded memory keeps the peak RSS flat. Not a test: minutes.
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
_WORDS = "save open the file window settings user name quick brown fox jumps over lazy dog".split()


def make(path: Path, lines: int, fmt: str) -> None:
    """`lines` distinct short lines (txt), or a guide of `lines` paragraphs (md): one line of
    inline markup each, with a heading every 20, a list every 25, a quote every 35, a fenced
    code block every 40 and a table every 60 (about 64 bytes a paragraph)."""
    with path.open("w", encoding="utf-8") as out:
        for start in range(0, lines, 10_000):
            chunk = []
            for i in range(start, min(lines, start + 10_000)):
                words = f"{_WORDS[i % 15]} {_WORDS[(i // 15) % 15]}"
                chunk.append(f"Line {i}: {words}.\n" if fmt == "txt" else _markdown_block(i, words))
            out.write("".join(chunk))


def _markdown_block(i: int, words: str) -> str:
    block = f"## Part {i // 20}: {words}\n\n" if i % 20 == 0 else ""
    block += f"Paragraph {i}: *{words}*, `code` and a [link](/p/{i}).\n\n"
    if i % 25 == 0:
        block += f"- first {words}\n- second **{i}**\n  continued\n\n"
    if i % 35 == 0:
        block += f"> Quoted {words}\n> on two lines {i}.\n\n"
    if i % 40 == 0:
        block += f"```python\nprint({i})\n\n# {words}\n```\n\n"
    if i % 60 == 0:
        block += f"| name | value |\n| --- | --- |\n| {words} | {i} |\n\n"
    return block


def run(path: Path, out: Path, *, memory: bool) -> dict[str, float]:
    argv = [sys.executable, "-m", "hymt_cli", "translate", str(path), "--to", "de", "--engine", "identity"]
    argv += ["--segment-by", "line"] if path.suffix == ".txt" else []
    argv += ["--cache", str(out.parent / "memory.sqlite3")] if memory else ["--no-cache"]
    argv += ["-o", str(out), "-q"]
    start = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        raise SystemExit(child.stderr.read().decode() if child.stderr else "hymt failed")
    return {
        "seconds": round(seconds, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "user_seconds": round(usage.ru_utime, 1),
        "sys_seconds": round(usage.ru_stime, 1),
        "peak_rss_mib": round(usage.ru_maxrss / 1024),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", default="1000000,2000000", help="sizes, comma-separated")
    parser.add_argument("--format", choices=("txt", "md"), default="txt")
    parser.add_argument("--no-cache", action="store_true", help="no translation memory")
    parser.add_argument("--json", type=Path, help="append each result to this JSON file")
    args = parser.parse_args(argv)
    print(
        f"{'lines':>10} {'MiB':>6} {'wall s':>7} {'CPU s':>7} {'user':>6} {'sys':>5} {'lines/s':>8} "
        f"{'RSS MiB':>8} {'same':>5} {'CPU ratio':>9}"
    )
    results: list[dict[str, object]] = []
    last_cpu = None
    for lines in (int(n) for n in args.lines.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, f"long.{args.format}")
            make(path, lines, args.format)
            result = run(path, Path(tmp, "out"), memory=not args.no_cache)
            same = Path(tmp, "out", "de", path.name).read_bytes() == path.read_bytes()
            size = path.stat().st_size / 2**20
        cpu = result["cpu_seconds"]
        ratio = f"{cpu / last_cpu:>9.2f}" if last_cpu else f"{'':>9}"
        last_cpu = cpu
        print(
            f"{lines:>10,} {size:>6.1f} {result['seconds']:>7} {cpu:>7} {result['user_seconds']:>6} "
            f"{result['sys_seconds']:>5} {lines / cpu:>8,.0f} {result['peak_rss_mib']:>8,} "
            f"{same!s:>5} {ratio}",
            flush=True,
        )
        results.append(
            {
                "format": args.format,
                "lines": lines,
                "mib": round(size, 1),
                "memory": not args.no_cache,
                "identical": same,
                **result,
            }
        )
    if args.json is not None:
        previous = json.loads(args.json.read_text()) if args.json.exists() else []
        args.json.write_text(json.dumps(previous + results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
