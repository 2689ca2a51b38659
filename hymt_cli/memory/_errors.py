"""Translation memory errors: a sqlite or file-system failure as one line that says which kind
of trouble it is (the file is not a usable hymt memory, or the file system is in the way) and
what the user can do. hymt never advises deleting a file."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from ..errors import ExitCode, HymtError


class MemoryFileError(HymtError):
    """The translation memory cannot be opened or used: pick another --cache or --no-cache."""

    exit_code = ExitCode.USAGE


# -- errors --------------------------------------------------------------------------------------
# sqlite's primary result codes (sqlite.org/rescode.html), and the messages sqlite gives for them,
# for errors raised without a code.
_PERM, _BUSY, _LOCKED, _NOMEM, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3,
    5,
    6,
    7,
    8,
    10,
    11,
    13,
    14,
    26,
)
_MESSAGES = (
    ("database or disk is full", _FULL),
    ("disk I/O error", _IOERR),
    ("readonly database", _READONLY),
    ("unable to open database file", _CANTOPEN),
    ("database is locked", _BUSY),
    ("database table is locked", _LOCKED),
    ("file is not a database", _NOTADB),
    ("database disk image is malformed", _CORRUPT),
    ("access permission denied", _PERM),
    ("out of memory", _NOMEM),
)
HINT_ELSEWHERE = "hymt leaves this file alone; pass --cache NEW_FILE for a memory elsewhere, or --no-cache"
HINT_DAMAGED = (
    "pass --cache NEW_FILE or --no-cache; sqlite3's .recover command may salvage "
    "the entries of the damaged file"
)
_HINT_WRITABLE = "pass --cache FILE in a writable folder, or --no-cache"


def result_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF  # extended codes (SQLITE_IOERR_WRITE...) share the primary's low byte
    text = str(exc)
    return next((c for message, c in _MESSAGES if message in text), None)


def is_lock_error(exc: sqlite3.Error) -> bool:
    """Another process holds the database: worth waiting and trying again."""
    return result_code(exc) in (_BUSY, _LOCKED)


def memory_error(path: Path, exc: sqlite3.Error, doing: str, *, busy_ms: int) -> MemoryFileError:
    """A sqlite error as a one-line MemoryFileError: what is wrong and what the user can do.

    `doing` is "open", "read" or "write"; `busy_ms` how long sqlite waited on a lock. Only a file that is not
    a usable hymt memory is
    called one; a disk or permission problem is named as such, with the memory intact."""
    code = result_code(exc)
    where = f"cache {path}"
    if code == _NOTADB:
        return MemoryFileError(
            f"{where}: not a hymt translation memory: the file is not an SQLite database", hint=HINT_ELSEWHERE
        )
    if code == _CORRUPT:
        return MemoryFileError(f"{where}: the translation memory is damaged ({exc})", hint=HINT_DAMAGED)
    if code == _FULL:
        return MemoryFileError(
            f"{where}: cannot {doing}: the disk is full ({exc})",
            hint="free some space, or pass --cache FILE on another disk, or --no-cache; "
            "the memory keeps what it had",
        )
    if code in (_BUSY, _LOCKED):
        return MemoryFileError(
            f"{where}: locked by another process for over {busy_ms / 1000:g} s",
            hint="wait for the other hymt run to finish, or pass --cache NEW_FILE or --no-cache",
        )
    if code in (_READONLY, _CANTOPEN, _PERM):
        verb = "write" if code == _READONLY else doing
        return MemoryFileError(f"{where}: cannot {verb}: {_access_problem(path, exc)}", hint=_HINT_WRITABLE)
    if code == _IOERR:
        return MemoryFileError(
            f"{where}: cannot {doing}: disk I/O error{_error_name(exc)}",
            hint="check the disk or file system; the memory itself may be fine",
        )
    if code == _NOMEM:
        return MemoryFileError(f"{where}: cannot {doing}: out of memory")
    return MemoryFileError(
        f"{where}: cannot {doing}: {exc}", hint="pass --no-cache to run without the memory"
    )


def _access_problem(path: Path, exc: sqlite3.Error) -> str:
    """Why sqlite could not open or write `path`, in the file system's words where it can tell."""
    folder = path.parent
    if path.is_dir():
        return "it is a folder, not a database file"
    if not folder.is_dir():
        return f"folder {folder} does not exist"
    if not os.access(folder, os.X_OK):
        return f"permission denied on folder {folder}"
    if path.exists() and not os.access(path, os.R_OK):
        return "permission denied (the file is not readable)"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(folder, os.W_OK):
        # sqlite writes FILE-journal, FILE-wal and FILE-shm beside the memory
        return f"folder {folder} is read-only (sqlite needs to create files beside the memory)"
    return str(exc)


def _error_name(exc: sqlite3.Error) -> str:
    """` (SQLITE_IOERR_WRITE)`: sqlite's extended name of the error, where it gave one."""
    name = getattr(exc, "sqlite_errorname", None)
    return f" ({name})" if isinstance(name, str) else ""


def folder_error(path: Path, exc: OSError) -> MemoryFileError:
    """The memory's folder could not be created."""
    reason = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
    culprit = exc.filename if exc.filename is not None else path.parent
    return MemoryFileError(f"cache {path}: cannot create folder {culprit}: {reason}", hint=_HINT_WRITABLE)
