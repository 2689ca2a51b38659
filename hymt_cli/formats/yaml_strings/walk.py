"""The string scalars of a YAML file as entries, from ruamel.yaml's parser events (exact offsets).

Sent: string scalars in value position (mapping values, sequence items): plain, quoted, block.
Never sent: keys, anchors, aliases, merge keys, tags, comments, non-string scalars (numbers,
booleans, nulls, dates in YAML 1.1 or 1.2), values under a key that names no text in a data
file (`url`, `icon`, `id` ...: `DATA_KEYS`), a `description` beside a `message` (it is the
message's context instead), and values that are no text (shape.is_text).

Rails: a document whose root mapping has one key, a language code (`en:`), is a locale file:
that key becomes the target's code (an `Edit`, the one change identity makes besides plurals).
A mapping whose keys are CLDR plural categories (`one:`, `other:`: Rails pluralization) gets the
categories a target needs (`few:`, `many:` for Russian) after its last key, written like it,
translated from `other` (or a copy of the target's `other` where that translation is missing).
The comment lines right above a key are its value's context.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from ...text.segments import join_surrogates
from ..layout import path_language
from ..strings import (
    Edit,
    Entry,
    Item,
    PluralLanguages,
    active,
    category_note,
    missing_categories,
    parse_value,
)
from ..strings.conventions import Convention
from ..strings.plurals import CATEGORIES, nearest_form
from ..strings.shape import is_text
from ._roots import root_of
from ._scalars import is_string_scalar, write_scalar

DATA_KEYS = frozenset(
    {
        "url",
        "href",
        "link",
        "src",
        "image",
        "img",
        "icon",
        "logo",
        "avatar",
        "id",
        "slug",
        "layout",
        "permalink",
        "path",
        "file",
        "email",
        "mail",
        "date",
        "color",
        "colour",
        "lang",
        "locale",
        "class",
        "type",
        "key",
        "style",
        "target",
        "rel",
        "width",
        "height",
        "weight",
        "font",
        "rss",
        "feed",
        "format",
    }
)
CANDIDATES = frozenset(
    {
        Convention.RUBY,
        Convention.STRFTIME,
        Convention.PRINTF,
        Convention.TEMPLATE,
        Convention.BRACE,
        Convention.HTML,
    }
)
_PROPERTIES = re.compile(r"(?:[&!][^\s]*\s+)*")


def value_start(text: str, start: int, end: int) -> int:
    """Where a scalar's value starts, past its anchor and tag (`&a !!str text`)."""
    properties = _PROPERTIES.match(text, start, end)
    return properties.end() if properties else start


_MESSAGE_KEYS = frozenset({"message", "description"})
_COMMENT_LINES = 5


@dataclass(slots=True)
class _Member:
    key: str
    key_start: int
    key_column: int
    event: object  # the value's ScalarEvent
    entry: Entry | None


@dataclass(slots=True)
class _Frame:
    kind: Literal["map", "seq"]
    flow: bool
    path: tuple[str, ...]
    keys: tuple[str | int, ...]  # the path as _outline.py names it (item numbers, not `[n]`)
    expect_key: bool = True
    key: str = ""
    key_start: int = 0
    key_column: int = 0
    count: int = 0
    held: list[_Member] | None = field(default_factory=list)  # None: streaming
    plural: bool = True  # every key so far a plural category
    message_like: bool = False  # a `message` or `description` key seen
    opaque: bool = False  # inside a complex key: nothing is sent
    description: str = ""


# An alias followed by `:`: a key (YAML anchor names hold no white space or flow indicator).
_KEY_ALIAS = re.compile(r"\*([^\s,\[\]{}]+)[ \t]*:(?=\s|$)", re.MULTILINE)


class Walk:
    def __init__(
        self, text: str, wanted: Callable[[int, int], bool] | None = None, languages: PluralLanguages = None
    ) -> None:
        """`wanted`: the only value spans that must be entries (a merge needing a few: the others
        are not parsed); values a plural or a message object holds always are. `languages`: those
        new plural forms are made for (strings/plurals.plural_codes; None: every language)."""
        self.text = text
        self.wanted = wanted
        self.languages = languages
        self.root = root_of(text)
        # A file of several locales: only the source locale's subtree is read (_roots.py).
        self.subtree = self.root.key if self.root is not None and self.root.kind == "locales" else None
        self.rooted = self.root is not None
        self.ascii_only = (
            re.search(r"\\u[0-9a-fA-F]{4}", text) is not None
            and re.search(r"[^\x00-\x7f]", text.lstrip("\ufeff")) is None
        )
        self.stack: list[_Frame] = []
        self.locale_file = False
        self.newline = "\r\n" if "\r\n" in text[:4096] else "\n"

    @cached_property
    def key_aliases(self) -> frozenset[str]:
        """The anchors an alias uses as a key (`*a : value`), found in one pass over the text
        (a search per anchored value was quadratic in a file of many anchors)."""
        return frozenset(_KEY_ALIAS.findall(self.text))

    def items(self) -> Iterator[Item]:
        from ruamel.yaml import YAML
        from ruamel.yaml.events import (
            AliasEvent,
            CollectionEndEvent,
            DocumentStartEvent,
            MappingStartEvent,
            ScalarEvent,
            SequenceStartEvent,
        )

        for event in YAML(typ="safe", pure=True).parse(self.text):
            if isinstance(event, DocumentStartEvent):
                self.stack, self.locale_file = [], False
            elif self.stack and self.stack[-1].opaque and not isinstance(event, CollectionEndEvent):
                if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                    self.stack.append(_Frame("seq", True, (), (), opaque=True))
            elif isinstance(event, ScalarEvent):
                yield from self._scalar(event)
            elif isinstance(event, AliasEvent):
                if self._key_expected():  # `*a : value`: an alias as a key
                    self.stack[-1].expect_key, self.stack[-1].plural = False, False
                    self.stack[-1].key = "*" + str(event.anchor)
                else:
                    self._value_seen(held=None)
            elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                if self._key_expected():  # `? [a, b] : value`: a complex key, nothing in it is sent
                    self.stack[-1].plural = False
                    self.stack.append(_Frame("seq", True, (), (), opaque=True))
                    continue
                path, keys = self._child_path(), self._child_keys()
                self._value_seen(held=None)
                kind: Literal["map", "seq"] = "map" if isinstance(event, MappingStartEvent) else "seq"
                self.stack.append(_Frame(kind, bool(event.flow_style), path, keys))
            elif isinstance(event, CollectionEndEvent):
                closed = self.stack.pop()
                if closed.opaque:
                    if self.stack and not self.stack[-1].opaque:  # the complex key ends: its value next
                        self.stack[-1].expect_key, self.stack[-1].key = False, "?"
                    continue
                yield from self._close(closed)

    def _key_expected(self) -> bool:
        return bool(self.stack) and self.stack[-1].kind == "map" and self.stack[-1].expect_key

    def _child_keys(self) -> tuple[str | int, ...]:
        if not self.stack:
            return ()
        frame = self.stack[-1]
        return (*frame.keys, frame.key) if frame.kind == "map" else (*frame.keys, frame.count)

    def _outline_path(self, keys: tuple[str | int, ...]) -> tuple[str | int, ...]:
        """A key path as _outline.py names it: below the root key that names the language."""
        return keys[1:] if self.rooted else keys

    def _outside(self, keys: tuple[str | int, ...]) -> bool:
        """Whether a value is outside the part of the file that is read (another locale's)."""
        return self.subtree is not None and keys[:1] != (self.subtree,)

    def _child_path(self) -> tuple[str, ...]:
        if not self.stack:
            return ()
        frame = self.stack[-1]
        return (*frame.path, frame.key) if frame.kind == "map" else (*frame.path, f"[{frame.count}]")

    def _value_seen(self, held: _Member | None) -> None:
        """A value (or a collection) took its place in the parent; a non-scalar ends plural
        holding (a plural mapping holds string scalars only)."""
        if not self.stack:
            return
        frame = self.stack[-1]
        if frame.kind == "map":
            frame.expect_key = True
        frame.count += 1
        if held is None:
            frame.plural = False

    def _scalar(self, event: object) -> Iterator[Item]:
        frame = self.stack[-1] if self.stack else None
        start, end = event.start_mark.index, event.end_mark.index  # type: ignore[attr-defined]
        if frame is not None and frame.kind == "map" and frame.expect_key:
            yield from self._key(frame, event, start)
            return
        member = _Member(
            frame.key if frame else "",
            frame.key_start if frame else 0,
            frame.key_column if frame else 0,
            event,
            self._entry(frame, event, start, end),
        )
        if frame is None:
            if member.entry is not None:
                yield member.entry
            return
        self._value_seen(held=member)
        if frame.held is not None and frame.kind == "map":
            frame.held.append(member)
        elif member.entry is not None:
            yield member.entry

    def _key(self, frame: _Frame, event: object, start: int) -> Iterator[Item]:
        key = str(event.value)  # type: ignore[attr-defined]
        frame.key, frame.key_start, frame.expect_key = key, start, False
        frame.key_column = event.start_mark.column  # type: ignore[attr-defined]
        # A mapping is held while it may be a plural (category keys only) or a message object
        # (`message` and its `description`); any other mapping streams its values.
        if frame.count == 0 and key not in CATEGORIES and key not in _MESSAGE_KEYS:
            frame.held = None
        if key not in CATEGORIES:
            frame.plural = False
        if key in _MESSAGE_KEYS:
            frame.message_like = True
        if frame.held is not None and not frame.plural and not frame.message_like:
            held, frame.held = frame.held, None
            for member in held:
                if member.entry is not None:
                    yield member.entry
        if self.subtree is None and not self.stack[:-1] and frame.count == 0 and len(self.stack) == 1:
            code = path_language(key) if event.style is None else None  # type: ignore[attr-defined]
            if code is not None:
                self.locale_file = True
                yield Edit(start, event.end_mark.index, code.spelled)  # type: ignore[attr-defined]

    def _entry(self, frame: _Frame | None, event: object, start: int, end: int) -> Entry | None:
        value, style, tag = event.value, event.style, event.tag  # type: ignore[attr-defined]
        value = join_surrogates(value)  # "\ud83d\ude00" reads as two halves of one character
        if not is_string_scalar(value, style, tag) or not value.strip() or not is_text(value):
            return None
        anchor = event.anchor  # type: ignore[attr-defined]
        if anchor and anchor in self.key_aliases:
            return None  # aliased as a key somewhere: translating it would rename that key
        key = frame.key if frame is not None and frame.kind == "map" else ""
        if self._outside(self._child_keys()):
            return None
        if not self.locale_file and self.subtree is None and key.lower() in DATA_KEYS:
            return None
        if frame is not None and frame.held is not None and key == "description":
            frame.description = value
        start = value_start(self.text, start, end)
        held = frame is not None and frame.held is not None
        if self.wanted is not None and not held and not self.wanted(start, end):
            return None
        parsed = parse_value(value, active(value, CANDIDATES), plural_languages=self.languages)
        if not parsed.segments:
            return None
        raw = self.text[start:end]
        flow = any(f.flow for f in self.stack)
        column = frame.key_column if frame is not None else 0
        path = ".".join((*self._child_path(),)) if frame is not None else ""
        note = _comment_above(self.text, frame.key_start) if frame is not None and frame.kind == "map" else ""
        ascii_only = self.ascii_only

        def write(text: str) -> str:
            return write_scalar(text, raw, style=style, flow=flow, column=column, ascii_only=ascii_only)

        return Entry(start, end, parsed, write, path, note)

    def _close(self, frame: _Frame) -> Iterator[Item]:
        held = frame.held or []
        if frame.kind == "map" and held:
            message = next((m for m in held if m.key == "message"), None)
            for member in held:
                if member.entry is None or (message is not None and member.key == "description"):
                    continue
                yield _noted(member.entry, frame.description) if message is member else member.entry
            if frame.plural and len(held) == frame.count:
                yield from self._new_forms(frame, held)
        self._value_seen(held=None)

    def _new_forms(self, frame: _Frame, members: list[_Member]) -> Iterator[Entry]:
        categories = [m.key for m in members]
        base_name = nearest_form(categories)
        if len(members) < 2 or "other" not in categories or base_name is None:
            return
        base = members[categories.index(base_name)]
        if base.entry is None:
            return
        last = members[-1]
        end = last.event.end_mark.index  # type: ignore[attr-defined]
        at = end if frame.flow else self._line_end(end)
        base_style = base.event.style  # type: ignore[attr-defined]
        style = base_style if base_style in ("'", '"') else None
        lead = ", " if frame.flow else self.newline + " " * last.key_column
        prefix = ".".join(frame.path)
        for lang, missing in sorted(missing_categories(categories, "cardinal", self.languages).items()):
            for category in missing:
                yield Entry(
                    at,
                    at,
                    base.entry.value.for_targets(frozenset({lang}), category_note(lang, category)),
                    _member_writer(f"{lead}{category}: ", style, frame.flow, self.ascii_only),
                    f"{prefix}.{category}" if prefix else category,
                    base.entry.note,
                    frozenset({lang}),
                    base.entry,
                    path=(*self._outline_path(frame.keys), category),
                )

    def _line_end(self, end: int) -> int:
        """Where a new member goes after a value ending at `end`: the end of its last line."""
        text = self.text
        if end > 0 and text[end - 1] == "\n":  # a block scalar ends after its line break
            end -= 1
        else:
            newline = text.find("\n", end)
            end = len(text) if newline < 0 else newline
        return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _member_writer(head: str, style: str | None, flow: bool, ascii_only: bool) -> Callable[[str], str]:
    def write(text: str) -> str:
        return head + write_scalar(text, "", style=style, flow=flow, column=0, ascii_only=ascii_only)

    return write


def _noted(entry: Entry, note: str) -> Entry:
    from dataclasses import replace

    return replace(entry, note="\n".join(n for n in (entry.note, note) if n)) if note else entry


def _comment_above(text: str, key_start: int) -> str:
    """The whole-line comments right above the line of `key_start` (nearest last)."""
    lines: list[str] = []
    line_start = text.rfind("\n", 0, key_start) + 1
    if text[line_start:key_start].strip():
        return ""  # the key is not first on its line (a flow mapping, `- key:`)
    while line_start > 0 and len(lines) < _COMMENT_LINES:
        previous = text.rfind("\n", 0, line_start - 1) + 1
        line = text[previous : line_start - 1].strip()
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
        line_start = previous
    return "\n".join(reversed([line for line in lines if line]))
