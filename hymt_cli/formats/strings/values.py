"""One string value: its segments for the model, and its text again from their translations.

`parse_value(text, conventions)` works on the value's text as the program reads it (the
container's escapes already undone: see _document.py). Its messages become segments:
- a plain value is one message; placeholders are HY-MT tags (conventions.py);
- an ICU/Java MessageFormat value (icu.py) is a message whose complex arguments (`plural`,
  `select`, `selectordinal`, `choice`) are placeholders, and every branch text is a message of
  its own (the argument, the keywords and `#` are never sent); an HTML tag holding an argument
  (`<a href="{0}">`) is one placeholder;
- a plural or selectordinal lacking categories that a HY-MT language needs (CLDR, plurals.py)
  gets a segment per missing category and language, translated from the source's `other`
  branch (or the nearest), with `Segment.targets` naming that language and a note naming the
  category and its numbers (`ValueSegment.note`, context for the model, never translated).

`ParsedValue.render(translated, lang)` splices each message's translation into the value text
(spans.splice_translation: every tag back to its exact source text; a translation whose tags
do not match keeps the source message) and inserts the new plural branches of `lang` before
the `other` branch. A new branch whose translation is missing is left out: ICU itself falls
back to `other` for a category it does not find.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ...text.languages import written_for
from ...text.tags import looks_like_tag
from ..spans import Located, Span, locate, segment_text, splice_translation
from ._message_pieces import message_pieces
from .conventions import STRUCTURED, Convention, Conventions, escaper, literal_parts
from .html_text import html_escaped
from .icu import Complex, IcuError, Message, Placeholder, parse_message
from .plurals import PluralKind, category_note, missing_categories, nearest_form

Source = Callable[[int, int], str]


@dataclass(frozen=True, slots=True)
class ValueSegment:
    """A segment of a value: the text the model sees, what it is told about it (never
    translated), which targets need it (None: all) and how a report names it (`[few ru]`)."""

    text: str
    note: str = ""
    targets: frozenset[str] | None = None
    label: str = ""


@dataclass(slots=True)
class _Msg:
    start: int
    end: int
    located: Located | None
    seg: int  # index into the value's segments, -1 without text
    complexes: list[_Complex] = field(default_factory=list)


@dataclass(slots=True)
class _NewForm:
    category: str
    lang: str
    seg: int


@dataclass(slots=True)
class _Complex:
    start: int
    end: int
    branches: list[_Msg]
    insert_at: int = 0  # where new branches go: the start of the `other` selector
    gap: str = " "  # what follows a new branch (the space before `other` in the source)
    brace: str = " "  # between a selector and its `{` (as the `other` branch writes it)
    base: _Msg | None = None  # the branch new categories are translated from
    forms: list[_NewForm] = field(default_factory=list)


class Value(Protocol):
    """What an `Entry` needs of its value: its text as the source has it, its segments, and its
    text again from their translations. `ParsedValue` is the usual one; a format may bring its
    own (a PO plural message renders all its `msgstr[n]` at once)."""

    @property
    def text(self) -> str: ...

    @property
    def segments(self) -> tuple[ValueSegment, ...]: ...

    def render(self, translated: Mapping[int, str], lang: str | None = None) -> str: ...

    def complete(self, translated: Mapping[int, str], lang: str | None) -> bool: ...

    def for_targets(self, targets: frozenset[str], note: str) -> Value:
        """The same value written only for `targets` (a plural form some languages add), its
        segments carrying `note`."""
        ...


class ParsedValue:
    """A value's text, its segments (local indices) and its rendering from their translations."""

    __slots__ = ("_root", "segments", "text")

    def __init__(self, text: str, segments: tuple[ValueSegment, ...], root: _Msg) -> None:
        self.text = text
        self.segments = segments
        self._root = root

    def for_targets(self, targets: frozenset[str], note: str) -> ParsedValue:
        """The same value as a form written only for `targets` (a new i18next plural key):
        its segments carry `note`; segments for other languages are dropped."""
        segments = tuple(
            ValueSegment(
                s.text,
                f"{note}\n{s.note}" if s.note and note else note or s.note,
                targets if s.targets is None else s.targets & targets,
                s.label,
            )
            for s in self.segments
        )
        return ParsedValue(self.text, segments, self._root)

    def applies(self, index: int, lang: str | None) -> bool:
        targets = self.segments[index].targets
        return targets is None if lang is None else written_for(targets, lang)

    def complete(self, translated: Mapping[int, str], lang: str | None) -> bool:
        """Every segment this language needs has a translation."""
        return all(i in translated for i in range(len(self.segments)) if self.applies(i, lang))

    def render(self, translated: Mapping[int, str], lang: str | None = None) -> str:
        """The value text with the translations (by local segment index) spliced in."""
        if not translated:
            return self.text
        return _Renderer(self.text, translated, lang).message(self._root)


def parse_value(
    text: str,
    conventions: Conventions,
    *,
    plural_languages: Iterable[str] | None = None,
    html: frozenset[str] | None = None,
) -> ParsedValue:
    """Segments of one value under its conventions. ICU/Java MessageFormat that does not parse
    is read as plain text (with the other conventions). `plural_languages`: the languages new
    plural forms are made for (default: every HY-MT language); `html`: the characters of `&<>`
    a translation writes as entities everywhere (default: those the value writes so,
    html_text.html_escaped)."""
    structured = conventions & STRUCTURED
    tree: Message | None = None
    if structured:
        try:
            tree = parse_message(text, java=Convention.JAVA_MESSAGE in structured)
        except IcuError:
            conventions = conventions - STRUCTURED
    builder = _Builder(text, conventions, plural_languages, html)
    root = builder.message(tree) if tree is not None else builder.plain()
    return ParsedValue(text, tuple(builder.segments), root)


def located_value(
    text: str,
    parts: Sequence[Span],
    escape: Callable[[str], str] | None,
    *,
    newline: str | None = None,
    line_start: Callable[[str], str] | None = None,
) -> ParsedValue:
    """A value whose parts the format found itself (offsets into `text`): XML content whose inline
    elements are tags and whose text runs went through `literal_parts`. One message; `escape`
    makes translated text literal in it (the conventions' escaper and the container's)."""
    located = (
        locate(text, list(parts), newline=newline, escape=escape, line_start=line_start) if parts else None
    )
    if located is None:
        return ParsedValue(text, (), _Msg(0, len(text), None, -1))
    return ParsedValue(text, (ValueSegment(segment_text(text, located)),), _Msg(0, len(text), located, 0))


class _Builder:
    def __init__(
        self,
        text: str,
        conventions: Conventions,
        languages: Iterable[str] | None,
        html: frozenset[str] | None = None,
    ) -> None:
        self.text = text
        self.conventions = conventions
        self.others = conventions - STRUCTURED
        self.languages = tuple(languages) if languages is not None else None
        self.segments: list[ValueSegment] = []
        if html is None:
            html = html_escaped(text) if Convention.HTML in conventions else frozenset()
        self.html = html

    def _located(self, parts: list[Span], *, pound: bool, choice: bool = False) -> tuple[Located | None, int]:
        escape = escaper(self.conventions, pound=pound, choice=choice, html=self.html)
        if len(parts) == 1 and parts[0].kind == "text" and parts[0].shown is None:
            located = self._plain_text(parts[0], escape)  # most values: no placeholder at all
        else:
            breaks = any(p.kind == "break" for p in parts)
            located = (
                locate(self.text, parts, newline=None if breaks else " ", peel=False, escape=escape)
                if parts
                else None
            )
        if located is None:
            return None, -1
        self.segments.append(ValueSegment(segment_text(self.text, located)))
        return located, len(self.segments) - 1

    def _plain_text(self, part: Span, escape: Callable[[str], str] | None) -> Located | None:
        """What spans.locate makes of one text part, without its general machinery."""
        text = self.text[part.start : part.end]
        core = text.strip()
        if not core or looks_like_tag(core):
            return locate(self.text, [part], newline=" ", peel=False, escape=escape)
        start = part.start + len(text) - len(text.lstrip())
        return Located((Span(start, start + len(core), "text"),), (0,), " ", escape, False)

    def plain(self) -> _Msg:
        located, seg = self._located(literal_parts(self.text, 0, len(self.text), self.others), pound=False)
        return _Msg(0, len(self.text), located, seg)

    def message(self, message: Message, label: str = "") -> _Msg:
        parts: list[Span] = []
        complexes: list[Complex] = []
        for piece in message_pieces(self.text, message, self.others):
            if isinstance(piece, Span):
                parts.append(piece)
            else:
                parts.append(Span(piece.start, piece.end, "self"))
                if isinstance(piece, Complex):
                    complexes.append(piece)
        located, seg = self._located(parts, pound=message.in_plural, choice=message.in_choice)
        if seg >= 0 and label:
            self.segments[seg] = dataclasses.replace(self.segments[seg], label=label)
        msg = _Msg(message.start, message.end, located, seg)
        msg.complexes = [self.complex(c, label) for c in complexes]
        return msg

    def complex(self, node: Complex, outer: str) -> _Complex:
        branches = [self.message(b.message, f"{outer}[{b.selector}]") for b in node.branches]
        cx = _Complex(node.start, node.end, branches)
        if node.kind not in ("plural", "selectordinal"):
            return cx
        selectors = [b.selector for b in node.branches]
        base_name = nearest_form(selectors)
        if base_name is None:
            return cx
        i = selectors.index(base_name)
        base = branches[i]
        cx.base = base
        other = node.branches[selectors.index("other")]
        previous_end = node.branches[selectors.index("other") - 1].end if selectors.index("other") else -1
        cx.insert_at = other.start
        gap = self.text[previous_end : other.start] if previous_end >= 0 else " "
        cx.gap = gap if gap.strip() == "" and gap else " "
        cx.brace = self.text[other.start + len(other.selector) : other.message.start - 1]
        if base.seg < 0:
            return cx  # nothing to translate in it: ICU's own fallback to `other` says the same
        kind: PluralKind = "ordinal" if node.kind == "selectordinal" else "cardinal"
        for lang, categories in missing_categories(selectors, kind, self.languages).items():
            for category in categories:
                self.segments.append(
                    ValueSegment(
                        self.segments[base.seg].text,
                        category_note(lang, category, kind),
                        frozenset({lang}),
                        f"{outer}[{category} {lang}]",
                    )
                )
                cx.forms.append(_NewForm(category, lang, len(self.segments) - 1))
        return cx


class _Renderer:
    def __init__(self, text: str, translated: Mapping[int, str], lang: str | None) -> None:
        self.text = text
        self.translated = translated
        self.lang = lang

    def message(self, msg: _Msg, seg: int | None = None) -> str:
        """The message's text; `seg` translates it from another segment (a new plural form)."""
        edits = [(cx.start, cx.end, self.complex(cx)) for cx in msg.complexes]
        source = _patched(self.text, edits)
        seg = msg.seg if seg is None else seg
        located = msg.located
        if located is not None and seg in self.translated:
            spliced = splice_translation(self.text, located, self.translated[seg], source)
            if spliced is not None:
                return source(msg.start, located.start) + spliced + source(located.end, msg.end)
        return source(msg.start, msg.end)

    def complex(self, cx: _Complex) -> str:
        edits = [(b.start, b.end, self.message(b)) for b in cx.branches]
        if cx.base is not None:
            added = [
                f"{form.category}{cx.brace}{{{self.message(cx.base, form.seg)}}}{cx.gap}"
                for form in cx.forms
                if form.lang == self.lang and form.seg in self.translated
            ]
            if added:
                edits.append((cx.insert_at, cx.insert_at, "".join(added)))
                edits.sort(key=lambda e: (e[0], e[1]))
        return _patched(self.text, edits)(cx.start, cx.end)


def _patched(text: str, edits: list[tuple[int, int, str]]) -> Source:
    """`(start, end) -> text` with the edits (sorted, not overlapping) that lie inside applied."""
    if not edits:
        return lambda a, b: text[a:b]

    def source(start: int, end: int) -> str:
        out: list[str] = []
        pos = start
        for a, b, new in edits:
            if a < start or b > end or (a == b and not start < a < end):
                continue
            out.append(text[pos:a])
            out.append(new)
            pos = b
        out.append(text[pos:end])
        return "".join(out)

    return source


def placeholders(text: str, conventions: Conventions) -> Counter[str]:
    """What a program reads as syntax in a value under `conventions`, as a multiset: every
    placeholder and tag as written, every complex argument as `{name,kind}` with its selectors.
    A translation must keep it (new plural branches aside): tests and checks compare the two."""
    found: Counter[str] = Counter()
    others = conventions - STRUCTURED
    tree: Message | None = None
    if conventions & STRUCTURED:
        try:
            tree = parse_message(text, java=Convention.JAVA_MESSAGE in conventions)
        except IcuError:
            others = conventions - STRUCTURED
    if tree is None:
        _count_literal(text, 0, len(text), others, found)
        return found
    stack = [tree]
    while stack:
        message = stack.pop()
        for piece in message_pieces(text, message, others):
            if isinstance(piece, Span):
                if piece.kind in ("self", "open", "close"):
                    found[text[piece.start : piece.end]] += 1
            elif isinstance(piece, Placeholder):
                found[re.sub(r"\s+", "", text[piece.start : piece.end])] += 1
            else:
                found[f"{{{piece.name},{piece.kind}}}"] += 1
                for branch in piece.branches:
                    found[f"{piece.name}:{branch.selector}"] += 1
                    stack.append(branch.message)
    return found


def _count_literal(text: str, start: int, end: int, conventions: Conventions, found: Counter[str]) -> None:
    for part in literal_parts(text, start, end, conventions):
        if part.kind in ("self", "open", "close"):
            found[text[part.start : part.end]] += 1
