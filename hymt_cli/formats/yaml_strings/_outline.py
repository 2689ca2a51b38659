"""A YAML string file's members (strings/outline.py); _syntax.py writes members into one.

Members come from ruamel.yaml's parser events (the first document). A member of a block
collection spans its key (or a sequence item's `-`) to the end of its value's last line, a
comment there included.

Where a file holds one language under a root key (Rails' `en:`) or several (_roots.py), the
paths start below it, and the top container is that language's mapping. A target without its
language's subtree (a file of several locales) gets one (`Fill`).

An empty value (`menu_label:`, `~`, `null`) where the source has text is a missing translation:
a value is written there, quoted as the values beside it are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from ...text.segments import join_surrogates
from ..strings.outline import Container, KeyPath, Leaf, Member, Outline, newline_of
from ..strings.plurals import CATEGORIES
from ._roots import root_of
from ._scalars import is_string_scalar, write_scalar
from ._syntax import Fill, YamlSyntax, column_of, first_on_line, line_start
from .walk import value_start

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})


@dataclass(slots=True)
class _Frame:
    kind: Literal["map", "seq"]
    flow: bool
    path: KeyPath
    index: int  # its Container's place in the members (-1: opaque, a complex key)
    start: int
    inner_start: int = -1  # a flow collection's, after its bracket
    count: int = 0
    key: str | None = None  # the key whose value comes next (None: a complex key's value: skipped)
    key_start: int = 0
    key_end: int = 0
    expect_key: bool = True
    first_start: int = -1  # its first member's start
    last_end: int = -1  # its last member's end
    style: str | None = None  # the quoting of its last string value (a new value is written so)
    leaves: list[int] = field(default_factory=list)  # its members that are values (plurals)
    complex_key: bool = False  # an opaque collection that is a key (`? [a, b]`)


def _line_rest_end(text: str, pos: int) -> int:
    """`pos`, or the end of its line (before `\\r\\n`) where a comment follows on it."""
    end = pos
    while end < len(text) and text[end] in " \t":
        end += 1
    if end >= len(text) or text[end] != "#":
        return pos
    newline = text.find("\n", end)
    end = len(text) if newline < 0 else newline
    return end - 1 if text[end - 1] == "\r" else end


class _Builder:
    def __init__(self, text: str) -> None:
        self.text = text
        self.members: list[Member | None] = []
        self.stack: list[_Frame] = []
        self.flow: set[KeyPath] = set()  # members inside a flow collection
        self.flow_containers: set[KeyPath] = set()  # flow collections (`[a, b]`, `{a: 1}`)
        self.ascii_only = (
            re.search(r"\\u[0-9a-fA-F]{4}", text) is not None
            and re.search(r"[^\x00-\x7f]", text.lstrip("\ufeff")) is None
        )

    def run(self) -> None:
        from ruamel.yaml import YAML
        from ruamel.yaml.events import (
            AliasEvent,
            CollectionEndEvent,
            DocumentStartEvent,
            MappingStartEvent,
            ScalarEvent,
            SequenceStartEvent,
        )

        documents = 0
        for event in YAML(typ="safe", pure=True).parse(self.text):
            if isinstance(event, DocumentStartEvent):
                documents += 1
                if documents > 1:
                    return  # the first document only (a string file has one)
            elif isinstance(event, ScalarEvent):
                self._scalar(event)
            elif isinstance(event, AliasEvent):
                self._alias(event)
            elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                self._open(event, "map" if isinstance(event, MappingStartEvent) else "seq")
            elif isinstance(event, CollectionEndEvent):
                self._close(event)

    # -- where a value goes -------------------------------------------------------------------
    def _place(self, value_at: int) -> tuple[KeyPath, int] | None:
        """The path and member start of the value starting at `value_at` in the top frame (None:
        a complex key's value, or inside one: not a member)."""
        frame = self.stack[-1]
        if frame.index < 0:
            return None
        if frame.kind == "map":
            if frame.key is None:
                return None
            return (*frame.path, frame.key), frame.key_start
        start = value_at
        if not frame.flow:  # a block sequence item starts at its `-`
            dash = value_at - 1
            while dash >= 0 and self.text[dash] in " \t\r\n":
                dash -= 1
            if dash >= 0 and self.text[dash] == "-":
                start = dash
        return (*frame.path, frame.count), start

    def _placed(self, member: Member) -> None:
        frame = self.stack[-1]
        frame.count += 1
        frame.expect_key = True
        if frame.first_start < 0:
            frame.first_start = member.start
        frame.last_end = member.end
        if frame.flow:
            self.flow.add(member.path)

    def _end(self, frame: _Frame, value_end: int) -> int:
        """A member's end in `frame`: its value's end, and in a block collection the rest of its
        last line when only a comment follows."""
        return value_end if frame.flow else _line_rest_end(self.text, value_end)

    # -- events -------------------------------------------------------------------------------
    def _scalar(self, event: object) -> None:
        start, end = event.start_mark.index, event.end_mark.index  # type: ignore[attr-defined]
        if not self.stack:
            return  # a document that is one scalar: no members
        frame = self.stack[-1]
        if frame.kind == "map" and frame.expect_key:
            frame.key, frame.key_start, frame.key_end = str(event.value), start, end  # type: ignore[attr-defined]
            frame.expect_key = False
            return
        place = self._place(start)
        if place is None:
            frame.count += 1
            frame.expect_key = True
            return
        path, member_start = place
        leaf = self._leaf(frame, event, path, member_start, start, end)
        self.members.append(leaf)
        if frame.index >= 0:
            frame.leaves.append(len(self.members) - 1)
        self._placed(leaf)

    def _leaf(
        self, frame: _Frame, event: object, path: KeyPath, member_start: int, start: int, end: int
    ) -> Leaf:
        text = self.text
        value, style, tag = event.value, event.style, event.tag  # type: ignore[attr-defined]
        column = column_of(text, member_start)
        flow = frame.flow or any(f.flow for f in self.stack)
        ascii_only = self.ascii_only
        if style is None and tag is None and value in _NULLS:  # no value: a translation goes there
            if start == end:  # `key:` with nothing after it: the value is written after the `:`
                start = end = self._after_indicator(frame, start)

            def write_new(new: str) -> str:  # quoted as the mapping's values are (read when written)
                style = frame.style
                raw = write_scalar(new, "", style=style, flow=flow, column=column, ascii_only=ascii_only)
                return raw if text[start:end] else " " + raw

            return Leaf(path, member_start, self._end(frame, end), start, end, "", write_new)
        if not is_string_scalar(value, style, tag):
            return Leaf(path, member_start, self._end(frame, end), start, end, text[start:end], None)
        begin = value_start(text, start, end)
        raw = text[begin:end]
        frame.style = style if style in ("'", '"', None) else frame.style

        def write(new: str) -> str:
            return write_scalar(new, raw, style=style, flow=flow, column=column, ascii_only=ascii_only)

        value_end = end
        if style in ("|", ">"):  # a block scalar's span ends after its line breaks
            while value_end > begin and text[value_end - 1] in " \t\r\n":
                value_end -= 1
        return Leaf(
            path, member_start, self._end(frame, value_end), begin, end, join_surrogates(value), write
        )

    def _after_indicator(self, frame: _Frame, at: int) -> int:
        """Where an empty value is written: right after its key's `:` (or its item's `-`)."""
        text = self.text
        pos = frame.key_end if frame.kind == "map" else at
        if frame.kind == "seq":
            dash = text.rfind("-", 0, at + 1)
            return dash + 1 if dash >= 0 else at
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        return pos + 1 if pos < len(text) and text[pos] == ":" else at

    def _alias(self, event: object) -> None:
        frame = self.stack[-1] if self.stack else None
        if frame is None:
            return
        start, end = event.start_mark.index, event.end_mark.index  # type: ignore[attr-defined]
        if frame.kind == "map" and frame.expect_key:  # `*a : value`: an alias as a key
            frame.key, frame.key_start, frame.key_end = "*" + str(event.anchor), start, end  # type: ignore[attr-defined]
            frame.expect_key = False
            return
        place = self._place(start)
        if place is None:
            frame.count += 1
            frame.expect_key = True
            return
        path, member_start = place
        leaf = Leaf(path, member_start, self._end(frame, end), start, end, self.text[start:end], None)
        self.members.append(leaf)
        self._placed(leaf)

    def _open(self, event: object, kind: Literal["map", "seq"]) -> None:
        start, end = event.start_mark.index, event.end_mark.index  # type: ignore[attr-defined]
        flow = bool(event.flow_style)  # type: ignore[attr-defined]
        if not self.stack:
            self.members.append(None)
            self.stack.append(_Frame(kind, flow, (), 0, start, end if flow else -1))
            return
        frame = self.stack[-1]
        if frame.index >= 0 and frame.kind == "map" and frame.expect_key:
            # `? [a, b] : value`: a complex key; neither it nor its value is a member
            frame.key, frame.expect_key = None, False
            self.stack.append(_Frame(kind, flow, (), -1, start, complex_key=True))
            return
        place = self._place(start)
        if place is None:
            self.stack.append(_Frame(kind, flow, (), -1, start))
            return
        path, member_start = place
        self.members.append(None)
        self.stack.append(_Frame(kind, flow, path, len(self.members) - 1, member_start, end if flow else -1))

    def _close(self, event: object) -> None:
        frame = self.stack.pop()
        parent = self.stack[-1] if self.stack else None
        if frame.index < 0:  # an opaque collection ends: a complex key's value comes next
            if parent is not None and parent.index >= 0 and not frame.complex_key:
                parent.count += 1
                parent.expect_key = True
            return
        text = self.text
        if frame.flow:
            inner_start, inner_end = frame.inner_start, event.start_mark.index  # type: ignore[attr-defined]
            close = event.end_mark.index  # type: ignore[attr-defined]
            end = self._end(parent, close) if parent is not None else close
            self.flow_containers.add(frame.path)
        else:
            end = frame.last_end if frame.last_end >= 0 else frame.start
            inner_end = end
            first = frame.first_start if frame.first_start >= 0 else frame.start
            inner_start = line_start(text, first) if first_on_line(text, first) else first
        start = frame.start if parent is not None or frame.flow else inner_start
        container = Container(frame.path, start, end, inner_start, inner_end)
        self.members[frame.index] = container
        if frame.kind == "map":
            self._plural_forms(frame)
        if parent is not None:
            self._placed(container)

    def _plural_forms(self, frame: _Frame) -> None:
        """A mapping of plural forms (Rails `one:`, `other:`): each value is named by its category."""
        leaves = [self.members[i] for i in frame.leaves]
        names = [leaf.path[-1] for leaf in leaves if leaf is not None]
        if (
            len(leaves) != frame.count
            or len(names) < 2
            or "other" not in names
            or not all(isinstance(n, str) and n in CATEGORIES for n in names)
        ):
            return
        for i in frame.leaves:
            leaf = self.members[i]
            assert isinstance(leaf, Leaf)
            self.members[i] = replace(leaf, category=str(leaf.path[-1]))


def yaml_outline(text: str, locale: str | None = None) -> Outline:
    """Every member of the file's first document in document order, from the part that holds
    one language (_roots.py; `locale`: the target language's part of a file of several, None:
    the source's). Raise ruamel.yaml's errors where the text is no YAML, ValueError where it
    holds no collection to merge into."""
    builder = _Builder(text)
    builder.run()
    members = [m for m in builder.members if m is not None]
    if not members or not isinstance(members[0], Container):
        raise ValueError("the document holds no mapping or sequence")
    unit = _indent_unit(text)
    root = root_of(text)
    if root is None:
        syntax = YamlSyntax(frozenset(builder.flow), frozenset(builder.flow_containers), unit)
        return Outline(tuple(members), syntax)
    key = root.key if locale is None or root.kind == "rails" else root.locale_key(locale)
    at = next((m for m in members if m.path == (key,)), None) if key is not None else None
    if isinstance(at, Container):
        inside = [replace(m, path=m.path[1:]) for m in members if len(m.path) > 1 and m.path[0] == key]
        top = Container((), at.start, at.end, at.inner_start, at.inner_end)
        flow = frozenset(p[1:] for p in builder.flow if p[:1] == (key,))
        flow_containers = frozenset(p[1:] for p in builder.flow_containers if p[:1] == (key,))
        # Ruby I18n takes `zero:` for a count of 0 in every locale that has it (I18n::Backend::Base
        # and rails-i18n's pluralization alike)
        optional = frozenset({"zero"}) if root.kind == "rails" else frozenset()
        return Outline((top, *inside), YamlSyntax(flow, flow_containers, unit), optional_forms=optional)
    if isinstance(at, Leaf) and not at.text and at.write is not None:  # `de:` and nothing under it
        end = at.value_end
        top = Container((), at.start, end, end, end)
        return Outline((top,), YamlSyntax(frozenset(), frozenset(), unit, Fill(end, "")))
    if at is not None or locale is None or key is not None:
        raise ValueError(f"the root key {key!r} holds no mapping")
    # A file of several locales without this one: its subtree is appended at the end.
    end = len(text)
    newline = newline_of(text)
    lead = ("" if not text or text.endswith("\n") else newline) + (newline if text.strip() else "")
    top = Container((), end, end, end, end)
    fill = Fill(end, lead + root.new_key(locale) + ":", newline)
    return Outline((top,), YamlSyntax(frozenset(), frozenset(), unit, fill))


def _indent_unit(text: str) -> str:
    """The file's indentation step (the smallest indentation of a key line), two spaces by default."""
    found = re.findall(r"\n( +)[^\s#-]", text[:20000])
    return min(found, key=len) if found else "  "
