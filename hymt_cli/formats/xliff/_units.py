"""The translation units of an XLIFF 1.2 or 2.0 document, found in its XML events.

1.2: `<file source-language target-language>` > `<group>`* > `<trans-unit>` > `<source>`,
`<seg-source>`, `<target state>`, `<note>`, `<alt-trans>` (never touched). A `<seg-source>`
that cuts the source into `<mrk mtype="seg" mid="n">` segments (Okapi, Trados) is what is
translated: the target repeats its segments, each `mid` with its translation. 2.0: `<xliff srcLang
trgLang>` > `<file>` > `<group>`* > `<unit>` > `<notes>`, `<segment state>` > `<source>`,
`<target>`. `translate="no"` on a unit or any element above it leaves it alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..base import FormatError
from ..xmlscan import XmlEvent
from ..xmlvalues import children, matching_end


def local(name: str) -> str:
    """`xlf:trans-unit` -> `trans-unit` (the document's own prefix, if any)."""
    return name.rpartition(":")[2]


@dataclass(slots=True)
class Unit:
    """One source to translate: events[source] .. events[source_end] is its `<source>`;
    `target`/`target_end` its `<target>` (-1: none); `state_at` the event whose start tag holds
    the state (1.2: the target, 2.0: the segment; -1: none yet); `scope` the file (1.2) or the
    document (2.0) the unit belongs to."""

    key: str
    source: int
    source_end: int
    target: int = -1
    target_end: int = -1
    anchor: int = -1  # the end event after which a new target goes (`</source>` or `</seg-source>`)
    state_at: int = -1
    state: str = ""
    notes: list[str] = field(default_factory=list)
    scope: int = 0  # event index of the `<file>` (1.2) or `<xliff>` (2.0) start tag
    # 1.2: a `<seg-source>` whose `<mrk mtype="seg">` segments a target repeats (-1: none)
    segmented: int = -1
    segmented_end: int = -1


@dataclass(frozen=True, slots=True)
class Scope:
    """Where the languages are declared: the start tag's event, its languages."""

    event: int
    source_language: str
    target_language: str


def _is_segment(event: XmlEvent) -> bool:
    return local(event.name) == "mrk" and event.attrs.get("mtype") == "seg"


def _text(events: Sequence[XmlEvent], first: int, last: int) -> str:
    return "".join(e.data for e in events[first + 1 : last] if e.kind == "text").strip()


class Walk:
    """Every unit of the document and the scopes that declare its languages."""

    def __init__(self, events: Sequence[XmlEvent]) -> None:
        self.events = events
        root = next((i for i, e in enumerate(events) if e.kind == "start"), None)
        if root is None or local(events[root].name) != "xliff":
            raise FormatError("not an XLIFF document (no <xliff> root element)")
        attrs = events[root].attrs
        version = attrs.get("version", "")
        self.version2 = version.startswith("2") or "xliff:document:2" in attrs.get("xmlns", "")
        if not self.version2 and version and not version.startswith("1"):
            raise FormatError(f"XLIFF version {version} is not 1.x or 2.x")
        self.root = root
        self.scopes: list[Scope] = []
        self.units: list[Unit] = []
        if self.version2:
            self.scopes.append(Scope(root, attrs.get("srcLang", ""), attrs.get("trgLang", "")))
        self._walk(root, matching_end(events, root), translate=True)

    def _walk(self, first: int, last: int, *, translate: bool) -> None:
        events = self.events
        for i, j in children(events, first, last):
            event = events[i]
            name = local(event.name)
            here = translate and event.attrs.get("translate", "yes") != "no"
            if name == "file" and not self.version2:
                self.scopes.append(
                    Scope(i, event.attrs.get("source-language", ""), event.attrs.get("target-language", ""))
                )
            if name in ("file", "body", "group"):
                self._walk(i, j, translate=here)
            elif name == "trans-unit" and here:
                self._unit12(i, j)
            elif name == "unit" and self.version2 and here:
                self._unit20(i, j)

    def _unit12(self, first: int, last: int) -> None:
        events = self.events
        attrs = events[first].attrs
        unit = Unit(
            attrs.get("resname") or attrs.get("id", ""),
            -1,
            -1,
            scope=self.scopes[-1].event if self.scopes else 0,
        )
        for i, j in children(events, first, last):
            name = local(events[i].name)
            if name == "source" and unit.source < 0:
                unit.source, unit.source_end, unit.anchor = i, j, j
            elif name == "seg-source":
                unit.anchor = j
                if any(_is_segment(events[a]) for a, _ in children(events, i, j)):
                    unit.segmented, unit.segmented_end = i, j
            elif name == "target" and unit.target < 0:
                unit.target, unit.target_end, unit.state_at = i, j, i
                unit.state = events[i].attrs.get("state", "")
            elif name == "note":
                unit.notes.append(_text(events, i, j))
        if unit.source >= 0:
            self.units.append(unit)

    def _unit20(self, first: int, last: int) -> None:
        events = self.events
        attrs = events[first].attrs
        key = attrs.get("name") or attrs.get("id", "")
        notes: list[str] = []
        segments = [(i, j) for i, j in children(events, first, last) if local(events[i].name) == "segment"]
        for i, j in children(events, first, last):
            if local(events[i].name) == "notes":
                notes.extend(
                    _text(events, a, b) for a, b in children(events, i, j) if local(events[a].name) == "note"
                )
        for i, j in segments:
            seg_key = (
                key
                if len(segments) == 1
                else f"{key}#{events[i].attrs.get('id', segments.index((i, j)) + 1)}"
            )
            unit = Unit(
                seg_key,
                -1,
                -1,
                state_at=i,
                state=events[i].attrs.get("state", ""),
                notes=list(notes),
                scope=self.root,
            )
            for a, b in children(events, i, j):
                name = local(events[a].name)
                if name == "source" and unit.source < 0:
                    unit.source, unit.source_end, unit.anchor = a, b, b
                elif name == "target" and unit.target < 0:
                    unit.target, unit.target_end = a, b
            if unit.source >= 0:
                self.units.append(unit)
