"""hymt asks glibc for two malloc arenas (allocator.py): threads that allocate at the same time
would otherwise get one arena each, and a long catalog run's peak RSS creeps up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import ctypes, ctypes.util, sys, tempfile, threading
from hymt_cli.allocator import limit_malloc_arenas
print("set", limit_malloc_arenas() if sys.argv[1] == "limit" else None)
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
def work():  # ctypes releases the GIL: the threads really allocate at the same time
    for _ in range(3000):
        for p in [libc.malloc(256) for _ in range(20)]:
            libc.free(p)
threads = [threading.Thread(target=work) for _ in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
path = tempfile.mktemp()
libc.fopen.restype, libc.fopen.argtypes = ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes, libc.fclose.argtypes = [ctypes.c_int, ctypes.c_void_p], [ctypes.c_void_p]
fp = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, fp)
libc.fclose(fp)
print("heaps", open(path).read().count("<heap nr="))
"""


def probe(mode: str, **env: str) -> tuple[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
    )
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    return lines["set"], int(lines["heaps"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_two_arenas_however_many_threads_allocate() -> None:
    _, unlimited = probe("free")
    assert unlimited > 2  # the probe does make threads meet in malloc
    assert probe("limit") == ("True", 2)
    chosen, heaps = probe("limit", MALLOC_ARENA_MAX="4")  # the user's setting wins
    assert chosen == "False" and 2 < heaps <= 4
