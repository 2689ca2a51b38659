"""TOML text with the offset of every string value (tomllib checks the document and gives values,
no offsets). Run only on text that tomllib has accepted: the scan trusts the grammar.

`strings(text)` yields a `TomlString` per string value (in key/value pairs, inline tables and
arrays) with its raw span, style (`"`, `'`, `\"\"\"`, `'''`), key path and decoded value;
`tables(text)` gives each table header's key path and where its last pair ends (plural tables).
`encode(value, style)` writes a new value in a style (`None` where the style cannot hold it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WS = re.compile(r"[ \t]*")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_BASIC = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"'[^'\n]*'")
_ML_BASIC = re.compile(r'"""(?:[^\\"]|\\.|"(?!""))*"""(?!"{3})"{0,2}', re.DOTALL)
_ML_LITERAL = re.compile(r"'''(?:[^']|'(?!''))*'''(?!'{3})'{0,2}", re.DOTALL)
_OTHER_VALUE = re.compile(r"[^\s,\]}#]+")
_ESCAPE = re.compile(
    r'\\(?:([btnfr"\\e])|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|[ \t]*\r?\n\s*)'
)
_SIMPLE = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\", "e": "\x1b"}

Path = tuple[str, ...]
# A key path as _outline.py names it: array items and `[[array tables]]` numbered.
KeyPath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class TomlString:
    start: int
    end: int
    style: str
    path: Path
    value: str
    key_start: int  # where the pair's key starts (-1: an array item)
    in_inline: bool  # inside an inline table or array


@dataclass(frozen=True, slots=True)
class Table:
    path: Path
    start: int  # the header's start (-1: the root table)
    keys: tuple[str, ...]  # its own keys (dotted keys: the first part), in order


@dataclass(frozen=True, slots=True)
class Pair:
    """A value (a pair's, an array item's) as _outline.py needs it."""

    path: KeyPath
    key_start: int  # where its key starts (-1: an array item)
    start: int  # the value's span
    end: int
    kind: (
        str  # a string's quoting (`"`, `'`, `\"\"\"`, `'''`), `[` an array, `{` an inline table, "" any other
    )
    value: str  # a string's text; the raw text of any other value
    inline: bool  # inside an inline table or an array


@dataclass(frozen=True, slots=True)
class Header:
    """A table header: `[a.b]`, `[[a]]` (`path`: the table's, array tables numbered)."""

    path: KeyPath
    start: int
    end: int  # after its `]`


def decode(raw: str, style: str) -> str:
    body = raw[len(style) : -len(style)]
    if style in ('"""', "'''"):
        body = body.replace("\r\n", "\n")  # a line break in a multi-line string reads as LF (tomllib)
        body = body.removeprefix("\n")
    if style.startswith("'"):
        return body

    def one(match: re.Match[str]) -> str:
        simple, u4, u8, x2 = match.groups()
        if simple:
            return _SIMPLE[simple]
        code = u4 or u8 or x2
        return chr(int(code, 16)) if code else ""  # a line-ending backslash trims the break

    return _ESCAPE.sub(one, body)


_BASIC_NEEDS = re.compile('[\\\\"\x00-\x08\x0a-\x1f\x7f]')
_ML_NEEDS = re.compile('[\\\\"\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]')
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    for key, value in _SIMPLE.items():
        if value == ch and key != "e":
            return "\\" + key
    return f"\\u{ord(ch):04X}"


def encode(value: str, style: str, raw: str = "") -> str | None:
    """`value` in `style` (as `raw` writes it: a multi-line string's opening line break), or None."""
    if style == '"':
        return '"' + _BASIC_NEEDS.sub(_escape, value) + '"'
    if style == "'":
        return None if "'" in value or _CONTROL.search(value.replace("\t", "")) else f"'{value}'"
    newline = "\r\n" if "\r\n" in raw else "\n"  # a multi-line string's breaks as the file writes them
    opening = newline if raw[3:4] == "\n" or raw[3:5] == "\r\n" else ""
    if style == '"""':
        return '"""' + opening + _ML_NEEDS.sub(_escape, value).replace("\n", newline) + '"""'
    if style == "'''":
        if (
            "'''" in value
            or value.endswith("'")
            or _CONTROL.search(value.replace("\t", "").replace("\n", ""))
        ):
            return None
        return "'''" + opening + value.replace("\n", newline) + "'''"
    return None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.table: Path = ()
        self.found: list[TomlString] = []
        self.tables: list[Table] = []
        self.keys: list[str] = []
        self.table_start = -1
        self.pairs: list[Pair] = []
        self.headers: list[Header] = []
        self.numbered: KeyPath = ()  # the table's path as _outline.py names it
        self.arrays: dict[KeyPath, int] = {}  # array tables: how many so far

    def run(self) -> None:
        text = self.text
        self.pos = 1 if text.startswith("\ufeff") else 0
        while self.pos < len(text):
            self._skip_space_and_comments()
            if self.pos >= len(text):
                break
            if text[self.pos] == "[":
                self._header()
            else:
                key, key_start = self._key()
                self._expect("=")
                self.keys.append(key[0])
                self._value((*self.table, *key), key_start, inline=False, numbered=(*self.numbered, *key))
        self.tables.append(Table(self.table, self.table_start, tuple(self.keys)))

    def _skip_space_and_comments(self) -> None:
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch in " \t\r\n":
                self.pos += 1
            elif ch == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def _expect(self, ch: str) -> None:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
        if not self.text.startswith(ch, self.pos):
            raise ValueError(f"expected {ch!r} at offset {self.pos}")
        self.pos += len(ch)

    def _header(self) -> None:
        self.tables.append(Table(self.table, self.table_start, tuple(self.keys)))
        start = self.pos
        array = self.text.startswith("[[", self.pos)
        self.pos += 2 if array else 1
        key, _ = self._key()
        self._expect("]]" if array else "]")
        self.table, self.table_start, self.keys = key, start, []
        numbered: list[str | int] = []
        for part in key[:-1]:  # `[a.b]` under `[[a]]`: in a's last table
            numbered.append(part)
            if tuple(numbered) in self.arrays:
                numbered.append(self.arrays[tuple(numbered)] - 1)
        numbered.append(key[-1])
        if array:
            count = self.arrays.get(tuple(numbered), 0)
            self.arrays[tuple(numbered)] = count + 1
            numbered.append(count)
        self.numbered = tuple(numbered)
        self.headers.append(Header(self.numbered, start, self.pos))

    def _key(self) -> tuple[Path, int]:
        parts: list[str] = []
        start = -1
        while True:
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            start = self.pos if start < 0 else start
            for pattern, style in ((_BASIC, '"'), (_LITERAL, "'"), (_BARE, "")):
                match = pattern.match(self.text, self.pos)
                if match:
                    parts.append(decode(match.group(0), style) if style else match.group(0))
                    self.pos = match.end()
                    break
            else:
                raise ValueError(f"bad key at offset {self.pos}")
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if not self.text.startswith(".", self.pos):
                return tuple(parts), start
            self.pos += 1

    def _value(self, path: Path, key_start: int, *, inline: bool, numbered: KeyPath) -> None:
        text = self.text
        self.pos = _WS.match(text, self.pos).end()  # type: ignore[union-attr]
        for pattern, style in ((_ML_BASIC, '"""'), (_ML_LITERAL, "'''"), (_BASIC, '"'), (_LITERAL, "'")):
            match = pattern.match(text, self.pos)
            if match:
                raw = match.group(0)
                value = decode(raw, style)
                self.found.append(
                    TomlString(match.start(), match.end(), style, path, value, key_start, inline)
                )
                self.pairs.append(Pair(numbered, key_start, match.start(), match.end(), style, value, inline))
                self.pos = match.end()
                return
        ch = text[self.pos : self.pos + 1]
        start = self.pos
        at = len(self.pairs)
        if ch in "[{":
            self.pairs.append(Pair(numbered, key_start, start, start, ch, "", inline))
            if ch == "[":
                self._array(path, numbered)
            else:
                self._inline_table(path, numbered)
            self.pairs[at] = Pair(numbered, key_start, start, self.pos, ch, "", inline)
            return
        match = _OTHER_VALUE.match(text, self.pos)
        if match is None:
            raise ValueError(f"bad value at offset {self.pos}")
        self.pos = match.end()
        if text.startswith(" ", self.pos) and re.match(r" \d{2}:\d{2}", text[self.pos : self.pos + 6]):
            self.pos = _OTHER_VALUE.match(text, self.pos + 1).end()  # type: ignore[union-attr]
        self.pairs.append(Pair(numbered, key_start, start, self.pos, "", text[start : self.pos], inline))

    def _array(self, path: Path, numbered: KeyPath) -> None:
        self.pos += 1
        index = 0
        while True:
            self._skip_space_and_comments()
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return
            self._value((*path, str(index)), -1, inline=True, numbered=(*numbered, index))
            index += 1
            self._skip_space_and_comments()
            if self.text.startswith(",", self.pos):
                self.pos += 1

    def _inline_table(self, path: Path, numbered: KeyPath) -> None:
        self.pos += 1
        while True:
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.text.startswith("}", self.pos):
                self.pos += 1
                return
            key, key_start = self._key()
            self._expect("=")
            self._value((*path, *key), key_start, inline=True, numbered=(*numbered, *key))
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.text.startswith(",", self.pos):
                self.pos += 1


def scan(text: str) -> tuple[list[TomlString], list[Table]]:
    """The string values and the tables of a document tomllib accepted."""
    scanner = _Scanner(text)
    scanner.run()
    return scanner.found, scanner.tables


def structure(text: str) -> tuple[list[Pair], list[Header]]:
    """Every value and every table header of a document tomllib accepted, in document order."""
    scanner = _Scanner(text)
    scanner.run()
    return scanner.pairs, scanner.headers
