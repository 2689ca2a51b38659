"""An XLIFF document's units as members (strings/outline.py), for merging into a target file.

A unit is known by its `<file>` (its `original`, or 2.0 `id`; left out where the document has
one file, so that a target whose tool named it otherwise still matches) and its `id`. Its value
(`Leaf.text`) is the content of its `<target>` as written, "" where it has none, an empty one,
or a placeholder: a target whose state says it still needs translating (1.2 `new` or
`needs-translation`, 2.0 `initial`) and that repeats its source (Angular's xliffmerge writes
new units so). Any other target is a person's, whatever its state (Angular teams translate
units left `new`). What it is translated from (`Leaf.source`) is the content of its `<source>`.
A 2.0 unit of several segments holds them as members of their own.

Into a target (`XliffSyntax`): a new unit is the source's unit with its target written, after
the unit that precedes it in the source, indented as the target indents; a unit translated
again takes the source's `<source>` and the new target content in its own `<target>` (its state
set as a new one's); a unit the source lost goes with the white space before it. Everything
else (groups, notes, attributes, other units) keeps its bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from ..base import FormatError
from ..strings.outline import (
    Container,
    Copied,
    KeyPath,
    Leaf,
    Member,
    Outline,
    Splice,
    indentation,
    reindented,
)
from ..strings.shape import is_text
from ..xmlscan import XmlEvent, scan
from ..xmlvalues import children, matching_end
from ._units import Unit, Walk, local

_PLACEHOLDER_STATES = {False: frozenset({"new", "needs-translation"}), True: frozenset({"initial"})}
_UNITS = {False: "trans-unit", True: "unit"}


class ScannedXliff(Protocol):
    """What the outline needs of the format's scan of a document (xliff/__init__.py `_Scan`)."""

    text: str
    events: list[XmlEvent]
    walk: Walk
    v2: bool

    def _placement(self, unit: Unit) -> tuple[int, int, Callable[[str], str]]: ...


def xliff_outline(scanned: ScannedXliff) -> Outline:
    """The document's files and units in order (a unit whose id its file already has is none)."""
    events, text, v2 = scanned.events, scanned.text, scanned.v2
    root = scanned.walk.root
    root_end = matching_end(events, root)
    syntax = XliffSyntax(text)
    members: list[Member] = [
        Container((), events[root].start, events[root_end].end, events[root].end, events[root_end].start)
    ]
    units = sorted(scanned.walk.units, key=lambda u: u.source)
    sources = [u.source for u in units]
    files = [(i, j) for i, j in children(events, root, root_end) if local(events[i].name) == "file"]
    names: dict[str, int] = {}
    for number, (i, j) in enumerate(files):
        attrs = events[i].attrs
        name = "" if len(files) == 1 else attrs.get("original") or attrs.get("id") or f"#{number + 1}"
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:
            name = f"{name}#{names[name]}"
        inner = _inner(events, i, j, v2, syntax)
        members.append(Container((name,), events[i].start, events[j].end, *inner))
        seen: set[str] = set()
        for a, b in _unit_elements(events, i, j, v2):
            from_ = _bisect(sources, a)
            found = [u for u in units[from_ : _bisect(sources, b)] if a < u.source < b]
            if not found:
                continue  # translate="no", or no <source>
            unit_id = events[a].attrs.get("id") or events[a].attrs.get("resname") or f"#{len(seen) + 1}"
            if unit_id in seen:
                continue  # a second unit with an id (tools read one of them): left as it is
            seen.add(unit_id)
            if len(found) == 1:
                members.append(
                    syntax.member((name, unit_id), found[0], scanned, events[a].start, events[b].end)
                )
                continue
            members.append(
                Container((name, unit_id), events[a].start, events[b].end, events[a].end, events[b].start)
            )
            for n, unit in enumerate(found):
                segment = events[unit.state_at]
                seg_id = segment.attrs.get("id") or f"#{n + 1}"
                end = events[matching_end(events, unit.state_at)].end
                members.append(syntax.member((name, unit_id, seg_id), unit, scanned, segment.start, end))
    return Outline(tuple(members), syntax)


def _bisect(values: list[int], x: int) -> int:
    from bisect import bisect_left

    return bisect_left(values, x)


def _inner(events: list[XmlEvent], i: int, j: int, v2: bool, syntax: XliffSyntax) -> tuple[int, int]:
    """Where a file's units go: inside its `<body>` (1.2), inside the `<file>` (2.0)."""
    if not v2:
        body = next(((a, b) for a, b in children(events, i, j) if local(events[a].name) == "body"), None)
        if body is not None:
            a, b = body
            if events[a].empty:
                syntax.closed[events[a].end] = (events[a].start, events[a].end)
                return events[a].end, events[a].end
            return events[a].end, events[b].start
    return events[i].end, events[j].start


def _unit_elements(events: list[XmlEvent], first: int, last: int, v2: bool) -> list[tuple[int, int]]:
    """The unit elements under a file, through its body and groups, in order."""
    out: list[tuple[int, int]] = []
    for i, j in children(events, first, last):
        name = local(events[i].name)
        if name == _UNITS[v2]:
            out.append((i, j))
        elif name in ("body", "group"):
            out.extend(_unit_elements(events, i, j, v2))
    return out


def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _step(text: str) -> str:
    """The document's indentation step (its smallest indentation), two spaces by default."""
    found = re.findall(r"\n([ \t]+)<", text[:20000])
    return min(found, key=len) if found else "  "


def _element(events: list[XmlEvent], first: int, last: int, name: str) -> tuple[int, int] | None:
    """A unit's (or segment's) `<source>` or `<target>`: a child, or a child of its segment."""
    for i, j in children(events, first, last):
        here = local(events[i].name)
        if here == name:
            return i, j
        if here == "segment":
            return _element(events, i, j, name)
    return None


class XliffSyntax:
    """How units go into an XLIFF document and leave it (module docstring)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newline = _newline(text)
        self.step = _step(text)
        self.closed: dict[int, tuple[int, int]] = {}  # a `<body/>` with no content: its span

    def member(self, path: KeyPath, unit: Unit, scanned: ScannedXliff, start: int, end: int) -> Leaf:
        events, text = scanned.events, scanned.text
        source = text[events[unit.source].end : events[unit.source_end].start]
        value = ""
        if unit.target >= 0 and not events[unit.target].empty:
            value = text[events[unit.target].end : events[unit.target_end].start]
            if unit.state in _PLACEHOLDER_STATES[scanned.v2] and value.strip() == source.strip():
                value = ""
        if not value.strip():
            value = ""
        if not is_text(
            "".join(e.data for e in events[unit.source + 1 : unit.source_end] if e.kind == "text")
        ):
            source = ""  # nothing to translate (inline codes only, a URL): the scan sends none
        value_start, value_end, place = scanned._placement(unit)
        span = (events[unit.source].start, events[unit.source_end].end)
        rewrite = functools.partial(self._rewritten, start, end, span, (value_start, value_end), place)
        return Leaf(path, start, end, value_start, value_end, value, place, source, rewrite=rewrite)

    def _rewritten(
        self,
        start: int,
        end: int,
        source: tuple[int, int],
        placement: tuple[int, int],
        place: Callable[[str], str],
        copied: str,
    ) -> str:
        """The target's unit with the source's `<source>` and the new target content in its
        own `<target>` (what the source's unit, `copied`, has there)."""
        text = self.text
        new_source, content = _parts(copied)
        ss, se = source
        ps, pe = placement
        placed = text[ps:pe] if content is None else place(content)
        old_source = text[ss:se]
        if new_source is None or new_source == old_source:
            return text[start:ps] + placed + text[pe:end]
        if se <= ps:
            return text[start:ss] + new_source + text[se:ps] + placed + text[pe:end]
        if ps <= ss and se <= pe:  # 2.0: the placement holds the segment's source
            at = placed.find(old_source)
            if at >= 0:
                placed = placed[:at] + new_source + placed[at + len(old_source) :]
            return text[start:ps] + placed + text[pe:end]
        # 1.2 with no target yet: the placement starts at the source's end tag
        return text[start:ss] + new_source + placed[pe - ps :] + text[pe:end]

    # -- Syntax ----------------------------------------------------------------------------------
    def _texts(self, members: Sequence[Copied], indent: str) -> list[str]:
        out = []
        for member in members:
            body = member.text.replace("\r\n", "\n")
            if self.newline != "\n":
                body = body.replace("\n", self.newline)
            out.append(reindented(body, member.indent, indent))
        return out

    def _lead(self, text: str, pos: int) -> str:
        """The white space right before `pos` (a member's line break and indentation)."""
        start = pos
        while start > 0 and text[start - 1] in " \t\r\n":
            start -= 1
        lead = text[start:pos]
        return lead if "\n" in lead else ""

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = self._lead(text, sibling.start) or self.newline + indentation(text, sibling.start)
        indent = lead.rpartition("\n")[2]
        return Splice(sibling.end, sibling.end, "".join(lead + m for m in self._texts(members, indent)))

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = self._lead(text, sibling.start) or self.newline + indentation(text, sibling.start)
        indent = lead.rpartition("\n")[2]
        return Splice(sibling.start, sibling.start, "".join(m + lead for m in self._texts(members, indent)))

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        outer = indentation(text, container.inner_start)
        indent = outer + self.step
        body = "".join(self.newline + indent + m for m in self._texts(members, indent)) + self.newline + outer
        closed = self.closed.get(container.inner_start)
        if closed is not None:  # `<body/>`: written open
            tag = text[closed[0] : closed[1]]
            name = tag[1:].split()[0].rstrip("/>")
            return Splice(closed[0], closed[1], tag[:-2].rstrip() + ">" + body + f"</{name}>")
        inner = text[container.inner_start : container.inner_end]
        end = container.inner_end if not inner.strip() else container.inner_start
        if inner.strip():
            body = body[: -len(self.newline + outer)]
        return Splice(container.inner_start, end, body)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        """Each unit with the white space before it; whatever lies between them stays."""
        pieces: list[str] = []
        start = pos = -1
        for member in run:
            cut = member.start
            while cut > 0 and text[cut - 1] in " \t\r\n":
                cut -= 1
            if start < 0:
                start = cut
            else:
                pieces.append(text[pos:cut])
            pos = member.end
        return Splice(start, pos, "".join(pieces))


def _parts(copied: str) -> tuple[str | None, str | None]:
    """The `<source>` element of a source's unit (or segment) as written for a target, and the
    content of its `<target>` (None where it has none)."""
    try:
        events = scan(copied)
    except FormatError:
        return None, None
    first = next((i for i, e in enumerate(events) if e.kind == "start"), None)
    if first is None:
        return None, None
    last = matching_end(events, first)
    source = _element(events, first, last, "source")
    target = _element(events, first, last, "target")
    new_source = copied[events[source[0]].start : events[source[1]].end] if source is not None else None
    if target is None or events[target[0]].empty:
        return new_source, None
    return new_source, copied[events[target[0]].end : events[target[1]].start]
