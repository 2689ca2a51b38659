"""An input of a run: a file found on disk, or standard input."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..formats import InputFormat, path_marked
from ..options import OptionSet

if TYPE_CHECKING:
    from ..formats import Marked


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One input. `path` None means standard input. An `InputSource` for its format."""

    path: Path | None
    relative: Path  # below the folder it was found in (its name for a file named directly)
    format: InputFormat
    # The source language's code in its name (`index.en.md`, --source-suffix en): the
    # translations replace it (`index.de.md`, or `<out>/de/index.md`).
    lang_suffix: str | None = None
    data: bytes | None = None  # standard input's bytes, when given from memory (the Python API)
    stdin_name: str = "<stdin>"  # how messages name standard input (the API's "<text>", "<table>")
    # Its own format options where a config file's [[files]] entries gave it some (None: the run's):
    # its output's manifest entry records them.
    options: OptionSet | None = None

    @property
    def marked(self) -> Marked | None:
        """Where the path names its language the way its format's ecosystem does (None: not)."""
        return path_marked(self.format.name, self.path) if self.path is not None else None

    @property
    def merges(self) -> bool:
        """Whether its translations are merged into target files that exist (files of strings)."""
        catalog = self.format.catalog
        return catalog is not None and catalog.merges

    @property
    def display(self) -> str:
        return self.stdin_name if self.path is None else str(self.path)

    def read_bytes(self) -> bytes:
        if self.data is not None:
            return self.data
        if self.path is None:
            return sys.stdin.buffer.read()
        return self.path.read_bytes()

    def open_binary(self) -> BinaryIO:
        if self.data is not None:
            return io.BytesIO(self.data)
        if self.path is None:
            return io.BytesIO(sys.stdin.buffer.read())
        return open(self.path, "rb")
