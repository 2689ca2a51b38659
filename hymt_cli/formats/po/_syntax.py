"""How messages go into a PO file that exists and leave it, as msgmerge writes them:

- a new message is the template's entry (its comments, references and flags), inserted after
  the message that precedes it in the template, with a blank line; its msgstr forms follow the
  target's `Plural-Forms` (msgstr[n] by plural category), and a translation identical to the
  msgid stays empty, as a new file has it;
- a message translated again in place keeps its comments, msgctxt and msgid and takes the
  template's msgid_plural and the new msgstr; `fuzzy` and `#|` previous-msgid lines go (the
  translation is no longer the old guess), unless every machine translation is flagged;
- a message the template no longer has becomes obsolete (`#~`, its `#.` and `#:` lines dropped,
  `# ` comments and flags kept) after the last active message, before the obsolete ones already
  there; one without a translation is dropped (msgmerge writes no untranslated obsolete entry);
- an obsolete message whose key is back is revived: the message comes back, translated as it
  was, and its `#~` entry goes (msgfmt refuses a key both active and obsolete).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..strings.outline import Container, Copied, Leaf, Member, Splice
from ..strings.plurals import GettextPlurals, gettext_plurals, gettext_plurals_of, parse_plural_forms
from ._header import HeaderInfo
from ._messages import msgstr_lines
from .entries import Entry, read_entries

_BLANK = " \t\r\n\ufeff"


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    text: str


class PoSyntax:
    """How messages go into a PO file and leave it (module docstring)."""

    def __init__(self, text: str, newline: str, lang: str | None, info: HeaderInfo) -> None:
        self.text = text
        self.newline = newline
        self.lang = lang
        self.active_end = 0  # the end of the last active message: obsolete ones go after it
        # The starts of the messages that hold a translation (fuzzy too), as _outline.py reads them.
        self.translated: set[int] = set()
        forms = parse_plural_forms(info.plural_forms) if lang is not None else None
        self.forms: GettextPlurals | None = (
            gettext_plurals_of(lang, *forms) if lang is not None and forms is not None else None
        )
        if self.forms is None and lang is not None and not info.plural_forms:
            self.forms = gettext_plurals(lang)

    # -- what a target writes of a template's entry ----------------------------------------------
    def conformed(self, copied: str) -> str:
        """A template's entry (its msgstr rendered) as this file writes it: its line breaks, its
        plural forms, an msgstr identical to the msgid left empty."""
        copied = copied.replace("\r\n", "\n")
        if self.newline != "\n":
            copied = copied.replace("\n", self.newline)
        entry = next(read_entries(copied), None)
        if entry is None or entry.msgid is None or not entry.msgstr:
            return copied
        block = self._block(copied, entry)
        return copied[: entry.msgstr[0].start] + block + copied[entry.msgstr[-1].end :]

    def _block(self, text: str, entry: Entry) -> str:
        """An entry's msgstr lines as this file has them."""
        assert entry.msgid is not None
        raw = text[entry.msgstr[0].start : entry.msgstr[-1].end]
        values = [f.value for f in entry.msgstr]
        if entry.msgid_plural is None:
            return 'msgstr ""' if values[0] == entry.msgid.value else raw
        forms = self._forms(values)
        if forms == values:
            return raw
        return self.newline.join(
            msgstr_lines(f"msgstr[{i}]", value, self.newline) for i, value in enumerate(forms)
        )

    def _forms(self, values: list[str]) -> list[str]:
        """A plural message's forms (as the target language's table has them, by CLDR category)
        as this file's `Plural-Forms` has them."""
        forms = self.forms
        if forms is None:
            return values
        if not any(values):
            return [""] * forms.nplurals
        table = gettext_plurals(self.lang) if self.lang is not None else None
        if table is not None and len(values) == table.nplurals and table.categories != forms.categories:
            by_category: dict[str, str] = {}
            for category, value in zip(table.categories, values):
                by_category.setdefault(category, value)
            fallback = by_category.get("other", values[-1])
            return [by_category.get(category, fallback) for category in forms.categories]
        if len(values) == forms.nplurals:
            return values
        return (values + [values[-1]] * forms.nplurals)[: forms.nplurals]

    def rewritten(self, entry: Entry, copied: str) -> str:
        """The target's entry translated again: its comments, msgctxt and msgid kept, the
        template's msgid_plural and the new msgstr; no `fuzzy`, no `#|` (unless flagged)."""
        text, newline = self.text, self.newline
        new_text = self.conformed(copied)
        new = next(read_entries(new_text))
        assert entry.msgid is not None
        spans: list[_Span] = []
        flags = [f for f in entry.flags if f != "fuzzy"]
        flags += [f for f in new.flags if f not in entry.flags and f != "fuzzy"]
        if "fuzzy" in new.flags:
            flags.insert(0, "fuzzy")
        if flags != entry.flags:
            line = "#, " + ", ".join(flags) + newline if flags else ""
            if entry.flags_line is not None:
                start, end = entry.flags_line
                spans.append(_Span(start, _line_end(text, end), line))
            elif line:
                spans.append(_Span(entry.first_keyword, entry.first_keyword, line))
        for offset, length in _previous_lines(text, entry):
            spans.append(_Span(offset, offset + length, ""))
        old_plural, new_plural = entry.msgid_plural, new.msgid_plural
        if new_plural is not None:
            plural_text = new_text[new_plural.start : new_plural.end]
            if old_plural is None:
                spans.append(_Span(entry.msgid.end, entry.msgid.end, newline + plural_text))
            elif old_plural.value != new_plural.value:
                spans.append(_Span(old_plural.start, old_plural.end, plural_text))
        elif old_plural is not None:
            spans.append(_Span(entry.msgid.end, old_plural.end, ""))
        block = new_text[new.msgstr[0].start : new.msgstr[-1].end]
        spans.append(_Span(entry.msgstr[0].start, entry.msgstr[-1].end, block))
        out: list[str] = []
        pos = entry.start
        for span in sorted(spans, key=lambda s: (s.start, s.end)):
            out.append(text[pos : span.start])
            out.append(span.text)
            pos = span.end
        out.append(text[pos : entry.msgstr[-1].end])
        return "".join(out)

    # -- Syntax ----------------------------------------------------------------------------------
    def _entries(self, members: Sequence[Copied]) -> list[str]:
        return [self.conformed(m.text) for m in members]

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        gap = self.newline * 2
        return Splice(sibling.end, sibling.end, "".join(gap + e for e in self._entries(members)))

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        gap = self.newline * 2
        return Splice(sibling.start, sibling.start, "".join(e + gap for e in self._entries(members)))

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        return self._at_end(text, self.active_end, self._entries(members))

    def _at_end(self, text: str, point: int, entries: list[str]) -> Splice:
        """`entries` at `point`, the end of the active part of the file, a blank line between."""
        gap = self.newline * 2
        before = bool(text[:point].strip(_BLANK))
        out = (gap if before else "") + gap.join(entries)
        rest = text[point:]
        if not rest:
            out += self.newline
        elif not before and rest.strip(_BLANK):
            out += gap
        return Splice(point, point, out)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        """Each message with the blank lines before it; whatever lies between them stays."""
        pieces: list[str] = []
        start = pos = -1
        for member in run:
            cut_start, cut_end = self._cut(text, member.start, member.end)
            if start < 0:
                start = cut_start
            else:
                pieces.append(text[pos:cut_start])
            pos = cut_end
        return Splice(start, pos, "".join(pieces))

    def _cut(self, text: str, start: int, end: int) -> tuple[int, int]:
        """What removing [start, end) takes: the blank lines before it too, where something is."""
        before = start
        while before > 0 and text[before - 1] in " \t\r\n":
            before -= 1
        if before > 0 and text[before - 1] != "\ufeff":
            return before, end
        return start, end

    def retire(self, text: str, removed: Sequence[Member], revived: Sequence[Leaf]) -> list[Splice]:
        splices: list[Splice] = []
        obsolete = [self._obsoleted(text, m) for m in removed if m.start in self.translated]
        if obsolete:
            splices.append(self._at_end(text, self.active_end, obsolete))
        for leaf in revived:
            start, end = self._cut(text, leaf.start, leaf.end)
            splices.append(Splice(start, end, ""))
        return splices

    def _obsoleted(self, text: str, member: Member) -> str:
        """A message as msgmerge keeps it once obsolete: `#~ ` before its keyword and string
        lines, `#~|` for previous msgids, its `#.` and `#:` lines dropped."""
        out: list[str] = []
        for line in text[member.start : member.end].splitlines():
            stripped = line.lstrip()
            if stripped.startswith(("#.", "#:")):
                continue
            if stripped.startswith("#|"):
                out.append("#~|" + stripped[2:])
            elif stripped.startswith("#"):
                out.append(line)
            else:
                out.append("#~ " + line)
        return self.newline.join(out)


def _line_end(text: str, end: int) -> int:
    """`end` past the line break that follows it."""
    if text.startswith("\r\n", end):
        return end + 2
    if text.startswith(("\n", "\r"), end):
        return end + 1
    return end


def _previous_lines(text: str, entry: Entry) -> list[tuple[int, int]]:
    """(offset, length with its line break) of an entry's `#|` lines."""
    found: list[tuple[int, int]] = []
    assert entry.msgid is not None
    first = entry.msgctxt.start if entry.msgctxt is not None else entry.msgid.start
    pos = entry.start
    while pos < first:
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end + 1
        if text[pos:end].lstrip().startswith("#|"):
            found.append((pos, end - pos))
        pos = end
    return found
