"""Markdown: block-level prose is translated, every byte of markup is kept.

markdown-it-py (CommonMark + tables, strikethrough, front matter, footnotes, admonitions,
dollar math) decides *what* is prose. Its block tokens carry line ranges (`map`) but inline
content comes without offsets and with container prefixes (`> `, list indents) stripped, so
each inline token's content is located in the source lines here, and its inline children
are walked against that content to find the exact span of every piece of markup:

- emphasis, strong, strikethrough, links, paired inline HTML -> `<sN>...</sN>`
- inline code, math, images, footnote references, autolinks, lone HTML tags, bare URLs,
  emoji shortcodes (`:tada:`), templating (`{{ x }}`, `{% x %}`) -> `<sN/>`
- soft/hard line breaks -> "\\n" for the model, the source's break (prefix included) back.

Image alt text, link titles, reference definitions' titles and one-line inline footnotes
(`^[...]`) are segments of their own, nested in the markup that holds them; destinations and
labels never reach the model. Translated text that begins a paragraph line is escaped where
it would open a block (`# `, `- `, `1. `, `>`, a fence ...), so the block structure stays.

Whatever cannot be located exactly is not translated: the output is the source there.
Code blocks, HTML comments, math blocks, link reference definitions and front matter
(YAML `---` or TOML `+++`; except one-line `title`/`description` values) never reach the
model. HTML blocks, also inside blockquotes and list items, are translated with the HTML
format's rules.
"""
from __future__ import annotations

import bisect
import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..segments import Segment
from .base import Decoded, decode_utf8
from .document import SplicingFormat
from .spans import Located, Part, SpliceIndex, locate, segment_text

_LINE = re.compile(r"[^\r\n]*(\r\n|\r|\n|$)")
_PROTECTED_TEXT = re.compile(
    r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}"           # Jinja / Liquid / Hugo templating
    r"|:[a-z_+\-][a-z0-9_+\-]*:"                 # emoji shortcodes
    r"|\{[#.:][^{}\n]*\}"                          # heading ids / attribute lists {#id .class}
    r"|(?<!\S)\[[ xX]\](?=\s)"                      # task list boxes
    r"|\[![A-Za-z]+\]"                             # GitHub alerts: > [!NOTE]
    r"|(?:https?|ftp)://[^\s<>()\[\]]+|www\.[A-Za-z0-9-]+\.[^\s<>()\[\]]+"  # bare URLs
    r"|<[a-z][a-z0-9+.-]*:[^\s<>]*>",             # autolink-looking text
    re.DOTALL,
)
_ALERT = re.compile(r"\[![A-Za-z]+\]")
_HTML_OPEN = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?>\Z", re.DOTALL)
_HTML_CLOSE = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)\s*>\Z")
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_FRONT_MATTER_KEY = re.compile(r"(title|description)([ \t]*:[ \t]*)(.*?)[ \t]*\Z")
_YAML_PLAIN_UNSAFE = re.compile(r":(\s|\Z)|\s#|\A[\s\-?:,\[\]{}#&*!|>'\"%@`]|\s\Z")


def _parser() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = (MarkdownIt("commonmark").enable(["table", "strikethrough"])
          .use(front_matter_plugin).use(footnote_plugin).use(admon_plugin).use(dollarmath_plugin))
    md.disable("text_join")  # keep escapes/entities as their own tokens (markup = source text)
    return md


_PARSER: Any = None


def _markdown_parser() -> Any:
    global _PARSER
    if _PARSER is None:
        _PARSER = _parser()
    return _PARSER


class _Lines:
    """Start and text end (before the line break) of every source line, as markdown-it counts them."""

    def __init__(self, src: str, base: int) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        pos = base
        while pos <= len(src):
            match = _LINE.match(src, pos)
            assert match is not None
            self.starts.append(pos)
            self.ends.append(match.start(1))
            if match.end() == pos or not match.group(1):
                break
            pos = match.end()

    def text(self, src: str, i: int) -> str:
        return src[self.starts[i]:self.ends[i]] if i < len(self.starts) else ""


_ENTITY_LIKE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def _escape_tag_start(text: str) -> str:
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)


def _escape_text(text: str) -> str:
    """Translated prose must not open HTML tags, code spans or math the source did not have
    (a backtick or `$` next to a placeholder would change that code span or link)."""
    text = _ENTITY_LIKE.sub("&amp;", text)  # the model saw characters: `&copy;` is text
    return re.sub(r"(?<!\\)([`$])", r"\\\1", _escape_tag_start(text))


_ORDERED_START = re.compile(r"(\d{1,9})([.)])(?=[ \t]|\Z)")
_BLOCK_START = re.compile(
    r"#{1,6}(?:[ \t]|\Z)"                  # ATX heading
    r"|[>|]"                                  # block quote; table row
    r"|[-+*](?:[ \t]|\Z)"                    # bullet list item
    r"|(?:[-*_][ \t]*){3,}\Z|=+[ \t]*\Z"      # thematic break; setext underline
    r"|`{3}|~{3}|\$\$|!!!|\?\?\?"             # fence; math block; admonition
    r"|:?-+:?[ \t]*\|"                        # table delimiter row
    r"|\[[^\]]*\]:")                          # reference or footnote definition


def _guard_line_start(text: str) -> str:
    """Translated text that begins a line of a paragraph must not start a block there: the
    output keeps the source's block structure (`- x` -> `\\- x`, `1. x` -> `1\\. x`)."""
    text = text.lstrip(" \t")  # 4 spaces at a paragraph's start would open a code block
    ordered = _ORDERED_START.match(text)
    if ordered:
        return ordered.group(1) + "\\" + text[ordered.end(1):]
    if _BLOCK_START.match(text):
        return "\\" + text
    return text


def _escape_inline_text_markup(text: str) -> str:
    """Prose inside `^[...]`: as any prose, and brackets escaped."""
    return re.sub(r"(?<!\\)([\[\]])", r"\\\1", _escape_text(text))


def _escape_inline_text(chars: str) -> str:
    """Text inside `[...]` (image alt): brackets and what could swallow them are escaped."""
    out = _escape_tag_start(_ENTITY_LIKE.sub("&amp;", chars.replace("\\", "\\\\")))
    return re.sub(r"([\[\]`$])", r"\\\1", out)


def _title_escape(delimiter: str) -> Any:
    """Escape for a link title written between `delimiter`s (`"`, `'` or `(`)."""
    specials = {'"': '"', "'": "'", "(": "()"}[delimiter]

    def escape(text: str) -> str:
        out = _ENTITY_LIKE.sub("&amp;", text.replace("\\", "\\\\"))
        return "".join("\\" + ch if ch in specials else ch for ch in out)

    return escape


def _escape_table_cell(text: str) -> str:
    return re.sub(r"(?<!\\)\|", r"\\|", _escape_text(text))


def _yaml_plain(text: str) -> str:
    return json.dumps(text, ensure_ascii=False) if _YAML_PLAIN_UNSAFE.search(text) else text


def _yaml_double(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _yaml_single(text: str) -> str:
    return text.replace("'", "''")


class _Walker:
    """Finds the parts of one inline token's content (offsets into `content`)."""

    def __init__(self, content: str, footnotes: Mapping[int, Any] | None = None) -> None:
        self.content = content
        self.footnotes = footnotes or {}  # inline footnotes' tokens, by id (the parser's env)
        # Translatable text inside markup parts (image alt text, link titles, inline footnotes):
        # (parts, escape) in `content`, each nested in the markup part that holds it.
        self.nested: list[tuple[list[tuple[int, int, str, str]], Any]] = []

    def parts(self, children: Sequence[Any]) -> list[tuple[int, int, str, str]] | None:
        content = self.content
        out: list[tuple[int, int, str, str]] = []
        c = 0
        i = 0
        while i < len(children):
            tok = children[i]
            kind = tok.type
            if kind == "text":
                if not content.startswith(tok.content, c):
                    return None
                out.append((c, c + len(tok.content), "text", ""))
                c += len(tok.content)
            elif kind == "text_special":
                if not content.startswith(tok.markup, c):
                    return None
                # entities reach the model as their character; escapes stay as written
                out.append((c, c + len(tok.markup), "entity" if tok.info == "entity" else "text",
                            tok.content))
                c += len(tok.markup)
            elif kind in ("softbreak", "hardbreak"):
                j = c
                while j < len(content) and content[j] in " \t":
                    j += 1
                if kind == "hardbreak" and content.startswith("\\\n", j):
                    j += 1
                if not content.startswith("\n", j):
                    return None
                j += 1
                while j < len(content) and content[j] in " \t":
                    j += 1
                out.append((c, j, "break", ""))
                c = j
            elif kind.endswith("_open") and kind in ("em_open", "strong_open", "s_open"):
                if not tok.markup or not content.startswith(tok.markup, c):
                    return None
                out.append((c, c + len(tok.markup), "open", kind[:-5]))
                c += len(tok.markup)
            elif kind in ("em_close", "strong_close", "s_close"):
                if not tok.markup or not content.startswith(tok.markup, c):
                    return None
                out.append((c, c + len(tok.markup), "close", kind[:-6]))
                c += len(tok.markup)
            elif kind == "code_inline":
                end = self._code_span_end(c, tok.markup)
                if end is None:
                    return None
                out.append((c, end, "self", ""))
                c = end
            elif kind in ("math_inline", "math_inline_double"):
                raw = tok.markup + tok.content + tok.markup
                if not tok.markup or not content.startswith(raw, c):
                    return None
                out.append((c, c + len(raw), "self", ""))
                c += len(raw)
            elif kind == "html_inline":
                if not content.startswith(tok.content, c):
                    return None
                end = c + len(tok.content)
                opening, closing = _HTML_OPEN.match(tok.content), _HTML_CLOSE.match(tok.content)
                if opening and not tok.content.endswith("/>") and opening.group(1).lower() not in _VOID:
                    out.append((c, end, "open", "html:" + opening.group(1).lower()))
                elif closing:
                    out.append((c, end, "close", "html:" + closing.group(1).lower()))
                else:
                    out.append((c, end, "self", ""))
                c = end
            elif kind == "link_open" and (tok.markup == "autolink" or tok.info == "auto"):
                end = content.find(">", c)
                if not content.startswith("<", c) or end < 0:
                    return None
                out.append((c, end + 1, "self", ""))
                c = end + 1
                while i < len(children) and children[i].type != "link_close":
                    i += 1
            elif kind == "link_open":
                if not content.startswith("[", c):
                    return None
                out.append((c, c + 1, "open", "link"))
                c += 1
            elif kind == "link_close":
                if not content.startswith("]", c):
                    return None
                end = self._link_tail(c + 1)
                out.append((c, end, "close", "link"))
                c = end
            elif kind == "image":
                if not content.startswith("![", c):
                    return None
                label_end = self._bracket_end(c + 1)
                if label_end is None:
                    return None
                alt = content[c + 2:label_end]
                # Plain alt text only: markup or escapes in it stay as written.
                if alt.strip() and "\n" not in alt and tok.children is not None \
                        and all(ch.type == "text" for ch in tok.children) \
                        and "".join(ch.content for ch in tok.children) == alt:
                    self.nested.append(([(c + 2, label_end, "text", "")], _escape_inline_text))
                end = self._link_tail(label_end + 1)
                out.append((c, end, "self", ""))
                c = end
            elif kind == "footnote_ref":
                if content.startswith("[^", c):
                    end = content.find("]", c)
                    end = None if end < 0 else end
                elif content.startswith("^[", c):
                    end = self._bracket_end(c + 1)
                    if end is not None:
                        self._inline_footnote(c + 2, end, tok)
                else:
                    return None
                if end is None:
                    return None
                out.append((c, end + 1, "self", ""))
                c = end + 1
            else:  # a construct this walker does not know: leave the block untranslated
                return None
            i += 1
        if c != len(content):
            return None
        return self._protect(out)

    def _protect(self, parts: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
        """Merge adjacent text and cut templating, shortcodes and bare URLs out of it."""
        merged: list[tuple[int, int, str, str]] = []
        for part in parts:
            if merged and part[2] == "text" and merged[-1][2] == "text":
                merged[-1] = (merged[-1][0], part[1], "text", "")
            else:
                merged.append(part)
        out: list[tuple[int, int, str, str]] = []
        for start, end, kind, key in merged:
            if kind != "text":
                out.append((start, end, kind, key))
                continue
            pos = start
            for match in _PROTECTED_TEXT.finditer(self.content, start, end):
                if match.start() > pos:
                    out.append((pos, match.start(), "text", ""))
                out.append((match.start(), match.end(), "self", ""))
                pos = match.end()
            if pos < end:
                out.append((pos, end, "text", ""))
        return out

    def _code_span_end(self, c: int, ticks: str) -> int | None:
        if not ticks or not self.content.startswith(ticks, c):
            return None
        for run in re.finditer(r"`+", self.content[c + len(ticks):]):
            if len(run.group(0)) == len(ticks):
                return c + len(ticks) + run.end()
        return None

    def _inline_footnote(self, start: int, end: int, tok: Any) -> None:
        """`^[text]`: its text is a segment of its own when it sits on one line."""
        note = self.footnotes.get(tok.meta.get("id")) if tok.meta else None
        if note is None or note.get("content") != self.content[start:end]:
            return
        inner = _Walker(self.content[start:end]).parts(note.get("tokens") or [])
        if inner is None or any(kind == "break" for _, _, kind, _ in inner):
            return
        self.nested.append(([(a + start, b + start, kind, key) for a, b, kind, key in inner],
                            _escape_inline_text_markup))

    def _title(self, start: int, title: Any) -> None:
        """A link title at content[start:title.pos], quotes included: translated when it is
        plain (no escapes or entities: then the raw text is the title) and on one line."""
        raw = self.content[start + 1:title.pos - 1]
        if raw.strip() and raw == title.str and "\n" not in raw:
            self.nested.append(([(start + 1, title.pos - 1, "text", "")],
                                _title_escape(self.content[start])))

    def _bracket_end(self, c: int) -> int | None:
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
                run = re.match(r"`+", content[j:]).group(0)  # type: ignore[union-attr]
                end = self._code_span_end(j, run)
                j = end if end is not None else j + len(run)
                continue
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        return None

    def _link_tail(self, p: int) -> int:
        """End of a link's destination part after its `]`: `(dest "title")`, `[ref]` or nothing."""
        from markdown_it.helpers import parseLinkDestination, parseLinkTitle

        content = self.content
        n = len(content)
        if content.startswith("(", p):
            pos = p + 1
            while pos < n and content[pos] in " \t\n":
                pos += 1
            if pos < n:
                res = parseLinkDestination(content, pos, n)
                if res.ok:
                    pos = res.pos
                start = pos
                while pos < n and content[pos] in " \t\n":
                    pos += 1
                title = parseLinkTitle(content, pos, n)
                if pos < n and start != pos and title.ok:
                    self._title(pos, title)
                    pos = title.pos
                    while pos < n and content[pos] in " \t\n":
                        pos += 1
                if pos < n and content[pos] == ")":
                    return pos + 1
        if content.startswith("[", p):
            end = self._bracket_end(p)
            if end is not None:
                return end + 1
        return p


class MarkdownFormat(SplicingFormat):
    name = "md"
    suffixes = (".md", ".markdown")

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def parse(self, text: str) -> MarkdownDocument:
        return MarkdownDocument(find_segments(text))


class MarkdownDocument:
    def __init__(self, index: SpliceIndex) -> None:
        self.index = index
        self.segments = index.segments()

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        return self.index.reassemble(translated)


def find_segments(src: str) -> SpliceIndex:
    """Every translatable span of a Markdown document."""
    base = 1 if src.startswith("\ufeff") else 0
    lines = _Lines(src, base)
    env: dict[str, Any] = {}
    toml = _toml_front_matter(src, lines)
    text = src[base:]
    if toml is not None:  # the parser does not know `+++`: it sees blank lines there
        cut = (lines.starts[toml] if toml < len(lines.starts) else len(src)) - base
        text = re.sub(r"[^\r\n]+", "", text[:cut]) + text[cut:]
    tokens = _markdown_parser().parse(text, env)
    index = SpliceIndex(src)
    if toml is not None:
        index.extend(_toml_values(src, lines, toml))
    index.extend(_reference_titles(src, lines, env.get("references", {})))
    footnotes = env.get("footnotes", {}).get("list", {})
    previous: Any = None
    for position, tok in enumerate(tokens):
        if tok.type == "inline" and tok.map is not None and tok.children is not None:
            parent = previous.type if previous is not None else ""
            if parent in ("th_open", "td_open"):
                continue  # table rows are handled from tr_open
            setext = parent == "heading_open" and previous.markup in ("=", "-")
            index.extend(_inline_segment(src, lines, tok, parent, setext=setext, footnotes=footnotes))
        elif tok.type == "tr_open" and tok.map is not None:
            for located in _table_row(src, lines, tokens, position, footnotes):
                index.add(located)
        elif tok.type == "front_matter" and tok.map is not None:
            for located in _front_matter(src, lines, tok.map):
                index.add(located)
        elif tok.type == "html_block" and tok.map is not None:
            for located in _html_block(src, lines, tok):
                index.add(located)
        previous = tok
    return index.finish()


_CONTAINER_PREFIX = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+[ \t>]*)*\Z")


def _reference_titles(src: str, lines: _Lines, references: Mapping[str, Any]) -> list[Located]:
    """Titles of link reference definitions (`[label]: /url "Title"`), when the whole
    definition is on one line; the label and the destination are never translated."""
    from markdown_it.common.utils import normalizeReference
    from markdown_it.helpers import parseLinkDestination, parseLinkTitle

    out: list[Located] = []
    for label, ref in references.items():
        span = ref.get("map")
        if not ref.get("title") or not span or span[1] - span[0] != 1 or span[0] >= len(lines.starts):
            continue
        text = lines.text(src, span[0])
        open_at = text.find("[")
        if open_at < 0 or not _CONTAINER_PREFIX.match(text[:open_at]):
            continue
        walker = _Walker(text)
        close = walker._bracket_end(open_at)
        if close is None or not text.startswith(":", close + 1) \
                or normalizeReference(text[open_at + 1:close]) != label:
            continue
        pos = close + 2
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        dest = parseLinkDestination(text, pos, len(text))
        if not dest.ok:
            continue
        pos = start = dest.pos
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        title = parseLinkTitle(text, pos, len(text))
        if pos == start or not title.ok or text[title.pos:].strip() or title.str != ref["title"]:
            continue
        walker._title(pos, title)
        out.extend(_nested(src, text, lambda c, at=lines.starts[span[0]]: at + c, walker))
    return out


def _line_offsets(src: str, lines: _Lines, tok: Any, parent: str) -> list[int] | None:
    """Source offset where each line of the inline token's content starts, or None."""
    content_lines = tok.content.split("\n")
    first, last = tok.map
    if len(content_lines) > last - first:
        return None
    offsets: list[int] = []
    for i, piece in enumerate(content_lines):
        row = first + i
        if row >= len(lines.starts):
            return None
        text = lines.text(src, row)
        k: int | None = None
        if parent == "admonition_title_open":
            q1, q2 = text.find('"'), text.rfind('"')
            if q2 > q1 >= 0 and text[q1 + 1:q2] == piece:
                k = q1 + 1
        elif i < len(content_lines) - 1:
            if text.endswith(piece):
                k = len(text) - len(piece)
        else:
            e = len(text)
            while True:
                if text[:e].endswith(piece):
                    k = e - len(piece)
                    break
                if e == 0 or not text[e - 1].isspace():
                    break
                e -= 1
            if k is None and parent == "heading_open":
                hashes = re.match(r"[ \t>]*#+", text)
                if hashes:
                    found = text.find(piece, hashes.end())
                    k = found if found >= 0 else None
        if k is None:
            return None
        offsets.append(lines.starts[row] + k)
    return offsets


def _mapper(tok_content: str, offsets: list[int]) -> Any:
    """content offset -> source offset, given where each content line starts in the source."""
    line_starts = [0]
    for line in tok_content.split("\n")[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)

    def where(c: int) -> int:
        row = bisect.bisect_right(line_starts, c) - 1
        return offsets[row] + (c - line_starts[row])

    return where


def _to_source(where: Any, parts: list[tuple[int, int, str, str]]) -> list[Part]:
    return [Part(where(a), where(b), "text", "", key) if kind == "entity"
            else Part(where(a), where(b), kind, key) for a, b, kind, key in parts]


def _nested(src: str, content: str, where: Any, walker: _Walker,
            in_table: bool = False) -> list[Located]:
    """Alt texts, link titles and inline footnotes found by the walker, as segments of their own."""
    out: list[Located] = []
    for parts, escape in walker.nested:
        source_parts = _to_source(where, parts)
        if any(kind != "break" and src[p.start:p.end] != content[a:b]
               for (a, b, kind, _), p in zip(parts, source_parts)):
            continue
        if in_table:
            escape = (lambda inner: lambda s: re.sub(r"(?<!\\)\|", r"\\|", inner(s)))(escape)
        located = locate(src, source_parts, newline=" ", escape=escape, peel=False)
        if located is not None:
            out.append(located)
    return out


def _inline_segment(src: str, lines: _Lines, tok: Any, parent: str, *, setext: bool = False,
                    footnotes: Mapping[int, Any] | None = None) -> list[Located]:
    offsets = _line_offsets(src, lines, tok, parent)
    if offsets is None:
        return []
    walker = _Walker(tok.content, footnotes)
    parts = walker.parts(tok.children)
    if parts is None:
        return []
    if len(parts) > 2 and parts[0][2] == "self" and parts[1][2] == "break" \
            and _ALERT.fullmatch(tok.content, parts[0][0], parts[0][1]):
        parts = parts[2:]  # `> [!NOTE]` on its own line: the alert marker stays outside
    where = _mapper(tok.content, offsets)
    source_parts = _to_source(where, parts)
    # Sanity: every text part must read the same in the source as in the content.
    for (a, b, kind, _), part in zip(parts, source_parts):
        if kind != "break" and src[part.start:part.end] != tok.content[a:b]:
            return []
    out = _nested(src, tok.content, where, walker)
    single_line = parent in ("heading_open", "admonition_title_open")
    # A paragraph's (or setext heading's) lines start at the block's left edge: translated
    # text there must not open a block.
    starts_line = parent == "paragraph_open" or setext
    located = locate(src, source_parts, newline=" " if single_line else None,
                     escape=(lambda s: _escape_text(s).replace('"', "\u201d"))
                     if parent == "admonition_title_open" else _escape_text,
                     line_start=_guard_line_start if starts_line else None, blank_lines=False)
    if located is not None:
        out.append(located)
    return out


def _table_row(src: str, lines: _Lines, tokens: Sequence[Any], start: int,
               footnotes: Mapping[int, Any] | None = None) -> list[Located]:
    """Cells of one table row: each cell's content is found after the previous cell's."""
    row = tokens[start].map[0]
    if row >= len(lines.starts):
        return []
    text = lines.text(src, row)
    out: list[Located] = []
    cursor = 0
    empties = 0
    for tok in tokens[start + 1:]:
        if tok.type == "tr_close":
            break
        if tok.type != "inline" or tok.children is None:
            continue
        content = tok.content
        if not content:
            empties += 1
            continue
        # markdown-it unescapes `\|` in cells: look for the escaped spelling too.
        candidates = [content, content.replace("|", "\\|")]
        found = -1
        for candidate in candidates:
            found = text.find(candidate, cursor)
            gap = text[cursor:found] if found >= 0 else ""
            if found >= 0 and len(re.findall(r"(?<!\\)\|", gap)) <= 1 + empties and not gap.strip(" \t|>"):
                content = candidate
                break
            found = -1
        if found < 0:
            return out
        cursor = found + len(content)
        empties = 0
        if content != tok.content:
            # Walk the escaped spelling: re-parse it as inline to get matching children.
            children = _markdown_parser().parseInline(content)[0].children
            cell = _CellToken(content, children, [row, row + 1])
        else:
            cell = _CellToken(content, tok.children, [row, row + 1])
        where = _mapper(cell.content, [lines.starts[row] + found])
        walker = _Walker(cell.content, footnotes)
        parts = walker.parts(cell.children)
        if parts is None:
            continue
        out.extend(_nested(src, cell.content, where, walker, in_table=True))
        located = locate(src, _to_source(where, parts), newline=" ",
                         escape=_escape_table_cell)
        if located is not None:
            out.append(located)
    return out


class _CellToken:
    __slots__ = ("content", "children", "map")

    def __init__(self, content: str, children: Any, map_: list[int]) -> None:
        self.content, self.children, self.map = content, children, map_


def _front_matter(src: str, lines: _Lines, span: Sequence[int]) -> list[Located]:
    """`title:` and `description:` values of YAML front matter (top-level keys only)."""
    out: list[Located] = []
    for row in range(span[0] + 1, span[1] - 1):
        if row >= len(lines.starts):
            break
        text = lines.text(src, row)
        match = _FRONT_MATTER_KEY.match(text)
        if not match or not match.group(3):
            continue
        value, at = match.group(3), lines.starts[row] + match.start(3)
        if value[0] == '"' and len(value) >= 2 and value.endswith('"') and '\\' not in value \
                and '"' not in value[1:-1]:
            start, end, escape = at + 1, at + len(value) - 1, _yaml_double
        elif value[0] == "'" and len(value) >= 2 and value.endswith("'") and "'" not in value[1:-1]:
            start, end, escape = at + 1, at + len(value) - 1, _yaml_single
        elif not re.match(r"[\-?:,\[\]{}#&*!|>'\"%@`]", value) and " #" not in value:
            start, end, escape = at, at + len(value), _yaml_plain
        else:
            continue
        located = locate(src, [Part(start, end, "text")], newline=" ", escape=escape)
        if located is not None:
            out.append(located)
    return out


_TOML_FENCE = re.compile(r"\+\+\+[ \t]*\Z")
_TOML_KEY = re.compile(r"""(title|description)[ \t]*=[ \t]*(?:"([^"\\]*)"|'([^']*)')[ \t]*(?:#.*)?\Z""")


def _toml_front_matter(src: str, lines: _Lines) -> int | None:
    """Row after the closing `+++` of TOML front matter at the start, or None."""
    if not lines.starts or not _TOML_FENCE.match(lines.text(src, 0)):
        return None
    for row in range(1, len(lines.starts)):
        if _TOML_FENCE.match(lines.text(src, row)):
            return row + 1
    return None


def _toml_values(src: str, lines: _Lines, end_row: int) -> list[Located]:
    """`title` and `description` values of TOML front matter: top-level keys, one-line
    basic strings without escapes or literal strings; everything else is kept."""
    out: list[Located] = []
    for row in range(1, end_row - 1):
        text = lines.text(src, row)
        if text.lstrip().startswith("["):
            break  # a table: its keys are not the page's
        match = _TOML_KEY.match(text)
        if not match:
            continue
        group = 2 if match.group(2) is not None else 3
        escape = ((lambda s: s.replace("\\", "\\\\").replace('"', '\\"')) if group == 2
                  else (lambda s: s.replace("'", "\u2019")))
        start, end = lines.starts[row] + match.start(group), lines.starts[row] + match.end(group)
        located = locate(src, [Part(start, end, "text")], newline=" ", escape=escape, peel=False)
        if located is not None:
            out.append(located)
    return out


def _html_block(src: str, lines: _Lines, tok: Any) -> list[Located]:
    """An HTML block is translated as HTML. Inside a container (`> `, a list item) each of
    its lines is found after its prefix, and the prefixes become line breaks of the segments."""
    from .html import find_html_segments

    first, last = tok.map
    last = min(last, len(lines.starts))
    if first >= last:
        return []
    start = lines.starts[first]
    end = lines.ends[last - 1]
    raw = src[start:end]
    content = tok.content.rstrip("\n")
    if raw.replace("\r\n", "\n").replace("\r", "\n") == content:
        return find_html_segments(src, start, end, blank_lines=False)
    pieces = content.split("\n")
    if len(pieces) != last - first:
        return []
    offsets = []
    for row, piece in zip(range(first, last), pieces):
        text = lines.text(src, row)
        if not text.endswith(piece) or not _CONTAINER_PREFIX.match(text[:len(text) - len(piece)]):
            return []
        offsets.append(lines.ends[row] - len(piece))
    where = _mapper(content, offsets)
    out: list[Located] = []
    for located in find_html_segments(content, blank_lines=False):
        parts: list[Part] = []
        numbers: list[int] = []

        def add(a: int, b: int, kind: str, n: int = 0, key: str = "", shown: str | None = None) -> None:
            parts.append(Part(where(a), where(b), kind, key, shown))
            numbers.append(n)

        for part, n in zip(located.parts, located.numbers):
            if part.kind != "text":  # markup is copied from the source, prefixes and all
                add(part.start, part.end, part.kind, n, part.key)
                continue
            a = part.start
            for i in range(part.start, part.end):
                if content[i] == "\n":  # the line's end and the next line's prefix: a break
                    if i > a:
                        add(a, i, "text")
                    add(i, i + 1, "break")
                    a = i + 1
            if part.end > a:
                add(a, part.end, "text", shown=part.shown)
        # a translation's extra line breaks would lack the prefix: they become spaces
        moved = dataclasses.replace(located, parts=tuple(parts), numbers=tuple(numbers), newline=" ")
        if segment_text(src, moved) != segment_text(content, located):
            return []  # not found exactly: the whole block stays as it is
        out.append(moved)
    return out
