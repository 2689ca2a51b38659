"""A JSON string file's members (strings/outline.py) and how members are written into one: a
new member goes after its sibling with a `,` and the whitespace the sibling is written after;
a removed one takes its separator with it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..jsontext import JsonStyle, decode_string, encode_string, tokens
from ..strings.outline import (
    Container,
    Copied,
    KeyPath,
    Leaf,
    Member,
    Outline,
    Splice,
    indentation,
    listed_removal,
    reindented,
)
from ._walk import plural_key


def json_outline(text: str, *, arb: bool = False) -> Outline:
    """Every member of the document (its top: an object or an array) in document order; raise
    JsonSyntaxError where the text is no JSON. `arb`: an ARB file, whose `@key` members describe
    `key` (its companions)."""
    styles: list[JsonStyle] = []  # the file's, read at the first value written (scanning megabytes)

    def write(value: str) -> str:
        if not styles:
            styles.append(JsonStyle.of(text))
        return encode_string(value, styles[0])

    fast = pattern_members(text, write)
    members: list[Member | None] = list(fast) if fast is not None else token_members(text, write)
    done = [m for m in members if m is not None]
    if not done or not isinstance(done[0], Container):
        raise ValueError("the document is no JSON object or array")
    companions: dict[KeyPath, KeyPath] = {}
    if arb:
        for member in done:
            name = member.path[0] if len(member.path) == 1 else None
            if isinstance(name, str) and name.startswith("@") and not name.startswith("@@"):
                companions[member.path] = (name[1:],)
    # i18next looks `key_zero` up for a count of 0 in every language (its needsZeroSuffixLookup)
    return Outline(
        tuple(_plural_forms(done)), JsonSyntax(_indent_unit(text)), companions, optional_forms=_ZERO
    )


def token_members(text: str, write: Callable[[str], str]) -> list[Member | None]:
    """The members from jsontext's tokens (strict: raises JsonSyntaxError with line and column)."""
    members: list[Member | None] = []
    # Open containers: (index in members, member start, inner start, path). A value's path is
    # its container's and its own key or index (jsontext's link), built once per value.
    open_: list[tuple[int, int, int, KeyPath]] = []
    key_start = -1
    for token in tokens(text):
        kind = token.kind
        if kind == "key":
            key_start = token.start
            continue
        start = key_start if key_start >= 0 else token.start
        key_start = -1
        if kind == "}" or kind == "]":
            index, member_start, inner, path = open_.pop()
            members[index] = Container(path, member_start, token.end, inner, token.start)
            continue
        link = token.link
        path = (*open_[-1][3], link[1]) if open_ and link is not None else ()
        if kind == "{" or kind == "[":
            open_.append((len(members), start, token.end, path))
            members.append(None)
        elif kind == "string":
            raw = text[token.start + 1 : token.end - 1]
            members.append(
                Leaf(path, start, token.end, token.start + 1, token.end - 1, decode_string(raw), write)
            )
        else:
            members.append(
                Leaf(path, start, token.end, token.start, token.end, text[token.start : token.end], None)
            )
    return members


_STRING = r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"'
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
_WS = r"[ \t\n\r]*"
# A value's groups: 2 string, 3 opening bracket, 4 number, 5 literal (1: a member's key, 6: the
# closing bracket). One match reads a whole member, its separator first: the loop runs once per
# member, not per token.
_VALUE_GROUPS = rf"(?:({_STRING})|([{{\[])|({_NUMBER})|(true|false|null))"
_TOP = re.compile(rf"{_WS}(){_VALUE_GROUPS}")
_FIRST_MEMBER = re.compile(rf"{_WS}(?:({_STRING}){_WS}:{_WS}{_VALUE_GROUPS}|(\}}))")
_NEXT_MEMBER = re.compile(rf"{_WS}(?:,{_WS}({_STRING}){_WS}:{_WS}{_VALUE_GROUPS}|(\}}))")
_FIRST_ITEM = re.compile(rf"{_WS}(?:(){_VALUE_GROUPS}|(\]))")
_NEXT_ITEM = re.compile(rf"{_WS}(?:,(){_WS}{_VALUE_GROUPS}|(\]))")
_SPACE = re.compile(_WS)


@dataclass(slots=True)
class _Open:
    """A container being read: its path, its index in the members, where it starts, where its
    members start, and how many members it has so far."""

    is_object: bool
    path: KeyPath
    index: int
    start: int
    inner: int
    count: int = 0


def pattern_members(text: str, write: Callable[[str], str]) -> list[Member | None] | None:
    """The members of a valid document, a member per match of a pattern (a catalog of 50,000 keys
    is read several times a run); None at anything unexpected, for `token_members` to read (or refuse
    with line and column). The same members as `token_members`, in the same order."""
    members: list[Member | None] = []
    stack: list[_Open] = []
    pos = 1 if text.startswith("\ufeff") else 0
    pattern = _TOP
    while True:
        m = pattern.match(text, pos)
        if m is None:
            return None
        pos = m.end()
        if m.lastindex == 6:  # the container closes
            frame = stack.pop()
            close = m.start(6)
            members[frame.index] = Container(frame.path, frame.start, pos, frame.inner, close)
        else:
            frame_or_none = stack[-1] if stack else None
            if frame_or_none is None:
                key: str | int | None = None
                member_start = m.start(m.lastindex or 2)
            elif frame_or_none.is_object:
                raw_key = m.group(1)
                key = decode_string(raw_key[1:-1]) if "\\" in raw_key else raw_key[1:-1]
                member_start = m.start(1)
            else:
                key = frame_or_none.count
                member_start = m.start(m.lastindex or 2)
            path: KeyPath = () if frame_or_none is None else (*frame_or_none.path, key)  # type: ignore[arg-type]
            if frame_or_none is not None:
                frame_or_none.count += 1
            group = m.lastindex
            start = m.start(group or 2)
            if group == 2:
                raw = text[start + 1 : pos - 1]
                value = decode_string(raw) if "\\" in raw else raw
                members.append(Leaf(path, member_start, pos, start + 1, pos - 1, value, write))
            elif group == 3:
                is_object = text[start] == "{"
                stack.append(_Open(is_object, path, len(members), member_start, pos))
                members.append(None)
                pattern = _FIRST_MEMBER if is_object else _FIRST_ITEM
                continue
            else:
                members.append(Leaf(path, member_start, pos, start, pos, text[start:pos], None))
        if not stack:
            break
        top = stack[-1]
        pattern = (
            (_NEXT_MEMBER if top.is_object else _NEXT_ITEM)
            if top.count
            else (_FIRST_MEMBER if top.is_object else _FIRST_ITEM)
        )
    end = _SPACE.match(text, pos)
    return members if end is not None and end.end() == len(text) else None


_ZERO = frozenset({"zero"})


def _plural_forms(members: list[Member]) -> list[Member]:
    """i18next plural forms (`items_one`, `items_other` side by side) named by their category,
    cardinal (`one`) or ordinal (`ordinal:one`): a target needs only its language's."""
    groups: dict[tuple[KeyPath, str, str], list[int]] = {}
    for i, member in enumerate(members):
        name = member.path[-1] if member.path else None
        if not isinstance(name, str) or "_" not in name or not isinstance(member, Leaf):
            continue
        parsed = plural_key(name)
        if parsed is not None:
            groups.setdefault((member.path[:-1], parsed[0], parsed[2]), []).append(i)
    for (_, _, kind), indices in groups.items():
        categories = []
        for i in indices:
            name = members[i].path[-1]
            assert isinstance(name, str)
            categories.append(name.rpartition("_")[2])
        if len(indices) < 2 or "other" not in categories:
            continue
        for i, category in zip(indices, categories):
            leaf = members[i]
            assert isinstance(leaf, Leaf)
            members[i] = replace(leaf, category=category if kind == "cardinal" else f"ordinal:{category}")
    return members


def _indent_unit(text: str) -> str:
    """The file's indentation step (the smallest indentation of a line), two spaces by default."""
    found = re.findall(r"\n([ \t]+)\S", text[:20000])
    return min(found, key=len) if found else "  "


def _lead(text: str, pos: int) -> str:
    """The whitespace right before `pos` (what a member is written after its separator)."""
    start = pos
    while start > 0 and text[start - 1] in " \t\r\n":
        start -= 1
    return text[start:pos]


class JsonSyntax:
    def __init__(self, unit: str) -> None:
        self.unit = unit

    def _texts(self, members: Sequence[Copied], lead: str) -> list[str]:
        indent = lead.rpartition("\n")[2] if "\n" in lead else ""
        out = []
        for member in members:
            text = member.text
            if member.point:  # a new plural form as written at a point: `,<lead>"x_few": "..."`
                body = text.lstrip(",")
                member_lead = _lead(body, len(body) - len(body.lstrip(" \t\r\n")))
                body = body.lstrip(" \t\r\n")
                out.append(reindented(body, member_lead.rpartition("\n")[2], indent))
            else:
                out.append(reindented(text, member.indent, indent))
        return out

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = _lead(text, sibling.start)
        return Splice(sibling.end, sibling.end, "".join("," + lead + m for m in self._texts(members, lead)))

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = _lead(text, sibling.start)
        return Splice(
            sibling.start, sibling.start, "".join(m + "," + lead for m in self._texts(members, lead))
        )

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        inner = text[container.inner_start : container.inner_end]
        if "\n" in text:
            outer = indentation(text, container.start)
            newline = "\r\n" if "\r\n" in text else "\n"
            lead = newline + outer + self.unit
            body = ",".join(lead + m for m in self._texts(members, lead)) + newline + outer
        else:
            body = ",".join(self._texts(members, ""))
        end = container.inner_end if not inner.strip() else container.inner_start
        return Splice(container.inner_start, end, body)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        return listed_removal(run, before, after, parent)
