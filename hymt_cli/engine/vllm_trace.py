"""A step-by-step trace of a vLLM engine, for benchmarks: how many requests each engine step
carried, how long the front end waited for the step and how long it spent on its output.

Off unless the environment variable HYMT_VLLM_TRACE names a folder; then every engine process
appends one JSON line per step to `<folder>/steps-<pid>.jsonl`:
`{"t": wall clock, "n": requests that got a token, "done": requests finished, "wait": seconds
waiting for the engine core, "proc": seconds processing its output}`. bench/run.py reads them
(batch size over time, the job's tail). Nothing else in hymt reads or writes them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

TRACE_ENV = "HYMT_VLLM_TRACE"
_FLUSH_EVERY = 512  # steps
_FLUSH_S = 5.0  # seconds: a process killed at a deadline loses no more than this


class StepTrace:
    """Wraps an `LLM`'s engine-core client and output processor (see the module docstring)."""

    def __init__(self, llm: Any, folder: str) -> None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        self._path = Path(folder) / f"steps-{os.getpid()}.jsonl"
        self._rows: list[str] = []
        self._flushed = time.monotonic()
        engine = llm.llm_engine
        core, processor = engine.engine_core, engine.output_processor
        get_output, process_outputs = core.get_output, processor.process_outputs
        last: dict[str, float] = {"wait": 0.0}

        def traced_get_output(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            outputs = get_output(*args, **kwargs)
            last["wait"] = time.perf_counter() - t0
            return outputs

        def traced_process_outputs(outputs: Any, *args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            result = process_outputs(outputs, *args, **kwargs)
            if outputs:
                done = sum(1 for o in outputs if getattr(o, "finish_reason", None) is not None)
                self._add(
                    {
                        "t": round(time.time(), 4),
                        "n": len(outputs),
                        "done": done,
                        "wait": round(last["wait"], 5),
                        "proc": round(time.perf_counter() - t0, 5),
                    }
                )
            return result

        core.get_output = traced_get_output
        processor.process_outputs = traced_process_outputs

    @classmethod
    def attach(cls, llm: Any) -> StepTrace | None:
        """A trace of `llm` when HYMT_VLLM_TRACE is set, else None."""
        folder = os.environ.get(TRACE_ENV)
        return cls(llm, folder) if folder else None

    def _add(self, row: dict[str, float]) -> None:
        self._rows.append(json.dumps(row, separators=(",", ":")))
        if len(self._rows) >= _FLUSH_EVERY or time.monotonic() - self._flushed > _FLUSH_S:
            self.flush()

    def flush(self) -> None:
        if self._rows:
            with self._path.open("a", encoding="utf-8") as f:
                f.write("\n".join(self._rows) + "\n")
            self._rows = []
        self._flushed = time.monotonic()
