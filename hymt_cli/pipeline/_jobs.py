"""Jobs: one input into one target language, written unit by unit in input order.

A job's output is written to a temp file as its units complete (`PendingOutput`) and
committed once the input is read to its end and every unit is written; a job that fails
leaves nothing under its final name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import first_line
from ..formats import Finding, FormatError, InputReader, Unit, UnitWriter
from ..inputs.sources import SourceFile
from ..outputs.paths import PendingOutput
from ..reporting.report import FileReport
from ..signals import deferred
from ..text.languages import Language
from ._output_encoding import OutputEncoding

if TYPE_CHECKING:
    from ..formats import MergeResult


@dataclass(eq=False)
class OpenInput:
    """An input being read: its units come one at a time."""

    source: SourceFile
    reader: InputReader
    units: Iterator[Unit]
    jobs: list[Job] = field(default_factory=list)
    read: int = 0  # units read so far
    exhausted: bool = False
    failed: bool = False

    def warn(self, message: str) -> None:
        """What the format found reading the input (Unit.warning): in each of its files' warning."""
        line = f"{self.source.display}: {message}"
        for job in self.jobs:
            job.report.warning = "; ".join(filter(None, [job.report.warning, line]))

    def fail(self, message: str) -> None:
        """The input turned out unreadable: every job fails, one line for the input."""
        self.failed = True
        for i, job in enumerate(self.jobs):
            job.fail(message if i == 0 else None)


@dataclass(eq=False)
class Job:
    input: OpenInput
    lang: Language
    output: Path | None
    report: FileReport
    write_stdout: Callable[[bytes], None] | None = None
    on_committed: Callable[[], None] = lambda: None
    # What writing a unit found of its segments (formats/base.Finding): to the report and review.
    on_findings: Callable[[Unit, Mapping[int, str], Sequence[Finding]], None] = lambda *_: None
    merge: bool = False  # the output exists and is merged into (a file of strings)
    created: bool = False  # the output did not exist: the project may list it (Catalog.listing)
    # Held from closing the writer to recording the output (a merge: the lock of its folder's
    # manifest, so that another run cannot write the target in between).
    guard: Callable[[], AbstractContextManager[object]] = nullcontext
    # The locale as the output's path writes it (`de_DE`: outputs.Claim.locale): what the file
    # says it is in. None: the target's own code.
    label: str | None = None
    pending: PendingOutput | None = None
    writer: UnitWriter | None = None
    live: bool = True  # planned and written; False once failed, or when refused or skipped
    written: int = 0
    committed: bool = False
    unsendable: int = 0  # segments kept for a lone surrogate (_unsendable.py)
    unsendable_names: list[str] = field(default_factory=list)  # the first few, for the warning
    # The legacy encoding the output is written in, once its input's first unit is read (None:
    # it writes any character), and what was written there as substitutes.
    encoding: OutputEncoding | None = None
    _ready: dict[int, tuple[Unit, Mapping[int, str]]] = field(default_factory=dict)

    def written_in(self, codec: str) -> None:
        """The output is written in the legacy encoding `codec` (_output_encoding.py)."""
        self.encoding = OutputEncoding(codec)

    def deliver(self, unit: Unit, translated: Mapping[int, str]) -> None:
        """A unit is translated: write it, and any later ones that were waiting for it."""
        if not self.live:
            return
        self._ready[unit.index] = (unit, translated)
        while self.live and self.written in self._ready:
            ready, done = self._ready.pop(self.written)
            self._guarded(functools.partial(self._write, ready, done))
            self.written += 1
        self.commit_if_done()

    def _write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        found = self._open().write(unit, translated)
        if found:
            self.on_findings(unit, translated, found)

    def commit_if_done(self) -> None:
        if self.committed or not self.live or not self.input.exhausted or self.written != self.input.read:
            return
        # A signal never separates the rename from `committed`, nor from `on_committed` (the
        # manifest entry: an output the manifest does not list is a person's file to the next run).
        with deferred(), self.guard():
            self._guarded(lambda: self._open().close())  # an empty table still gets its file
            if self.live:
                assert self.pending is not None
                self._guarded(self.pending.discard if self.untouched else self.pending.commit)
            if self.live:
                self.pending, self.committed = None, True
            if self.committed:
                self.on_committed()

    @property
    def result(self) -> MergeResult | None:
        """What a writer of strings wrote key by key (None: another kind of output)."""
        return self.writer.recorded if self.writer is not None else None

    @property
    def untouched(self) -> bool:
        """A merged target that reads as it did: not written again."""
        result = self.result
        return result is not None and result.unchanged

    def fail(self, message: str | None) -> None:
        self.live = False
        self.report.status, self.report.error = "failed", message
        self._ready.clear()
        self.discard()

    def discard(self) -> None:
        if self.pending is not None:
            self._abandon_writer()
            self.pending.discard()
            self.pending = None

    def _abandon_writer(self) -> None:
        """Close the format's writer while its temp file is still open: one left open completes
        itself when collected (pyarrow's ParquetWriter writes its footer from __del__), into the
        handle closed by then, and Python prints that failure's traceback on stderr."""
        writer, self.writer = self.writer, None
        if writer is not None and not self.committed:
            try:
                writer.close()
            except Exception:  # (the file is being thrown away: nothing to report)
                pass

    def _open(self) -> UnitWriter:
        if self.writer is None:
            with deferred():  # the temp file it creates is always known to `discard`
                self.pending = PendingOutput(self.output, self.write_stdout)
            # A target merged into is known by the run's code and says its own locale already
            written_as = self.lang.code if self.merge else self.label or self.lang.code
            self.writer = self.input.reader.writer(written_as, self.pending.handle)
        return self.writer

    def _guarded(self, action: Callable[[], object]) -> None:
        """Run a write step; an error fails this job only (the other files go on)."""
        where = str(self.output) if self.output is not None else "<stdout>"
        try:
            action()
        except OSError as exc:  # includes pyarrow's IO errors (disk full, permissions)
            self.fail(f"{where}: cannot write: {exc.strerror or first_line(exc)}")
        except FormatError as exc:  # the input cannot be written so (an added column that exists)
            self.fail(f"{self.input.source.display}: {exc}")
        except Exception as exc:  # a format bug must not take the other files down
            self.fail(f"{self.input.source.display}: cannot reassemble: {type(exc).__name__}: {exc}")
