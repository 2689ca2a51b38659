"""A glossary's part in one request: do-not-translate terms become placeholders, the other
matched terms go into HY-MT's terminology prompt, and what the output must contain is noted."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model.prompts import Term
from ..text.tags import LOOSE_TAG, max_tag_number, self_tag
from ._matching import Match


@dataclass(frozen=True, slots=True)
class Expected:
    """What the output must contain: `target` (a term's translation, or a do-not-translate
    term verbatim `count` times)."""

    source: str
    target: str
    case_sensitive: bool
    dnt: bool = False
    count: int = 1

    def found_in(self, output: str) -> bool:
        if self.dnt or self.case_sensitive:
            return output.count(self.target) >= self.count
        return output.lower().count(self.target.lower()) >= self.count


@dataclass(frozen=True, slots=True)
class GlossaryUse:
    """The glossary's part in one request (hashable: it is part of the dedupe key).

    `text`: the segment as the model sees it, do-not-translate terms replaced by `<sN/>`;
    `terms`: the prompt's reference translations, in order of first occurrence;
    `protected`: (placeholder, original text) pairs; `expected`: what verification looks for.
    """

    text: str
    terms: tuple[Term, ...]
    protected: tuple[tuple[str, str], ...]
    expected: tuple[Expected, ...]

    @property
    def formatted(self) -> bool:
        """The text carries `<sN>` tags (its own or placeholders): the formatted template applies."""
        return LOOSE_TAG.search(self.text) is not None

    def restore(self, output: str) -> str:
        """Put the protected terms back, verbatim (also when the model wrote `<sN></sN>`)."""
        for placeholder, original in self.protected:
            number = placeholder[2:-2]
            output = re.sub(
                rf"<s{number}\s*/>|<s{number}>\s*</s{number}>", original.replace("\\", "\\\\"), output
            )
        return output

    def misses(self, output: str) -> list[Expected]:
        """The expected terms the (restored) output lacks."""
        return [e for e in self.expected if not e.found_in(output)]


def build_use(text: str, matches: Sequence[Match]) -> GlossaryUse:
    """`text` with its do-not-translate matches replaced by placeholders numbered after the
    segment's own tags, the other matches as prompt terms (each once), and the expectations."""
    next_number = max_tag_number(text) + 1
    parts: list[str] = []
    protected: list[tuple[str, str]] = []
    terms: dict[tuple[str, str], Term] = {}
    expected: dict[tuple[str, str, bool], Expected] = {}
    pos = 0
    for match in matches:
        surface = text[match.start : match.end]
        entry = match.entry
        parts.append(text[pos : match.start])
        if entry.dnt:
            placeholder = self_tag(next_number)
            next_number += 1
            protected.append((placeholder, surface))
            parts.append(placeholder)
            key = (surface, surface, True)
            old = expected.get(key)
            expected[key] = Expected(surface, surface, True, True, (old.count if old else 0) + 1)
        else:
            parts.append(surface)
            terms.setdefault((entry.source.lower(), entry.target), Term(surface, entry.target))
            expected.setdefault(
                (entry.source.lower(), entry.target, False),
                Expected(surface, entry.target, entry.case_sensitive),
            )
        pos = match.end
    parts.append(text[pos:])
    return GlossaryUse("".join(parts), tuple(terms.values()), tuple(protected), tuple(expected.values()))
