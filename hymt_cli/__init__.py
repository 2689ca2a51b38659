"""hymt: batch document translation with Tencent's HY-MT models on vLLM."""

import multiprocessing

from .allocator import limit_malloc_arenas

__version__ = "0.1.0"

# Before any thread allocates: glibc fixes its arena limit when a second thread first needs an
# arena, so a later call changes nothing (allocator.py). hymt's own process only: engine
# processes (replicas.py) keep glibc's default.
if multiprocessing.current_process().name == "MainProcess":
    limit_malloc_arenas()
