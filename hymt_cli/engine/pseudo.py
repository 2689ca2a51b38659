"""Pseudo-localization: accented look-alikes plus expansion, deterministic.

Shows at a glance which text went through translation and whether layouts survive longer
strings. Markup tags (`<s1>`, `</s1>`, `<s2/>`) and `{placeholders}` pass through intact.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .base import BatchEngine, Generation, GenerationRequest

_LOOKALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóþʠŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
_PROTECTED = re.compile(r"<[^<>\s][^<>]*>|\{[^{}]*\}")
OPEN, CLOSE = "⟦", "⟧"


def pseudo_localize(text: str) -> str:
    """`Hello <s1>world</s1>` -> `⟦Ĥéĺĺó <s1>ŵóŕĺđ</s1> ·····⟧` (about 30% longer)."""
    parts: list[str] = []
    pos = 0
    for match in _PROTECTED.finditer(text):
        parts.append(text[pos:match.start()].translate(_LOOKALIKES))
        parts.append(match.group(0))
        pos = match.end()
    parts.append(text[pos:].translate(_LOOKALIKES))
    return f"{OPEN}{''.join(parts)} {_padding(max(1, len(text) * 3 // 10))}{CLOSE}"


def _padding(length: int) -> str:
    """`····1····2····3…`: numbered so that it never looks like a decoding loop to validation."""
    groups: list[str] = []
    size = i = 0
    while size < length:  # linear: a running total, not a sum over the groups each time
        i += 1
        groups.append("····" + str(i))
        size += len(groups[-1])
    return "".join(groups)[:length]


class PseudoEngine(BatchEngine):
    name = "pseudo"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out: list[Generation] = []
        for request in requests:
            text = pseudo_localize(request.source_text)
            out.append(Generation(text, "stop", len(text.split())))
        return out
