"""SIGINT and SIGTERM end a run cleanly: the signal becomes an `Interrupted` exception in the
main thread, so every `finally` runs (temp files removed, the memory committed, the engine shut
down) and the run ends with a report and one line, exit 130 or 143.

A few steps must not be cut in half (claiming a temp file, committing an output, a memory write):
they run inside `deferred()`, and a signal arriving meanwhile is raised when the step is done.
After the first signal, later ones are recorded only: the clean-up is never itself interrupted.

The other process-wide switch a run flips for a while, the garbage collector, is scoped the same
way (`collector_paused`): it is left as it was found.
"""

from __future__ import annotations

import gc
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Literal, cast

from .errors import ExitCode

HANDLED = (signal.SIGINT, signal.SIGTERM)
SignalName = Literal["SIGINT", "SIGTERM"]  # the names of HANDLED


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop by a signal (a KeyboardInterrupt, so code that already
    cleans up on Ctrl-C does so for SIGTERM too)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.report: object | None = None  # the run's report, once the run has written it

    @property
    def name(self) -> SignalName:
        return cast(SignalName, signal.Signals(self.signum).name)

    @property
    def exit_code(self) -> ExitCode:
        return exit_code_for(self.signum)


def as_interrupted(exc: KeyboardInterrupt) -> Interrupted:
    """A KeyboardInterrupt as a signal's `Interrupted`: one raised by code (or where no handler
    turned SIGINT into one) counts as SIGINT."""
    return exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)


class _State:
    depth = 0  # nesting of deferred() in the main thread
    pending: int | None = None  # a signal that arrived inside deferred()
    received: int | None = None  # the first signal of the run
    reported = False  # the line saying so was printed


_state = _State()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _state.received is not None:  # cleaning up already: never interrupt the clean-up
        return
    _state.received = signum
    if _state.depth:
        _state.pending = signum
        return
    raise Interrupted(signum)


def install() -> None:
    """Handle SIGINT/SIGTERM from now on (the command line, first thing at start-up)."""
    if threading.current_thread() is threading.main_thread():
        for signum in HANDLED:
            signal.signal(signum, _handler)


@contextmanager
def handling_signals() -> Iterator[None]:
    """Turn SIGINT/SIGTERM into `Interrupted` for the block (main thread only; elsewhere a no-op).
    Each block starts afresh: a process that runs many (the Python API in a notebook) is stopped
    by the first signal of each, not only of the first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[signal.Signals, Callable[[int, FrameType | None], object] | int | None] = {}
    _state.received, _state.pending, _state.reported = None, None, False  # each run its own first signal
    for signum in HANDLED:
        previous[signum] = signal.signal(signum, _handler)
    try:
        yield
    finally:
        for handled, handler in previous.items():
            signal.signal(handled, handler if handler is not None else signal.SIG_DFL)


def received() -> int | None:
    """The signal that stopped the run, if any."""
    return _state.received


def reported(value: bool | None = None) -> bool:
    """Whether the one line about the interruption was printed; `reported(True)` says it is
    being printed now and returns whether it already was."""
    before = _state.reported
    if value is not None:
        _state.reported = value
    return before


def starting_line(name: str) -> str:
    """The one line of a run stopped before it started translating."""
    return f"hymt: interrupted ({name}) while starting; nothing was done"


def exit_code_for(signum: int) -> ExitCode:
    return ExitCode.TERMINATED if signum == signal.SIGTERM else ExitCode.INTERRUPTED


@contextmanager
def deferred() -> Iterator[None]:
    """A step that must finish once started: a signal arriving meanwhile is raised after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1
        if _state.depth == 0 and _state.pending is not None:
            signum, _state.pending = _state.pending, None
            raise Interrupted(signum)


@contextmanager
def collector_paused() -> Iterator[bool]:
    """The cyclic garbage collector paused for a block that makes many objects at once, none in
    reference cycles (a window of a run, a large file's outline), rather than have it walk the
    growing heap again and again (a PO catalog of 50,000 messages: its outline in 7.3 s with it,
    1.9 s without). Yields whether it ran before the block (which may then collect by hand,
    `gc.collect(0)`). On every way out, it runs again if, and only if, it ran when the block began:
    a library user who had switched it off keeps it off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield was_enabled
    finally:
        if was_enabled:
            gc.enable()
        else:
            gc.disable()
