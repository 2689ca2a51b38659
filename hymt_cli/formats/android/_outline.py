"""An Android `strings.xml`'s members (strings/outline.py), for merging into a translation
that exists (`values-ru/strings.xml`).

A resource is known by its name (and its `product`, where it has one): `<string name="x">` is
the key `x`; a `<string-array name="days">` holds its items by index (`days`, 0), a
`<plurals name="files">` its items by quantity (`files`, `few`: a plural form, so that a
language without `few` never misses it). A member is the element, start tag to end tag; its
value the element's content as written (entities, escapes and markup as they are), written
back as it is (the source's rendering is already this file's text).

A `translatable="false"` resource is never added to a translation (Android lint's
`Untranslatable`), and is left where one has it. Every other element (`<color>`, `<dimen>`,
`<item type="id">`, comments) is no member: a merge leaves it as it is. Members are separated by
white space only (strings/spaced.py): a new one goes on a line of its own after its sibling, a
removed one goes with its line, as lint's `ExtraTranslation` (fatal in release builds) wants.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..base import FormatError
from ..strings.outline import Container, KeyPath, Leaf, Member, Outline
from ..strings.spaced import SpacedSyntax
from ..xmlscan import XmlEvent, scan
from ..xmlvalues import as_is, children, matching_end
from ._translatable import translatable_resource

# The namespaces a string resource uses (`<xliff:g>`, `tools:ignore`), declared on a copied
# resource where the target's `<resources>` does not declare them.
NAMESPACES = {
    "xliff": "urn:oasis:names:tc:xliff:document:1.2",
    "tools": "http://schemas.android.com/tools",
    "android": "http://schemas.android.com/apk/res/android",
    "app": "http://schemas.android.com/apk/res-auto",
}
_PREFIXED = re.compile(r"</?([A-Za-z_][\w.-]*):[\w.-]|\s([A-Za-z_][\w.-]*):[\w.-]+\s*=")
_START_TAG = re.compile(r"<[\w:.-]+(?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*")
_ROOT_TAG = re.compile(r"<resources\b[^>]*>")


class AndroidSyntax(SpacedSyntax):
    def adapted(self, text: str, member: str) -> str:
        used = {a or b for a, b in _PREFIXED.findall(member)} - {"xmlns", "xml"}
        if not used:
            return member
        root = _ROOT_TAG.search(text)
        declared = root.group(0) if root is not None else ""
        missing = sorted(
            p for p in used if p in NAMESPACES and re.search(rf"xmlns:{re.escape(p)}\s*=", declared) is None
        )
        tag = _START_TAG.match(member)
        if not missing or tag is None:
            return member
        declarations = "".join(f' xmlns:{p}="{NAMESPACES[p]}"' for p in missing)
        return member[: tag.end()] + declarations + member[tag.end() :]


SYNTAX = AndroidSyntax()


def resource_key(attrs: Mapping[str, str]) -> str:
    """A resource's key in every file of its project: its name, and its product where it has one
    (`<string name="x" product="tablet">` is another resource than `x`)."""
    name = attrs.get("name", "")
    product = attrs.get("product")
    return name if product is None else f"{name} ({product})"


def is_string_resource(event: XmlEvent) -> bool:
    """`<string>`, or `<item type="string">` (the same resource written another way)."""
    return event.name == "string" or (event.name == "item" and event.attrs.get("type") == "string")


def android_outline(text: str) -> Outline:
    """Every resource of strings in the file, in document order; FormatError where the text is no
    Android resource file."""
    events = scan(text)
    root = next((i for i, e in enumerate(events) if e.kind == "start"), None)
    if root is None or events[root].name != "resources":
        raise FormatError("not an Android resource file (no <resources> root element)")
    last = matching_end(events, root)
    members: list[Member] = [_container(text, events, root, last, ())]
    whole = translatable_resource("", events[root].attrs)  # (lint: a file marked as a whole)
    for i, j in children(events, root, last):
        event = events[i]
        if "name" not in event.attrs:
            continue
        translatable = whole and translatable_resource(event.attrs["name"], event.attrs)
        key = resource_key(event.attrs)
        if is_string_resource(event):
            members.append(_leaf(text, events, i, j, (key,), translatable))
        elif event.name in ("string-array", "plurals"):
            plurals = event.name == "plurals"
            members.append(_container(text, events, i, j, (key,), forms=plurals))
            items = [(a, b) for a, b in children(events, i, j) if events[a].name == "item"]
            for n, (a, b) in enumerate(items):
                quantity = events[a].attrs.get("quantity") if plurals else None
                if plurals and not quantity:
                    continue
                path: KeyPath = (key, quantity) if quantity else (key, n)
                members.append(_leaf(text, events, a, b, path, translatable, quantity or ""))
    return Outline(tuple(members), SYNTAX)


def _container(
    text: str, events: Sequence[XmlEvent], first: int, last: int, path: KeyPath, *, forms: bool = False
) -> Container:
    start = events[first]
    if text.startswith("/>", start.end - 2):  # `<resources/>`: members go where its `/>` is
        return Container(path, start.start, start.end, start.end - 2, start.end - 2, forms)
    return Container(path, start.start, events[last].end, start.end, events[last].start, forms)


def _leaf(
    text: str,
    events: Sequence[XmlEvent],
    first: int,
    last: int,
    path: KeyPath,
    translatable: bool,
    category: str = "",
) -> Leaf:
    start = events[first]
    if start.empty:  # `<string name="x"/>`: no value to write in place
        return Leaf(
            path, start.start, start.end, start.end, start.end, "", None, None, category, translatable
        )
    value_start, value_end = start.end, events[last].start
    return Leaf(
        path,
        start.start,
        events[last].end,
        value_start,
        value_end,
        text[value_start:value_end],
        as_is,
        None,
        category,
        translatable,
    )
