"""A PO file's messages as members (strings/outline.py), merged the way msgmerge merges.

A message is known by its msgctxt and msgid (gettext's own key: `msgctxt\\x04msgid`, one member
per key at the top: msgfmt refuses two). Its value (`Leaf.text`) is its msgstr, its plural
forms joined by NUL, "" when it holds none or is flagged `fuzzy` (msgfmt leaves fuzzy messages
out: they are no translation yet); what it is translated from (`Leaf.source`) is its msgid, with
its msgid_plural. The header is no member: a target keeps its own (`POT-Creation-Date` too:
taking the template's would rewrite every catalog at each extraction with no message changed).

How messages are written into a target that exists is _syntax.py's (`PoSyntax`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ...signals import collector_paused
from ...text.languages import LANGUAGES
from ..base import FormatError
from ..layout import same_language
from ..strings.outline import Container, KeyPath, Leaf, Member, Outline
from ..strings.shape import is_text
from ._header import HeaderInfo
from ._messages import flagged_write, msgstr_lines, value_start
from ._syntax import PoSyntax
from .entries import Entry, read_entries

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
    lines: dict[KeyPath, int] = {}
    for entry in entries:
        if entry is header:
            continue
        path: KeyPath = (message_key(entry),)
        if path in lines:
            raise FormatError(
                f"line {entry.line}: a second message with msgid {_shown(entry)} (the first is on line "
                f"{lines[path]}); msgfmt refuses the file"
            )
        lines[path] = entry.line
        members.append(_member(syntax, path, entry, fuzzy=fuzzy))
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


def _member(syntax: PoSyntax, path: KeyPath, entry: Entry, *, fuzzy: bool) -> Leaf:
    """A message as a member: its msgstr the value, written as this file writes it."""
    text, newline = syntax.text, syntax.newline
    assert entry.msgid is not None
    if any(f.value for f in entry.msgstr):
        syntax.translated.add(entry.start)
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
        rewrite=functools.partial(syntax.rewritten, entry),
    )


def _plural_lines(value: str, newline: str) -> str:
    """A plural message's msgstr lines from its forms joined by NUL (a value kept to come back)."""
    return newline.join(
        msgstr_lines(f"msgstr[{i}]", form, newline) for i, form in enumerate(value.split("\x00"))
    )
