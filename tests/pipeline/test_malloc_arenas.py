"""Importing hymt asks glibc for two malloc arenas (allocator.py): threads that allocate at the
same time would otherwise get one arena each, and a long catalog run's peak RSS creeps up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import ctypes, ctypes.util, sys, tempfile, threading
if sys.argv[1] == "hymt":
    import hymt_cli  # noqa: F401  (importing hymt limits the arenas, before any thread allocates)
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


def probe(mode: str, **env: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
    )
    return int(done.stdout.split("heaps", 1)[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_two_arenas_however_many_threads_allocate() -> None:
    assert probe("plain") > 2  # the probe does make threads meet in malloc
    assert probe("hymt") == 2
    assert 2 < probe("hymt", MALLOC_ARENA_MAX="4") <= 4  # the user's setting wins
