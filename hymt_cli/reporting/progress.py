"""What a run tells as it goes (`ProgressEvents`), and the state a display is drawn from.

`ProgressEvents` is the whole interface: the pipeline and the run call it, a Python user
subclasses it to follow a run (every method is a no-op here), and `ProgressTracker` keeps a
`RunState` from the events for the command line's displays (cli/displays.py: a live line on a
terminal, plain lines for logs, JSON events). Events may come from the thread that starts the
engine as well as from the run's own.

The ETA is based on prompt tokens (the amount of text), not on request counts, which jump:
answers to short segments arrive long before those to long ones.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

# What the engine is doing while it starts (its log's last line); None when nothing is known.
Activity = Callable[[], "str | None"]


# The run's phases, in order; the engine's own start-up phases are free text (`engine_phase`).
RunPhase = Literal["preparing", "reading", "planning", "translating", "writing", "finished"]
EngineState = Literal["", "starting", "ready"]  # "": not asked for (yet)


@dataclass
class RunState:
    phase: RunPhase = "preparing"
    started: float = field(default_factory=time.monotonic)
    files_total: int = 0
    files_written: int = 0
    requests_total: int = 0
    requests_done: int = 0
    tokens_total: int = 0  # prompt tokens of the requests sent to the engine
    tokens_done: int = 0
    output_tokens: int = 0
    translating_since: float | None = None
    engine: EngineState = ""
    engine_what: str = ""
    engine_phase: str = ""  # what the engine said it is doing (its start-up phase)
    activity: Activity | None = None  # what its log says it is doing
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

    def describe(self) -> str:
        """One line: the phase and its figures."""
        files = f"files {self.files_written}/{self.files_total} written"
        if self.engine == "starting" and self.phase != "reading":
            said = self.activity() if self.activity is not None else None
            what = ": ".join(part for part in (self.engine_phase, said) if part)
            waited = time.monotonic() - self.engine_since
            return (
                f"starting the engine ({self.engine_what}), {waited:.0f} s"
                + (f": {what}" if what else "")
                + f"; {self.requests_total:,} segments planned"
            )
        if self.phase == "translating":
            eta = self.eta_seconds()
            return (
                f"translating: {self.fraction():.0%} (segments {self.requests_done:,}/"
                f"{self.requests_total:,}), {files}, {self.tokens_per_second():,.0f} tok/s, "
                f"ETA {_clock(eta) if eta is not None else '--:--'}"
            )
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


NoticeKind = Literal["info", "note", "warning", "engine", "hint"]


class ProgressEvents:
    """What a run tells as it goes; override the events you want (all are no-ops here)."""

    def phase(self, name: RunPhase) -> None:
        """The run's phase: "reading", "planning", ..."""

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
        """A window of work is planned: output files, requests for the engine, their prompt tokens."""

    def advanced(self, *, requests: int, output_tokens: int, prompt_tokens: int = 0) -> None:
        """Answers arrived (counted since the last call)."""

    def file_done(self, output: str | None = None) -> None:
        """An output file is written (its path as the report gives it; `<stdout>`: standard output)."""

    def engine_starting(self, engine: str, model: str | None, activity: Activity | None = None) -> None:
        """The engine starts; `activity` tells what it is doing (its log's last line)."""

    def engine_phase(self, name: str) -> None:
        """A start-up phase of the engine begins ("loading the model", "warming up" ...)."""

    def engine_ready(self) -> None: ...

    def notice(self, kind: NoticeKind, message: str) -> None:
        """Something a person should read: information, a note, a warning, a line of the engine's log after it
        failed (`engine`) and where to read more (`hint`)."""

    def finished(self, **summary: object) -> None: ...

    def interrupted(self, signal_name: str, **summary: object) -> None: ...

    def close(self) -> None:
        """The run is over (idempotent)."""


class Display(Protocol):
    def event(self, name: str, state: RunState, data: dict[str, object]) -> None: ...
    def tick(self, state: RunState) -> None: ...
    def close(self, state: RunState) -> None: ...


class ProgressTracker(ProgressEvents):
    """Keeps the `RunState` from a run's events and shows it on a `Display`; thread-safe (the
    engine starts in another thread). A ticker thread refreshes displays that need it.
    `on_notice` receives the notices (the command line prints them)."""

    def __init__(
        self,
        display: Display,
        *,
        tick: float | None = None,
        on_notice: Callable[[NoticeKind, str], None] | None = None,
    ) -> None:
        self.state = RunState()
        self._display = display
        self._lock = threading.RLock()
        self._on_notice = on_notice
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if tick is not None:
            self._ticker = threading.Thread(
                target=self._tick, args=(tick,), name="hymt-progress", daemon=True
            )
            self._ticker.start()

    def _tick(self, interval: float) -> None:
        while not self._stop.wait(interval):
            with self._lock:
                self._display.tick(self.state)

    def _emit(self, name: str, **data: object) -> None:
        self._display.event(name, self.state, data)

    # -- the pipeline's events ----------------------------------------------------------------
    def phase(self, name: RunPhase) -> None:
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
    def engine_starting(self, engine: str, model: str | None, activity: Activity | None = None) -> None:
        with self._lock:
            s = self.state
            s.engine, s.engine_what, s.engine_since = (
                "starting",
                f"{engine}, {model}" if model else engine,
                time.monotonic(),
            )
            s.activity = activity
            self._emit("engine_starting", engine=engine, model=model)

    def engine_phase(self, name: str) -> None:
        with self._lock:
            self.state.engine_phase = name
            self._emit("engine_phase", phase=name)

    def notice(self, kind: NoticeKind, message: str) -> None:
        if self._on_notice is not None:
            with self._lock:
                self._on_notice(kind, message)

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
