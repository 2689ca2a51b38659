"""Every place a run writes to, judged before the run starts: `check_locations` refuses, in one
line and exit 2, an `-o`, `--report`, `--prompts-out`, `--log-file`, `--review` or translation memory
that cannot be written, before anything is read or loaded."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError


def check_locations(locations: list[tuple[str, Path, bool]]) -> None:
    """(flag, path, is_folder) for every place the run will write; UsageError for the first
    that cannot be written."""
    for flag, path, folder in locations:
        problem = _unwritable(path, folder=folder)
        if problem is not None:
            raise UsageError(f"{flag} {path}: {problem}", hint="choose another location; nothing was started")


def _unwritable(path: Path, *, folder: bool) -> str | None:
    if path.exists():
        if folder and not path.is_dir():
            return "is a file, not a folder"
        if not folder and path.is_dir():
            return "is a folder, not a file"
        if not os.access(path, os.W_OK) or not os.access(path if folder else path.parent, os.W_OK | os.X_OK):
            return "not writable (permission denied or a read-only file system)"
        return None
    parent = path.parent
    while not parent.exists():
        if parent.is_symlink():
            return f"{parent} is a broken symbolic link"
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot create it: {parent} is not writable"
    return None
