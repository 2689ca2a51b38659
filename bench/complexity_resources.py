"""bench/complexity.py's cases for the resource formats: PO, XLIFF, Android, Apple .strings.

Each input is many ordinary entries (comments, context, placeholders, plurals), the shape a
large real catalog has; the PO case reaches 500,000 entries at 2N.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ResourceCase:
    name: str
    fmt: str
    n: int
    make: Callable[[int], str]


def po(n: int) -> str:
    head = (
        'msgid ""\nmsgstr ""\n"Project-Id-Version: bench\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    )
    entry = (
        '#. Shown in the toolbar.\n#: src/ui/window.c:{i}\n#, c-format\nmsgctxt "toolbar"\n'
        'msgid "Open file %s number {i}"\nmsgstr ""\n\n'
    )
    plural = '#, c-format\nmsgid "{i} file"\nmsgid_plural "%d files ({i})"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
    return head + "".join((plural if i % 10 == 9 else entry).format(i=i) for i in range(n))


def xliff(n: int) -> str:
    unit = (
        '      <trans-unit id="u{i}"><source>Open <g id="1">file</g> number {i} <x id="2"/></source>'
        "<note>menu</note></trans-unit>\n"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" '
        'xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en" datatype="plaintext" '
        'original="x">\n    <body>\n'
        + "".join(unit.format(i=i) for i in range(n))
        + "    </body>\n  </file>\n</xliff>\n"
    )


def android(n: int) -> str:
    string = (
        '    <!-- Label {i} -->\n    <string name="s{i}">Don\\\'t open <xliff:g id="f">%1$s</xliff:g> '
        "number {i}</string>\n"
    )
    return (
        '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n'
        + "".join(string.format(i=i) for i in range(n))
        + "</resources>\n"
    )


def apple_strings(n: int) -> str:
    pair = '/* Label {i} */\n"key.{i}" = "Open \\"%@\\" number {i}";\n\n'
    return "".join(pair.format(i=i) for i in range(n))


CASES = [
    ResourceCase("po 500k entries (2N)", "po", 250_000, po),
    ResourceCase("xliff many units", "xliff", 50_000, xliff),
    ResourceCase("android many strings", "android", 50_000, android),
    ResourceCase("apple .strings many pairs", "strings", 100_000, apple_strings),
]
