"""Segment: one piece of a document that is translated on its own."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .languages import written_for
from .tags import TAG

# A surrogate code point on its own: what a `\ud800` escape in a JSON, YAML, Android or
# `.strings` value reads as (a pair is joined into one character: `join_surrogates`). It is no
# Unicode text: it cannot be encoded, tokenized or sent, so such a text is never translated.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Word characters but digits and `_`: every letter is one (a few numerals too: `½`, `²`).
_LETTER_LIKE = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class Segment:
    """A translatable span of a document.

    `id` is stable for a given source (formats re-derive segments from the source when
    they reassemble); `text` is exactly what the model sees, possibly with HY-MT's
    `<sN>...</sN>` inline tags standing for markup.
    """

    id: int
    text: str
    # What tells the model where the text stands, never translated itself (HY-MT's context
    # prompt): a UI string's key path and developer comment, a paragraph's document title and
    # nearest heading. "" = none.
    context: str = ""
    # Where the segment sits in its file's structure, for people reading a review or a report:
    # "heading", "list item", "table cell", "key settings.save". "" = not said.
    role: str = ""
    # The target languages this segment is translated into (None: every target). A plural form
    # that only some languages have (Russian `few`) is a segment of its own for each of them,
    # named by the language whose plural rules a target follows (languages.plural_code: pt-BR
    # by pt, pt-AO by pt-PT).
    targets: frozenset[str] | None = None

    def is_for(self, lang: str) -> bool:
        """Is the segment translated into `lang` (a locale: `pt-BR`)?"""
        return written_for(self.targets, lang)


def is_translatable(text: str) -> bool:
    """Text worth a model call: it has at least one letter (not only numbers, symbols, space),
    and it is Unicode text (no lone surrogate: it stays as the source has it)."""
    # Inline tags (`<s1/>`) are markup, not words.
    words = TAG.sub("", text) if "<" in text else text
    first = _LETTER_LIKE.search(words)  # (nearly always a letter: the loop is for `½ ²`)
    if first is None:
        return False
    has_letter = first.group().isalpha() or any(m.group().isalpha() for m in _LETTER_LIKE.finditer(words))
    return has_letter and LONE_SURROGATE.search(text) is None


def join_surrogates(text: str) -> str:
    """Text decoded from UTF-16 escapes (`\\ud83d\\ude00`) with each surrogate pair joined into
    the character it stands for; a lone surrogate stays (is_translatable refuses it)."""
    if LONE_SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def sendable(text: str) -> str:
    """Text for a prompt (a context, a label): a lone surrogate becomes U+FFFD."""
    return LONE_SURROGATE.sub("\ufffd", text)
