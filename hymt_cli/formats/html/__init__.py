"""HTML: the text of block-level elements is translated, the source is spliced, never re-serialized.

The stdlib `html.parser` reports every event in order; consecutive events are contiguous in
the source, so each event's exact span is known (`events`). Text between two block
boundaries (any tag that is not inline) is one segment: inline elements inside it become
`<sN>...</sN>` tags, void/opaque inline elements (`<br>`, `<img>`, `<code>...</code>`,
comments) `<sN/>` placeholders (`segmenter`). Translatable attributes (`alt`, `title`,
`placeholder`, `aria-label`, meta description / og: and twitter: title and description)
are segments too, nested inside their tag when it sits in running text.

Never translated: script, style, pre, code, kbd, samp, textarea, svg, math, template,
comments, and elements with `translate="no"` or class `notranslate` (with their subtree).
Mis-nested or unclosed, they stay untranslated as far as browsers or html.parser could
read them open (`<code><pre></code>x`: x is in the pre; `<p><code></p>x`: code reopens;
a textarea is raw text to `</textarea>`), and a segment never spans such an element, so
no translated text can be moved into one.
Doctype, entity spelling, attribute quoting and order, tag case and whitespace are kept
because everything outside the translated spans is copied from the source.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..base import Decoded
from ..document import SplicingFormat
from ..splice_index import SpliceIndex
from .charset import declared_charset, decode_html
from .events import Event, parse_events
from .segmenter import find_html_segments, segment


class HtmlFormat(SplicingFormat):
    name = "html"
    suffixes = (".html", ".htm")

    def decode(self, data: bytes) -> Decoded:
        return decode_html(data)

    def decode_input(self, data: bytes) -> Decoded:
        return decode_html(data, self.encodings.encoding)

    def relabelled(self, text: str, codec: str) -> str:
        """The page with its `<meta>` charset declaration naming `codec` (one is added after
        `<head>` where the page declared none)."""
        declared = _CHARSET.search(text, 0, _HEAD_CHARS)
        if declared is not None:
            return text[: declared.start(1)] + codec + text[declared.end(1) :]
        head = _HEAD.search(text)
        if head is None:
            return text
        return text[: head.end()] + f'<meta charset="{codec}">' + text[head.end() :]

    def parse(self, text: str) -> HtmlDocument:
        return HtmlDocument(text)


# A charset declaration in the head: `<meta charset="big5">` or the http-equiv form's
# `content="text/html; charset=big5"` (the prescan reads the first 1024 bytes; a head may be longer).
_HEAD_CHARS = 1 << 14
_CHARSET = re.compile(r"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^\s"';>/]+)""", re.IGNORECASE)
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


class HtmlDocument:
    def __init__(self, src: str) -> None:
        segmenter = segment(src, 0, len(src))
        self._html_lang = segmenter.html_lang
        self._index = SpliceIndex(src)
        self._index.extend(segmenter.out)
        self._index.finish()
        self.segments = self._index.segments()

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        edits = []
        if target_language and self._html_lang is not None:
            edits.append((self._html_lang[0], self._html_lang[1], target_language))
        return self._index.reassemble(translated, edits)


__all__ = ["HtmlFormat", "HtmlDocument", "Event", "parse_events", "find_html_segments", "declared_charset"]
