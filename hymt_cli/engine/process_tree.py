"""The processes a process started, ended with it.

vLLM's engine core keeps no watch on its parent (vLLM 0.26: `v1/engine/core.py` polls its
sockets only). A replica killed because it did not stop in time, as on a loaded machine whose
engine shutdown outlasts the grace period, would leave its engine's processes running, orphaned
and holding their memory (or a GPU's). Orphans are re-parented and cannot be found from the
replica afterwards: the list is taken while it still runs, and what is left of it is ended once
the replica is gone.
"""

from __future__ import annotations

from typing import Any

try:
    import psutil
except ImportError:  # every engine that starts processes of its own (vLLM) brings it
    psutil = None  # type: ignore[assignment]


def descendants(pid: int | None) -> list[Any]:
    """Every process below `pid` now (psutil.Process objects; none where psutil is missing)."""
    if psutil is None or pid is None:
        return []
    try:
        return list(psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        return []


def end_leftovers(processes: list[Any], grace: float) -> None:
    """Give `processes` `grace` seconds to end by themselves, then SIGKILL those still running
    (psutil checks each is still the process listed, not a new one with its pid)."""
    if psutil is None or not processes:
        return
    _, running = psutil.wait_procs(processes, timeout=grace)
    for process in running:
        try:
            process.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(running, timeout=grace)
