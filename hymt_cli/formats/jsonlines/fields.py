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
from ..jsontext import JsonStyle, JsonSyntaxError, Link, Path, Token, decode_string, tokens


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


class _Names:
    """The dotted names of a line's tokens, each made from its container's name as the walk comes
    to it (`Token.path` costs the token's depth: a line nested thousands deep would cost the
    square of its length). A name longer than the longest field read cannot be one: None, as
    are the names inside it (a name only grows inward)."""

    def __init__(self, longest: int) -> None:
        self._longest = longest
        # per depth, the container (object or array) opened last there: its link and its name
        # (None: too long; "" with no part: the top)
        self._containers: list[tuple[Link, str | None, bool]] = []

    def of(self, token: Token) -> str | None:
        link, depth = token.link, token.depth
        if link is None:
            name: str | None = ""
            parts = False
        else:
            parent, key = link
            if depth <= len(self._containers) and self._containers[depth - 1][0] is parent:
                _, base, parts = self._containers[depth - 1]
            else:  # (the walk opens a container before its members: not reached)
                prefix = token.path[:-1]
                base, parts = dotted(prefix), any(isinstance(part, str) for part in prefix)
            if base is None or not isinstance(key, str):
                name = base
            else:
                name = f"{base}.{key}" if parts else key
                parts = True
                if len(name) > self._longest:
                    name = None
        if token.kind in ("{", "["):
            entry = (link, name, parts)
            if depth < len(self._containers):
                self._containers[depth] = entry
            else:
                self._containers.append(entry)
        return name


class _Siblings:
    """The key tokens of each object of a line (for --add-columns), by the object's link: its
    identity, not its path (two objects may sit at one path, under a duplicated key)."""

    def __init__(self) -> None:
        self._objects: dict[int, tuple[Link, dict[str, Token]]] = {}

    def add(self, key: Token) -> None:
        assert key.link is not None
        parent, name = key.link
        entry = self._objects.get(id(parent))
        if entry is None or entry[0] is not parent:
            entry = self._objects[id(parent)] = (parent, {})
        entry[1][str(name)] = key

    def of(self, member: Link) -> dict[str, Token]:
        assert member is not None
        return self._objects[id(member[0])][1]


def _is_member(link: Link) -> bool:
    """Whether a value is an object's member (not an array's item, not the document)."""
    return link is not None and isinstance(link[1], str)


def line_fields(
    text: str, start: int, end: int, wanted: Collection[str], members: bool, context: Collection[str] = ()
) -> LineFields:
    """The selected fields of the JSON document text[start:end], and the strings of its `context`
    fields; FormatError (with the column) when it is not JSON or such a field holds something
    other than strings."""
    read = wanted if not context else {*wanted, *context}
    out = LineFields(style=JsonStyle.of(text[start:end]))
    names = _Names(max(map(len, read), default=0))
    keys = _Siblings()  # the key token of every member seen (for --add-columns)
    open_arrays: dict[int, tuple[Link, int]] = {}  # by the array's link: it, and where it opens
    spans: list[tuple[Link, int, int]] = []  # selected members' values (for --add-columns)
    separator = ""
    previous_end = start
    try:
        for token in tokens(text, start, end):
            kind = token.kind
            if kind == "key":
                if members:
                    keys.add(token)
                if not separator and "," in text[previous_end : token.start]:
                    separator = text[previous_end : token.start]
                previous_end = token.end
                continue
            previous_end = token.end
            name = names.of(token)
            if kind == "}" or name not in read:
                continue
            assert name is not None
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
                if members and _is_member(token.link):
                    spans.append((token.link, token.start, token.end))
            elif name not in wanted and kind in ("[", "]", "null"):
                continue
            elif kind == "[":
                open_arrays.setdefault(id(token.link), (token.link, token.start))
            elif kind == "]":
                opened = open_arrays.pop(id(token.link), None)
                if members and opened is not None and _is_member(token.link):
                    spans.append((token.link, opened[1], token.end))
            elif kind == "null":
                if members and _is_member(token.link):
                    spans.append((token.link, token.start, token.end))
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


def _members(text: str, keys: _Siblings, spans: list[tuple[Link, int, int]], separator: str) -> list[Member]:
    """The selected members with what --add-columns needs to add a sibling beside each: the
    line's separator and colon as written, and the names already there."""
    members = []
    for link, value_start, value_end in spans:
        assert link is not None
        siblings = keys.of(link)
        key = siblings[str(link[1])]
        colon = text[key.end : value_start]
        comma = separator or ("," + (" " if " " in colon else ""))
        members.append(Member(str(link[1]), value_start, value_end, comma, colon, frozenset(siblings)))
    return members


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1) + 1


# The first line's fields, for messages and for --context on. Read with the token walk, not
# Python's json parser: that one recurses, and a line nested a few thousand deep (valid JSON)
# is a RecursionError there.


def field_names(line: str, limit: int = 100, deepest: int = 20) -> list[str]:
    """The fields of a JSON object (dotted inside objects, not looked for inside arrays), for an
    error message: at most `limit`, an object deeper than `deepest` named, not walked."""
    names: list[str] = []
    pending: Token | None = None  # a key whose value comes next
    try:
        for token in tokens(line):
            if pending is not None:
                if token.kind != "{" or token.depth > deepest:
                    names.append(dotted(pending.path))
                pending = None
            if len(names) >= limit:
                break
            if token.kind == "key" and token.depth <= deepest + 1:
                path = token.path
                if all(isinstance(part, str) for part in path):
                    pending = token
    except JsonSyntaxError:
        return []
    return list(dict.fromkeys(names))


def string_fields(line: str) -> list[str]:
    """The top-level fields of a JSON object that hold a string, or an array of strings only."""
    fields: list[str] = []
    key: str | None = None  # the top-level member being read, while it may still hold text
    in_array = False
    try:
        for token in tokens(line):
            if token.depth == 0 and token.kind not in ("{", "}"):
                return []  # not an object
            if token.depth == 1 and token.kind == "key":
                key, in_array = str(token.key), False
            elif token.depth == 1 and key is not None:
                if token.kind == "[" and not in_array:
                    in_array = True
                    continue
                if token.kind == "string" or (token.kind == "]" and in_array):
                    fields.append(key)
                key = None
            elif token.depth == 2 and key is not None and token.kind != "string":
                key = None  # an array holding something else than strings
    except JsonSyntaxError:
        return []
    return fields
