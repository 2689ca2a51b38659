"""Shared helpers for the Markdown/HTML tests: compare structure. (The test engines are in
engines.py; pipelines.py runs the pipeline.)"""

from __future__ import annotations

import re
from pathlib import Path

from hymt_cli.formats.html import parse_events

ROOT = Path(__file__).resolve().parent.parent
MD_FILES = sorted([*ROOT.glob("samples/**/*.md"), *ROOT.glob("tests/fixtures/**/*.md")])
HTML_FILES = sorted([*ROOT.glob("samples/**/*.html"), *ROOT.glob("tests/fixtures/**/*.html")])


def md_structure(text: str) -> list[tuple[str, str]]:
    from hymt_cli.formats.markdown import markdown_parser

    return [
        (t.type, t.markup if t.type != "inline" else "")
        for t in markdown_parser().parse(text.lstrip("\ufeff"))
    ]


def md_code(text: str) -> list[str]:
    from hymt_cli.formats.markdown import markdown_parser

    out = []
    for t in markdown_parser().parse(text.lstrip("\ufeff")):
        if t.type in ("fence", "code_block", "math_block"):
            out.append(t.content)
        for c in t.children or []:
            if c.type in ("code_inline", "math_inline"):
                out.append(c.content)
            if c.type in ("link_open", "image"):
                out.append(c.attrs.get("href") or c.attrs.get("src"))
    return out


def html_structure(text: str) -> list[str]:
    """The tag sequence (case kept), plus the exact text of script/style/pre/code/kbd/samp."""
    out = []
    keep = 0
    for e in parse_events(text):
        raw = text[e.start : e.end]
        if e.kind in ("start", "end", "startend"):
            name = re.match(r"</?([^\s/>]+)", raw).group(1)
            out.append(("/" if e.kind == "end" else "") + name)
            if e.tag in ("script", "style", "pre", "code", "kbd", "samp"):
                keep += 1 if e.kind == "start" else (-1 if e.kind == "end" else 0)
        elif keep > 0 or e.kind in ("comment", "decl"):
            out.append(raw)
    return out


# -- "the output has the source's structure and no live markup of its own" -----------------
_MD_TEXT_TOKENS = frozenset({"text", "text_special", "softbreak"})


def md_skeleton(text: str) -> list[tuple]:
    """Every Markdown token but text: block tokens with their markup, inline tokens with
    their markup, link destinations, image sources, code, math and raw HTML content."""
    from hymt_cli.formats.markdown import markdown_parser

    env: dict = {}
    out: list[tuple] = []
    for tok in markdown_parser().parse(text.lstrip("\ufeff"), env):
        out.append((tok.type, tok.markup if tok.type != "inline" else "", tok.tag))
        if tok.type in ("fence", "code_block", "math_block"):
            out.append(("content", tok.content))
        elif tok.type == "html_block":  # translated as HTML: its tags and attributes stay
            out.append(("html", tuple(html_skeleton(tok.content))))
        for child in tok.children or []:
            if child.type in _MD_TEXT_TOKENS:
                continue
            attrs = child.attrs or {}
            content = (
                child.content
                if child.type in ("code_inline", "math_inline", "math_inline_double", "html_inline")
                else ""
            )
            out.append((child.type, child.markup, attrs.get("href"), attrs.get("src"), content))
    return out


def assert_md_structure_kept(src: str, out: str) -> None:
    """`out` parses to `src`'s structure: same blocks, same inline markup in the same order,
    same link destinations and image sources, no link, image, code, HTML or emphasis that
    `src` did not have (translated text differs, nothing else may)."""
    before, after = md_skeleton(src), md_skeleton(out)
    if before != after:
        extra = [t for t in after if t not in before][:5]
        missing = [t for t in before if t not in after][:5]
        raise AssertionError(
            f"Markdown structure changed: new {extra}, lost {missing}\n--- src\n{src}\n--- out\n{out}"
        )


_TRANSLATED_ATTRS = {"alt", "title", "placeholder", "aria-label", "content"}


def html_skeleton(text: str) -> list[tuple]:
    """Tags in order, with their attributes (names always; values of the attributes hymt
    does not translate), comments, declarations, processing instructions, server code, and
    the exact text of script/style/pre/code/kbd/samp/textarea."""
    out: list[tuple] = []
    keep = 0
    for e in parse_events(text):
        raw = text[e.start : e.end]
        if e.kind in ("start", "startend"):
            attrs = tuple((n, None if n in _TRANSLATED_ATTRS else v) for n, v in e.attrs)
            out.append((e.kind, e.tag, attrs))
        elif e.kind == "end":
            out.append(("end", e.tag))
        elif e.kind in ("comment", "decl", "other", "template") or keep > 0:
            out.append((e.kind, raw))
        if e.tag in ("script", "style", "pre", "code", "kbd", "samp", "textarea") and e.kind in (
            "start",
            "end",
        ):
            keep += 1 if e.kind == "start" else -1
    return out


def assert_html_structure_kept(src: str, out: str) -> None:
    """`out` has `src`'s tag/attribute skeleton: no tag, attribute, comment, script or
    server code that `src` did not have, every untranslated attribute value the same."""
    before, after = html_skeleton(src), html_skeleton(out)
    if before != after:
        extra = [t for t in after if t not in before][:5]
        missing = [t for t in before if t not in after][:5]
        raise AssertionError(
            f"HTML structure changed: new {extra}, lost {missing}\n--- src\n{src}\n--- out\n{out}"
        )
