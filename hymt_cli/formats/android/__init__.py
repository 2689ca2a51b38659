"""Android string resources (`res/values/strings.xml`): values translated in place.

What is sent: the text of each `<string>`, each `<string-array>` item and each `<plurals>` item,
as Android shows it (its escapes and quotes undone, white space collapsed), with the comment
just before the resource as context. Placeholders (`%1$s`, `%d`) and HTML (`<b>` elements,
`&lt;b>` or CDATA markup) are tags; `<xliff:g>` is one tag, content and all. Never touched:
`translatable="false"` resources, resource references (`@string/x`), names, comments, every
other element. New text is written with Android's escapes (`\\'`, `\\"`, `\\n`, a leading `\\@`)
and XML's (or inside the value's CDATA section).

`<plurals>` get the target's quantities (CLDR): a quantity the source lacks (Russian `few`,
`many`) is added after `other`, translated from it with a note naming the category; one the
target does not have (`one` in Japanese) is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from ...text.languages import plural_languages
from ..base import Decoded, FormatError
from ..layout import Layout, android_values
from ..strings import (
    Convention,
    Edit,
    Entry,
    Item,
    PluralLanguages,
    StringsFormat,
    active,
    category_note,
    escaper,
    html_escaped,
    located_value,
    looks_like_printf,
    plural_rules,
)
from ..strings.outline import Outline
from ..strings.shape import is_text
from ..strings.values import ParsedValue
from ..xmlscan import XmlEvent, decode_xml, scan
from ..xmlvalues import (
    InlineKind,
    as_is,
    chain,
    children,
    content,
    escape_cdata,
    escape_text,
    gap_start,
    left_out_unless,
    matching_end,
    wrapped,
)
from . import escapes
from ._outline import android_outline, resource_key
from ._translatable import translatable_resource, untranslatable_file

_REFERENCE = re.compile(r"\s*[@?][A-Za-z0-9_.:/+-]+\s*")
_RESOURCES = frozenset({"string", "string-array", "plurals"})


def classify(event: XmlEvent) -> InlineKind:
    return "code" if event.name.startswith("xliff:") else "pair"


class AndroidFormat(StringsFormat):
    name = "android"
    suffixes = ()  # `.xml`: chosen by content (formats/__init__.py)
    layouts: ClassVar[tuple[Layout, ...]] = (android_values,)

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        return None  # taken by content (formats/xml_kind.py)

    @classmethod
    def not_translated(cls, path: Path) -> str | None:
        """Why the file holds nothing to translate, as lint reads it (_translatable.py)."""
        return untranslatable_file(path, lambda text: any(isinstance(i, Entry) for i in _Scan(text).items()))

    def decode(self, data: bytes) -> Decoded:
        return decode_xml(data)

    # (its plurals get every language's forms: plural_languages(), as the resources' own rules)
    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        return iter(_Scan(text).items())

    def scan_wanted(
        self, text: str, wanted: Callable[[int, int], bool], languages: PluralLanguages = None
    ) -> Iterator[Item]:
        return iter(_Scan(text, wanted).items())

    def outline(self, text: str) -> Outline:
        return android_outline(text)


class _Scan:
    def __init__(self, text: str, wanted: Callable[[int, int], bool] | None = None) -> None:
        """`wanted`: the only value spans that must be entries (a merge needing a few); a
        plural's `other` always is (the forms a target lacks are translated from it)."""
        self.text = text
        self.wanted = wanted
        self.events = scan(text)
        root = next((i for i, e in enumerate(self.events) if e.kind == "start"), None)
        if root is None or self.events[root].name != "resources":
            raise FormatError("not an Android resource file (no <resources> root element)")
        self.root = root

    def items(self) -> list[Item]:
        events = self.events
        items: list[Item] = []
        if not translatable_resource("", self.events[self.root].attrs):  # (lint: the whole file)
            return items
        note = ""
        i, last = self.root + 1, matching_end(events, self.root)
        while i < last:
            event = events[i]
            if event.kind == "comment":
                note = event.data.strip()
            elif event.kind == "start":
                j = matching_end(events, i)
                if self._translatable(event):
                    items.extend(self._resource(i, j, note))
                note = ""
                i = j
            elif event.kind == "text" and event.data.strip():
                note = ""
            i += 1
        return items

    @staticmethod
    def _translatable(event: XmlEvent) -> bool:
        if not translatable_resource(event.attrs.get("name", ""), event.attrs):
            return False
        return event.name in _RESOURCES or (event.name == "item" and event.attrs.get("type") == "string")

    def _resource(self, first: int, last: int, note: str) -> Iterator[Item]:
        event = self.events[first]
        name = event.attrs.get("name", "")
        printf = event.attrs.get("formatted", "true") != "false"
        if event.name in ("string", "item"):
            entry = self._entry(first, last, name, note, printf)
            if entry is not None:
                yield entry
        elif event.name == "string-array":
            items = [(i, j) for i, j in children(self.events, first, last) if self.events[i].name == "item"]
            for n, (i, j) in enumerate(items):
                entry = self._entry(i, j, f"{name}[{n}]", note, printf)
                if entry is not None:
                    yield entry
        else:
            yield from self._plurals(first, last, name, note, printf)

    def _value(self, first: int, last: int, printf: bool) -> ParsedValue | None:
        events, text = self.events, self.text
        if events[first].empty:
            return None
        found = content(text, events, first, last, classify, escapes.decoded)
        decoded = found.decoded
        if found.text_only and (_REFERENCE.fullmatch(decoded) or not is_text(decoded)):
            return None
        # A string with a directive is a format string (aapt and lint treat it so): `%1$dh` too, and
        # one whose directive is inside `<xliff:g>`: a `%` the model writes must be `%%` there.
        # `formatted="false"` (a literal `%`, or several `%s` formatted by the app): its clear
        # directives are still placeholders, but a `%` the model writes stays as it is.
        always = {Convention.PRINTF} if printf and looks_like_printf(found.all_text) else set()
        conventions = active(decoded, (Convention.PRINTF, Convention.HTML), always)
        literal = conventions if printf else conventions - {Convention.PRINTF}
        container = escape_cdata if found.cdata_only else escape_text
        value = located_value(
            text[found.start : found.end],
            found.parts(text, conventions),
            chain(escaper(literal, html=html_escaped(decoded)), escapes.escape, container),
            line_start=escapes.guard_reference,
        )
        return value if value.segments else None

    def _entry(self, first: int, last: int, key: str, note: str, printf: bool) -> Entry | None:
        start, end = self.events[first].end, self.events[last].start
        if self.wanted is not None and not self.wanted(start, end):
            return None
        value = self._value(first, last, printf)
        if value is None:
            return None
        return Entry(start, end, value, as_is, key=key, note=note)

    def _plurals(self, first: int, last: int, name: str, note: str, printf: bool) -> Iterator[Item]:
        events, text = self.events, self.text
        items = [
            (i, j)
            for i, j in children(self.events, first, last)
            if events[i].name == "item" and events[i].attrs.get("quantity")
        ]
        present = {events[i].attrs["quantity"] for i, _ in items}
        by_category: dict[str, Entry] = {}
        for i, j in items:
            category = events[i].attrs["quantity"]
            having = frozenset(
                code for code in plural_languages() if category in plural_rules(code).categories()
            )
            yield Edit(gap_start(events, i), events[j].end, left_out_unless(having))
            if (
                self.wanted is not None
                and category != "other"
                and not self.wanted(events[i].end, events[j].start)
            ):
                continue
            value = self._value(i, j, printf)
            if value is None:
                continue
            entry = Entry(
                events[i].end,
                events[j].start,
                value.for_targets(having, ""),
                as_is,
                key=f"{name}[{category}]",
                note=note,
            )
            by_category[category] = entry
            yield entry
        base = by_category.get("other")
        if base is None:
            return
        other = next(i for i, _ in items if events[i].attrs["quantity"] == "other")
        other_end = next(j for i, j in items if i == other)
        indent = text[gap_start(events, other) : events[other].start]
        tag = text[events[other].start : events[other].end]
        close = text[events[other_end].start : events[other_end].end]
        at = events[other_end].end
        for code in plural_languages():
            for category in plural_rules(code).categories():
                if category in present:
                    continue
                item_tag = re.sub(r"""(quantity\s*=\s*["'])other(["'])""", rf"\g<1>{category}\g<2>", tag)
                yield Entry(
                    at,
                    at,
                    base.value.for_targets(frozenset({code}), category_note(code, category)),
                    wrapped(f"{indent}{item_tag}", close),
                    key=f"{name}[{category}]",
                    note=note,
                    targets=frozenset({code}),
                    fallback=base,
                    path=(resource_key(events[first].attrs), category),
                )
