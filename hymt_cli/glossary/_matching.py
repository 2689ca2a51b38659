"""Finding a target language's terms in a segment.

Matching rules, per target language:
- case-insensitive unless the entry says `case_sensitive`;
- whole-word where a term edge is a letter or digit of a space-delimited script, substring
  where it is Han, kana, Hangul, Thai, Lao, Khmer, Myanmar or Tibetan;
- longest match first, then leftmost; matches never overlap each other or an inline tag;
- one Aho-Corasick automaton per target language: cost grows with the text, not with the
  number of terms (bench/glossary_matching.py measures it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import ahocorasick  # type: ignore[import-not-found, import-untyped, unused-ignore]  # no stubs

from ..text.tags import LOOSE_TAG
from ..text.writing_systems import char_class
from .entries import Entry

# Scripts written without spaces between words: terms match as substrings there.
_UNSPACED = char_class(
    "thai",
    "lao",
    "tibetan",
    "myanmar",
    "khmer",
    "hangul",
    "hangul_compatibility",
    "kana",
    "han",
    "han_supplementary",
)


def _is_spaced_word_char(ch: str) -> bool:
    """A letter or digit of a script that separates words with spaces."""
    return (ch.isalnum() or ch == "_") and not _UNSPACED.match(ch)


def fold(text: str) -> str:
    """Lower case, same length (offsets in the folded text are offsets in the original)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@dataclass(frozen=True, slots=True)
class Match:
    start: int
    end: int
    entry: Entry


class Matcher:
    """All the entries for one target language, compiled into one Aho-Corasick automaton."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        by_key: dict[str, list[Entry]] = {}
        for entry in entries:
            by_key.setdefault(fold(entry.source), []).append(entry)
        self.size = sum(len(v) for v in by_key.values())
        self._automaton = ahocorasick.Automaton()
        for key, group in by_key.items():
            # An exact-case entry wins over a case-insensitive one with the same letters.
            group.sort(key=lambda e: not e.case_sensitive)
            self._automaton.add_word(key, (len(key), tuple(group)))
        if by_key:
            self._automaton.make_automaton()

    def find(self, text: str) -> list[Match]:
        """Non-overlapping matches, longest first then leftmost, returned in text order."""
        if not self.size:
            return []
        candidates: list[Match] = []
        found: Iterable[tuple[int, tuple[int, tuple[Entry, ...]]]] = self._automaton.iter(fold(text))
        for last, (length, group) in found:
            start, end = last + 1 - length, last + 1
            for entry in group:
                if entry.case_sensitive and text[start:end] != entry.source:
                    continue
                if at_word_edges(text, start, end):  # the same for every entry of the group
                    candidates.append(Match(start, end, entry))
                break
        return select(text, candidates)


def at_word_edges(text: str, start: int, end: int) -> bool:
    """Whole-word rule: a term edge that is a letter or digit of a space-delimited script must
    not continue into another such character (CJK and similar edges: substring match)."""
    if _is_spaced_word_char(text[start]) and start > 0 and _is_spaced_word_char(text[start - 1]):
        return False
    return not (_is_spaced_word_char(text[end - 1]) and end < len(text) and _is_spaced_word_char(text[end]))


def select(text: str, candidates: Sequence[Match]) -> list[Match]:
    """Longest first, then leftmost; no overlaps with each other or with inline tags."""
    if not candidates:
        return []
    taken = bytearray(len(text))
    if "<" in text:  # never match inside an inline tag
        for tag in LOOSE_TAG.finditer(text):
            taken[tag.start() : tag.end()] = b"\x01" * (tag.end() - tag.start())
    chosen = []
    for match in sorted(candidates, key=lambda m: (m.start - m.end, m.start)):
        if not any(taken[match.start : match.end]):
            taken[match.start : match.end] = b"\x01" * (match.end - match.start)
            chosen.append(match)
    chosen.sort(key=lambda m: m.start)
    return chosen
