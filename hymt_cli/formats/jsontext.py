"""JSON text with the exact offset of every token (Python's json module gives values, no offsets).

`tokens(text)` walks a JSON document (RFC 8259, strict: no trailing commas, comments, NaN or
single quotes; a leading BOM is allowed) and yields a `Token` per key, scalar and bracket, each
with its span in `text` and the path of the value it belongs to. The walk is iterative (deep
nesting costs no recursion) and linear; what is not JSON raises `JsonSyntaxError` with line and
column. `tokens(text, start, end)` walks one document inside a larger text (a JSON Lines line).

`decode_string(raw)` gives a string token's value, and `JsonStyle.of(text)` + `encode_string`
write a new value the way the file writes its strings (`\\uXXXX` for non-ASCII when the file is
ASCII only, `\\/` when the file escapes slashes), so that only the translated text changes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

TokenKind = Literal["{", "}", "[", "]", "key", "string", "number", "true", "false", "null"]
Path = tuple[str | int, ...]

_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS: dict[str, TokenKind] = {"t": "true", "f": "false", "n": "null"}


class JsonSyntaxError(ValueError):
    """Not JSON: the message says what and where (line and column, 1-based)."""

    def __init__(self, reason: str, text: str, offset: int) -> None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        super().__init__(f"{reason} at line {line}, column {column}")
        self.reason, self.offset, self.line, self.column = reason, offset, line, column


# A path as a chain (parent, key): sharing the parent's, so that a deep document costs no
# quadratic copies of paths; `Token.path` builds the tuple when it is asked for.
Link = tuple["Link", str | int] | None


@dataclass(slots=True)  # not frozen: a document has one per value, and frozen costs on each
class Token:
    """A key, scalar or bracket. `path`: the keys and indices leading to the value it belongs to
    (for a key: the member's value). A string's raw text is `text[start + 1:end - 1]`."""

    kind: TokenKind
    start: int
    end: int
    link: Link
    depth: int = 0

    @property
    def path(self) -> Path:
        parts: list[str | int] = []
        link = self.link
        while link is not None:
            link, key = link
            parts.append(key)
        return tuple(reversed(parts))

    def tail(self, n: int) -> tuple[Path, bool]:
        """The last `n` parts of the path, and whether there are more (deep documents)."""
        parts: list[str | int] = []
        link = self.link
        while link is not None and len(parts) < n:
            link, key = link
            parts.append(key)
        return tuple(reversed(parts)), link is not None

    @property
    def key(self) -> str | int | None:
        """The last key or index of the path (None at the top)."""
        return self.link[1] if self.link is not None else None


_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, pos: int, end: int) -> int:
    """Past the whitespace at pos (a pattern: an indented file has much of it)."""
    if pos >= end or text[pos] not in " \t\n\r":
        return pos
    match = _SPACE.match(text, pos, end)
    assert match is not None
    return match.end()


def decode_string(raw: str) -> str:
    """The value of a string token's raw text (between its quotes)."""
    if "\\" not in raw:
        return raw
    value: str = json.loads(f'"{raw}"')
    return value


@dataclass(slots=True)
class _Frame:
    kind: Literal["{", "["]
    path: Link
    depth: int
    index: int = 0  # members or items so far
    key: str | None = None  # the member whose value comes next


def tokens(
    text: str, start: int = 0, end: int | None = None, skip: Mapping[int, int] | None = None
) -> Iterator[Token]:
    """Every token of the one JSON document in text[start:end]; JsonSyntaxError otherwise.
    `skip`: containers passed over unread (read before: a merge's outline), by the position
    after their opening bracket -> that of their closing one: they read as empty."""
    end = len(text) if end is None else end
    pos = start + 1 if text.startswith("\ufeff", start) else start
    stack: list[_Frame] = []
    pos = _skip(text, pos, end)
    expect_value = True  # a value may come (the document's, an item, a member's)
    path: Link = None
    depth = 0
    while True:
        if pos >= end:
            raise JsonSyntaxError(
                "unexpected end of the document" if stack or expect_value else "expected the end", text, pos
            )
        ch = text[pos]
        frame = stack[-1] if stack else None
        if expect_value:
            if ch == "{" or ch == "[":
                opening: Literal["{", "["] = "{" if ch == "{" else "["
                yield Token(opening, pos, pos + 1, path, depth)
                stack.append(_Frame(opening, path, depth))
                jump = skip.get(pos + 1) if skip else None
                pos = jump if jump is not None else _skip(text, pos + 1, end)
                closing: TokenKind = "}" if ch == "{" else "]"
                if pos < end and text[pos] == closing:
                    stack.pop()
                    yield Token(closing, pos, pos + 1, path, depth)
                    pos = _skip(text, pos + 1, end)
                    expect_value = False
                    if not stack:
                        if pos != end:
                            raise JsonSyntaxError("extra data after the document", text, pos)
                        return
                elif ch == "{":
                    pos = yield from _key(text, pos, end, stack[-1])
                    path, depth = (stack[-1].path, stack[-1].key or ""), depth + 1
                else:
                    path, depth = (path, 0), depth + 1
                continue
            pos = yield from _scalar(text, pos, end, path, depth)
            expect_value = False
        else:
            if frame is None:
                raise JsonSyntaxError("expected the end of the document", text, pos)
            closing = "}" if frame.kind == "{" else "]"
            if ch == ",":
                frame.index += 1
                pos = _skip(text, pos + 1, end)
                if frame.kind == "{":
                    pos = yield from _key(text, pos, end, frame)
                    path, depth = (frame.path, frame.key or ""), frame.depth + 1
                else:
                    path, depth = (frame.path, frame.index), frame.depth + 1
                expect_value = True
                continue
            if ch != closing:
                raise JsonSyntaxError(f"expected ',' or '{closing}'", text, pos)
            stack.pop()
            yield Token("}" if closing == "}" else "]", pos, pos + 1, frame.path, frame.depth)
            pos += 1
            path, depth = frame.path, frame.depth
        pos = _skip(text, pos, end)
        if not stack and not expect_value:
            if pos != end:
                raise JsonSyntaxError("extra data after the document", text, pos)
            return


def _key(text: str, pos: int, end: int, frame: _Frame) -> Generator[Token, None, int]:
    """`"key" :` at pos; yields the key token, returns the position of the value."""
    if pos >= end:
        raise JsonSyntaxError("unexpected end of the document", text, pos)
    if text[pos] != '"':
        raise JsonSyntaxError("expected a key in double quotes", text, pos)
    match = _STRING.match(text, pos, end)
    if match is None:
        raise JsonSyntaxError(*_bad_string(text, pos, end))
    frame.key = decode_string(match.group(0)[1:-1])
    yield Token("key", pos, match.end(), (frame.path, frame.key), frame.depth + 1)
    pos = _skip(text, match.end(), end)
    if pos >= end or text[pos] != ":":
        raise JsonSyntaxError("expected ':'", text, pos)
    return _skip(text, pos + 1, end)


def _scalar(text: str, pos: int, end: int, path: Link, depth: int) -> Generator[Token, None, int]:
    ch = text[pos]
    if ch == '"':
        match = _STRING.match(text, pos, end)
        if match is None:
            raise JsonSyntaxError(*_bad_string(text, pos, end))
        yield Token("string", pos, match.end(), path, depth)
        return match.end()
    if ch in _LITERALS:
        kind = _LITERALS[ch]
        if text.startswith(kind, pos) and pos + len(kind) <= end:
            yield Token(kind, pos, pos + len(kind), path, depth)
            return pos + len(kind)
    match = _NUMBER.match(text, pos, end)
    if match is not None and match.end() > pos:
        yield Token("number", pos, match.end(), path, depth)
        return match.end()
    raise JsonSyntaxError(f"unexpected {ch!r}", text, pos)


def _bad_string(text: str, pos: int, end: int) -> tuple[str, str, int]:
    """Why the string at pos does not match, and where (the error's arguments)."""
    i = pos + 1
    while i < end:
        ch = text[i]
        if ch == "\\":
            escape = text[i + 1 : i + 2]
            if escape not in tuple('"\\/bfnrtu') or (
                escape == "u" and not re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2 : i + 6])
            ):
                return "bad escape in a string", text, i
            i += 2
            continue
        if ch < " ":
            return "control character (a raw line break?) in a string", text, i
        i += 1
    return "unterminated string", text, pos


@dataclass(frozen=True, slots=True)
class JsonStyle:
    """How a file writes its strings: only ASCII (`\\u00e9`), `\\/` for slashes, hex case."""

    ascii_only: bool = False
    escaped_slash: bool = False
    upper_hex: bool = False

    @classmethod
    def of(cls, text: str) -> JsonStyle:
        escapes = re.search(r"\\u([0-9a-fA-F]{4})", text)
        ascii_only = escapes is not None and re.search(r"[^\x00-\x7f]", text.lstrip("\ufeff")) is None
        upper = escapes is not None and re.search(r"[A-F]", escapes.group(1)) is not None
        return cls(ascii_only, "\\/" in text, upper)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_NEEDS = re.compile(r'["\\\x00-\x1f\u2028\u2029\ud800-\udfff]')
_NEEDS_ASCII = re.compile(r'["\\\x00-\x1f\x7f-\U0010ffff]')


def encode_string(value: str, style: JsonStyle = JsonStyle()) -> str:
    """A string's raw text (without quotes): what must be escaped, in the file's style.
    U+2028/U+2029 are always escaped (JavaScript before ES2019 refuses them raw)."""
    pattern = _NEEDS_ASCII if style.ascii_only else _NEEDS

    def one(match: re.Match[str]) -> str:
        ch = match.group(0)
        if ch in _ESCAPES:
            return _ESCAPES[ch]
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            return _hex(0xD800 + (code >> 10), style) + _hex(0xDC00 + (code & 0x3FF), style)
        return _hex(code, style)

    raw = pattern.sub(one, value)
    return raw.replace("/", "\\/") if style.escaped_slash else raw


def _hex(code: int, style: JsonStyle) -> str:
    return f"\\u{code:04X}" if style.upper_hex else f"\\u{code:04x}"
