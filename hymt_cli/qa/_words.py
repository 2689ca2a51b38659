"""Words: a word written twice in a row, and an answer that is its source unchanged."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter

from ._locales import NO_DOUBLED_WORD_CHECK, VALID_DOUBLED_WORDS, base

_WORD_RUN = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"  # a word, hyphenated or with an apostrophe
_DOUBLED = re.compile(rf"(?<![\w'’-])({_WORD_RUN})(?:[ \t\u00a0]+\1)+(?![\w'’-])", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_LETTERS = re.compile(_WORD_RUN)
MIN_PROSE_WORDS = 3  # a source with fewer words (a name, a label, a code) may stay as it is
MIN_UNSPACED_LETTERS = 6  # the same for scripts without spaces between words (Chinese, Japanese, Thai)


def doubled_words(text: str, lang: str | None) -> list[str]:
    """The words written twice in a row in `text` (`the the`), but the doubles `lang` uses as
    grammar (`vous vous`)."""
    words = _LETTERS.findall(text.casefold())  # every pair the pattern finds is a pair here
    if not any(a == b for a, b in itertools.pairwise(words)):
        return []  # quick: no two neighbours alike (the pattern below is slower)
    return _without_grammar([m.group(1) for m in _DOUBLED.finditer(text)], lang)


def _without_grammar(doubled: list[str], lang: str | None) -> list[str]:
    valid = VALID_DOUBLED_WORDS.get(base(lang), frozenset())
    return [word for word in doubled if word.lower() not in valid]


def doubled_word_problem(source: str, answer: str, target: str, source_lang: str | None) -> str | None:
    """A word doubled in the answer that the source does not account for: the same word doubled
    in the source (`Bora Bora`, or the identity answer of a source's `that that`), or another
    doubled word of the source that is no grammar of its language and may be rendered by one
    (`very very` -> `sehr sehr`)."""
    if base(target) in NO_DOUBLED_WORD_CHECK:
        return None
    doubled = doubled_words(answer, target)
    got = Counter(w.casefold() for w in doubled)
    if not got:
        return None
    # (words alike but for their accents, Spanish `que qué`, French `ou où`, count as doubled in the
    # source: an answer may write them alike, as a transliteration or the pseudo engine does)
    in_source = doubled_words(_unaccented(source), None)
    kept = Counter(w.casefold() for w in in_source)
    emphatic = Counter(w.casefold() for w in _without_grammar(in_source, source_lang))
    unexplained = got - kept
    if unexplained.total() <= (emphatic - got).total():
        return None
    return "doubled word: " + ", ".join(f"{word!r}" for word in doubled if word.casefold() in unexplained)


def _unaccented(text: str) -> str:
    """`text` without combining marks (`qué` -> `que`); unchanged where it has none (most text)."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def is_prose(text: str) -> bool:
    """Text a translation changes: several words with a lowercase one among them (not a name,
    a title in capitals or a label), or, in scripts without case, enough letters."""
    words = _WORD.findall(text)
    cased = [w for w in words if w.lower() != w.upper()]
    if cased:
        return len(words) >= MIN_PROSE_WORDS and any(w.islower() and len(w) >= 3 for w in cased)
    letters = sum(ch.isalpha() for ch in text)
    return len(words) >= MIN_PROSE_WORDS or letters >= MIN_UNSPACED_LETTERS


def untranslated_problem(
    source_prose: str, source: str, answer: str, target: str, source_lang: str | None
) -> str | None:
    """The answer is the source again (case and spacing aside), and the source is prose."""
    if source_lang is not None and base(source_lang) == base(target):
        return None
    if source.casefold().split() != answer.casefold().split() or not is_prose(source_prose):
        return None
    return "the answer is the source, untranslated"
