"""HY-MT's inline tags and the check that a translation kept them.

Inline markup inside a segment reaches the model as numbered tags (HY-MT's formatted
translation): paired `<sN>...</sN>` around formatted text (emphasis, a link's text) and
self-closing `<sN/>` for markup without translatable text inside (inline code, an image,
a do-not-translate term). Numbers start at 1 in each segment; whoever adds tags to a
segment (formats, the glossary) numbers them after the highest number already there.

The validator is generic: whatever tags the request's source text carries must come back,
each exactly once, properly nested, and nothing else tag-like may appear.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

TAG = re.compile(r"<(/?)s(\d+)(/?)>")
# Also a tag written loosely (`<s1 />`): for readers that must not miss one (numbering new
# placeholders, keeping glossary matches out of tags); the validator wants the exact form.
LOOSE_TAG = re.compile(r"</?s(\d+)\s*/?>")
# What a model may leave behind from the prompt's wrapper, or half-written tags.
_STRAY = re.compile(r"</?(?:target|source|sn)\s*/?>|</?s\d*\b[^<>]*>?", re.IGNORECASE)


TagKind = Literal["open", "close", "self", "bad"]


@dataclass(frozen=True, slots=True)
class Tag:
    """One tag occurrence ("bad": `</s1/>`, neither closing nor self-closing)."""

    kind: TagKind
    n: int
    start: int
    end: int

    @property
    def text(self) -> str:
        return {"open": f"<s{self.n}>", "close": f"</s{self.n}>", "self": f"<s{self.n}/>"}[self.kind]


def open_tag(n: int) -> str:
    return f"<s{n}>"


def close_tag(n: int) -> str:
    return f"</s{n}>"


def self_tag(n: int) -> str:
    return f"<s{n}/>"


def iter_tags(text: str) -> Iterator[Tag]:
    for match in TAG.finditer(text):
        closing, n, selfclosing = match.groups()
        kind: TagKind = (
            "bad"
            if closing and selfclosing
            else ("close" if closing else ("self" if selfclosing else "open"))
        )
        yield Tag(kind, int(n), match.start(), match.end())


def has_tags(text: str) -> bool:
    return TAG.search(text) is not None


def max_tag_number(text: str) -> int:
    """The highest N used in `text` (0 without tags): new placeholders take N+1 onwards.
    Loosely written tags count too, so that a new placeholder never shares their number."""
    return max((int(m.group(1)) for m in LOOSE_TAG.finditer(text)), default=0)


def looks_like_tag(text: str) -> bool:
    """Text that a model (or the tag parser) could take for one of our tags."""
    return TAG.search(text) is not None or _STRAY.search(text) is not None


def _nesting_problem(tags: list[Tag]) -> str | None:
    stack: list[int] = []
    for tag in tags:
        if tag.kind == "open":
            stack.append(tag.n)
        elif tag.kind == "close":
            if not stack or stack[-1] != tag.n:
                return f"</s{tag.n}> closes out of order"
            stack.pop()
    if stack:
        return f"<s{stack[-1]}> is not closed"
    return None


def tag_problem(source: str, output: str) -> str | None:
    """Why `output` does not carry `source`'s tags correctly, or None."""
    if "<" not in output and "<" not in source:
        return None  # (every tag, and every stray piece of markup, begins with one)
    want = list(iter_tags(source))
    got = list(iter_tags(output))
    if not want and not got and not _STRAY.search(output):
        return None
    bad = [t for t in got if t.kind == "bad"]
    if bad:
        return f"malformed tag {output[bad[0].start : bad[0].end]!r}"
    want_count = Counter(t.text for t in want)
    got_count = Counter(t.text for t in got)
    for text, count in got_count.items():
        if count > 1 and want_count[text] < count:
            return f"tag {text} appears {count} times"
    missing = [t for t in want_count if t not in got_count]
    if missing:
        return f"tag {missing[0]} missing"
    invented = [t for t in got_count if t not in want_count]
    if invented:
        return f"tag {invented[0]} not in the source"
    # Pieces of a long segment may hold half a pair: nesting is checked where the source nests.
    if _nesting_problem(want) is None:
        nesting = _nesting_problem(got)
        if nesting:
            return nesting
    without_tags = TAG.sub("", output)
    stray = _STRAY.search(without_tags)
    if stray and not _STRAY.search(TAG.sub("", source)):
        return f"stray markup {stray.group(0)!r} in the output"
    return None


@dataclass(frozen=True, slots=True)
class Run:
    """Text between tags in a segment (`text`), or a tag itself (`tag`)."""

    text: str
    is_tag: bool


def split_runs(text: str) -> list[Run]:
    """The segment as alternating text runs and tags, losslessly."""
    runs: list[Run] = []
    pos = 0
    for match in TAG.finditer(text):
        if match.start() > pos:
            runs.append(Run(text[pos : match.start()], False))
        runs.append(Run(match.group(0), True))
        pos = match.end()
    if pos < len(text):
        runs.append(Run(text[pos:], False))
    return runs
