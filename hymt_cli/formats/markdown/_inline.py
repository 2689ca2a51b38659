"""The inline walk: one inline token's children against its content, markup located exactly.

markdown-it's inline children carry no offsets; each handler here (one per token type, in
`_HANDLERS`, like markdown-it's renderer rules) finds its token at the walk's cursor in the
content and records its span as a part:

- emphasis, strong, strikethrough, links, paired inline HTML -> `open`/`close` parts
- inline code, math, images, footnote references, autolinks, lone HTML tags -> `self` parts
- soft/hard line breaks -> `break` parts (with the next line's indentation)

A token that is not where it should be (or of a type no handler knows) ends the walk with
None: the block is then not translated. Templating, shortcodes and bare URLs are cut out of
text as `self` parts. Image alt text, link titles and one-line inline footnotes are
collected in `nested`, to become segments of their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from markdown_it.helpers import parseLinkDestination, parseLinkTitle
from markdown_it.token import Token

from ..html.elements import OPAQUE_INLINE, skips_subtree
from ..html.escapes import attribute_spans
from ..spans import TEMPLATING
from ._escapes import Escape, escape_alt_text, escape_inline_footnote, title_escape
from ._source import RawKind, RawPart

_PROTECTED_TEXT = re.compile(
    TEMPLATING  # Jinja / Liquid / Hugo templating
    + r"|:[a-z_+\-][a-z0-9_+\-]*:"  # emoji shortcodes
    r"|\{[#.:][^{}\n]*\}"  # heading ids / attribute lists {#id .class}
    r"|(?<!\S)\[[ xX]\](?=\s)"  # task list boxes
    r"|\[![A-Za-z]+\]"  # GitHub alerts: > [!NOTE]
    r"|(?:https?|ftp)://[^\s<>()\[\]]+|www\.[A-Za-z0-9-]+\.[^\s<>()\[\]]+"  # bare URLs
    r"|<[a-z][a-z0-9+.-]*:[^\s<>]*>",  # autolink-looking text
    re.DOTALL,
)
_HTML_OPEN = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?>\Z", re.DOTALL)
_HTML_CLOSE = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)\s*>\Z")
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_BACKTICKS = re.compile(r"`+")
_LINE_BREAKS = re.compile(r"[ \t]*\n[ \t]*")

# An inline footnote as the footnote plugin keeps it in the parser's env: "content", "tokens".
Footnotes = Mapping[int, Mapping[str, Any]]


class Nested(NamedTuple):
    """Translatable text inside a markup part (alt text, a link title, an inline footnote)."""

    parts: list[RawPart]
    escape: Escape
    role: str = ""  # Segment.role: "attribute alt", "attribute title", "footnote"


class InlineWalker:
    """Finds the parts of one inline token's content (offsets into `content`)."""

    def __init__(self, content: str, footnotes: Footnotes | None = None) -> None:
        self.content = content
        self.footnotes: Footnotes = footnotes or {}  # inline footnotes' tokens, by id
        self.nested: list[Nested] = []
        self._out: list[RawPart] = []
        self._cursor = 0
        self._children: Sequence[Token] = ()
        self._index = 0
        self.links: list[int] = []  # where each open link's `[` is
        self.opaque_tag: str | None = None  # the HTML element kept whole, while in it
        self.opaque_depth = 0
        self._opaque_from = (0, 0, 0)  # its start, and how many parts and nested there were

    def parts(self, children: Sequence[Token]) -> list[RawPart] | None:
        """The parts of the whole content, or None when a child is not found exactly."""
        self._out, self._cursor, self._children, self._index = [], 0, children, 0
        while self._index < len(children):
            tok = children[self._index]
            handler = _HANDLERS.get(tok.type)
            if handler is None or not handler(self, tok):
                return None
            self._index += 1
        if self._cursor != len(self.content):
            return None
        if self.opaque_tag is not None:  # not closed: kept whole to the end
            self.end_opaque()
        return _protect(self.content, self._out)

    # -- helpers for the handlers ----------------------------------------------------------
    def take(self, raw: str, kind: RawKind, key: str = "") -> bool:
        """`raw` at the cursor becomes one part."""
        if not self.content.startswith(raw, self._cursor):
            return False
        return self.take_to(self._cursor + len(raw), kind, key)

    def take_to(self, end: int | None, kind: RawKind, key: str = "", written: str | None = None) -> bool:
        """The content from the cursor to `end` becomes one part (None: not found)."""
        if end is None:
            return False
        self._out.append(RawPart(self._cursor, end, kind, key, written))
        self._cursor = end
        return True

    def begin_opaque(self, tag: str) -> None:
        """An HTML element never translated (code, kbd, samp, `translate="no"`) starts at the
        cursor: everything up to its end tag becomes one placeholder."""
        self.opaque_tag, self.opaque_depth = tag, 1
        self._opaque_from = (self._cursor, len(self._out), len(self.nested))

    def end_opaque(self) -> None:
        start, parts, nested = self._opaque_from
        del self._out[parts:], self.nested[nested:]
        self._out.append(RawPart(start, self._cursor, "self"))
        self.opaque_tag = None

    def title(self, start: int, end: int, value: str) -> None:
        """A link title at content[start:end], quotes included: translated when it is plain
        (no escapes or entities: then the raw text is the title) and on one line."""
        raw = self.content[start + 1 : end - 1]
        if raw.strip() and raw == value and "\n" not in raw:
            self.nested.append(
                Nested(
                    [RawPart(start + 1, end - 1, "text")],
                    title_escape(self.content[start]),
                    "attribute title",
                )
            )

    def code_span_end(self, c: int, ticks: str) -> int | None:
        """End of the code span opened by `ticks` at c (a run of as many backticks closes it)."""
        if not ticks or not self.content.startswith(ticks, c):
            return None
        for run in _BACKTICKS.finditer(self.content, c + len(ticks)):
            if len(run.group(0)) == len(ticks):
                return run.end()
        return None

    def bracket_end(self, c: int) -> int | None:
        """Index of the `]` closing the `[` at c (backslash escapes honoured)."""
        content = self.content
        if not content.startswith("[", c):
            return None
        depth = 0
        j = c
        while j < len(content):
            ch = content[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "`":  # code spans may hold brackets
                run = _BACKTICKS.match(content, j)
                assert run is not None
                end = self.code_span_end(j, run.group(0))
                j = end if end is not None else run.end()
                continue
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        return None

    def link_tail(self, p: int) -> int:
        """End of a link's destination part after its `]`: `(dest "title")`, `[ref]` or nothing."""
        if self.content.startswith("(", p):
            end = self._inline_destination(p)
            if end is not None:
                return end
        if self.content.startswith("[", p):
            end = self.bracket_end(p)
            if end is not None:
                return end + 1
        return p

    def _inline_destination(self, p: int) -> int | None:
        """End of `(dest "title")` opening at p, or None; a plain title is collected."""
        content = self.content
        n = len(content)
        pos = _skip_space(content, p + 1, " \t\n")
        if pos >= n:
            return None
        res = parseLinkDestination(content, pos, n)
        if res.ok:
            pos = res.pos
        start = pos
        pos = _skip_space(content, pos, " \t\n")
        title = parseLinkTitle(content, pos, n)
        if pos < n and start != pos and title.ok:
            self.title(pos, title.pos, title.str)
            pos = _skip_space(content, title.pos, " \t\n")
        return pos + 1 if pos < n and content[pos] == ")" else None

    def inline_footnote(self, start: int, end: int, tok: Token) -> None:
        """`^[text]`: its text is a segment of its own when it sits on one line."""
        note_id = tok.meta.get("id") if tok.meta else None
        note = self.footnotes.get(note_id) if isinstance(note_id, int) else None
        if note is None or note.get("content") != self.content[start:end]:
            return
        inner = InlineWalker(self.content[start:end]).parts(note.get("tokens") or [])
        if inner is None or any(p.kind == "break" for p in inner):
            return
        self.nested.append(
            Nested(
                [RawPart(p.start + start, p.end + start, p.kind, p.key) for p in inner],
                escape_inline_footnote,
                "footnote",
            )
        )

    def skip_to(self, token_type: str) -> None:
        """Move past the children up to the next one of `token_type` (consumed too)."""
        while self._index < len(self._children) and self._children[self._index].type != token_type:
            self._index += 1

    @property
    def cursor(self) -> int:
        return self._cursor


def _skip_space(text: str, pos: int, chars: str = " \t") -> int:
    while pos < len(text) and text[pos] in chars:
        pos += 1
    return pos


# -- handlers: (walker, token) -> found -------------------------------------------------------
def _text(w: InlineWalker, tok: Token) -> bool:
    return w.take(tok.content, "text")


def _text_special(w: InlineWalker, tok: Token) -> bool:
    # Entities and backslash escapes reach the model as their character; a translation's
    # characters are escaped again where they would be markup (`&#42;`, `\*` -> `\*`).
    return w.take(tok.markup, "entity", tok.content)


def _line_break(w: InlineWalker, tok: Token) -> bool:
    content = w.content
    j = _skip_space(content, w.cursor)
    if tok.type == "hardbreak" and content.startswith("\\\n", j):
        j += 1
    if not content.startswith("\n", j):
        return False
    return w.take_to(_skip_space(content, j + 1), "break")


def _emphasis(w: InlineWalker, tok: Token) -> bool:
    opening = tok.nesting == 1
    name = tok.type[:-5] if opening else tok.type[:-6]
    return bool(tok.markup) and w.take(tok.markup, "open" if opening else "close", name)


def _code_inline(w: InlineWalker, tok: Token) -> bool:
    return w.take_to(w.code_span_end(w.cursor, tok.markup), "self")


def _math_inline(w: InlineWalker, tok: Token) -> bool:
    return bool(tok.markup) and w.take(tok.markup + tok.content + tok.markup, "self")


def _html_inline(w: InlineWalker, tok: Token) -> bool:
    raw = tok.content
    opening, closing = _HTML_OPEN.match(raw), _HTML_CLOSE.match(raw)
    if opening and not raw.endswith("/>") and opening.group(1).lower() not in _VOID:
        tag = opening.group(1).lower()
        if w.opaque_tag is None and (tag in OPAQUE_INLINE or _skips_subtree(raw)):
            w.begin_opaque(tag)
        elif w.opaque_tag == tag:
            w.opaque_depth += 1
        return w.take(raw, "open", "html:" + tag)
    if closing:
        tag = closing.group(1).lower()
        found = w.take(raw, "close", "html:" + tag)
        if found and w.opaque_tag == tag:
            w.opaque_depth -= 1
            if not w.opaque_depth:
                w.end_opaque()
        return found
    return w.take(raw, "self")


def _skips_subtree(raw: str) -> bool:
    """`translate="no"` or class `notranslate` on the HTML start tag `raw`."""
    attrs = tuple((name, raw[a:b]) for name, a, b, _ in attribute_spans(raw, 0, len(raw)))
    return skips_subtree(attrs)


def _link_open(w: InlineWalker, tok: Token) -> bool:
    if tok.markup == "autolink" or tok.info == "auto":
        end = w.content.find(">", w.cursor)
        if not w.content.startswith("<", w.cursor) or end < 0:
            return False
        w.skip_to("link_close")
        return w.take_to(end + 1, "self")
    w.links.append(w.cursor)
    return w.take("[", "open", "link")


def _link_close(w: InlineWalker, tok: Token) -> bool:
    c = w.cursor
    if not w.content.startswith("]", c) or not w.links:
        return False
    start = w.links.pop()
    end = w.link_tail(c + 1)
    written = None
    if _is_label_reference(w.content, c + 1, end):
        # `[foo]` / `[foo][]`: the text is the label, and a translated label would match no
        # definition: a translation writes the full reference `[translated][foo]`.
        # (a label's line breaks as spaces: the content lacks the lines' container prefixes,
        # and labels match with their whitespace collapsed)
        written = "][" + _LINE_BREAKS.sub(" ", w.content[start + 1 : c]) + "]"
    return w.take_to(end, "close", "link", written)


def _is_label_reference(content: str, tail: int, end: int) -> bool:
    """The link's `]` at tail-1 ends a shortcut (`[foo]`) or collapsed (`[foo][]`) reference."""
    return end == tail or content[tail:end] == "[]"


def _image(w: InlineWalker, tok: Token) -> bool:
    c = w.cursor
    if not w.content.startswith("![", c):
        return False
    label_end = w.bracket_end(c + 1)
    if label_end is None:
        return False
    alt = w.content[c + 2 : label_end]
    end = w.link_tail(label_end + 1)
    # Plain alt text only: markup or escapes in it stay as written. The alt text of a
    # shortcut or collapsed reference (`![foo]`, `![foo][]`) is its label: kept.
    if (
        alt.strip()
        and "\n" not in alt
        and tok.children is not None
        and all(ch.type == "text" for ch in tok.children)
        and "".join(ch.content for ch in tok.children) == alt
        and not _is_label_reference(w.content, label_end + 1, end)
    ):
        w.nested.append(Nested([RawPart(c + 2, label_end, "text")], escape_alt_text, "attribute alt"))
    return w.take_to(end, "self")


def _footnote_ref(w: InlineWalker, tok: Token) -> bool:
    c = w.cursor
    end: int | None = None
    if w.content.startswith("[^", c):
        found = w.content.find("]", c)
        end = found if found >= 0 else None
    elif w.content.startswith("^[", c):
        end = w.bracket_end(c + 1)
        if end is not None:
            w.inline_footnote(c + 2, end, tok)
    return w.take_to(None if end is None else end + 1, "self")


_HANDLERS: dict[str, Callable[[InlineWalker, Token], bool]] = {
    "text": _text,
    "text_special": _text_special,
    "softbreak": _line_break,
    "hardbreak": _line_break,
    **{f"{name}_{side}": _emphasis for name in ("em", "strong", "s") for side in ("open", "close")},
    "code_inline": _code_inline,
    "math_inline": _math_inline,
    "math_inline_double": _math_inline,
    "html_inline": _html_inline,
    "link_open": _link_open,
    "link_close": _link_close,
    "image": _image,
    "footnote_ref": _footnote_ref,
}


def _protect(content: str, parts: list[RawPart]) -> list[RawPart]:
    """Merge adjacent text and cut templating, shortcodes and bare URLs out of it."""
    merged: list[RawPart] = []
    for part in parts:
        if merged and part.kind == "text" and merged[-1].kind == "text":
            merged[-1] = RawPart(merged[-1].start, part.end, "text")
        else:
            merged.append(part)
    out: list[RawPart] = []
    for part in merged:
        if part.kind != "text":
            out.append(part)
            continue
        pos = part.start
        for match in _PROTECTED_TEXT.finditer(content, part.start, part.end):
            if match.start() > pos:
                out.append(RawPart(pos, match.start(), "text"))
            out.append(RawPart(match.start(), match.end(), "self"))
            pos = match.end()
        if pos < part.end:
            out.append(RawPart(pos, part.end, "text"))
    return out
