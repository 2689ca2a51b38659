"""A TOML string file's members (strings/outline.py) and how members are written into one.

Members: every table (`[posts]`: from its header to the end of its last line, its sub-tables
that follow it included), every key/value pair (its key to the end of its line, a comment there
included), the tables that dotted keys and `[a.b]` headers imply, and the members of inline
tables and arrays. A new pair goes on its own line after its sibling; a new table goes after the
table that precedes it in the source, a blank line before it where the file separates its
tables so, and never where it would take over another table's pairs: after the last pair of the
table its sibling is in. A removed member takes its lines with it. Inside an inline table or an
array, members are separated by `, `.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace

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
    newline_of,
    reindented,
)
from ..strings.plurals import CATEGORIES
from ._tomltext import Header, Pair, structure


def _comment_end(text: str, pos: int) -> int:
    """`pos`, or the end of its line (before `\\r\\n`) where a comment follows on it."""
    end = pos
    while end < len(text) and text[end] in " \t":
        end += 1
    if end >= len(text) or text[end] != "#":
        return pos
    newline = text.find("\n", end)
    end = len(text) if newline < 0 else newline
    return end - 1 if text[end - 1] == "\r" else end


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _past_line_break(text: str, pos: int) -> int:
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline + 1


def toml_outline(text: str, write: Callable[[str, str], Callable[[str], str]]) -> Outline:
    """Every member of a document tomllib accepted, in document order. `write(raw, style)`: the
    writer of a string value written `raw` in `style` (toml_strings._writer)."""
    pairs, headers = structure(text)
    members: list[Member] = []
    flow: set[KeyPath] = set()
    flow_containers: set[KeyPath] = set()
    for pair in pairs:
        members.append(_member(text, pair, write))
        if pair.inline:
            flow.add(pair.path)
        if pair.kind in ("[", "{"):
            flow_containers.add(pair.path)
    members.extend(_tables(text, headers, members))
    members.sort(key=lambda m: (m.start, len(m.path)))
    members = _implied(members)
    top_start = 1 if text.startswith("\ufeff") else 0
    top = Container((), top_start, len(text), len(text), len(text))
    block_ends = sorted(m.end for m in members if m.path not in flow and text[m.start : m.start + 1] != "[")
    syntax = TomlSyntax(
        frozenset(flow),
        frozenset(flow_containers),
        [h.start for h in headers],
        block_ends,
        re.search(r"\n[ \t]*\r?\n[ \t]*\[", text) is not None,
    )
    return Outline((top, *_plural_forms(text, members)), syntax)


def _member(text: str, pair: Pair, write: Callable[[str, str], Callable[[str], str]]) -> Member:
    start = pair.key_start if pair.key_start >= 0 else pair.start
    end = pair.end if pair.inline else _comment_end(text, pair.end)
    if pair.kind in ("[", "{"):
        return Container(pair.path, start, end, pair.start + 1, pair.end - 1)
    if pair.kind:  # a string
        raw = text[pair.start : pair.end]
        return Leaf(pair.path, start, end, pair.start, pair.end, pair.value, write(raw, pair.kind))
    return Leaf(pair.path, start, end, pair.start, pair.end, pair.value, None)


def _tables(text: str, headers: list[Header], members: list[Member]) -> list[Container]:
    """A container per table header: from the header to its last pair's line, and over the
    tables right after it that are inside it (`[a]` then `[a.b]`)."""
    own_end: list[int] = []
    ends = sorted((m.start, m.end) for m in members)
    starts = [s for s, _ in ends]
    for i, header in enumerate(headers):
        stop = headers[i + 1].start if i + 1 < len(headers) else len(text)
        inside = ends[bisect_right(starts, header.start) : bisect_right(starts, stop - 1)]
        own_end.append(max((e for _, e in inside), default=_comment_end(text, header.end)))
    out: list[Container] = []
    for i, header in enumerate(headers):
        end = own_end[i]
        for j in range(i + 1, len(headers)):
            if headers[j].path[: len(header.path)] != header.path:
                break
            end = own_end[j]
        inner = _comment_end(text, header.end)
        out.append(Container(header.path, header.start, end, inner, end))
    return out


def _implied(members: list[Member]) -> list[Member]:
    """The tables that dotted keys and headers imply (`a.b = 1`, `[a.b]` without `[a]`), each as
    a container over its members, before them."""
    have = {m.path for m in members}
    spans: dict[KeyPath, list[int]] = {}
    for member in members:
        for i in range(1, len(member.path)):
            prefix = member.path[:i]
            if prefix not in have:
                span = spans.setdefault(prefix, [member.start, member.end])
                span[0], span[1] = min(span[0], member.start), max(span[1], member.end)
    implied: list[Member] = [Container(p, s, e, s, e) for p, (s, e) in spans.items()]
    return sorted([*members, *implied], key=lambda m: (m.start, len(m.path)))


def _plural_forms(text: str, members: list[Member]) -> list[Member]:
    """The values of a table whose own keys are plural categories (Hugo `one`, `other`) named
    so (its sub-tables are no keys of its own)."""
    children: dict[KeyPath, list[int]] = {}
    for i, member in enumerate(members):
        if member.path and not text.startswith("[", member.start):
            children.setdefault(member.path[:-1], []).append(i)
    for indices in children.values():
        names = [members[i].path[-1] for i in indices]
        if (
            len(names) < 2
            or "other" not in names
            or not all(isinstance(members[i], Leaf) and n in CATEGORIES for i, n in zip(indices, names))
        ):
            continue
        for i in indices:
            leaf = members[i]
            assert isinstance(leaf, Leaf)
            members[i] = replace(leaf, category=str(leaf.path[-1]))
    return members


def _is_table(body: str) -> bool:
    return body.lstrip().startswith("[")


class TomlSyntax:
    def __init__(
        self,
        flow: frozenset[KeyPath],
        flow_containers: frozenset[KeyPath],
        headers: list[int],
        block_ends: list[int],
        blank_between_tables: bool,
    ) -> None:
        self.flow = flow  # members inside an inline table or an array
        self.flow_containers = flow_containers
        self.headers = headers  # where each table header starts
        self.block_ends = block_ends  # where each pair (outside inline tables) ends
        self.blank = blank_between_tables

    def _body(self, text: str, member: Copied, indent: str) -> str:
        body = member.text.replace("\r\n", "\n")
        if member.point:  # a new plural form as written at a point: its line break first
            body = body.lstrip(" \t\n")
        else:
            body = reindented(body, member.indent, indent)
        newline = newline_of(text)
        return body.replace("\n", newline) if newline != "\n" else body

    def _table_lead(self, text: str) -> str:
        newline = newline_of(text)
        return newline + newline if self.blank else newline

    def _pairs_end(self, pos: int) -> int:
        """The end of the last pair of the table that `pos` is in (where a new table may go)."""
        at = bisect_right(self.headers, pos)
        stop = self.headers[at] if at < len(self.headers) else None
        lo = bisect_right(self.block_ends, pos - 1)
        hi = len(self.block_ends) if stop is None else bisect_right(self.block_ends, stop)
        return self.block_ends[hi - 1] if hi > lo else pos

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        if sibling.path in self.flow:
            added = "".join(", " + self._body(text, m, "") for m in members)
            return Splice(sibling.end, sibling.end, added)
        newline = newline_of(text)
        indent = indentation(text, sibling.start)
        bodies = [self._body(text, m, indent) for m in members]
        at = sibling.end
        if any(_is_table(b) for b in bodies) and not text.startswith("[", sibling.start):
            at = self._pairs_end(sibling.end)  # a table never goes amid a table's pairs
        added = "".join((self._table_lead(text) if _is_table(b) else newline + indent) + b for b in bodies)
        return Splice(at, at, added)

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        if sibling.path in self.flow:
            return Splice(
                sibling.start, sibling.start, "".join(self._body(text, m, "") + ", " for m in members)
            )
        newline = newline_of(text)
        indent = indentation(text, sibling.start)
        added = ""
        for member in members:
            body = self._body(text, member, indent)
            added += body + (self._table_lead(text) if _is_table(body) else newline) + indent
        return Splice(sibling.start, sibling.start, added)

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        if container.path in self.flow_containers:
            kept = text[container.inner_start : container.inner_end].strip()
            joined = ", ".join(self._body(text, m, "") for m in members)
            return Splice(container.inner_start, container.inner_start, joined + (", " if kept else ""))
        if container.path == ():  # a file with none of its members: at its end
            added = ""
            for member in members:
                body = self._body(text, member, "")
                added += (self._table_lead(text) if _is_table(body) else newline) + body
            if not text.strip():
                added = added.lstrip("\r\n") + newline
            elif text.endswith("\n"):
                added = added[len(newline) :] + newline
            return Splice(len(text), len(text), added)
        if text.startswith("[", container.start):  # a table without its pairs: after its header
            at = container.inner_start
            return Splice(at, at, "".join(newline + self._body(text, m, "") for m in members))
        start = _line_start(text, container.inner_start)  # implied (dotted keys): where its members were
        indent = indentation(text, container.inner_start)
        return Splice(start, start, "".join(indent + self._body(text, m, indent) + newline for m in members))

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        if run[0].path in self.flow:
            return listed_removal(run, before, after, parent)
        start = _line_start(text, run[0].start)
        end = _past_line_break(text, run[-1].end)
        if end == len(text) and not text.endswith("\n") and start > 0:  # the last line: the break before it
            start -= 2 if text[start - 2 : start] == "\r\n" else 1
        elif _blank_line_at(text, end) and (start == 0 or _blank_line_at(text, _line_start(text, start - 1))):
            end = _past_line_break(text, end)  # a table between blank lines: one of them goes too
        return Splice(start, end, "")


def _blank_line_at(text: str, pos: int) -> bool:
    newline = text.find("\n", pos)
    return pos < len(text) and not text[pos : len(text) if newline < 0 else newline].strip()
