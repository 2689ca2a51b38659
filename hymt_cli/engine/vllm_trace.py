"""A step-by-step trace of a vLLM engine, for benchmarks: how many requests each engine step
carried, how long the front end waited for the step and how long it spent on its output, and
where the engine core's time went in each step.

Off unless the environment variable HYMT_VLLM_TRACE names a folder; then every engine process
appends one JSON line per step to `<folder>/steps-<pid>.jsonl`:
`{"t": wall clock, "n": requests that got a token, "done": requests finished, "wait": seconds
waiting for the engine core, "proc": seconds processing its output}`, and every engine core
(vLLM's process that schedules and runs the model) one line per step to `core-<pid>.jsonl`:
`{"t": wall clock at the step's end, "step": seconds in the step, "sched": scheduling,
"exec": launching the forward pass, "sample": launching the sampler, "update": taking the
sampled tokens in, "reqs": requests scheduled, "tokens": tokens scheduled, "new": requests
starting}` (seconds; what the step spent beyond those four is waiting for the GPU).
bench/run.py reads them (batch size over time, the job's tail, the host's and the GPU's share).
Nothing else in hymt reads or writes them.
"""

from __future__ import annotations

import atexit
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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

    def note(self, name: str, value: object) -> None:
        """Something the engine says once, beside its steps (e.g. its sampler's counts)."""
        path = self._path.with_name(f"{name}-{os.getpid()}.json")
        path.write_text(json.dumps(value), encoding="utf-8")

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


@contextmanager
def core_trace_installed() -> Iterator[None]:
    """Around `vllm.LLM(...)`: the engine core it starts (forked from this process, or built in
    it) records its steps (module docstring). Nothing unless HYMT_VLLM_TRACE is set; vLLM's class
    is as it was once this exits."""
    folder = os.environ.get(TRACE_ENV)
    core_class: Any = None
    if folder:
        try:
            from vllm.v1.engine.core import EngineCore

            core_class = EngineCore
        except ImportError:  # another vLLM layout: no core trace
            pass
    if core_class is None:
        yield
        return
    original = core_class.__init__

    def traced_init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        try:
            _CoreSteps(self, str(folder))
        except Exception:  # a vLLM without these attributes: the engine runs untraced
            pass

    core_class.__init__ = traced_init
    try:
        yield
    finally:
        core_class.__init__ = original


class _CoreSteps:
    """Times the phases of every step of one engine core (wraps its instance's methods)."""

    def __init__(self, core: Any, folder: str) -> None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        self._path = Path(folder) / f"core-{os.getpid()}.jsonl"
        self._rows: list[str] = []
        self._flushed = time.monotonic()
        self._phase: dict[str, float] = {}
        self._sizes = [0, 0, 0]
        scheduler, executor = core.scheduler, core.model_executor
        scheduler.schedule = self._timed("sched", scheduler.schedule, self._count)
        scheduler.update_from_output = self._timed("update", scheduler.update_from_output)
        executor.execute_model = self._timed("exec", executor.execute_model)
        executor.sample_tokens = self._timed("sample", executor.sample_tokens)
        step = core.step_fn

        def traced_step(*args: Any, **kwargs: Any) -> Any:
            self._phase = {}
            self._sizes = [0, 0, 0]
            t0 = time.perf_counter()
            result = step(*args, **kwargs)
            spent = time.perf_counter() - t0
            if self._phase:
                row: dict[str, float] = {"t": round(time.time(), 4), "step": round(spent, 5)}
                row.update({k: round(v, 5) for k, v in self._phase.items()})
                row.update(reqs=self._sizes[0], tokens=self._sizes[1], new=self._sizes[2])
                self._rows.append(json.dumps(row, separators=(",", ":")))
                if len(self._rows) >= _FLUSH_EVERY or time.monotonic() - self._flushed > _FLUSH_S:
                    self.flush()
            return result

        core.step_fn = traced_step
        atexit.register(self.flush)
        shutdown = core.shutdown

        def traced_shutdown(*args: Any, **kwargs: Any) -> Any:
            self.flush()
            return shutdown(*args, **kwargs)

        core.shutdown = traced_shutdown

    def _timed(
        self, name: str, method: Callable[..., Any], after: Callable[[Any], None] | None = None
    ) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            result = method(*args, **kwargs)
            self._phase[name] = self._phase.get(name, 0.0) + time.perf_counter() - t0
            if after is not None:
                after(result)
            return result

        return timed

    def _count(self, scheduled: Any) -> None:
        self._sizes = [
            len(getattr(scheduled, "num_scheduled_tokens", ()) or ()),
            int(getattr(scheduled, "total_num_scheduled_tokens", 0) or 0),
            len(getattr(scheduled, "scheduled_new_reqs", ()) or ()),
        ]

    def flush(self) -> None:
        if self._rows:
            with self._path.open("a", encoding="utf-8") as f:
                f.write("\n".join(self._rows) + "\n")
            self._rows = []
        self._flushed = time.monotonic()
