"""XLIFF 1.2 and 2.0: each unit's `<source>` is translated into its `<target>`.

What is sent: the source of every unit (2.0: every segment) that has no target yet, an empty
one, or one whose state says it still needs translating (1.2 `new`/`needs-translation`, 2.0 an
explicit `initial`); in a catalog whose target language is its source language (Symfony's
`validators.en.xlf`) every unit; a 1.2 `<seg-source>` with `<mrk mtype="seg">` segments is sent
instead of the `<source>`, so that the target has the same segments (and `mid`s). Inline codes
are HY-MT tags: `<g>`, `<mrk>`, `<pc>` pairs around text, `<x/> <bx/> <ex/> <bpt> <ept> <ph>
<it>`, `<sc/> <ec/> <cp/>` placeholders, copied into the target exactly. Notes are context.
Never touched: units with a translation, `translate="no"`, `<alt-trans>`, notes, every other
element and attribute.

Edits a target file carries: the target language (`target-language` on each 1.2 `<file>`,
`trgLang` on the 2.0 root) unless the file already names it (`de-CH` for `de`), and `state` on
each target written (1.2: `translated` with `state-qualifier="mt-suggestion"`, or
`needs-review-translation` with `XliffOptions(xliff_review=True)`; 2.0: the segment's `state=
"translated"`). Targets in another language than the one asked for (a `de` file translated
into French) are emptied and marked as needing translation. A translation identical to the
source is not written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from ...signals import collector_paused
from ..base import Decoded
from ..layout import Layout, same_language, spell
from ..strings import (
    Convention,
    Edit,
    Entry,
    IcuError,
    Item,
    PluralLanguages,
    StringsFormat,
    Value,
    active,
    escaper,
    html_escaped,
    located_value,
    parse_message,
    parse_value,
)
from ..strings.icu import Complex
from ..strings.outline import Outline
from ..strings.shape import is_text
from ..xmlscan import XmlEvent, decode_xml, escape_attribute, scan
from ..xmlvalues import InlineKind, chain, content, escape_cdata, escape_text, gap_start
from . import XliffOptions
from ._icu_inline import masked
from ._layouts import angular_note, angular_xliff, dotted_language
from ._outline import xliff_outline
from ._units import Scope, Unit, Walk, local

_PAIRS = frozenset({"g", "pc", "mrk"})
_XML_TEXT = frozenset("&<>")
_CANDIDATES = (Convention.PRINTF, Convention.TEMPLATE, Convention.HTML)
_NEEDS_TRANSLATION = {False: frozenset({"new", "needs-translation"}), True: frozenset({"initial"})}


def classify(event: XmlEvent) -> InlineKind:
    name = local(event.name)
    if name in _PAIRS and event.attrs.get("translate") != "no" and event.attrs.get("mtype") != "protected":
        return "pair"
    return "code"


def set_attribute(tag: str, name: str, value: str) -> str:
    """A start tag with attribute `name` set to `value` (its quotes kept; added when missing)."""
    quoted = escape_attribute(value)
    found = re.search(rf"""(\s{re.escape(name)}\s*=\s*)(["'])(.*?)\2""", tag, re.DOTALL)
    if found is not None:
        return (
            tag[: found.start(3)]
            + quoted.replace(found.group(2), "&#39;" if found.group(2) == "'" else "&quot;")
            + tag[found.end(3) :]
        )
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    while end > 0 and tag[end - 1] in " \t\r\n":
        end -= 1
    return f'{tag[:end]} {name}="{quoted}"{tag[end:]}'


def _as_is(text: str) -> str:
    return text


def is_icu_message(text: str) -> bool:
    """Text that is an ICU message with a plural, select or selectordinal argument."""
    if "{" not in text:
        return False
    try:
        message = parse_message(text)
    except IcuError:
        return False
    return any(isinstance(node, Complex) for node in message.nodes)


def _open_form(tag: str) -> str:
    """`<target/>` as the start tag of an element with content: `<target>`."""
    return tag[:-2].rstrip() + ">" if tag.endswith("/>") else tag


class XliffFormat(StringsFormat):
    name = "xliff"
    suffixes = (".xlf", ".xliff")
    layouts: ClassVar[tuple[Layout, ...]] = (angular_xliff, dotted_language)

    def __init__(self, options: XliffOptions | None = None) -> None:
        self.review = (options or XliffOptions()).xliff_review

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        return None  # an XLIFF file is strings wherever it lies

    def announce(self, target: Path) -> str | None:
        """A new translation of an Angular project: angular.json must list it (_layouts.py)."""
        return angular_note(target)

    def decode(self, data: bytes) -> Decoded:
        return decode_xml(data)

    # An ICU unit's plural gets every language's forms (not only `languages`'), as it always has.
    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        return _Scan(text, self.review).items()

    def scan_wanted(
        self, text: str, wanted: Callable[[int, int], bool], languages: PluralLanguages = None
    ) -> Iterator[Item]:
        return _Scan(text, self.review, wanted).items()

    def outline(self, text: str) -> Outline:
        with collector_paused():
            return xliff_outline(_Scan(text, self.review))


class _Scan:
    def __init__(self, text: str, review: bool, wanted: Callable[[int, int], bool] | None = None) -> None:
        self.text = text
        self.wanted = wanted  # the entry spans that must be read (a merge needs few); None: all
        self.events = scan(text)
        self.walk = Walk(self.events)
        self.review = review
        self.v2 = self.walk.version2
        self.scopes = {s.event: s for s in self.walk.scopes}

    def items(self) -> Iterator[Item]:
        """Edits of the language declarations and entries of the units, in source order."""
        items: list[Item] = [self._language_edit(scope) for scope in self.walk.scopes]
        for unit in self.walk.units:
            items.extend(self._unit(unit))
        items.sort(key=lambda item: (item.start, item.end))
        return iter(items)

    # -- languages ------------------------------------------------------------------------------
    def _language_edit(self, scope: Scope) -> Edit:
        event = self.events[scope.event]
        tag = self.text[event.start : event.end]
        attribute = "trgLang" if self.v2 else "target-language"

        def replace(lang: str) -> str | None:
            if (
                scope.target_language
                and same_language(scope.target_language, lang)
                and not self._source_catalog(scope)
            ):
                return None
            return set_attribute(tag, attribute, spell(lang, "-"))

        return Edit(event.start, event.end, replace)

    @staticmethod
    def _source_catalog(scope: Scope) -> bool:
        """A catalog whose targets are in its source language (`validators.en.xlf`: en -> en)."""
        return bool(scope.source_language) and scope.source_language.lower() == scope.target_language.lower()

    def _names(self, scope: Scope, lang: str) -> bool:
        return (
            bool(scope.target_language)
            and same_language(scope.target_language, lang)
            and not self._source_catalog(scope)
        )

    # -- units ----------------------------------------------------------------------------------
    def _done(self, unit: Unit, scope: Scope) -> bool:
        """The unit has a translation (in the file's target language)."""
        if unit.target < 0 or self._source_catalog(scope):
            return False
        if unit.state in _NEEDS_TRANSLATION[self.v2]:
            return False
        target = self.events[unit.target]
        return not target.empty and bool(self.text[target.end : self.events[unit.target_end].start].strip())

    def _unit(self, unit: Unit) -> Iterator[Item]:
        scope = self.scopes.get(unit.scope, Scope(unit.scope, "", ""))
        if self._done(unit, scope):
            if scope.target_language:
                yield from self._emptied(unit, scope)
            return
        if self.wanted is not None and not self.wanted(*self._placement(unit)[:2]):
            return
        events, text = self.events, self.text
        if unit.segmented >= 0:  # the target repeats the `<mrk mtype="seg">` of the seg-source
            found = content(text, events, unit.segmented, unit.segmented_end, classify)
        else:
            found = content(text, events, unit.source, unit.source_end, classify)
        if found.text_only and not is_text(found.decoded):
            return
        container = escape_cdata if found.cdata_only else escape_text
        value: Value
        codes = masked(text, found) if not found.text_only else None
        if found.text_only and is_icu_message(found.decoded):  # Angular's plural and select units
            conventions = active(found.decoded, _CANDIDATES, {Convention.ICU})
            value = parse_value(found.decoded, conventions)
            into_xml = container
        elif codes is not None and is_icu_message(codes.text):  # ... with inline codes in them
            value = parse_value(
                codes.text,
                active(codes.text, _CANDIDATES, {Convention.ICU, Convention.HTML}),
                html=_XML_TEXT,  # the HTML escape is XML's here: every `&`, `<` and `>`
            )
            into_xml = codes.unmask
        else:
            # A directive inside an inline code (`<ph>%s</ph>`) makes the native string a format
            # string: a `%` of the model's is `%%` there too.
            always = (
                {Convention.PRINTF} if Convention.PRINTF in active(found.all_text, _CANDIDATES) else set()
            )
            conventions = active(found.decoded, _CANDIDATES, always)
            value = located_value(
                text[found.start : found.end],
                found.parts(text, conventions),
                chain(escaper(conventions, html=html_escaped(found.decoded)), container),
            )
            into_xml = _as_is
        if not value.segments:
            return
        start, end, place = self._placement(unit)
        yield Entry(
            start,
            end,
            value,
            lambda new: place(into_xml(new)),
            key=unit.key,
            note="\n".join(n for n in unit.notes if n),
        )

    def _state(self, tag: str) -> str:
        if self.v2:
            return set_attribute(tag, "state", "translated")
        if self.review:
            return set_attribute(tag, "state", "needs-review-translation")
        return set_attribute(set_attribute(tag, "state", "translated"), "state-qualifier", "mt-suggestion")

    def _placement(self, unit: Unit) -> tuple[int, int, Callable[[str], str]]:
        """The span an entry replaces, and how its new target content is written there."""
        events, text = self.events, self.text
        if self.v2:  # the state is on the segment: from its start tag to the target (or source) end
            segment = events[unit.state_at]
            seg_tag = self._state(text[segment.start : segment.end])
            if unit.target >= 0:
                target, target_end = events[unit.target], events[unit.target_end]
                open_tag, close = _open_form(text[target.start : target.end]), self._close(target, target_end)
                middle = text[segment.end : target.start]
                return segment.start, target_end.end, lambda new: seg_tag + middle + open_tag + new + close
            anchor = events[unit.anchor]
            middle = text[segment.end : anchor.end]
            new_target = self._new_target(unit)
            return segment.start, anchor.end, lambda new: seg_tag + middle + new_target(new)
        if unit.target >= 0:
            target, target_end = events[unit.target], events[unit.target_end]
            open_tag = self._state(_open_form(text[target.start : target.end]))
            close = self._close(target, target_end)
            return target.start, target_end.end, lambda new: open_tag + new + close
        anchor = events[unit.anchor]
        anchor_tag = text[anchor.start : anchor.end]
        new_target = self._new_target(unit)
        return anchor.start, anchor.end, lambda new: anchor_tag + new_target(new)

    def _close(self, target: XmlEvent, target_end: XmlEvent) -> str:
        return f"</{target.name}>" if target.empty else self.text[target_end.start : target_end.end]

    def _new_target(self, unit: Unit) -> Callable[[str], str]:
        """`<target ...>new</target>` after the anchor, indented like the source."""
        source = self.events[unit.source]
        name = source.name[: -len("source")] + "target"
        before = self.text[gap_start(self.events, unit.source) : source.start]
        indent = before if "\n" in before else ""
        tag = f"<{name}>" if self.v2 else self._state(f"<{name}>")
        return lambda new: f"{indent}{tag}{new}</{name}>"

    def _emptied(self, unit: Unit, scope: Scope) -> Iterator[Edit]:
        """A translation in the file's target language, emptied in a file for another language."""
        events, text = self.events, self.text
        target, target_end = events[unit.target], events[unit.target_end]
        if self.v2:
            segment = events[unit.state_at]
            seg_tag = set_attribute(text[segment.start : segment.end], "state", "initial")
            yield Edit(segment.start, segment.end, lambda lang: None if self._names(scope, lang) else seg_tag)
            emptied = text[target.start : target.end]
        else:
            emptied = set_attribute(text[target.start : target.end], "state", "needs-translation")
        whole = emptied if target.empty else _open_form(emptied) + self._close(target, target_end)
        yield Edit(target.start, target_end.end, lambda lang: None if self._names(scope, lang) else whole)
