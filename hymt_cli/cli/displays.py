"""How the command line shows a run's progress on stderr (reporting/progress.py keeps the state):
a live line on a terminal (rich), plain lines for logs (CI), or one JSON event per line."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from rich.console import Console
from rich.live import Live
from rich.text import Text

from ..reporting.progress import RunState


class NoDisplay:
    def event(self, name: str, state: RunState, data: dict[str, object]) -> None: ...
    def tick(self, state: RunState) -> None: ...
    def close(self, state: RunState) -> None: ...


class PlainProgress:
    """A plain line on each milestone and every `interval` seconds (CI logs)."""

    def __init__(self, console: Console, interval: float = 5.0) -> None:
        self._console = console
        self._interval = interval
        self._last = time.monotonic()

    def _line(self, state: RunState) -> None:
        self._last = time.monotonic()
        self._console.print(f"hymt: {state.describe()}")

    def event(self, name: str, state: RunState, data: dict[str, object]) -> None:
        if name == "planned":
            tokens = f" ({data['prompt_tokens']:,} prompt tokens)" if data["prompt_tokens"] else ""
            self._console.print(
                f"hymt: planned {data['requests']:,} segments for the engine{tokens}, "
                f"{data['files']} output file(s)"
            )
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

    def __init__(self, console: Console) -> None:
        self._console = console
        self._live: Live | None = None
        self._state: RunState | None = None

    def _render(self) -> Text:
        state = self._state
        if state is None:
            return Text("")
        width = 16
        filled = int(state.fraction() * width) if state.phase in ("translating", "writing", "finished") else 0
        bar = "━" * filled + "╺" + " " * (width - filled - 1) if filled < width else "━" * width
        return Text(f"{bar} {state.describe()}", no_wrap=True, overflow="ellipsis")

    def _ensure(self, state: RunState) -> None:
        self._state = state
        if self._live is None:
            self._live = Live(
                get_renderable=self._render,
                console=self._console,
                refresh_per_second=4,
                transient=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
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
        if (
            state.phase != "translating"
            or now - self._last < self._interval
            or state.requests_done == self._done
        ):
            return
        self._last, self._done = now, state.requests_done
        eta = state.eta_seconds()
        self._line(
            "progress",
            requests_done=state.requests_done,
            requests_total=state.requests_total,
            fraction=round(state.fraction(), 4),
            files_written=state.files_written,
            files_total=state.files_total,
            output_tokens=state.output_tokens,
            eta_seconds=None if eta is None else round(eta, 1),
        )

    def close(self, state: RunState) -> None:
        pass
