"""Progress on stderr: a live rich display on a terminal, a plain line every few seconds otherwise."""
from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn


class _Rates:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.files_total = self.files_done = 0
        self.requests_total = self.requests_done = 0
        self.output_tokens = 0

    def tokens_per_second(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.output_tokens / elapsed if elapsed > 0 else 0.0

    def eta(self) -> str:
        elapsed = time.monotonic() - self.started
        if not self.requests_done:
            return "--:--"
        left = elapsed * (self.requests_total - self.requests_done) / self.requests_done
        return f"{int(left // 60):02d}:{int(left % 60):02d}"


class LiveProgress:
    """Rich bars for segments and files, with output tokens/s and ETA."""

    def __init__(self, console: Console) -> None:
        self._rates = _Rates()
        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
            console=console, redirect_stdout=False, redirect_stderr=False, transient=False)
        self._segments: TaskID | None = None
        self._files: TaskID | None = None

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
        self._rates = _Rates()
        self._progress.start()
        self._segments = self._progress.add_task("segments", total=requests, rate="")
        self._files = self._progress.add_task("files", total=files, rate="")

    def advanced(self, *, requests: int, output_tokens: int) -> None:
        self._rates.output_tokens += output_tokens
        if self._segments is not None:
            self._progress.update(self._segments, advance=requests,
                                  rate=f"{self._rates.tokens_per_second():,.0f} tok/s")

    def file_done(self) -> None:
        if self._files is not None:
            self._progress.update(self._files, advance=1)

    def close(self) -> None:
        self._progress.stop()


class PlainProgress:
    """For a non-terminal stderr (CI logs): one line every `interval` seconds and at the end."""

    def __init__(self, console: Console, interval: float = 5.0) -> None:
        self._console = console
        self._interval = interval
        self._rates = _Rates()
        self._last = 0.0

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
        self._rates = _Rates()
        self._rates.files_total, self._rates.requests_total = files, requests
        tokens = f" ({prompt_tokens:,} prompt tokens)" if prompt_tokens else ""
        self._console.print(f"hymt: {requests} segments to translate{tokens} for {files} output file(s)")
        self._last = time.monotonic()

    def advanced(self, *, requests: int, output_tokens: int) -> None:
        self._rates.requests_done += requests
        self._rates.output_tokens += output_tokens
        self._maybe_print()

    def file_done(self) -> None:
        self._rates.files_done += 1
        self._maybe_print()

    def _maybe_print(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self._interval:
            return
        self._last = now
        r = self._rates
        self._console.print(f"hymt: segments {r.requests_done}/{r.requests_total}, files "
                            f"{r.files_done}/{r.files_total}, {r.tokens_per_second():,.0f} tok/s, "
                            f"ETA {r.eta()}")

    def close(self) -> None:
        if self._rates.requests_total:
            self._maybe_print(force=True)
