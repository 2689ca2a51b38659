"""An Apple `.strings` file's members (strings/outline.py), for merging into a translation
that exists (`de.lproj/Localizable.strings`).

A member is a `"key" = "value";` pair with the comment written for it (`genstrings` writes one
above each pair; a comment followed by a blank line is about what follows, not one pair): a
new pair is copied from the source with its comment, after the pair before it there, with the
blank lines the target puts between its pairs; a removed pair goes with its comment. Its
value is what it reads as (escapes undone), written back quoted with the file's escapes.
`"key";` alone (the value is the key) is a member whose value is copied as it is.
"""

from __future__ import annotations

from ..strings.outline import Container, Leaf, Member, Outline
from ..strings.spaced import SpacedSyntax
from .lexer import pairs, quote

SYNTAX = SpacedSyntax(blank_lines=True, xml=False)


def strings_outline(text: str) -> Outline:
    """Every pair of the file, in order; FormatError (line and column) where the text is no
    `.strings` file."""
    start = 1 if text.startswith("\ufeff") else 0
    members: list[Member] = [Container((), start, len(text), start, len(text))]
    for pair in pairs(text):
        key, value = pair.key, pair.value
        if value is None:
            members.append(Leaf((key.value,), pair.start, pair.end, key.end, key.end, key.value, None))
        else:
            members.append(
                Leaf((key.value,), pair.start, pair.end, value.start, value.end, value.value, quote)
            )
    return Outline(tuple(members), SYNTAX)
