"""The selected fields of one JSON Lines line, with their offsets (jsontext's token walk).

A field is named by its keys joined with dots (`title`, `seo.description`); arrays on the way
are looked through, so `tags` names every string of `"tags": [...]` and `items.name` every
item's name. A selected field, and a context field (row_context), must hold a string, null, or
an array of those: anything else (a number, a boolean, an object) is an error naming the line
and column.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from ..base import FormatError
from ..jsontext import JsonStyle, JsonSyntaxError, Path, Token, decode_string, tokens


@dataclass(frozen=True, slots=True)
class Found:
    """A string to translate: its token's span (with the quotes), the field, its value."""

    start: int
    end: int
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Member:
    """A selected member (for --add-columns): its key, the span of its value, what an added
    sibling is written with (the line's separator and colon), and its object's other keys."""

    key: str
    start: int
    end: int
    separator: str
    colon: str
    siblings: frozenset[str]


@dataclass(slots=True)
class LineFields:
    found: list[Found] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)  # selected and context fields present (null included)
    style: JsonStyle = field(default_factory=JsonStyle)
    told: dict[str, list[str]] | None = None  # a context field's strings (None: none read)


_KINDS = {"number": "a number", "true": "a boolean", "false": "a boolean", "{": "an object"}


def dotted(path: Path) -> str:
    return ".".join(p for p in path if isinstance(p, str))


def _member_path(path: Path) -> Path:
    end = len(path)
    while end and not isinstance(path[end - 1], str):
        end -= 1
    return path[:end]


def line_fields(
    text: str, start: int, end: int, wanted: Collection[str], members: bool, context: Collection[str] = ()
) -> LineFields:
    """The selected fields of the JSON document text[start:end], and the strings of its `context`
    fields; FormatError (with the column) when it is not JSON or such a field holds something
    other than strings."""
    read = wanted if not context else {*wanted, *context}
    out = LineFields(style=JsonStyle.of(text[start:end]))
    keys: dict[Path, Token] = {}  # the key token of every member seen (for --add-columns)
    open_arrays: dict[Path, int] = {}
    spans: list[tuple[Path, int, int]] = []  # selected members' values (for --add-columns)
    separator = ""
    previous_end = start
    try:
        for token in tokens(text, start, end):
            kind = token.kind
            if kind == "key":
                keys[token.path] = token
                if not separator and "," in text[previous_end : token.start]:
                    separator = text[previous_end : token.start]
                previous_end = token.end
                continue
            previous_end = token.end
            if kind == "}":
                continue
            name = dotted(token.path)
            if name not in read:
                continue
            out.seen.add(name)
            if kind == "string":
                value = decode_string(text[token.start + 1 : token.end - 1])
                if name in context and value:
                    if out.told is None:
                        out.told = {}
                    out.told.setdefault(name, []).append(value)
                if name not in wanted:
                    continue
                if value:
                    out.found.append(Found(token.start, token.end, name, value))
                if members and _member_path(token.path) == token.path:
                    spans.append((token.path, token.start, token.end))
            elif name not in wanted and kind in ("[", "]", "null"):
                continue
            elif kind == "[":
                open_arrays.setdefault(token.path, token.start)
            elif kind == "]":
                opened = open_arrays.pop(token.path, None)
                if members and opened is not None and _member_path(token.path) == token.path:
                    spans.append((token.path, opened, token.end))
            elif kind == "null":
                if members and _member_path(token.path) == token.path:
                    spans.append((token.path, token.start, token.end))
            else:
                what = "field" if name in wanted else "context field"
                raise FormatError(
                    f"column {_column(text, token.start)}: {what} {name!r} holds "
                    f"{_KINDS.get(kind, kind)}, not a string"
                    + ("" if name in wanted else " (--context-columns)")
                )
    except JsonSyntaxError as exc:
        raise FormatError(f"column {exc.column}: not JSON ({exc.reason})") from None
    if spans:  # the line is read whole: every member's siblings are known
        out.members = _members(text, keys, spans, separator)
    return out


def _members(
    text: str, keys: dict[Path, Token], spans: list[tuple[Path, int, int]], separator: str
) -> list[Member]:
    """The selected members with what --add-columns needs to add a sibling beside each: the
    line's separator and colon as written, and the names already there."""
    members = []
    for path, value_start, value_end in spans:
        key = keys[path]
        colon = text[key.end : value_start]
        siblings = frozenset(str(p[-1]) for p in keys if p[:-1] == path[:-1])
        comma = separator or ("," + (" " if " " in colon else ""))
        members.append(Member(str(path[-1]), value_start, value_end, comma, colon, siblings))
    return members


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1) + 1
