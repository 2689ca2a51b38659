"""Every place a run writes to, judged before the run starts: `check_locations` refuses, in one
line and exit 2, an `-o`, `--report`, `--prompts-out`, `--log-file`, `--review` or translation memory
that cannot be written, before anything is read or loaded; `check_side_files` refuses, once the
inputs are found, a report, page, prompt file, log or memory that would land on an input, an
output or another of them (the run would overwrite its own input)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..errors import UsageError
from ..text.languages import Language
from .paths import Source, output_path

_HINT = "choose another location; nothing was started"


def check_locations(locations: list[tuple[str, Path, bool]]) -> None:
    """(flag, path, is_folder) for every place the run will write; UsageError for the first
    that cannot be written."""
    for flag, path, folder in locations:
        problem = _unwritable(path, folder=folder)
        if problem is not None:
            raise UsageError(f"{flag} {path}: {problem}", hint=_HINT)


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


def check_side_files(
    side: Sequence[tuple[str, Path]],
    sources: Sequence[Source],
    targets: Sequence[Language],
    out_dir: Path | None,
    exact_locales: bool = False,
) -> None:
    """(flag, path) of the files a run writes besides its outputs; UsageError for the first that
    is one of the run's inputs, one of its outputs, or another of them."""
    if not side:
        return
    taken: dict[Path, str] = {}
    for source in sources:
        if source.path is None:
            continue
        taken.setdefault(source.path.resolve(), f"is an input of this run ({source.display})")
        for lang in targets:
            out = output_path(source, lang, out_dir, exact_locales=exact_locales)
            if out is not None:
                taken.setdefault(out.resolve(), f"is the output of {source.display} in {lang.code}")
    for flag, path in side:
        where = path.resolve()
        if where in taken:
            raise UsageError(f"{flag} {path}: {taken[where]}; refusing to overwrite it", hint=_HINT)
        taken[where] = f"is also {flag}"
