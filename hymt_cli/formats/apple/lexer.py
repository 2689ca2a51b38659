"""Apple `.strings` files read token by token, with the offset of every key, value and comment.

The grammar (the old-style property list subset that `genstrings` and Xcode write):
`"key" = "value";` pairs, `/* ... */` and `// ...` comments, white space. Keys and values are
quoted strings (`\\"`, `\\\\`, `\\n`, `\\t`, `\\r`, `\\U20AC`, octal escapes) or bare words, and
`"key";` alone means the value is the key. A file that is not this grammar is a FormatError
naming its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...text.segments import join_surrogates
from ..base import FormatError

_SPACE = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.DOTALL)
_COMMENT = re.compile(r"/\*(.*?)\*/|//([^\n]*)", re.DOTALL)
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_BARE = re.compile(r"[A-Za-z0-9_.$:/-]+")
_ESCAPE = re.compile(r"\\(?:[Uu]([0-9A-Fa-f]{1,4})|([0-7]{1,3})|(.))", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_WRITE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f]')


@dataclass(frozen=True, slots=True)
class Token:
    """A key or value: `text[start:end]` is its source (quotes included), `value` what it reads as."""

    start: int
    end: int
    value: str


@dataclass(frozen=True, slots=True)
class Pair:
    """`key = value;` with the comment just before it (its text, or "")."""

    key: Token
    value: Token | None  # None: `"key";`
    comment: str
    start: int = -1  # where the pair starts: its comment, else its key
    end: int = -1  # after its `;`


def unescape(raw: str) -> str:
    def one(match: re.Match[str]) -> str:
        hexa, octal, char = match.groups()
        if hexa is not None:
            return chr(int(hexa, 16))
        if octal is not None:
            return chr(int(octal, 8))
        return _SIMPLE.get(char, char)

    return join_surrogates(_ESCAPE.sub(one, raw)) if "\\" in raw else raw


def quote(text: str) -> str:
    """A value as a quoted `.strings` literal."""
    return '"' + _SPECIAL.sub(lambda m: _WRITE.get(m.group(0), f"\\U{ord(m.group(0)):04X}"), text) + '"'


def _fail(text: str, pos: int, reason: str) -> FormatError:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return FormatError(f"line {line}, column {column}: {reason}")


def _comment_before(text: str, start: int, end: int) -> tuple[str, int]:
    """The text of the last comment in the white space text[start:end], and where it starts
    (`end` where there is none)."""
    found = [m for m in _COMMENT.finditer(text, start, end)]
    if not found:
        return "", end
    last = found[-1]
    if text[last.end() : end].count("\n") > 1:  # a blank line after it: it is not about the pair
        return "", end
    return (last.group(1) if last.group(1) is not None else last.group(2)).strip(), last.start()


def _token(text: str, pos: int) -> Token | None:
    quoted = _QUOTED.match(text, pos)
    if quoted is not None:
        return Token(pos, quoted.end(), unescape(quoted.group(1)))
    bare = _BARE.match(text, pos)
    if bare is not None:
        return Token(pos, bare.end(), bare.group(0))
    return None


def pairs(text: str) -> Iterator[Pair]:
    """The pairs of a `.strings` file, in order."""
    pos = 1 if text.startswith("\ufeff") else 0
    while True:
        space = _SPACE.match(text, pos)
        assert space is not None
        comment, start = _comment_before(text, pos, space.end())
        pos = space.end()
        if pos >= len(text):
            return
        if text.startswith("/*", pos):
            raise _fail(text, pos, "comment is not closed")
        key = _token(text, pos)
        if key is None:
            what = "string is not closed" if text[pos] == '"' else f"unexpected {text[pos]!r}"
            raise _fail(text, pos, what)
        pos = _SPACE.match(text, key.end).end()  # type: ignore[union-attr]
        value: Token | None = None
        if text.startswith("=", pos):
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            value = _token(text, pos)
            if value is None:
                raise _fail(text, pos, "expected a value after '='")
            pos = _SPACE.match(text, value.end).end()  # type: ignore[union-attr]
        if not text.startswith(";", pos):
            raise _fail(text, pos, "expected ';'")
        pos += 1
        yield Pair(key, value, comment, start, pos)
