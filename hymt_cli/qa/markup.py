"""Looking through markup: HY-MT's inline tags (`<s1>`, `</s1>`, `<s2/>`), which also stand for
glossary placeholders, are markup, never words or numbers, so the checks read the text
without them. A paired tag goes away; a self-closing one stands for something (inline code,
an image, a protected term) and leaves a space, so that the words around it stay apart."""

from __future__ import annotations

import re

_LOOSE_TAG = re.compile(r"<(/?)s\d+\s*(/?)>")
# Full-width ASCII forms (ＸＲ－２０００, ｈｔｔｐｓ：／／) read as ASCII for codes and addresses; the
# map keeps every character's position (one character for one).
_FULLWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def without_tags(text: str) -> str:
    """`text` with its inline tags removed (self-closing ones leave a space)."""
    if "<" not in text:
        return text
    return _LOOSE_TAG.sub(lambda m: " " if m.group(2) else "", text)


def positions(text: str) -> list[int]:
    """For each character of `without_tags(text)`, where it is in `text` (a self-closing tag's
    space: where the tag starts)."""
    out: list[int] = []
    pos = 0
    for match in _LOOSE_TAG.finditer(text):
        out.extend(range(pos, match.start()))
        if match.group(2):
            out.append(match.start())
        pos = match.end()
    out.extend(range(pos, len(text)))
    return out


def tags_removed(text: str) -> str:
    """`text` without its inline tags, nothing in their place (what its edges really are)."""
    return _LOOSE_TAG.sub("", text) if "<" in text else text


def compact(text: str) -> str:
    """What two texts must share to read the same: their characters but tags and whitespace
    (`Save <s1>now</s1>` and `Save\nnow` are both `Savenow`)."""
    return "".join(tags_removed(text).split())


def halfwidth(text: str) -> str:
    """Full-width ASCII forms as ASCII, position for position."""
    return text.translate(_FULLWIDTH)
