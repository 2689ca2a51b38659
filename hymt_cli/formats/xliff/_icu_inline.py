"""ICU messages whose branches hold inline codes: Angular's plural and select units.

Angular writes `{VAR_PLURAL, plural, =0 {just now} other {<x id="INTERPOLATION"
equiv-text="{{minutes}}"/> minutes ago}}`. Read as XML content, the codes hide the ICU structure
(their attributes hold braces); read as text, the argument and the keywords would go to the
model. So the content's source is masked: every inline code (or each start and end tag of a
paired one) becomes a token tag (`<hymt-0/>`, `<hymt-1>` ... `</hymt-1>`) that the HTML
convention keeps as a placeholder, the ICU message is parsed from that, and the tokens are put
back in what is written. Text runs stay as XML writes them: entities are the HTML convention's
(`&lt;` reads as `<`), and the HTML escape of the model's text is XML's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..spans import Span
from ..xmlvalues import Content

_TOKEN = re.compile(r"<(/?)hymt-(\d+)(/?)>")


@dataclass(frozen=True, slots=True)
class MaskedContent:
    """The content's source with its inline codes as token tags, and each token's source."""

    text: str
    codes: dict[tuple[str, int], str]  # ("" or "/", number) -> the code's source

    def unmask(self, text: str) -> str:
        """Rendered text with every token back as its code's source."""
        return _TOKEN.sub(lambda m: self.codes[(m.group(1), int(m.group(2)))], text)


def masked(src: str, found: Content) -> MaskedContent | None:
    """`found` with its inline codes as tokens (None: it has a CDATA section, or nothing to mask)."""
    out: list[str] = []
    codes: dict[tuple[str, int], str] = {}
    open_numbers: list[int] = []
    pos, number = found.start, 0
    for piece in found.pieces:
        if not isinstance(piece, Span):
            continue  # a text run: copied as the source writes it
        if piece.key == "xml:cdata":
            return None
        out.append(src[pos : piece.start])
        if piece.kind == "close":
            if not open_numbers:
                return None
            n, slash = open_numbers.pop(), "/"
            token = f"</hymt-{n}>"
        else:
            n, slash, number = number, "", number + 1
            if piece.kind == "open":
                open_numbers.append(n)
            token = f"<hymt-{n}/>" if piece.kind == "self" else f"<hymt-{n}>"
        codes[(slash, n)] = src[piece.start : piece.end]
        out.append(token)
        pos = piece.end
    out.append(src[pos : found.end])
    return MaskedContent("".join(out), codes) if codes else None
