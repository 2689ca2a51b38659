"""A JSON string file's members (strings/outline.py) and how members are written into one: a
new member goes after its sibling with a `,` and the whitespace the sibling is written after;
a removed one takes its separator with it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..jsontext import JsonStyle, decode_string, encode_string, tokens
from ..strings.outline import (
    Container,
    Copied,
    Leaf,
    Member,
    Outline,
    Path,
    Splice,
    indentation,
    reindented,
)
from .walk import plural_key


def json_outline(text: str, *, arb: bool = False) -> Outline:
    """Every member of the document (its top: an object or an array) in document order; raise
    JsonSyntaxError where the text is no JSON. `arb`: an ARB file, whose `@key` members describe
    `key` (its companions)."""
    style = JsonStyle.of(text)

    def write(value: str) -> str:
        return encode_string(value, style)

    members: list[Member | None] = []
    open_: list[tuple[int, int, int]] = []  # (index in members, member start, inner start)
    key_start = -1
    for token in tokens(text):
        kind = token.kind
        if kind == "key":
            key_start = token.start
            continue
        start = key_start if key_start >= 0 else token.start
        key_start = -1
        if kind in ("{", "["):
            open_.append((len(members), start, token.end))
            members.append(None)
        elif kind in ("}", "]"):
            index, member_start, inner = open_.pop()
            # `}`'s path is its container's (jsontext gives the closing bracket the opening's link)
            members[index] = Container(token.path, member_start, token.end, inner, token.start)
        elif kind == "string":
            raw = text[token.start + 1 : token.end - 1]
            members.append(
                Leaf(token.path, start, token.end, token.start + 1, token.end - 1, decode_string(raw), write)
            )
        else:
            members.append(
                Leaf(
                    token.path, start, token.end, token.start, token.end, text[token.start : token.end], None
                )
            )
    done = [m for m in members if m is not None]
    if not done or not isinstance(done[0], Container):
        raise ValueError("the document is no JSON object or array")
    companions: dict[Path, Path] = {}
    if arb:
        for member in done:
            name = member.path[0] if len(member.path) == 1 else None
            if isinstance(name, str) and name.startswith("@") and not name.startswith("@@"):
                companions[member.path] = (name[1:],)
    return Outline(tuple(_plural_forms(done)), JsonSyntax(_indent_unit(text)), companions)


def _plural_forms(members: list[Member]) -> list[Member]:
    """i18next plural forms (`items_one`, `items_other` side by side) named by their category,
    cardinal (`one`) or ordinal (`ordinal:one`): a target needs only its language's."""
    groups: dict[tuple[Path, str, str], list[int]] = {}
    for i, member in enumerate(members):
        name = member.path[-1] if member.path else None
        parsed = plural_key(name) if isinstance(member, Leaf) and isinstance(name, str) else None
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
        if after is not None:
            return Splice(run[0].start, after.start, "")
        if before is not None:
            return Splice(before.end, run[-1].end, "")
        return Splice(parent.inner_start, parent.inner_end, "")
