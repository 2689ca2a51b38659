"""Numbers a text writes in words: month names (`March 5` is `3月5日`: CLDR's names, through
Babel, in the run's languages), cardinals up to a hundred and a thousand (`Only 3 left` is
`Nur noch drei übrig`: num2words' words in the run's languages) and Chinese and Japanese
numerals (`三件`, `二十四个月`).

They only ever *account for* a number the other side writes in digits (a source's `3` that
the answer writes as `三`): a word is never a number the other side must have, since these
words are also ordinary words (`May`, `一起`). So a wrong number next to a word that happens
to name one is missed, and a correct translation that spells a number out is not thrown away."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.dates import get_month_names

from ._locales import base
from ._scripts import UNSPACED

_CJK_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5}
_CJK_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_MYRIADS = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
# Not right after digits: the 万 of 1.2万 is part of that number (_numbers.py reads it there).
_CJK_NUMERAL = re.compile(r"(?<![\d.,])[" + "".join([*_CJK_DIGITS, *_CJK_UNITS, *_CJK_MYRIADS]) + "]+")
_UNSPACED_CHAR = re.compile(f"[{UNSPACED}]")
# A long month name may take a case ending (Finnish maaliskuussa, Hungarian márciusban); a short
# one (May, mars) must stand alone.
_SUFFIXED = 5
_CARDINALS = (*range(101), 1000)
# A one-letter or one-syllable numeral (Korean 이 "two" is also a particle) stands in too many
# words to account for anything; Chinese and Japanese numerals are read below, and in scripts
# written without spaces (Thai สาม "three" begins สามารถ "can") a word has no edge to find.
_MIN_CARDINAL = 2
_NOT_SPELLED_BY_WORD = frozenset({"zh", "ja", "th", "lo", "km", "my"})


def cjk_value(numeral: str) -> int:
    """The value of a run of Chinese numerals (三, 二十四, 一百零五, 三万五千, 二〇二四)."""
    if all(ch in _CJK_DIGITS for ch in numeral):  # digit by digit: 二〇二四
        return int("".join(str(_CJK_DIGITS[ch]) for ch in numeral))
    total = section = digit = 0
    for ch in numeral:
        if ch in _CJK_DIGITS:
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_UNITS:
            section += (digit or 1) * _CJK_UNITS[ch]
            digit = 0
        else:
            total += (section + digit or 1) * _CJK_MYRIADS[ch]
            section = digit = 0
    return total + section + digit


@cache
def _month_pattern(langs: frozenset[str]) -> re.Pattern[str] | None:
    names: dict[str, int] = {}
    for lang in sorted(langs):
        try:
            locale = Locale.parse(lang.replace("-", "_"))
        except (UnknownLocaleError, ValueError):
            continue
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for month, name in get_month_names(width, context, locale).items():
                    name = name.rstrip(".")
                    if len(name) >= 3 and not any(ch.isdigit() for ch in name):
                        names[name] = names[name.capitalize()] = month
    return _alternation(names, "m")


@cache
def _cardinal_pattern(langs: frozenset[str]) -> re.Pattern[str] | None:
    from num2words import num2words

    names: dict[str, int] = {}
    for lang in sorted({base(lang) for lang in langs}):
        if lang in _NOT_SPELLED_BY_WORD:
            continue
        for number in _CARDINALS:
            try:
                word = num2words(number, lang=lang).strip().casefold()
            except Exception:  # a language num2words lacks (NotImplementedError, its own errors)
                break
            if len(word) >= _MIN_CARDINAL and not any(ch.isdigit() for ch in word):
                names.setdefault(word, number)
    return _alternation(names, "c", spaced=True, flags=re.IGNORECASE)


def _alternation(
    names: dict[str, int], tag: str, *, spaced: bool = False, flags: int = 0
) -> re.Pattern[str] | None:
    """One pattern for `names`, longest first; each name's group says its number
    (`<tag><number>_<i>`, read back by `spelled_values`)."""
    if not names:
        return None
    longest_first = sorted(names.items(), key=lambda n: (-len(n[0]), n[0]))
    alternatives = [
        _bounded(name, f"{tag}{number}_{i}", spaced=spaced) for i, (name, number) in enumerate(longest_first)
    ]
    return re.compile("|".join(alternatives), flags)


def _bounded(name: str, group_name: str, *, spaced: bool = False) -> str:
    body = re.escape(name)
    if spaced:  # vingt-quatre, vingt quatre; двадцать четыре
        body = re.sub(r"(\\ |\\-)+", r"[\\s\\-‐]+", body)
    group = f"(?P<{group_name}>{body})"
    if _UNSPACED_CHAR.search(name):  # Thai: no spaces between words
        return group
    return rf"(?<!\w){group}" + ("" if len(name) >= _SUFFIXED else r"(?!\w)")


def spelled_values(text: str, langs: Iterable[str]) -> Counter[Decimal]:
    """The numbers `text` writes in words: month names and cardinals of `langs`, and Chinese
    numerals."""
    found: Counter[Decimal] = Counter()
    named = frozenset(lang for lang in langs if lang)
    for pattern in (_month_pattern(named), _cardinal_pattern(named)):
        for match in pattern.finditer(text) if pattern is not None else ():
            assert match.lastgroup is not None
            found[Decimal(match.lastgroup[1:].split("_")[0])] += 1
    for match in _CJK_NUMERAL.finditer(text):
        found[Decimal(cjk_value(match.group(0)))] += 1
    return found
