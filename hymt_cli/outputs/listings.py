"""A project file that lists the catalogs the project builds (gettext's `LINGUAS`), which a new
target joins: the format names the file and computes its new bytes (formats/base.Catalog's
`listing`: formats/ecosystems/linguas_join.py); this module reads it and writes it, atomically, and
never where it is an input of the run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from .atomic import write_atomically


class Listing(Protocol):
    """A file listing a project's catalogs, a new one to add to it, and what to say of it."""

    @property
    def path(self) -> Path:
        """The file (`po/LINGUAS`); nothing is done where it is no file."""
        ...

    def joined(self, data: bytes) -> bytes | None:
        """The file's bytes `data`, listing the new catalog too; None: it lists it already.
        Raise ValueError where `data` is no such file (not UTF-8)."""
        ...

    def added(self) -> str:
        """What was done, in a line."""
        ...

    def unreadable(self) -> str:
        """That the file cannot be read, and what to do instead, in a line."""
        ...

    def unwritable(self, reason: str) -> str:
        """That the file cannot be written (why: `reason`), and what to do instead, in a line."""
        ...


def join(listing: Listing, is_input: Callable[[Path], bool]) -> str | None:
    """Add a new catalog to the project file `listing` names, written atomically: what was done
    (a line), or None (there is no such file, or it lists the catalog already). A file that is
    an input of the run (`is_input`) is never written."""
    path = listing.path
    if not path.is_file():
        return None
    try:
        data = listing.joined(path.read_bytes())
    except (OSError, ValueError):
        return listing.unreadable()
    if data is None:
        return None
    if is_input(path):
        return listing.unwritable("an input of this run")
    try:
        write_atomically(path, data)
    except OSError as exc:
        return listing.unwritable(str(exc.strerror or exc))
    return listing.added()
