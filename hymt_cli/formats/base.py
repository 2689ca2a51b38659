"""The document format contract.

A document format turns bytes into text (`decode`) and text into a parsed document that
knows its translatable segments and splices translations back (`parse`). Invariant, tested
for every format and sample:

    doc = fmt.parse(src)
    doc.reassemble({s.id: s.text for s in doc.segments}) == src      # byte for byte

and `decoded.encode(decoded.text) == data` for every input `decode` accepts. A format keeps no
state between documents: what one document needs (its charset, its parse) travels in the
values `decode` and `parse` return.

What only some formats can do is a capability, declared where it is asked for and None where
it is lacking (never an isinstance check): a format's `catalog` (a file of strings), a reader's
`merge` (into the targets that exist) and `encoded` (outputs in a legacy encoding), a writer's
`recorded` (what it wrote key by key). A format never opens a file of its own: a target merged
into comes as a `KeptFile` (outputs/ reads it and its manifest's records).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, ClassVar, Literal, Protocol

from ..qa.flags import Flag
from ..text.segments import Segment

if TYPE_CHECKING:
    from ..outputs.entries import KeptRecords
    from ..outputs.listings import Listing
    from .strings.merge import MergeCounts
    from .strings.target import MergeResult

# The run's `--context` (settings/_run.py) as its formats read it (row_context.ContextOptions).
ContextMode = Literal["auto", "on", "off"]


class FormatError(ValueError):
    """An input cannot be read as its format; the message names the problem, not the file."""


class DocumentDecodeError(FormatError):
    """The bytes of a document are not valid text in its encoding."""

    def __init__(self, reason: str, offset: int | None = None) -> None:
        where = f" at byte offset {offset}" if offset is not None else ""
        super().__init__(f"{reason}{where}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Decoded:
    """A document's text, and how text goes back to bytes the way the source was written.

    `errors` is the codec error handler for characters the encoding lacks (HTML writes them
    as character references; plain formats are UTF-8 and lack nothing). `warning`: a guess the
    decoding made that a person should know (the first unit carries it to the run)."""

    text: str
    encoding: str = "utf-8"
    errors: str = "strict"
    warning: str = ""

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding, self.errors)


class ParsedDocument(Protocol):
    """One document's segments and the splicing of their translations."""

    @property
    def segments(self) -> Sequence[Segment]: ...

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        """The source with each segment's span replaced by its translation (missing ids: the
        source). `target_language` (a code) lets a format label the output (`<html lang>`)."""
        ...


class DocumentFormat(Protocol):
    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]

    def decode(self, data: bytes) -> Decoded:
        """Bytes -> text, losslessly (a BOM stays in the text); raise DocumentDecodeError."""
        ...

    def parse(self, text: str) -> ParsedDocument:
        """Find the segments; raise ValueError when the text cannot be parsed as this format."""
        ...


def decode_utf8(data: bytes) -> Decoded:
    """Strict UTF-8, BOM kept as U+FEFF so that encoding restores it; errors give the offset."""
    try:
        return Decoded(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(
            f"not valid UTF-8 ({exc.reason}; --encoding names the encoding of a file in another)", exc.start
        ) from None


class InputSource(Protocol):
    """Where an input's bytes come from: a file, or standard input."""

    @property
    def display(self) -> str: ...

    def read_bytes(self) -> bytes: ...

    def open_binary(self) -> BinaryIO:
        """A seekable binary stream (standard input is read into memory first)."""
        ...


@dataclass(frozen=True, slots=True)
class Unit:
    """A part of an input that is translated and written as a whole: a document, or a batch of
    table rows. `content` is the format's own (what its writer needs); `weights` says how many
    occurrences a segment stands for (rows sharing a cell value; 1 where absent) and `labels`
    how a report names a segment (default: its id); `only` which segments a target language
    needs, where it needs fewer than all. `warning`: what reading the unit found that a person
    should know, such as a guess the format made (the run adds it to the file's warning).
    `check`: the format's own QA of a finished segment's translation, with what only the format
    knows (a subtitle cue's time on screen): (segment id, translation, target) -> flags of the
    checks declared `by_format` (qa/table.py); None: the format has none."""

    index: int
    segments: Sequence[Segment]
    content: object
    weights: Mapping[int, int] = field(default_factory=dict)
    labels: Mapping[int, str] = field(default_factory=dict)
    # Target language -> the only segments it needs (a target file merged: its missing and stale
    # keys); a language not named needs every segment.
    only: Mapping[str, frozenset[int]] = field(default_factory=dict)
    warning: str = ""
    check: Callable[[int, str, str], Sequence[Flag]] | None = None

    def weight(self, segment_id: int) -> int:
        return self.weights.get(segment_id, 1)


@dataclass(frozen=True, slots=True)
class Finding:
    """What writing a unit found of one of its segments that a reviewer should see (a translation
    too long for its fixed-size box): a QA finding of check `check`, in the report and on the
    review page, under the segment's label."""

    segment: int
    check: str
    message: str


class UnitWriter(Protocol):
    """Writes one output: units in order, then `close` completes the file (a table's footer).
    `write` may return findings (None or nothing: none)."""

    def write(self, unit: Unit, translated: Mapping[int, str]) -> Sequence[Finding] | None: ...

    def close(self) -> None: ...

    @property
    def recorded(self) -> MergeResult | None:
        """Once closed, what it wrote key by key (a file of strings whose format merges: the
        records of its folder's manifest); None: a writer of another kind."""
        ...


class KeptFile(Protocol):
    """A target that exists, merged into rather than written anew (outputs/manifest.KeptTarget):
    the format never opens it; it asks for its bytes and the records the folder's manifest keeps
    of its values, and only parses and merges."""

    @property
    def where(self) -> str:
        """The target as messages name it (its path)."""
        ...

    def read(self) -> bytes:
        """Its bytes (a regular file only); raise OSError."""
        ...

    def read_again(self) -> bytes:
        """Its bytes as they are now, under its folder's lock (another run may have written it)."""
        ...

    def records(self) -> KeptRecords:
        """What its folder's manifest recorded of its values."""
        ...


class TargetMerge(Protocol):
    """A reader's merging into the targets that exist (files of strings: strings/target.py). It is
    told which before its first unit; each unit then says which segments such a target still
    needs (`Unit.only`), and its writer for that language merges (`UnitWriter.recorded`)."""

    def merge_into(
        self,
        targets: Mapping[str, KeptFile | None],
        *,
        keep_removed: bool = False,
        allow_mass_removal: bool = False,
    ) -> None:
        """The target of each language the input is translated into: one that exists is merged
        into, None is written anew. A merge that would remove most of a target's values leaves
        it as it is unless `allow_mass_removal`."""
        ...

    def drift(self) -> Mapping[str, MergeCounts | str]:
        """Without translating: what a run would do to each target named by `merge_into` (its
        counts), or why it cannot be merged into. Reads the whole input."""
        ...


class EncodedOutput(Protocol):
    """A reader whose outputs may be in a legacy encoding (a GBK text, a KOI8-R PO catalog),
    known once its first unit is read: it names that encoding, and says, before anything is
    translated, where a target language's letters cannot be written in it, not even as their
    conventional substitutes (text/exemplars.py, text/substitutes.py)."""

    def output_encoding(self, lang: str) -> str | None:
        """The legacy encoding the output into `lang` is written in, strictly (None: it writes
        any character: UTF-8, or character references)."""
        ...

    def unwritable(self, lang: str) -> str | None:
        """Why a translation into `lang` cannot be written (None: it can), in one line."""
        ...


class InputReader(Protocol):
    """One opened input: its units, a writer per target language, and its capabilities."""

    def units(self) -> Iterator[Unit]:
        """The units in order; raise FormatError when the input turns out unreadable."""
        ...

    def writer(self, target_language: str, out: BinaryIO) -> UnitWriter:
        """A writer of this input's translation into `out` (called after the first unit)."""
        ...

    @property
    def merge(self) -> TargetMerge | None:
        """Merging into the targets that exist (None: its targets are written whole)."""
        ...

    @property
    def encoded(self) -> EncodedOutput | None:
        """Its outputs' legacy encodings (None: they write any character)."""
        ...


class Catalog(Protocol):
    """A format of files of strings (a catalog of messages): whether it merges into the targets
    that exist, and what a new target tells or adds where the project lists its catalogs."""

    @property
    def merges(self) -> bool:
        """Whether its targets that exist are merged into (`InputReader.merge`)."""
        ...

    def announce(self, target: Path) -> str | None:
        """A new target `target` was written: what the project must be told of it, in a line
        (Angular's `angular.json` lists none), or None (nothing)."""
        ...

    def listing(self, target: Path) -> Listing | None:
        """A new target `target` was written: the project file that lists the catalogs it
        builds, which it joins (gettext's `LINGUAS`; outputs/listings.py reads and writes it),
        or None (none)."""
        ...


@dataclass(frozen=True, slots=True)
class ReadSizes:
    """How much of an input a reader takes at a time (the run's, passed to `open`; tests pass
    small ones, so that a small file is read as a long one is). `part_bytes`: a part of a long
    document, about this many bytes, cut where the format can (document.py); `segments_per_unit`:
    a unit of a file of strings, about this many segments (strings/_document.py)."""

    part_bytes: int = 1 << 18
    segments_per_unit: int = 2048


READ_SIZES = ReadSizes()


class InputFormat(Protocol):
    """What the pipeline asks of a format: its name, a reader for an input, its capabilities."""

    @property
    def name(self) -> str: ...

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> InputReader: ...

    @property
    def catalog(self) -> Catalog | None:
        """A format of files of strings (None: any other)."""
        ...
