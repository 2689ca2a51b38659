"""stdout is for documents only; everything else goes to stderr.

`StdoutGuard` moves file descriptor 1 onto stderr for the whole run, so that nothing —
vLLM's logging, a child process, a stray print in a dependency — can reach the data
stream; documents are written to the saved original descriptor.

hymt's own messages go to a copy of the original stderr (`message_stream`), taken before
anything is redirected: while an engine runs, descriptors 1 and 2 point at its log file
(engine_logs.py) and only hymt's lines reach the terminal.
"""
from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console

_messages: TextIO | None = None


def message_stream() -> TextIO:
    """hymt's own stderr: a duplicate of descriptor 2 as it was when first asked for."""
    global _messages
    if _messages is None:
        try:
            _messages = os.fdopen(os.dup(2), "w", encoding="utf-8", errors="backslashreplace",
                                  buffering=1)
        except (OSError, ValueError):  # no usable descriptor 2: the interpreter's stream
            _messages = sys.stderr
    return _messages


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
