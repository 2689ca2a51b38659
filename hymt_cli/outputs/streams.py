"""stdout is for documents only; everything else goes to stderr.

`StdoutGuard` moves file descriptor 1 onto stderr for the whole run, so that nothing —
vLLM's logging, a child process, a stray print in a dependency — can reach the data
stream; documents are written to the saved original descriptor.

hymt's own messages go to `message_stream`: stderr, or, while an engine runs and descriptors
1 and 2 point at its log file (engine_logs.py), a copy of stderr taken before: only hymt's
lines reach the terminal.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console


class _Messages:
    """hymt's stderr: `sys.stderr` as it is at each write (so tests capture it), or, while an
    engine's log holds descriptor 2, a copy of the descriptor taken before (`hold`)."""

    def __init__(self) -> None:
        self.held: TextIO | None = None

    def _target(self) -> TextIO:
        return self.held if self.held is not None else sys.stderr

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return self._target().isatty()

    def fileno(self) -> int:
        return self._target().fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._target(), "encoding", "utf-8") or "utf-8"


_messages = _Messages()


def message_stream() -> TextIO:
    """hymt's own stderr (a stream; never the engine's log)."""
    return _messages  # type: ignore[return-value]


def hold_messages() -> None:
    """Keep hymt's messages on the current stderr before descriptor 2 is redirected."""
    if _messages.held is None:
        sys.stderr.flush()
        try:
            _messages.held = os.fdopen(
                os.dup(2), "w", encoding="utf-8", errors="backslashreplace", buffering=1
            )
        except (OSError, ValueError):  # no usable descriptor 2 (embedded): the interpreter's stream
            _messages.held = sys.stderr


def release_messages() -> None:
    held, _messages.held = _messages.held, None
    if held is not None and held is not sys.stderr:
        held.close()


def stderr_console(*, quiet: bool = False) -> Console:
    """The one console for messages: stderr, honouring NO_COLOR/FORCE_COLOR/TTY detection."""
    return Console(file=message_stream(), quiet=quiet, highlight=False, soft_wrap=True)


class StdoutGuard:
    def __init__(self) -> None:
        self._saved: int | None = None

    def __enter__(self) -> StdoutGuard:
        sys.stdout.flush()
        self._saved = os.dup(1)
        os.dup2(2, 1)
        return self

    def write(self, data: bytes) -> None:
        """Write document bytes to the real stdout."""
        assert self._saved is not None
        view = memoryview(data)
        while view:
            written = os.write(self._saved, view)
            view = view[written:]

    def __exit__(self, *exc: object) -> None:
        sys.stdout.flush()
        assert self._saved is not None
        os.dup2(self._saved, 1)
        os.close(self._saved)
        self._saved = None
