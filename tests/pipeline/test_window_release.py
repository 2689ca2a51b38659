"""A table streams through the pipeline window after window: a translated window is freed before
the next one is read, so a long run holds one window's objects at a time (two, overlapping, made
the allocator's arenas creep with the rows: bench/RESULTS.md, issue 20 goal 6)."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from pipelines import run_pipeline
from table_helpers import settings

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.pipeline.window import Window

RequestKey = tuple[str, str, str]


class WindowCounter:
    """A translation memory that knows every text (its translation: the text itself), so the engine
    never starts and every unit read is looked up while its window fills: it counts the windows
    alive at each lookup."""

    def __init__(self) -> None:
        self.alive: list[int] = []

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]:
        self.alive.append(sum(type(o) is Window for o in gc.get_objects()))
        return [text for _, text, _ in keys]

    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None:
        raise AssertionError("nothing is translated: nothing to remember")


def test_a_window_is_freed_before_the_next_is_read(tmp_path: Path) -> None:
    rows = 40
    src = tmp_path / "catalog.parquet"
    pq.write_table(pa.table({"name": [f"Lamp number {i}" for i in range(rows)]}), src)
    memory = WindowCounter()
    # Windows of earlier tests left in reference cycles (a fault test's traceback) are gone, and
    # none of this run's is freed by the cycle collector: each must go when its last reference does.
    gc.collect()
    gc.disable()
    try:
        report = run_pipeline(
            [src],
            IdentityEngine,
            options=settings(["name"], rows_per_batch=4),
            out_dir=tmp_path / "out",
            memory=memory,
            window_segments=8,  # two batches of four rows a window: five windows
        )
    finally:
        gc.enable()
    assert report.files_ok == 1 and report.cache_hits == rows
    assert pq.read_table(tmp_path / "out" / "fr" / "catalog.parquet").equals(pq.read_table(src))
    assert len(memory.alive) == rows // 4  # one lookup per batch read
    assert max(memory.alive) == 1  # the window being filled, never the one before it
