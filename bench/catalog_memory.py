"""Where a catalog run's memory goes, window by window (issue 20, goal 6).

Runs `hymt translate` in this process (the arguments after `--`, as on the command line) and, as
each window starts to fill, prints one line: the resident size and the highest it reached during
the window before, glibc's heap (from `mallinfo2`: obtained from the system, in use), pymalloc's
arenas (current, high-water mark) and the bytes in its allocated blocks (`sys._debugmallocstats`),
`sys.getallocatedblocks()`, the objects the collector tracks and Arrow's pool:

    PYTHONPATH=. python bench/catalog_memory.py --json /tmp/w.jsonl -- /tmp/catalog3-500000.parquet \\
        --to fr --engine identity --columns name,description,material -o /tmp/out -q \\
        --rows-per-batch 8192 --cache /tmp/tm.sqlite3

Live objects that stay flat while the arenas grow are fragmentation; blocks that grow are a
leak. Allocator settings (MALLOC_ARENA_MAX ...) go in the environment. The hook wraps the
pipeline's private `_read` (the start of every window): a probe, not an API. Not a test: minutes.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MIB = 2**20
COLUMNS = ("window", "seconds", "rss", "max_before", "files", "brk_heap", "anon", "heap", "heap_used")
COLUMNS += ("heap_mmap", "py_arenas", "py_high", "py_used", "blocks", "gc_objects", "arrow")


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks")
        + ("uordblks", "fordblks", "keepcost")
    ]


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MIB


def glibc_heap() -> dict[str, float]:
    """glibc's arenas: obtained from the system (sbrk'd and thread heaps), and in use."""
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return {
        "heap": round(info.arena / MIB, 1),
        "heap_used": round(info.uordblks / MIB, 1),
        "heap_mmap": round(info.hblkhd / MIB, 1),
    }


def resident_by_kind() -> dict[str, float]:
    """Resident MiB of mapped files, of the sbrk heap (glibc's main arena) and of the other
    anonymous mappings (pymalloc's arenas, glibc's thread heaps and big blocks, Arrow's mimalloc)."""
    kinds = {"files": 0.0, "brk_heap": 0.0, "anon": 0.0}
    kind = "anon"
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split(maxsplit=6)
            if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
                name = head[5].strip() if len(head) > 5 else ""
                kind = "brk_heap" if name == "[heap]" else "files" if name.startswith("/") else "anon"
            elif head[0] == "Rss:":
                kinds[kind] += int(head[1]) / 1024
    return {k: round(v, 1) for k, v in kinds.items()}


def pymalloc() -> dict[str, float]:
    """pymalloc's arenas (1 MiB each) now and at most, and the bytes in its allocated blocks."""
    saved = os.dup(2)
    with tempfile.TemporaryFile("w+") as caught:
        os.dup2(caught.fileno(), 2)  # _debugmallocstats writes to the C stderr
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        lines = caught.read().splitlines()
    wanted = {
        "# arenas allocated current": "py_arenas",
        "# arenas highwater mark": "py_high",
        "# bytes in allocated blocks": "py_used",
    }
    figures: dict[str, float] = {}
    for line in lines:
        for prefix, name in wanted.items():
            if line.startswith(prefix):
                figures[name] = int(line.split("=")[1].replace(",", ""))
    figures["py_used"] = round(figures.get("py_used", 0) / MIB, 1)
    return figures


class Probe:
    """Samples the resident size every 0.2 s; records the figures at every window's start."""

    def __init__(self, out: Path | None) -> None:
        self.out = out.open("w") if out is not None else None
        self.window = 0
        self.started = time.monotonic()
        self.highest = 0.0
        threading.Thread(target=self._sample, daemon=True).start()
        print(" ".join(f"{c:>10}" for c in COLUMNS), file=sys.stderr)

    def _sample(self) -> None:
        while True:
            self.highest = max(self.highest, rss_mib())
            time.sleep(0.2)

    def window_starts(self) -> None:
        import pyarrow as pa

        record: dict[str, float] = {
            "window": self.window,
            "seconds": round(time.monotonic() - self.started, 1),
            "rss": round(rss_mib(), 1),
            "max_before": round(self.highest, 1),
            **resident_by_kind(),
            **glibc_heap(),
            **pymalloc(),
            "blocks": sys.getallocatedblocks(),
            "gc_objects": len(gc.get_objects()),
            "arrow": round(pa.total_allocated_bytes() / MIB, 1),
        }
        self.highest, self.window = 0.0, self.window + 1
        print(" ".join(f"{record.get(c, ''):>10}" for c in COLUMNS), file=sys.stderr, flush=True)
        if self.out is not None:
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="one JSON object a window")
    parser.add_argument("hymt", nargs=argparse.REMAINDER, help="-- then `hymt translate`'s arguments")
    args = parser.parse_args()
    given = args.hymt[1:] if args.hymt[:1] == ["--"] else args.hymt
    from hymt_cli.cli.app import main as hymt_main
    from hymt_cli.pipeline import driver

    probe = Probe(args.json)
    fill = driver.Pipeline._read

    def probed_fill(self: driver.Pipeline) -> driver.Window | None:
        probe.window_starts()
        return fill(self)

    driver.Pipeline._read = probed_fill  # type: ignore[method-assign]
    code = hymt_main(["translate", *given])
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MiB, exit {code}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
