"""A `.stringsdict`'s members (strings/outline.py), for merging into a translation that exists.

    <key>files-count</key>          a key of the file: a container (its whole dict), copied
    <dict>                          whole, values translated, where a translation lacks it
      <key>NSStringLocalizedFormatKey</key> <string>...</string>      a value: (files-count,
      <key>files</key>                                                 NSStringLocalizedFormatKey)
      <dict>                        a rule: a container of plural forms where its type is plural
        <key>NSStringFormatSpecTypeKey</key> ...    no member: what a rule is, never merged
        <key>one</key> <string>%d file</string>     (files-count, files, one): the form `one`

A member spans its `<key>` and its value element. A plural rule's forms are plural forms
(`one`, `few`: a language without them never misses them; `zero`, which Apple applies to 0 in
every language, is a key like any other), and a form only the target has stays with its rule.
Values are written back as they are: the source's rendering is already this file's text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base import FormatError
from ..strings.outline import Container, KeyPath, Leaf, Member, Outline
from ..strings.spaced import SpacedSyntax
from ..xmlscan import XmlEvent, scan
from ..xmlvalues import as_is, children, matching_end

SYNTAX = SpacedSyntax()
_CONTROL_KEYS = frozenset({"NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey"})
_PLURAL = "NSStringPluralRuleType"
_CATEGORIES = frozenset({"one", "two", "few", "many", "other"})


def stringsdict_outline(text: str) -> Outline:
    """Every key of the file and of its dictionaries, in document order; FormatError where the
    text is no property list of one dictionary."""
    events = scan(text)
    root = next((i for i, e in enumerate(events) if e.kind == "start"), None)
    if root is None or events[root].name != "plist":
        raise FormatError("not a property list (no <plist> root element)")
    top = list(children(events, root, matching_end(events, root)))
    if len(top) != 1 or events[top[0][0]].name != "dict":
        raise FormatError("a .stringsdict holds one <dict>")
    first, last = top[0]
    members: list[Member] = [_container(text, events, first, last, (), events[first].start)]
    _members(text, events, first, last, (), False, members)
    return Outline(tuple(members), SYNTAX, optional_forms=frozenset({"zero"}))  # Apple: 0, every language


def _members(
    text: str,
    events: Sequence[XmlEvent],
    first: int,
    last: int,
    path: KeyPath,
    rule: bool,
    out: list[Member],
) -> None:
    """The members of the `<dict>` events[first..last] at `path` (`rule`: a plural rule's)."""
    elements = list(children(events, first, last))
    for n in range(0, len(elements) - 1, 2):
        (ki, kj), (vi, vj) = elements[n], elements[n + 1]
        if events[ki].name != "key":
            line = text.count("\n", 0, events[ki].start) + 1
            raise FormatError(f"line {line}: <dict> expects <key>, found <{events[ki].name}>")
        key = "".join(e.data for e in events[ki + 1 : kj] if e.kind == "text")
        if len(path) == 2 and key in _CONTROL_KEYS:
            continue
        value = events[vi]
        member_path = (*path, key)
        if value.name == "dict":
            plural = len(path) == 1 and _is_plural(events, vi, vj)
            out.append(_container(text, events, vi, vj, member_path, events[ki].start, forms=plural))
            _members(text, events, vi, vj, member_path, plural, out)
            continue
        category = key if rule and key in _CATEGORIES else ""
        if value.empty or value.name != "string":  # `<string/>`, `<integer>`: copied as they are
            end = events[vj].end if not value.empty else value.end
            raw = text[value.start : end]
            out.append(Leaf(member_path, events[ki].start, end, value.start, end, raw, None, None, category))
            continue
        start, end = value.end, events[vj].start
        out.append(
            Leaf(
                member_path,
                events[ki].start,
                events[vj].end,
                start,
                end,
                text[start:end],
                as_is,
                None,
                category,
            )
        )


def _is_plural(events: Sequence[XmlEvent], first: int, last: int) -> bool:
    elements = list(children(events, first, last))
    for n in range(0, len(elements) - 1, 2):
        (ki, kj), (vi, vj) = elements[n], elements[n + 1]
        key = "".join(e.data for e in events[ki + 1 : kj] if e.kind == "text")
        if key == "NSStringFormatSpecTypeKey":
            return "".join(e.data for e in events[vi + 1 : vj] if e.kind == "text").strip() == _PLURAL
    return False


def _container(
    text: str,
    events: Sequence[XmlEvent],
    first: int,
    last: int,
    path: KeyPath,
    start: int,
    *,
    forms: bool = False,
) -> Container:
    """The `<dict>` events[first..last] as the container at `path`, its member from `start` (its
    `<key>`)."""
    opening = events[first]
    if text.startswith("/>", opening.end - 2):  # `<dict/>`: members go where its `/>` is
        return Container(path, start, opening.end, opening.end - 2, opening.end - 2, forms)
    return Container(path, start, events[last].end, opening.end, events[last].start, forms)
