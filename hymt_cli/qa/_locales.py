"""What the checks need to know about a language: how it writes numbers (from Babel's CLDR
data), and the few conventions that make an answer differ from its source on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.numbers import UnsupportedNumberingSystemError, get_decimal_symbol

# Separator classes: every kind of space is one class, both apostrophes another.
SPACES = " \u00a0\u202f\u2009"
APOSTROPHES = "'\u2019\uff07"
_FULLWIDTH_MARKS = {"\uff0c": ",", "\uff0e": "."}  # １，２９９．００ (Japanese, Chinese)


def separator_class(ch: str) -> str:
    if ch in _FULLWIDTH_MARKS:
        return _FULLWIDTH_MARKS[ch]
    if ch in SPACES:
        return " "
    if ch in APOSTROPHES:
        return "'"
    return ch


@dataclass(frozen=True, slots=True)
class Convention:
    """A way to write numbers: the decimal mark and the marks that may group thousands."""

    decimal: str
    groups: frozenset[str]


DOT = Convention(".", frozenset({",", " ", "'"}))  # 1,299.00 · 1 299.00 · 1'299.00 · 1,23,456.00
COMMA = Convention(",", frozenset({".", " ", "'"}))  # 1.299,00 · 1 299,00
ARABIC = Convention("\u066b", frozenset({"\u066c", " "}))  # ١٬٢٩٩٫٠٠ (unambiguous: any language)
ANY = frozenset({DOT, COMMA, ARABIC})
_BY_DECIMAL = {".": DOT, ",": COMMA, "\u066b": ARABIC}


@cache
def conventions(lang: str) -> frozenset[Convention]:
    """How numbers are written in `lang` (a language code; unknown: every convention), in each
    of its numbering systems (Arabic: Latin digits with `.` and Arabic digits with `٫`)."""
    try:
        locale = Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return ANY
    found = {ARABIC}
    for system in {locale.default_numbering_system, "latn", *locale.other_numbering_systems.values()}:
        try:
            found.add(_BY_DECIMAL.get(get_decimal_symbol(locale, numbering_system=system), DOT))
        except UnsupportedNumberingSystemError:  # listed (ja: jpanfin), but without symbols
            continue
    return frozenset(found)


def base(lang: str | None) -> str:
    return (lang or "").split("-")[0].lower()


# End punctuation a language leaves out or writes differently on purpose (pairs of classes
# that are fine either way, read in both directions): Thai marks no sentence end, Japanese
# questions often end in か。, Greek ones in ;.
END_PUNCTUATION_EQUIVALENTS: dict[str, frozenset[frozenset[str]]] = {
    "th": frozenset({frozenset({"period", ""}), frozenset({"question", ""}), frozenset({"exclamation", ""})}),
    "ja": frozenset({frozenset({"question", "period"})}),
    # Greek asks with `;` (U+037E, the Greek question mark, is canonically the semicolon).
    "el": frozenset({frozenset({"question", "semicolon"})}),
    # Armenian marks a question or an exclamation on the stressed word (՞ ՜), ends every sentence
    # with ։ (often typed as a colon).
    "hy": frozenset(
        frozenset(pair)
        for pair in (("period", "colon"), ("question", "period"), ("question", "colon"))
        + (("exclamation", "period"), ("exclamation", "colon"))
    ),
}

# Languages written without spaces between words: doubled words cannot be told from words.
# Vietnamese writes syllables apart and doubles them as a matter of grammar (từ từ, xanh xanh).
NO_DOUBLED_WORD_CHECK = frozenset({"zh", "yue", "ja", "th", "km", "my", "bo", "lo", "vi"})
# Doubled words that are grammar: "die, die ..." in German relative clauses, "nous nous" and
# "vous vous" in French reflexives, "had had" and "that that" in English (as Okapi CheckMate's
# defaults and pofilter's per-language lists do).
VALID_DOUBLED_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset({"die", "der", "das", "den", "dem", "des", "sie"}),
    "fr": frozenset({"nous", "vous"}),
    "nl": frozenset({"die", "dat"}),
    "en": frozenset({"had", "that"}),
    "it": frozenset({"che"}),
    "es": frozenset({"que"}),
    "pt": frozenset({"que"}),
}
