"""The value of a PO message: what the model sees of an untranslated entry, and its msgstr.

A singular message is the core's `ParsedValue` of its msgid. A plural message (`msgid` +
`msgid_plural`) renders every `msgstr[i]` of the target's plural forms at once: a form whose
CLDR category is `one` from the msgid, `other` from the msgid_plural, and each other category a
target has (Russian `few` and `many`) from a segment of its own for that language (the
msgid_plural's text, with a note naming the category and its numbers). A `one` form that also
stands for other numbers (Russian 21, 31 ...) is translated from the msgid_plural when the
msgid lacks some of its placeholders ("one page" / "{n} pages"): msgfmt requires them there.
Until every form has a translation the entry keeps its empty msgstr.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from ...text.languages import plural_code, plural_languages
from ...text.tags import TAG
from ..strings import Conventions, PluralLanguages, ValueSegment, category_note, parse_value
from ..strings.plurals import GettextPlurals
from ..strings.values import ParsedValue
from .cstring import field_lines
from .entries import Entry as PoEntry

Plurals = Callable[[str], GettextPlurals]  # target language -> its forms


def msgstr_lines(keyword: str, text: str, newline: str) -> str:
    return newline.join(field_lines(keyword, text))


def value_start(text: str, entry: PoEntry, *, fuzzy: bool) -> int:
    """Where an entry's written value starts: its msgstr, or with `fuzzy` (every machine
    translation flagged) its flags line, or where one goes, for an entry not flagged yet."""
    if not fuzzy or "fuzzy" in entry.flags:
        return entry.msgstr[0].start
    return entry.flags_line[0] if entry.flags_line is not None else entry.first_keyword


def flagged_write(
    text: str, entry: PoEntry, write: Callable[[str], str], newline: str
) -> Callable[[str], str]:
    """`write` for the entry from its flags line (or where one goes) to its msgstr, with `fuzzy`."""
    block_start = entry.msgstr[0].start
    if entry.flags_line is not None:
        start, end = entry.flags_line
        flagged = "#, fuzzy, " + text[start + 2 : end].lstrip()
        return lambda new: flagged + text[end:block_start] + write(new)
    at = entry.first_keyword
    return lambda new: "#, fuzzy" + newline + text[at:block_start] + write(new)


@dataclass(frozen=True, slots=True)
class _Form:
    lang: str
    category: str
    segment: int  # index into PluralMessage.segments


@dataclass(frozen=True, slots=True)
class ExtraForm:
    """A plural form some target needs beyond `one` (from the msgid) and `other` (from the
    msgid_plural): its language, category, note for the model, and whether it is a `one` that
    stands for more numbers than 1 (then it needs the msgid_plural's placeholders)."""

    lang: str
    category: str
    note: str
    shared_one: bool


class PluralTable:
    """Every target's plural forms for one file (its header decides its own language's), worked
    out once per file, not once per entry."""

    def __init__(self, plurals: Plurals) -> None:
        self.plurals = cache(plurals)
        extra: list[ExtraForm] = []
        for lang in plural_languages():
            forms = self.plurals(lang)
            seen: set[str] = set()
            for category, numbers in zip(forms.categories, forms.examples):
                if category in seen or category == "other":
                    continue
                seen.add(category)
                shared_one = category == "one" and any(n != 1 for n in numbers)
                if category != "one" or shared_one:
                    extra.append(ExtraForm(lang, category, category_note(lang, category), shared_one))
        self.extra = tuple(extra)


class PluralMessage:
    """A plural entry's msgstr block (`text`: as the source has it) and its rendering."""

    __slots__ = ("_forms", "_plural_first", "newline", "plural", "plurals", "segments", "singular", "text")

    def __init__(
        self,
        text: str,
        msgid: str,
        msgid_plural: str,
        conventions: Conventions,
        table: PluralTable,
        newline: str,
        languages: PluralLanguages = None,
    ) -> None:
        """`languages`: those an ICU plural in the msgids gets new forms for (None: every language)."""
        self.text = text
        self.newline = newline
        self.plurals = table.plurals
        self.singular = parse_value(msgid, conventions, plural_languages=languages)
        self.plural = parse_value(msgid_plural, conventions, plural_languages=languages)
        segments = list(self.singular.segments) + list(self.plural.segments)
        self._plural_first = len(self.singular.segments)
        forms: dict[tuple[str, str], _Form] = {}
        if len(self.plural.segments) == 1:  # a form of its own for each category beyond one/other
            base = self.plural.segments[0]
            fewer = (
                len(TAG.findall(self.singular.segments[0].text)) < len(TAG.findall(base.text))
                if self.singular.segments
                else True
            )
            targets: dict[str, frozenset[str]] = {}
            for form in table.extra:
                if form.shared_one and not fewer:
                    continue
                lang_set = targets.setdefault(form.lang, frozenset({form.lang}))
                segments.append(
                    ValueSegment(base.text, form.note, lang_set, f"[{form.category} {form.lang}]")
                )
                forms[(form.lang, form.category)] = _Form(form.lang, form.category, len(segments) - 1)
        self._forms = forms
        self.segments = tuple(segments)

    def _rendered(
        self, value: ParsedValue, first: int, translated: Mapping[int, str], lang: str | None
    ) -> str | None:
        local = {i: translated[first + i] for i in range(len(value.segments)) if first + i in translated}
        if len(local) < len(value.segments):
            return None
        return value.render(local, lang)

    def _form(self, category: str, translated: Mapping[int, str], lang: str) -> str | None:
        form = self._forms.get((plural_code(lang), category))
        if category == "one" and form is None:
            return self._rendered(self.singular, 0, translated, lang)
        if form is not None:
            if form.segment not in translated:
                return None
            return self.plural.render({0: translated[form.segment]}, lang)
        return self._rendered(self.plural, self._plural_first, translated, lang)

    def render(self, translated: Mapping[int, str], lang: str | None = None) -> str:
        """Every msgstr[i] of `lang`'s plural forms; the source block until all have a
        translation, or when none changed."""
        if lang is None:
            return self.text
        forms = self.plurals(lang)
        texts: list[str] = []
        for category in forms.categories:
            text = self._form(category, translated, lang)
            if text is None:
                return self.text
            texts.append(text)
        sources = [
            self.singular.text
            if c == "one" and (plural_code(lang), c) not in self._forms
            else self.plural.text
            for c in forms.categories
        ]
        if texts == sources:
            return self.text
        return self.newline.join(
            msgstr_lines(f"msgstr[{i}]", text, self.newline) for i, text in enumerate(texts)
        )

    def complete(self, translated: Mapping[int, str], lang: str | None) -> bool:
        return self.render(translated, lang) != self.text

    def for_targets(self, targets: frozenset[str], note: str) -> PluralMessage:
        copy = object.__new__(PluralMessage)
        for name in PluralMessage.__slots__:
            object.__setattr__(copy, name, getattr(self, name))
        copy.segments = tuple(
            dataclasses.replace(
                s,
                note="\n".join(n for n in (note, s.note) if n),
                targets=targets if s.targets is None else s.targets & targets,
            )
            for s in self.segments
        )
        return copy


def empty_block(plural: bool, lang: str, plurals: Plurals, newline: str) -> str:
    """An untranslated msgstr (all the forms of `lang` for a plural entry)."""
    if not plural:
        return 'msgstr ""'
    return newline.join(f'msgstr[{i}] ""' for i in range(plurals(lang).nplurals))
