"""Records of a delimited file with the offsets of their fields, read a block at a time.

Python's csv module and pyarrow's CSV reader give values, not where they stand in the file;
splicing needs the offsets. A line without a quote (or backslash) is split at C speed; only
the others are scanned field by field. A record that runs past the text read so far is
scanned again once more text is read (twice as much each time, so a huge field stays linear).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..base import FormatError
from ..decoded_stream import LineCounter, TextStream
from .dialect import QUOTE, QUOTED, SNIFFED, Dialect

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Scanned:
    """One record: its fields' spans (all, or only the wanted ones), where its content ends
    (before the line ending), where the next record starts, and its field count."""

    spans: list[Span]
    end: int
    next: int
    fields: int


class RecordError(FormatError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


class RecordSyntax:
    """Scans one record of a dialect at an offset of a text."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._delimiter = dialect.delimiter
        self._special = dialect.special
        self._unquoted = dialect.unquoted
        # (offset, why) of the first doubt about the record scanned last (see _check_lines)
        self.suspect: tuple[int, str] | None = None

    def scan(self, text: str, pos: int, final: bool, wanted: Sequence[int] | None) -> Scanned | None:
        """The record at `pos` (None: it may go on past the end of `text`, which is not `final`).
        `wanted`: the field indexes whose spans are kept, ascending (None: every field)."""
        hit = self._special.search(text, pos)
        if hit is not None and hit.group() in "\r\n":
            eol = hit.start()
            if text[eol] == "\r" and eol + 1 == len(text) and not final:
                return None  # CR LF may be split between two blocks
            after = eol + 2 if text.startswith("\r\n", eol) else eol + 1
            return self._split(text, pos, eol, after, wanted)
        if hit is None:
            return self._split(text, pos, len(text), len(text), wanted) if final else None
        return self._fields(text, pos, final, wanted)

    def _split(self, text: str, pos: int, eol: int, after: int, wanted: Sequence[int] | None) -> Scanned:
        parts = text[pos:eol].split(self._delimiter)
        spans: list[Span] = []
        if wanted is None:
            start = pos
            for part in parts:
                spans.append((start, start + len(part)))
                start += len(part) + 1
        elif wanted:
            start, index, last = pos, 0, wanted[-1]
            for i, part in enumerate(parts):
                if i > last:
                    break
                if i == wanted[index]:
                    spans.append((start, start + len(part)))
                    index += 1
                start += len(part) + 1
        return Scanned(spans, eol, after, len(parts))

    def _fields(self, text: str, pos: int, final: bool, wanted: Sequence[int] | None) -> Scanned | None:
        spans: list[Span] = []
        size = len(text)
        keep = set(wanted) if wanted is not None else None
        count = 0
        quotes = self.dialect.escaping == "quotes"
        while True:
            start = pos
            if quotes and pos < size and text[pos] == QUOTE:
                match = QUOTED.match(text, pos)
                # A match that ends on a quote before another quote stopped there because the
                # field's closing quote is not in the text: later text may hold it.
                if match is None or text.startswith(QUOTE, match.end()):
                    if not final:
                        return None
                    raise RecordError("unterminated quoted field (the quote that opens it is here)", pos)
                if match.end() == size and not final and _BREAK.search(text, pos, size):
                    return None  # what follows the closing quote says whether lines were merged
                self._check_lines(text, pos, match.end())
                pos = match.end()
            end = self._unquoted.match(text, pos)
            assert end is not None  # the pattern matches the empty string
            pos = end.end()
            if keep is None or count in keep:
                spans.append((start, pos))
            count += 1
            if pos >= size:
                if not final:
                    return None
                return Scanned(spans, pos, pos, count)
            char = text[pos]
            if char == self._delimiter:
                pos += 1
                continue
            if char == "\r" and pos + 1 == size and not final:
                return None
            if char in "\r\n":
                after = pos + 2 if text.startswith("\r\n", pos) else pos + 1
                return Scanned(spans, pos, after, count)
            if not final:  # a backslash whose escaped character is in the next block
                return None
            raise RecordError("a backslash at the end of the file escapes nothing", pos)

    def take_suspect(self) -> tuple[int, str] | None:
        """The doubt about the record scanned last, forgotten here."""
        suspect, self.suspect = self.suspect, None
        return suspect

    def _check_lines(self, text: str, start: int, end: int) -> None:
        """A quoted field `text[start:end]` that holds a line break may be lines merged into one
        record (a field that merely starts with a quote, in a file whose quotes are text). RFC
        4180 allows the break, not text after the closing quote: that is an error. In a TSV,
        tabs on its later lines (other records' fields, it seems) are a warning (`suspect`)."""
        first_break = _BREAK.search(text, start, end)
        if first_break is None:
            return
        lines = len(_BREAK.findall(text, start, end)) + 1
        after = text[end : end + 1]
        if after and after not in (self._delimiter, "\r", "\n"):
            raise RecordError(
                f"a quoted field runs over {lines} lines and its closing quote is followed by "
                f"{after!r}: those lines would be merged into one record; {_AS_TEXT}",
                start,
            )
        if self._delimiter == "\t" and "\t" in text[first_break.end() : end] and self.suspect is None:
            self.suspect = (
                start,
                f"a quoted field runs over {lines} lines that hold tabs, read as one field (RFC 4180); "
                "if they are records of their own and the quotes part of the text, pass --escaping none",
            )


_AS_TEXT = "if the file's quotes are part of the text, pass --escaping none"
_BREAK = re.compile(r"\r\n|\r|\n")
_DOUBTS_SHOWN = 3
# Excel writes (and reads) a first line `sep=;` that names the delimiter
SEPARATOR_HINT = re.compile(r"sep=([^\r\n\"])(?:\r\n|\r|\n)")


class RecordScanner:
    """The records of a stream, one at a time, each with the line it starts on. Offsets are
    into the scanner's text, which `release` cuts at the current record."""

    def __init__(self, stream: TextStream, dialect: Dialect, first_text: str) -> None:
        self._stream = stream
        self._syntax = RecordSyntax(dialect)
        self._text = first_text
        self._pos = 1 if first_text.startswith("\ufeff") else 0  # the BOM stays in the text
        hint = SEPARATOR_HINT.match(first_text, self._pos)
        if hint is not None:  # Excel's `sep=;` line: kept as it is, not a record
            self._pos = hint.end()
        self._where = LineCounter()  # of `_pos`
        self._final = stream.done
        self._doubts: list[str] = []  # the first doubts about records read (line, column: why)
        self._doubted = 0

    @property
    def position(self) -> int:
        return self._pos

    def next_record(self, wanted: Sequence[int] | None) -> tuple[int, Scanned] | None:
        """(line, record) of the next record; None at the end of the stream."""
        while self._pos >= len(self._text):
            if self._final:
                return None
            self._read_more()
        while True:
            try:
                scanned = self._syntax.scan(self._text, self._pos, self._final, wanted)
            except RecordError as exc:
                raise self._error(str(exc), exc.offset) from None
            if scanned is not None:
                break
            self._syntax.take_suspect()  # scanned again with more text
            self._read_more()
        suspect = self._syntax.take_suspect()
        if suspect is not None:
            offset, why = suspect
            self._doubted += 1
            if len(self._doubts) < _DOUBTS_SHOWN:
                self._doubts.append(self._where_is(why, offset))
        line = self._where.line
        self._where.advance(self._text[self._pos : scanned.next])
        self._pos = scanned.next
        return line, scanned

    def text(self, start: int, end: int) -> str:
        return self._text[start:end]

    def take_doubts(self) -> str:
        """What the records read since the last call make doubtful (a warning; "" when nothing)."""
        if not self._doubted:
            return ""
        more = self._doubted - len(self._doubts)
        told = "; ".join(self._doubts) + (f" (and {more} more such field(s))" if more else "")
        self._doubts, self._doubted = [], 0
        return told

    def release(self) -> None:
        """Forget the text before the current position (the records read are done with)."""
        self._text = self._text[self._pos :]
        self._pos = 0

    def _read_more(self) -> None:
        """Read as much text again as is held from the current record on (at least a block),
        so that a record longer than a block is scanned a logarithmic number of times."""
        held = len(self._text) - self._pos
        self._text += self._stream.read(max(1, held // self._stream.block))
        self._final = self._stream.done

    def _error(self, message: str, offset: int) -> FormatError:
        return FormatError(self._where_is(message, offset))

    def _where_is(self, message: str, offset: int) -> str:
        """`message` after the line and column of `offset` (in the current record)."""
        where = LineCounter()
        where.line, where.column, where.after_cr = self._where.line, self._where.column, self._where.after_cr
        where.advance(self._text[self._pos : offset])
        return f"line {where.line}, column {where.column}: {message}"


def sample_field_counts(sample: str, dialect: Dialect, records: int = 20) -> list[int]:
    """Field counts of the sample's first complete, non-blank records (for sniffing)."""
    syntax = RecordSyntax(dialect)
    counts: list[int] = []
    pos = 1 if sample.startswith("\ufeff") else 0
    while len(counts) < records and pos < len(sample):
        try:
            scanned = syntax.scan(sample, pos, False, ())
        except FormatError:
            break
        if scanned is None:
            break
        if scanned.end > pos:
            counts.append(scanned.fields)
        pos = scanned.next
    return counts


def sniff_delimiter(sample: str, default: str = ",") -> str:
    """The delimiter that splits the sample's first records into the same number of fields, more
    than one (the most consistent, then the most fields, wins); `default` when none does."""
    best: tuple[float, int, int] | None = None
    choice = default
    for rank, delimiter in enumerate(SNIFFED):
        counts = sample_field_counts(sample, Dialect(delimiter, "quotes"))
        if not counts or counts[0] < 2:
            continue
        agreeing = sum(1 for c in counts if c == counts[0]) / len(counts)
        score = (agreeing, counts[0], -rank)
        if best is None or score > best:
            best, choice = score, delimiter
    return choice
