"""How members are written into a YAML string file and removed from one.

A new member goes on its own lines after its sibling, at the sibling's column, its lines
indented as the target indents; a removed one takes its lines with it (the comment lines above
it stay: they may head what follows). In a flow collection (`[a, b]`, `{a: 1}`) members are
separated by `, `. A target without its language's subtree (a file of several locales) gets
one: `de:` appended at the end of the file, holding what the source's subtree holds, translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..strings.outline import (
    Container,
    Copied,
    KeyPath,
    Member,
    Splice,
    indentation,
    listed_removal,
    newline_of,
    reindented,
)


def column_of(text: str, pos: int) -> int:
    """The column of `pos` on its line (0: its start)."""
    return pos - (text.rfind("\n", 0, pos) + 1)


def line_start(text: str, pos: int) -> int:
    """The offset of the start of the line that holds `pos`."""
    return text.rfind("\n", 0, pos) + 1


def first_on_line(text: str, pos: int) -> bool:
    """Whether only spaces and tabs come before `pos` on its line."""
    return not text[line_start(text, pos) : pos].strip(" \t")


@dataclass(frozen=True, slots=True)
class Fill:
    """Where the members go of a language's subtree that the target lacks: at `at`, after
    `head` (a new root key, or nothing after an empty one), each on a line of its own; `tail`
    ends the insertion (the line break of a subtree appended at the end)."""

    at: int
    head: str
    tail: str = ""


class YamlSyntax:
    """How members go into a YAML string file and leave it (module docstring)."""

    def __init__(
        self,
        flow: frozenset[KeyPath],
        flow_containers: frozenset[KeyPath],
        unit: str,
        fill: Fill | None = None,
    ) -> None:
        self.flow = flow  # members inside a flow collection
        self.flow_containers = flow_containers
        self.unit = unit
        self.fill = fill

    def _body(self, text: str, member: Copied, indent: str) -> str:
        """A copied member's text as the target writes it: its line breaks, its indentation."""
        body = member.text.replace("\r\n", "\n")
        if member.point:  # a new plural form as written at a point: its separator first
            body = body.lstrip(", \t\n")
        else:
            body = reindented(body, member.indent, indent)
        newline = newline_of(text)
        return body.replace("\n", newline) if newline != "\n" else body

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        if sibling.path in self.flow:
            added = "".join(", " + self._body(text, m, "") for m in members)
        else:
            prefix = " " * column_of(text, sibling.start)
            indent = indentation(text, sibling.start)
            newline = newline_of(text)
            added = "".join(newline + prefix + self._body(text, m, indent) for m in members)
        return Splice(sibling.end, sibling.end, added)

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        if sibling.path in self.flow:
            added = "".join(self._body(text, m, "") + ", " for m in members)
        else:
            prefix = " " * column_of(text, sibling.start)
            indent = indentation(text, sibling.start)
            newline = newline_of(text)
            added = "".join(self._body(text, m, indent) + newline + prefix for m in members)
        return Splice(sibling.start, sibling.start, added)

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        start = container.inner_start
        if container.path == () and self.fill is not None:
            fill = self.fill
            body = "".join(newline + self.unit + self._body(text, m, self.unit) for m in members)
            return Splice(fill.at, fill.at, fill.head + body + fill.tail)
        if container.path in self.flow_containers:
            kept = text[start : container.inner_end].strip()
            joined = ", ".join(self._body(text, m, "") for m in members)
            return Splice(start, start, joined + (", " if kept else ""))
        # A block collection whose members all go (remove): the new ones take their place.
        first = start + len(text[start:]) - len(text[start:].lstrip(" \t"))
        indent = indentation(text, first)
        prefix = " " * column_of(text, first)
        bodies = [self._body(text, m, indent) for m in members]
        if start == line_start(text, start):
            return Splice(start, start, "".join(prefix + b + newline for b in bodies))
        return Splice(start, start, (newline + prefix).join(bodies) + newline)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        if run[0].path in self.flow:
            return listed_removal(run, before, after, parent)
        if before is None and after is None:  # every member goes: their lines
            return Splice(parent.inner_start, _past_line_break(text, parent.inner_end), "")
        start = run[0].start
        if not first_on_line(text, start) and after is not None:  # after `- `: the next one moves up
            return Splice(start, after.start, "")
        start = line_start(text, start)
        end = _past_line_break(text, run[-1].end)
        if end == len(text) and not text.endswith("\n") and start > 0:  # the last line: the break before it
            start -= 2 if text[start - 2 : start] == "\r\n" else 1
        return Splice(start, end, "")


def _past_line_break(text: str, pos: int) -> int:
    """`pos` moved past the rest of its line and the line break that ends it."""
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline + 1
