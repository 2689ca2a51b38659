"""Progress on stderr, in phases: reading and planning, starting the engine (with what it is
doing), translating, writing; files counted as they are written.

Three displays share one state (`RunState`):
- `LiveProgress`: a live line on a terminal, refreshed several times a second;
- `PlainProgress`: for logs (CI): a line on each phase change and every few seconds;
- `JsonProgress`: `--progress json`, one JSON object per line (the events are listed in the
  README): planned, engine_starting, engine_ready, progress, file_written, finished,
  interrupted.

The ETA is based on prompt tokens (the amount of text), not on request counts, which jump:
answers to short segments arrive long before those to long ones.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from rich.console import Console
from rich.live import Live
from rich.text import Text

# What the engine is doing while it starts (its log's last line); None when nothing is known.
Activity = Callable[[], "str | None"]


@dataclass
class RunState:
    phase: str = "preparing"
    started: float = field(default_factory=time.monotonic)
    files_total: int = 0
    files_written: int = 0
    requests_total: int = 0
    requests_done: int = 0
    tokens_total: int = 0  # prompt tokens of the requests sent to the engine
    tokens_done: int = 0
    output_tokens: int = 0
    translating_since: float | None = None
    engine: str = ""  # "", "starting", "ready"
    engine_what: str = ""
    engine_since: float = 0.0
    engine_seconds: float = 0.0

    def fraction(self) -> float:
        if self.tokens_total > 0:
            return min(1.0, self.tokens_done / self.tokens_total)
        return self.requests_done / self.requests_total if self.requests_total else 0.0

    def eta_seconds(self) -> float | None:
        """Time left at the rate seen so far (None until a few percent or seconds are done)."""
        if self.translating_since is None:
            return None
        elapsed = time.monotonic() - self.translating_since
        done = self.fraction()
        if done <= 0 or (done < 0.02 and elapsed < 5):
            return None
        return elapsed * (1 - done) / done

    def tokens_per_second(self) -> float:
        if self.translating_since is None:
            return 0.0
        elapsed = time.monotonic() - self.translating_since
        return self.output_tokens / elapsed if elapsed > 0 else 0.0

    def describe(self, activity: Activity | None = None) -> str:
        """One line: the phase and its figures."""
        files = f"files {self.files_written}/{self.files_total} written"
        if self.engine == "starting" and self.phase != "reading":
            what = activity() if activity is not None else None
            waited = time.monotonic() - self.engine_since
            return (f"starting the engine ({self.engine_what}), {waited:.0f} s"
                    + (f": {what}" if what else "") + f"; {self.requests_total:,} segments planned")
        if self.phase == "translating":
            eta = self.eta_seconds()
            return (f"translating: {self.fraction():.0%} (segments {self.requests_done:,}/"
                    f"{self.requests_total:,}), {files}, {self.tokens_per_second():,.0f} tok/s, "
                    f"ETA {_clock(eta) if eta is not None else '--:--'}")
        if self.phase == "writing":
            return f"writing: {files}"
        if self.phase == "preparing":
            return f"preparing (tokenizer, glossary, memory), {time.monotonic() - self.started:.0f} s"
        if self.phase == "finished":
            return f"done: {files}, {self.requests_done:,} segments from the engine"
        return f"{self.phase} the inputs"


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


class Display(Protocol):
    def event(self, name: str, state: RunState, data: dict[str, object]) -> None: ...
    def tick(self, state: RunState) -> None: ...
    def close(self, state: RunState) -> None: ...


class Progress:
    """The progress sink of a run (the pipeline's `ProgressSink`), thread-safe: the engine
    starts in another thread. A ticker thread refreshes displays that need it."""

    def __init__(self, display: Display, *, tick: float | None = None, activity: Activity | None = None) -> None:
        self.state = RunState()
        self._display = display
        self._lock = threading.RLock()
        self._activity = activity
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if tick is not None:
            self._ticker = threading.Thread(target=self._tick, args=(tick,), name="hymt-progress", daemon=True)
            self._ticker.start()

    def _tick(self, interval: float) -> None:
        while not self._stop.wait(interval):
            with self._lock:
                self._display.tick(self.state)

    def _emit(self, name: str, **data: object) -> None:
        self._display.event(name, self.state, data)

    # -- the pipeline's events ----------------------------------------------------------------
    def phase(self, name: str) -> None:
        with self._lock:
            if name != self.state.phase:
                self.state.phase = name
                self._emit("phase", phase=name)

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
        with self._lock:
            s = self.state
            s.files_total += files
            s.requests_total += requests
            s.tokens_total += prompt_tokens
            s.phase = "translating" if requests else "writing"
            if s.translating_since is None and requests:
                s.translating_since = time.monotonic()
            self._emit("planned", files=files, requests=requests, prompt_tokens=prompt_tokens)

    def advanced(self, *, requests: int, output_tokens: int, prompt_tokens: int = 0) -> None:
        with self._lock:
            s = self.state
            s.requests_done += requests
            s.tokens_done += prompt_tokens
            s.output_tokens += output_tokens
            if s.requests_done >= s.requests_total:
                s.phase = "writing"
            self._display.tick(s)

    def file_done(self, output: str | None = None) -> None:
        with self._lock:
            self.state.files_written += 1
            self._emit("file_written", path=output)

    # -- the engine's start (from the thread that builds it) ----------------------------------
    def engine_starting(self, engine: str, model: str | None) -> None:
        with self._lock:
            s = self.state
            s.engine, s.engine_what, s.engine_since = "starting", f"{engine}, {model}" if model else engine, \
                time.monotonic()
            self._emit("engine_starting", engine=engine, model=model)

    def engine_ready(self) -> None:
        with self._lock:
            s = self.state
            s.engine, s.engine_seconds = "ready", time.monotonic() - s.engine_since
            if s.translating_since is not None:
                s.translating_since = time.monotonic()
            self._emit("engine_ready", seconds=round(s.engine_seconds, 1))

    # -- the end ------------------------------------------------------------------------------
    def finished(self, **summary: object) -> None:
        with self._lock:
            self.state.phase = "finished"
            self._emit("finished", **summary)

    def interrupted(self, signal_name: str, **summary: object) -> None:
        with self._lock:
            self._emit("interrupted", signal=signal_name, **summary)

    def close(self) -> None:
        """Stop the display (idempotent): the summary lines come after it."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=2)
        with self._lock:
            self._display.close(self.state)


class NoDisplay:
    def event(self, name: str, state: RunState, data: dict[str, object]) -> None: ...
    def tick(self, state: RunState) -> None: ...
    def close(self, state: RunState) -> None: ...


class PlainProgress:
    """A plain line on each milestone and every `interval` seconds (CI logs)."""

    def __init__(self, console: Console, interval: float = 5.0, activity: Activity | None = None) -> None:
        self._console = console
        self._interval = interval
        self._activity = activity
        self._last = time.monotonic()

    def _line(self, state: RunState) -> None:
        self._last = time.monotonic()
        self._console.print(f"hymt: {state.describe(self._activity)}")

    def event(self, name: str, state: RunState, data: dict[str, object]) -> None:
        if name == "planned":
            tokens = f" ({data['prompt_tokens']:,} prompt tokens)" if data["prompt_tokens"] else ""
            self._console.print(f"hymt: planned {data['requests']:,} segments for the engine{tokens}, "
                                f"{data['files']} output file(s)")
            self._last = time.monotonic()
        elif name == "engine_starting":
            self._console.print(f"hymt: starting the engine ({state.engine_what})", markup=False)
        elif name == "engine_ready":
            self._console.print(f"hymt: engine ready in {data['seconds']} s")
        elif name == "phase" and data["phase"] == "writing":
            self._line(state)

    def tick(self, state: RunState) -> None:
        if time.monotonic() - self._last >= self._interval:
            self._line(state)

    def close(self, state: RunState) -> None:
        if state.requests_total or state.files_total:
            self._line(state)


class LiveProgress:
    """A live status line on a terminal (rich), refreshed four times a second."""

    def __init__(self, console: Console, activity: Activity | None = None) -> None:
        self._console = console
        self._activity = activity
        self._live: Live | None = None
        self._state: RunState | None = None

    def _render(self) -> Text:
        state = self._state
        if state is None:
            return Text("")
        width = 16
        filled = int(state.fraction() * width) if state.phase in ("translating", "writing", "finished") else 0
        bar = "━" * filled + "╺" + " " * (width - filled - 1) if filled < width else "━" * width
        return Text(f"{bar} {state.describe(self._activity)}", no_wrap=True, overflow="ellipsis")

    def _ensure(self, state: RunState) -> None:
        self._state = state
        if self._live is None:
            self._live = Live(get_renderable=self._render, console=self._console, refresh_per_second=4,
                              transient=False, redirect_stdout=False, redirect_stderr=False)
            self._live.start()

    def event(self, name: str, state: RunState, data: dict[str, object]) -> None:
        self._ensure(state)

    def tick(self, state: RunState) -> None:
        self._ensure(state)

    def close(self, state: RunState) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


class JsonProgress:
    """`--progress json`: one JSON object per line; `progress` at most every `interval` s."""

    def __init__(self, write: Callable[[str], None], interval: float = 1.0) -> None:
        self._write = write
        self._interval = interval
        self._last = 0.0
        self._done = -1

    def _line(self, event: str, **data: object) -> None:
        self._write(json.dumps({"event": event, "time": round(time.time(), 3), **data}, ensure_ascii=False))

    def event(self, name: str, state: RunState, data: dict[str, object]) -> None:
        if name == "phase":
            return
        self._line(name, **data)

    def tick(self, state: RunState) -> None:
        now = time.monotonic()
        if state.phase != "translating" or now - self._last < self._interval or state.requests_done == self._done:
            return
        self._last, self._done = now, state.requests_done
        eta = state.eta_seconds()
        self._line("progress", requests_done=state.requests_done, requests_total=state.requests_total,
                   fraction=round(state.fraction(), 4), files_written=state.files_written,
                   files_total=state.files_total, output_tokens=state.output_tokens,
                   eta_seconds=None if eta is None else round(eta, 1))

    def close(self, state: RunState) -> None:
        pass
