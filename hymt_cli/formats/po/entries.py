"""A gettext PO file read entry by entry, with the offset of every line that matters.

polib reads PO files well but keeps no offsets; hymt splices translations into the source,
so it reads the lines itself: comments (`# `, `#.`, `#:`, `#,`, `#|`), obsolete entries
(`#~`, kept as they are), keywords (`msgctxt`, `msgid`, `msgid_plural`, `msgstr`,
`msgstr[N]`) and their continuation lines. A line it cannot read is a FormatError naming
its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..base import FormatError
from .cstring import CStringError, unquote

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)[ \t]*")
_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|$)")


@dataclass(frozen=True, slots=True)
class Field:
    """A keyword and its string: `text[start:end]` is the keyword line through its last
    continuation line (without the final line break); `value` is the decoded string."""

    keyword: str
    value: str
    start: int
    end: int
    line: int


@dataclass(slots=True)
class Entry:
    """One message. `comments`: translator (`# `) and extracted (`#.`) comment text; `flags`
    the `#,` flags; `flags_line` the span of the (first) flags line."""

    start: int
    line: int
    comments: list[str] = field(default_factory=list)
    extracted: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    flags_line: tuple[int, int] | None = None
    first_keyword: int = -1  # where the first `#|` line or keyword starts: a new flags line goes there
    msgctxt: Field | None = None
    msgid: Field | None = None
    msgid_plural: Field | None = None
    msgstr: list[Field] = field(default_factory=list)

    @property
    def is_header(self) -> bool:
        return self.msgid is not None and self.msgid.value == "" and self.msgctxt is None

    @property
    def translated(self) -> bool:
        return any(f.value for f in self.msgstr)


def _lines(text: str) -> Iterator[tuple[int, int, str]]:
    """(line number, offset, line without its line break); a byte order mark is no line's text."""
    end = len(text)
    number = 0
    for match in _LINE.finditer(text, 1 if text.startswith("\ufeff") else 0):
        start = match.start()
        if start == end:
            return
        number += 1
        yield number, start, match.group(1)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.entries: list[Entry] = []
        self.entry: Entry | None = None
        self.field: tuple[str, list[str], int, int, int] | None = None  # keyword, values, start, end, line

    def fail(self, line: int, column: int, reason: str) -> FormatError:
        return FormatError(f"line {line}, column {column}: {reason}")

    def current(self, number: int, offset: int) -> Entry:
        if self.entry is None:
            self.entry = Entry(offset, number)
        return self.entry

    def close_field(self) -> None:
        if self.field is None or self.entry is None:
            self.field = None
            return
        keyword, values, start, end, line = self.field
        done = Field(keyword, "".join(values), start, end, line)
        entry = self.entry
        if keyword == "msgctxt":
            entry.msgctxt = done
        elif keyword == "msgid":
            entry.msgid = done
        elif keyword == "msgid_plural":
            entry.msgid_plural = done
        else:
            entry.msgstr.append(done)
        self.field = None

    def close_entry(self) -> None:
        self.close_field()
        if self.entry is not None:
            if self.entry.msgid is not None:
                if not self.entry.msgstr:
                    raise self.fail(self.entry.msgid.line, 1, "msgid without msgstr")
                self.entries.append(self.entry)
            self.entry = None

    def comment(self, number: int, offset: int, line: str) -> None:
        if self.entry is not None and self.entry.msgstr:
            self.close_entry()
        self.close_field()
        entry = self.current(number, offset)
        kind = line[1:2]
        if kind == ",":
            entry.flags.extend(f.strip() for f in line[2:].split(",") if f.strip())
            if entry.flags_line is None:
                entry.flags_line = (offset, offset + len(line))
        elif kind == ".":
            entry.extracted.append(line[2:].strip())
        elif kind == "|":
            if entry.first_keyword < 0:
                entry.first_keyword = offset
        elif kind in (" ", ""):
            entry.comments.append(line[2:] if kind else "")
        # `#:` references, `#~` obsolete lines and other comments are kept, never read

    def keyword(self, number: int, offset: int, line: str, match: re.Match[str]) -> None:
        keyword = match.group(1)
        entry = self.entry
        starts = keyword in ("msgctxt", "msgid")
        if (
            entry is not None
            and starts
            and (
                entry.msgstr
                or (keyword == "msgid" and entry.msgid is not None)
                or (keyword == "msgctxt" and (entry.msgctxt or entry.msgid) is not None)
            )
        ):
            self.close_entry()
        self.close_field()
        entry = self.current(number, offset)
        if entry.first_keyword < 0:
            entry.first_keyword = offset
        if keyword.startswith("msgstr") and entry.msgid is None:
            raise self.fail(number, 1, f"{keyword} without msgid")
        if keyword == "msgid_plural" and entry.msgid is None:
            raise self.fail(number, 1, "msgid_plural without msgid")
        if keyword == "msgid" and entry.msgid is not None:
            raise self.fail(number, 1, "second msgid in one entry")
        rest = match.end()
        if rest >= len(line) or line[rest] != '"':
            raise self.fail(number, rest + 1, f"expected a string after {keyword}")
        value = self.string(number, line, rest)
        self.field = (keyword, [value], offset, offset + len(line), number)

    def string(self, number: int, line: str, start: int) -> str:
        try:
            value, end = unquote(line, start)
        except CStringError as exc:
            raise self.fail(number, exc.offset + 1, str(exc)) from None
        rest = line[end:]
        if rest.strip():
            raise self.fail(
                number, end + len(rest) - len(rest.lstrip()) + 1, "unexpected text after the string"
            )
        return value

    def continuation(self, number: int, offset: int, line: str) -> None:
        if self.field is None:
            raise self.fail(number, 1, "string without a keyword")
        start = len(line) - len(line.lstrip())
        keyword, values, field_start, _, first_line = self.field
        values.append(self.string(number, line, start))
        self.field = (keyword, values, field_start, offset + len(line), first_line)


def read_entries(text: str) -> Iterator[Entry]:
    """The entries of a PO file, in order, as they are read (obsolete `#~` entries are not
    entries: they stay in the source as they are)."""
    reader = _Reader(text)
    for number, offset, line in _lines(text):
        if reader.entries:
            yield from reader.entries
            reader.entries.clear()
        stripped = line.strip()
        if not stripped:
            reader.close_entry()
        elif stripped.startswith("#"):
            if stripped.startswith("#~"):
                reader.close_entry()
                continue
            reader.comment(number, offset, stripped)
        elif stripped.startswith('"'):
            reader.continuation(number, offset, line)
        else:
            match = _KEYWORD.match(line)
            if match is None:
                word = stripped.split()[0][:40]
                raise reader.fail(number, 1, f"unexpected {word!r}")
            reader.keyword(number, offset, line, match)
    reader.close_entry()
    yield from reader.entries
