"""Pseudo-localization: accented look-alikes plus expansion, deterministic.

Shows at a glance which text went through translation and whether layouts survive longer
strings. It answers as a careful translation would, so that the QA checks (hymt_cli/qa) see
a changed text that keeps what a translation keeps: markup tags (`<s1>`, `</s1>`, `<s2/>`),
`{placeholders}`, URLs, emails, paths, @handles, #hashtags and codes (`XR-2000`) pass
through intact, the padding has no digits (it would read as numbers the source lacks), and
the source's end punctuation stays at the end (the padding goes before it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..qa import kept_spans
from ..qa.markup import compact
from ..qa.punctuation import CLOSING_MARKS, END_MARKS
from .base import BatchEngine, Generation, GenerationRequest

_LOOKALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóþʠŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
_PROTECTED = re.compile(r"<[^<>\s][^<>]*>|\{[^{}]*\}")
# The sentence end the padding goes before (what the QA end-punctuation check reads): end
# punctuation of any language, then closing quotes or brackets, tags and spaces.
_END = re.compile(rf"[{re.escape(END_MARKS)}]+(?:[{re.escape(CLOSING_MARKS)}\s]|</?s\d+\s*/?>)*$")
OPEN, CLOSE = "⟦", "⟧"


def _protected(text: str) -> list[tuple[int, int]]:
    """Spans a translation keeps as they are, in order, without overlaps."""
    spans = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)] + kept_spans(text)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def pseudo_localize(text: str) -> str:
    """`Hello <s1>world</s1>.` -> `⟦Ĥéĺĺó <s1>ŵóŕĺđ</s1> ···.⟧` (about 30% longer). The end
    punctuation stays last, after the padding."""
    end = tail.start() if (tail := _END.search(text)) else len(text)
    body = text[:end]
    parts: list[str] = []
    pos = 0
    for start, stop in _protected(body):
        parts.append(body[pos:start].translate(_LOOKALIKES))
        parts.append(body[start:stop])
        pos = stop
    parts.append(body[pos:].translate(_LOOKALIKES))
    # The expansion follows the text, not its tags or spacing, so that sources that read the same
    # get the same answer.
    expansion = len(compact(text)) * 3 // 10
    return f"{OPEN}{''.join(parts)} {_padding(max(1, expansion))}{text[end:]}{CLOSE}"


def _padding(length: int) -> str:
    """`····∙····•····∙∙…`: dots with a marker between groups of four that never repeats in a
    loop (the Thue-Morse sequence has no part repeated three times in a row), so validation
    never takes it for a decoding loop, and without digits, which QA would read as numbers."""
    out: list[str] = []
    size = i = 0
    while size < length:  # linear: a running total, not a sum over the groups each time
        out.append("····" + ("∙" if i.bit_count() % 2 else "•"))
        size += 5
        i += 1
    return "".join(out)[:length]


class PseudoEngine(BatchEngine):
    name = "pseudo"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out: list[Generation] = []
        for request in requests:
            text = pseudo_localize(request.source_text)
            out.append(Generation(text, "stop", len(text.split())))
        return out
