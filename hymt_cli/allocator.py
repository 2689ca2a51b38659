"""Fewer malloc arenas: a long catalog run keeps its memory flat.

glibc gives every thread that meets a busy arena a new one (up to 8 per core), and memory
freed in one arena is not reused by another. A run that parses, plans and writes on several
threads (the engine's start, the writer, SQLite) spreads its per-window garbage over many
arenas whose free pages stay mapped: the peak RSS of a 2M-row catalog grew 448 -> 571 MiB
from 250k rows while Python's live objects and Arrow's pool stayed flat (bench/RESULTS.md).
Two arenas, as MALLOC_ARENA_MAX=2 sets, kept it flat (bench/catalog_scale.py).

`limit_malloc_arenas()` asks glibc for that at run time (`mallopt(M_ARENA_MAX)`). It must run
before any second thread allocates (glibc fixes its limit then: a call at the start of the
pipeline, after the CLI's imports and threads, measured +30% from 250k to 2M rows), so
`hymt_cli/__init__.py` calls it on import, in hymt's own process (not in engine processes).
A MALLOC_ARENA_MAX the user set wins, and other C libraries are left as they are.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

ARENAS = 2
_M_ARENA_MAX = -8  # glibc's malloc.h
_done = False


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """At most `arenas` malloc arenas in this process (glibc only, once). True when set."""
    global _done
    if _done or not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    _done = True
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others: no mallopt, nothing to do
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_ARENA_MAX, arenas))
