"""`.stringsdict` plists: the text of each localized format and of its rule dictionaries.

    <key>files-count</key>                       the entry's key: never touched
    <dict>
      <key>NSStringLocalizedFormatKey</key>
      <string>%#@files@ in the folder</string>   translated; `%#@files@` is a tag
      <key>files</key>                           the variable's name: never touched
      <dict>
        <key>NSStringFormatSpecTypeKey</key>     never touched (and the value type)
        <string>NSStringPluralRuleType</string>
        <key>one</key> <string>%d file</string>  translated (every rule's strings are)
        <key>other</key> <string>%d files</string>

A plural rule gets the target's categories (CLDR): one the source lacks (Russian `few`) is
added after `other`, translated from it with a note naming the category; one the target does
not have is left out, except `zero`, which Apple applies to 0 in every language.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...text.languages import plural_languages
from ..base import FormatError
from ..strings import (
    Convention,
    Edit,
    Entry,
    Item,
    active,
    category_note,
    escaper,
    located_value,
    looks_like_printf,
    plural_rules,
)
from ..strings.shape import is_text
from ..strings.values import ParsedValue
from ..xmlscan import XmlEvent, scan
from ..xmlvalues import (
    as_is,
    chain,
    content,
    escape_cdata,
    escape_text,
    gap_start,
    left_out_unless,
    matching_end,
    wrapped,
)

_CONTROL_KEYS = frozenset({"NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey"})
_PLURAL = "NSStringPluralRuleType"


def _children(events: Sequence[XmlEvent], first: int, last: int) -> list[tuple[int, int]]:
    out = []
    i = first + 1
    while i < last:
        if events[i].kind == "start":
            j = matching_end(events, i)
            out.append((i, j))
            i = j
        i += 1
    return out


def _text(events: Sequence[XmlEvent], first: int, last: int) -> str:
    return "".join(e.data for e in events[first + 1 : last] if e.kind == "text")


class _Scan:
    def __init__(self, text: str) -> None:
        self.text = text
        self.events = scan(text)
        root = next((i for i, e in enumerate(self.events) if e.kind == "start"), None)
        if root is None or self.events[root].name != "plist":
            raise FormatError("not a property list (no <plist> root element)")
        self.items: list[Item] = []
        top = [(i, j) for i, j in _children(self.events, root, matching_end(self.events, root))]
        if len(top) != 1 or self.events[top[0][0]].name != "dict":
            raise FormatError("a .stringsdict holds one <dict>")
        for key, value in self._pairs(*top[0]):
            if self.events[value[0]].name == "dict":
                self._entry(key, value)

    def _pairs(self, first: int, last: int) -> Iterator[tuple[str, tuple[int, int]]]:
        """(key, value element) of a `<dict>`."""
        events = self.events
        children = _children(events, first, last)
        for n in range(0, len(children) - 1, 2):
            (ki, kj), value = children[n], children[n + 1]
            if events[ki].name != "key":
                line = self.text.count("\n", 0, events[ki].start) + 1
                raise FormatError(f"line {line}: <dict> expects <key>, found <{events[ki].name}>")
            yield _text(events, ki, kj), value

    def _value(self, first: int, last: int) -> ParsedValue | None:
        events, text = self.events, self.text
        if events[first].empty:
            return None
        found = content(text, events, first, last, lambda _: "code")
        if found.text_only and not is_text(found.decoded):
            return None
        always = {Convention.PRINTF} if looks_like_printf(found.decoded) else set()
        conventions = active(found.decoded, (Convention.PRINTF,), always)
        container = escape_cdata if found.cdata_only else escape_text
        value = located_value(
            text[found.start : found.end],
            found.parts(text, conventions),
            chain(escaper(conventions), container),
        )
        return value if value.segments else None

    def _string(
        self, key: str, element: tuple[int, int], note: str = "", targets: frozenset[str] | None = None
    ) -> Entry | None:
        first, last = element
        if self.events[first].name != "string":
            return None
        value = self._value(first, last)
        if value is None:
            return None
        if targets is not None:
            value = value.for_targets(targets, "")
        return Entry(self.events[first].end, self.events[last].start, value, as_is, key=key, note=note)

    def _entry(self, name: str, element: tuple[int, int]) -> None:
        for key, value in self._pairs(*element):
            path = f"{name}.{key}"
            if key == "NSStringLocalizedFormatKey":
                entry = self._string(path, value)
                if entry is not None:
                    self.items.append(entry)
            elif self.events[value[0]].name == "dict":
                self._rule(path, value, (name, key))

    def _rule(self, path: str, element: tuple[int, int], keys: tuple[str, str]) -> None:
        """A rule dictionary; `keys`: its entry's key and its variable's (a new form's path)."""
        events = self.events
        pairs = list(self._pairs(*element))
        kind = next((_text(events, *v) for k, v in pairs if k == "NSStringFormatSpecTypeKey"), "")
        plural = kind.strip() == _PLURAL
        present = {k for k, _ in pairs if k not in _CONTROL_KEYS}
        base: Entry | None = None
        other_at: tuple[int, int, int] | None = None  # key start, value end, gap start
        for n, (key, value) in enumerate(pairs):
            if key in _CONTROL_KEYS:
                continue
            targets = None
            if plural and key not in ("zero", "other"):
                targets = frozenset(c for c in plural_languages() if key in plural_rules(c).categories())
                key_event = self._key_event(element, n)
                self.items.append(
                    Edit(gap_start(events, key_event), events[value[1]].end, left_out_unless(targets))
                )
            entry = self._string(f"{path}.{key}", value, targets=targets)
            if entry is None:
                continue
            self.items.append(entry)
            if plural and key == "other":
                base = entry
                key_event = self._key_event(element, n)
                other_at = (key_event, value[0], value[1])
        if base is not None and other_at is not None:
            self._new_forms(path, base, present, other_at, keys)

    def _key_event(self, element: tuple[int, int], n: int) -> int:
        return _children(self.events, *element)[2 * n][0]

    def _new_forms(
        self, path: str, base: Entry, present: set[str], other_at: tuple[int, int, int], keys: tuple[str, str]
    ) -> None:
        """A `<key>few</key> <string>...</string>` pair after `other` for each target lacking it."""
        events, text = self.events, self.text
        key_event, value_first, value_last = other_at
        key_end = matching_end(events, key_event)
        gap = text[gap_start(events, key_event) : events[key_event].start]
        key_open = text[events[key_event].start : events[key_event].end]
        key_close = text[events[key_end].start : events[key_end].end]
        middle = text[events[key_end].end : events[value_first].start]
        value_open = text[events[value_first].start : events[value_first].end]
        value_close = text[events[value_last].start : events[value_last].end]
        at = events[value_last].end
        value = base.value
        for code in plural_languages():
            for category in plural_rules(code).categories():
                if category in present:
                    continue
                before = f"{gap}{key_open}{category}{key_close}{middle}{value_open}"
                self.items.append(
                    Entry(
                        at,
                        at,
                        value.for_targets(frozenset({code}), category_note(code, category)),
                        wrapped(before, value_close),
                        key=f"{path}.{category}",
                        targets=frozenset({code}),
                        fallback=base,
                        path=(*keys, category),
                    )
                )


def stringsdict_items(text: str) -> list[Item]:
    items = _Scan(text).items
    items.sort(key=lambda item: (item.start, item.end))
    return items
