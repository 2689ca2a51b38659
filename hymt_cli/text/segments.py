"""Segment: one piece of a document that is translated on its own."""

from __future__ import annotations

from dataclasses import dataclass

from .tags import TAG


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
    # that only some languages have (Russian `few`) is a segment of its own for each of them.
    targets: frozenset[str] | None = None

    def is_for(self, lang: str) -> bool:
        return self.targets is None or lang in self.targets


def is_translatable(text: str) -> bool:
    """Text worth a model call: it has at least one letter (not only numbers, symbols, space)."""
    # Inline tags (`<s1/>`) are markup, not words.
    return any(ch.isalpha() for ch in TAG.sub("", text))
