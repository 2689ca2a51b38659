"""A PO file's messages as members (strings/outline.py), merged the way msgmerge merges.

A message is known by its msgctxt and msgid (gettext's own key: `msgctxt\\x04msgid`, one member
per key at the top: msgfmt refuses two). Its value (`Leaf.text`) is its msgstr, its plural
forms joined by NUL, "" when it holds none or is flagged `fuzzy` (msgfmt leaves fuzzy messages
out: they are no translation yet); what it is translated from (`Leaf.source`) is its msgid, with
its msgid_plural. The header is no member: a target keeps its own (`POT-Creation-Date` too:
taking the template's would rewrite every catalog at each extraction with no message changed).

Into a target (`PoSyntax`), as msgmerge writes it:
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

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...text.languages import LANGUAGES
from ..base import FormatError
from ..layout import same_language
from ..strings.outline import Container, Copied, Leaf, Member, Outline, Path, Splice, collector_paused
from ..strings.plurals import GettextPlurals, gettext_plurals, gettext_plurals_of, parse_plural_forms
from ..strings.shape import is_text
from .entries import Entry, read_entries
from .header import HeaderInfo
from .messages import flagged_write, msgstr_lines, value_start

_BLANK = " \t\r\n\ufeff"
_OBSOLETE_LINE = re.compile(r"^[ \t]*#~", re.MULTILINE)


def message_key(entry: Entry) -> str:
    """gettext's key of a message: `msgctxt\\x04msgid`, the msgid alone without a context."""
    assert entry.msgid is not None
    return entry.msgid.value if entry.msgctxt is None else f"{entry.msgctxt.value}\x04{entry.msgid.value}"


def _source(entry: Entry) -> str:
    """What a message is translated from: its msgid (and msgid_plural); "" where there is
    nothing to translate (a URL, a path: the scan sends none, gettext shows the msgid)."""
    assert entry.msgid is not None
    if not is_text(entry.msgid.value):
        return ""
    plural = entry.msgid_plural
    return entry.msgid.value if plural is None else f"{entry.msgid.value}\x00{plural.value}"


def _value(entry: Entry) -> str:
    """The translation an entry holds: its msgstr (plural forms joined by NUL); "" for none."""
    values = [f.value for f in entry.msgstr]
    if "fuzzy" in entry.flags or not any(values):
        return ""
    return "\x00".join(values) if entry.msgid_plural is not None else values[0]


def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _language(written: str) -> str | None:
    """The HY-MT code a header's `Language` names (`pt_BR` -> `pt`), None for none."""
    return next((code for code in LANGUAGES if written and same_language(written, code)), None)


def po_outline(text: str, *, fuzzy: bool = False) -> Outline:
    """The messages of a PO file in order (its header and obsolete entries are none), obsolete
    ones as `retired`; FormatError where it is no PO file or holds a key twice. `fuzzy`: every
    machine translation is flagged (the scan's entries then start at the flags line)."""
    with collector_paused():
        return _outline(text, fuzzy)


def _outline(text: str, fuzzy: bool) -> Outline:
    newline = _newline(text)
    entries = list(read_entries(text))
    header = entries[0] if entries and entries[0].is_header else None
    info = HeaderInfo.read(header.msgstr[0].value) if header is not None else HeaderInfo()
    lang = _language(info.language)
    syntax = PoSyntax(text, newline, lang, info)
    members: list[Member] = []
    lines: dict[Path, int] = {}
    for entry in entries:
        if entry is header:
            continue
        path: Path = (message_key(entry),)
        if path in lines:
            raise FormatError(
                f"line {entry.line}: a second message with msgid {_shown(entry)} (the first is on line "
                f"{lines[path]}); msgfmt refuses the file"
            )
        lines[path] = entry.line
        members.append(syntax.member(path, entry, fuzzy=fuzzy))
    start = 1 if text.startswith("\ufeff") else 0
    after_header = header.msgstr[-1].end if header is not None else start
    syntax.active_end = max((m.end for m in members), default=after_header)
    top = Container((), start, len(text), after_header, syntax.active_end)
    retired = {leaf.path: leaf for leaf in _obsolete(text) if leaf.path not in lines}
    return Outline((top, *members), syntax, retired=retired)


def _shown(entry: Entry) -> str:
    assert entry.msgid is not None
    msgid = entry.msgid.value if len(entry.msgid.value) <= 40 else entry.msgid.value[:37] + "..."
    context = f" in context {entry.msgctxt.value!r}" if entry.msgctxt is not None else ""
    return repr(msgid) + context


def _obsolete(text: str) -> list[Leaf]:
    """The obsolete entries (`#~` lines, with the comment lines right above them): their keys
    and translations ("" when fuzzy or empty). Only the blocks around `#~` lines are read."""
    found: list[Leaf] = []
    done = -1
    for match in _OBSOLETE_LINE.finditer(text):
        if match.start() < done:
            continue
        block = _block_around(text, match.start())
        done = block[-1][0] + len(block[-1][1])
        if all(line.lstrip().startswith("#") for _, line in block):
            obsolete = [line.lstrip()[2:] for _, line in block if line.lstrip().startswith("#~")]
            leaf = _obsolete_leaf(text, block, obsolete)
            if leaf is not None:
                found.append(leaf)
    return found


def _block_around(text: str, pos: int) -> list[tuple[int, str]]:
    """(offset, line) of the run of non-blank lines that holds `pos` (a line start)."""
    lines: list[tuple[int, str]] = []
    start = pos
    while start > 0:
        before = text.rfind("\n", 0, start - 1) + 1
        line = text[before : start - 1].rstrip("\r")
        if not line.strip():
            break
        start = before
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip("\r")
        if not line.strip():
            break
        lines.append((start, line))
        start = end + 1
    return lines


def _obsolete_leaf(text: str, block: list[tuple[int, str]], lines: list[str]) -> Leaf | None:
    body = "\n".join(line[1:] if line.startswith(" ") else line for line in lines if not line.startswith("|"))
    try:
        entry = next((e for e in read_entries(body) if e.msgid is not None and not e.is_header), None)
    except FormatError:
        return None  # not readable: left as it is
    if entry is None:
        return None
    flags = [
        f.strip() for _, line in block if line.lstrip().startswith("#,") for f in line.lstrip()[2:].split(",")
    ]
    start, end = block[0][0], block[-1][0] + len(block[-1][1])
    value = "" if "fuzzy" in flags or "fuzzy" in entry.flags else _value(entry)
    return Leaf((message_key(entry),), start, end, start, end, value, None, _source(entry))


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
        self.translated: set[int] = set()  # starts of the messages that hold a translation (fuzzy too)
        forms = parse_plural_forms(info.plural_forms) if lang is not None else None
        self.forms: GettextPlurals | None = (
            gettext_plurals_of(lang, *forms) if lang is not None and forms is not None else None
        )
        if self.forms is None and lang is not None and not info.plural_forms:
            self.forms = gettext_plurals(lang)

    # -- members -------------------------------------------------------------------------------
    def member(self, path: Path, entry: Entry, *, fuzzy: bool) -> Leaf:
        text, newline = self.text, self.newline
        assert entry.msgid is not None
        if any(f.value for f in entry.msgstr):
            self.translated.add(entry.start)
        plural = entry.msgid_plural is not None
        write: Callable[[str], str] = (
            functools.partial(_plural_lines, newline=newline)
            if plural
            else functools.partial(msgstr_lines, "msgstr", newline=newline)
        )
        if fuzzy and "fuzzy" not in entry.flags:
            write = flagged_write(text, entry, write, newline)
        return Leaf(
            path,
            entry.start,
            entry.msgstr[-1].end,
            value_start(text, entry, fuzzy=fuzzy),
            entry.msgstr[-1].end,
            _value(entry),
            write,
            _source(entry),
            rewrite=functools.partial(self._rewritten, entry),
        )

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

    def _rewritten(self, entry: Entry, copied: str) -> str:
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


def _plural_lines(value: str, newline: str) -> str:
    """A plural message's msgstr lines from its forms joined by NUL (a value kept to come back)."""
    return newline.join(
        msgstr_lines(f"msgstr[{i}]", form, newline) for i, form in enumerate(value.split("\x00"))
    )
