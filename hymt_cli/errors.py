"""Domain errors and the process exit codes they map to.

The library raises these; only the CLI turns them into one-line messages and exit codes.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    SOME_INPUTS_FAILED = 1
    USAGE = 2
    ENGINE_UNAVAILABLE = 3
    QUALITY_CHECK_FAILED = 4
    STALE = 5  # --check: an output is missing or stale
    INTERRUPTED = 130  # SIGINT (Ctrl-C)
    TERMINATED = 143  # SIGTERM


class HymtError(Exception):
    """An error with a one-line message, an optional hint and the exit code it implies."""

    exit_code: ExitCode = ExitCode.SOME_INPUTS_FAILED

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(HymtError):
    """Bad flags or configuration: nothing was attempted."""

    exit_code = ExitCode.USAGE


class InputError(HymtError):
    """One input cannot be read or parsed; the run goes on with the others."""

    exit_code = ExitCode.SOME_INPUTS_FAILED


class OutputError(HymtError):
    """An output cannot be written (disk full, permissions); nothing partial is left behind."""

    exit_code = ExitCode.SOME_INPUTS_FAILED


class EngineUnavailable(HymtError):
    """The engine or the model cannot be loaded (package missing, weights not found)."""

    exit_code = ExitCode.ENGINE_UNAVAILABLE


def first_line(exc: BaseException) -> str:
    """An exception's message cut to its first line (its type's name when it has none): for
    one-line errors built from library exceptions."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def one_line(exc: BaseException) -> str:
    """An exception's type and first line (`OSError: disk full`), for messages about a library's
    failure where the kind of error says something."""
    return f"{type(exc).__name__}: {first_line(exc)}" if str(exc).strip() else type(exc).__name__
