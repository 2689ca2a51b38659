"""The numbers of a text, and whether an answer has the same ones as its source.

A number token is digit groups (any script's decimal digits) joined by single separators
(`.` `,` `'` `’`, the spaces, Arabic `٫` `٬`; a plain space only before exactly three digits).
What a token means depends on how its language writes numbers, and a source may follow any
convention, so a token has *readings*: `1,299` is 1299 or 1.299; `2 500` is 2500 or 2 and
500; `1.2.3` (no valid reading as one number) is 1, 2 and 3.

The answer has the same numbers when some reading of the source's tokens and some reading
of the answer's tokens give the same multiset of values, where an answer token is read the
way the target language writes numbers, or the way the source demonstrably wrote them, or
exactly as a source token it repeats. So `$1,299.00` -> `1.299,00 $` passes in German, and
`$1,299.00` -> `1.299,00ドル` fails in Japanese (no reading gives 1299). Signs are ignored
(-, −, – are as often dashes as signs); `3 PM` may become 15 (a 24-hour clock) and `1.2万`
may become 12000 (Chinese, Japanese and Korean myriads), `1.5 million` may become `150万` (scale
words), and `½` is read as `1/2`.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from decimal import Decimal

from ._locales import ANY, Convention, separator_class

_TOKEN = re.compile(r"\d+(?:[.,'\u2019\u00a0\u202f\u2009\u066b\u066c\uff0c\uff0e\uff07]\d+| \d{3}(?!\d))*")
_SPLIT = re.compile(r"(\d+)")
_FRACTIONS = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"  # vulgar fractions: numbers too (_FRACTION)
_DIGIT = re.compile(rf"[\d{_FRACTIONS}]")
# A myriad or a thousand right after a number: 1.2万 = 12000, 3억 = 300000000.
_MULTIPLIERS = {
    "万": 10**4,
    "萬": 10**4,
    "亿": 10**8,
    "億": 10**8,
    "만": 10**4,
    "억": 10**8,
    "千": 10**3,
    "천": 10**3,
    "兆": 10**12,
    "조": 10**12,
}
_MULTIPLIER_AFTER = re.compile(r"\s?([万萬亿億만억千천兆조])")
# A scale word after a number: 1.5 million = 150万 = 1,5 Millionen. `billion` is 10⁹ in English
# and 10¹² in French and German (the long scale): either reading may fit.
_SCALES: tuple[tuple[str, tuple[int, ...]], ...] = (
    (r"thousands?|tausend|mille|mil|тысяч[аи]?|тыс\.?", (10**3,)),
    (r"lakhs?|lacs?", (10**5,)),
    (r"crores?", (10**7,)),
    (
        r"millions?|millionen|mio\.?|mill[oó]n|millones|milion[ei]|milh[aã]o|milh[oõ]es|miljoen(?:en)?|"
        r"miljon(?:er|en|a)?|milion(?:y|ów)?|миллион(?:а|ов)?|млн\.?",
        (10**6,),
    ),
    (r"billions?", (10**9, 10**12)),
    (
        r"milliard(?:e|en|s|o|i)?|mrd\.?|miliard(?:o|i|y|ów)?|миллиард(?:а|ов)?|млрд\.?|bilh[aã]o|bilh[oõ]es|bn",
        (10**9,),
    ),
    (r"trillions?|billionen|bilion(?:y|ów)?|триллион(?:а|ов)?|трлн\.?", (10**12, 10**18)),
)
_SCALE_AFTER = re.compile(
    r"[ \u00a0\u202f]?(?:"
    + "|".join(f"(?P<s{i}>{words})" for i, (words, _) in enumerate(_SCALES))
    + r")(?![^\W\d_])",
    re.IGNORECASE,
)
# Vulgar fractions (½, ¾) read as the numbers a writer spells them with (1/2, 3/4); one after a
# whole number (1½) as its own number.
_FRACTION = re.compile(f"[{_FRACTIONS}]")
_ZERO_MINUTES_BEFORE = re.compile(r"(?<![\d:])\d{1,2}[:：]$")  # the hour of 9:00, 15:00
_PM_AFTER = re.compile(r"(?::\d\d)?\s?([AaPp])\.?[Mm]\.?(?![^\W\d_])")
Reading = tuple[Decimal, ...]
MAX_COMBINATIONS = 512


@dataclass(frozen=True, slots=True)
class NumberToken:
    text: str
    groups: tuple[str, ...]  # ASCII digits
    separators: tuple[str, ...]  # separator classes between the groups
    multipliers: tuple[int, ...] = ()  # a myriad or a scale word written after it (each a reading)
    clock: str = ""  # "a" or "p": an hour followed by AM/PM
    key: str = ""  # the token as written, digits and separator kinds normalized: a repeated token
    optional: bool = False  # a time's zero minutes (9:00 is 9 Uhr, 9 h): the other side may leave them out


def ascii_digits(text: str) -> str:
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(ch)) if not ch.isascii() else ch for ch in text)


def has_numbers(text: str) -> bool:
    return _DIGIT.search(text) is not None


def _spelled_fractions(text: str) -> str:
    """`1½` as `1 1⁄2`: a vulgar fraction as its numerator and denominator."""
    return _FRACTION.sub(lambda m: " " + unicodedata.normalize("NFKC", m.group(0)), text)


def find_numbers(text: str) -> list[NumberToken]:
    """The number tokens of `text` (codes and addresses already blanked out)."""
    if _FRACTION.search(text):
        text = _spelled_fractions(text)
    found: list[NumberToken] = []
    for match in _TOKEN.finditer(text):
        written = match.group(0)
        end = match.end()
        if written.isdigit():  # most numbers: digits only
            groups: tuple[str, ...] = (ascii_digits(written),)
            separators: tuple[str, ...] = ()
            key = groups[0]
        else:
            pieces = _SPLIT.split(written)[1:]  # digits, separator, digits ...
            groups = tuple(ascii_digits(p) for p in pieces[0::2])
            separators = tuple(separator_class(p) for p in pieces[1:-1:2])
            key = "".join(g + s for g, s in itertools.zip_longest(groups, separators, fillvalue=""))
        multipliers: tuple[int, ...] = ()
        clock = None
        if (end < len(text) and not text[end].isspace()) or text[end + 1 : end + 2].isalpha():
            after = text[end : end + 16]
            myriad = _MULTIPLIER_AFTER.match(after)
            scale = _SCALE_AFTER.match(after)
            if myriad:
                multipliers = (_MULTIPLIERS[myriad.group(1)],)
            elif scale and scale.lastgroup:
                multipliers = _SCALES[int(scale.lastgroup[1:])][1]
            clock = _PM_AFTER.match(after)
        found.append(
            NumberToken(
                written,
                groups,
                separators,
                multipliers=multipliers,
                clock=clock.group(1).lower() if clock and not separators else "",
                key=key,
                optional=key == "00" and _zero_minutes(text, match.start()),
            )
        )
    return found


def _zero_minutes(text: str, start: int) -> bool:
    """The `00` at `start` is the minutes of an hour (9:00)."""
    return _ZERO_MINUTES_BEFORE.search(text, max(0, start - 3), start) is not None


def single_reading(
    groups: tuple[str, ...], separators: tuple[str, ...], convention: Convention
) -> Decimal | None:
    """The value of one number written with `convention`, or None when it cannot be one."""
    if not separators:
        return Decimal(groups[0])
    decimal = separators[-1] == convention.decimal
    if convention.decimal in separators[:-1]:
        return None
    whole, marks = (groups[:-1], separators[:-1]) if decimal else (groups, separators)
    if marks and (len(set(marks)) > 1 or marks[0] not in convention.groups or not _grouped(whole, marks[0])):
        return None
    return Decimal("".join(whole) + ("." + groups[-1] if decimal else ""))


def _grouped(whole: tuple[str, ...], mark: str) -> bool:
    """Thousands groups (1,299,000), or Indian lakh groups with commas (1,23,45,678)."""
    first, rest = whole[0], whole[1:]
    if first.startswith("0") or not 1 <= len(first) <= 3:
        return False
    if all(len(g) == 3 for g in rest):
        return True
    return mark == "," and len(first) <= 2 and len(rest[-1]) == 3 and all(len(g) == 2 for g in rest[:-1])


def readings(token: NumberToken, conventions: Collection[Convention]) -> tuple[set[Reading], set[Convention]]:
    """What `token` may stand for (each reading: the numbers it is), and the conventions under
    which it reads as one number with a separator other than a space (evidence of how its text
    writes numbers)."""
    found: set[Reading] = set()
    evidence: set[Convention] = set()
    for parts in _space_splits(token):
        choices: list[list[Reading]] = []
        for groups, separators in parts:
            options = {c: v for c in conventions if (v := single_reading(groups, separators, c)) is not None}
            if any(s != " " for s in separators):
                evidence.update(options)
            # No reading as one number (`1.2.3`, `10.30` in German): the groups are numbers of their own.
            choices.append([(v,) for v in set(options.values())] or [tuple(Decimal(g) for g in groups)])
        found.update(tuple(v for part in combo for v in part) for combo in itertools.product(*choices))
    for reading in list(found):
        if len(reading) == 1:
            found |= _alternatives(token, reading[0])
    return found, evidence


def _alternatives(token: NumberToken, value: Decimal) -> set[Reading]:
    """Other ways to write the same quantity: 1.2万 as 12000, 3 PM as 15."""
    out: set[Reading] = set()
    for multiplier in token.multipliers:
        out.add((value * multiplier,))
    if token.clock == "p" and 1 <= value < 12:
        out.add((value + 12,))
    if token.clock == "a" and value == 12:
        out.add((Decimal(0),))
    return out


def _space_splits(token: NumberToken) -> list[list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    """The token cut or not at each plain space (`2 500` may be two numbers): every choice for up
    to four spaces, else cut at all or none."""
    spaces = [i for i, s in enumerate(token.separators) if s == " "]
    if not spaces:
        return [[(token.groups, token.separators)]]
    masks: Iterable[tuple[bool, ...]] = (
        itertools.product((False, True), repeat=len(spaces))
        if len(spaces) <= 4
        else [(False,) * len(spaces), (True,) * len(spaces)]
    )
    out = []
    for mask in masks:
        cuts = [i for i, cut in zip(spaces, mask, strict=True) if cut]
        parts, start = [], 0
        for cut in [*cuts, len(token.groups) - 1]:
            parts.append((token.groups[start : cut + 1], token.separators[start:cut]))
            start = cut + 1
        out.append(parts)
    return out


@dataclass(frozen=True, slots=True)
class NumberDiff:
    """The source's numbers the answer lacks, and the answer's the source lacks (as written)."""

    missing: tuple[str, ...]
    added: tuple[str, ...]


# The numbers each side writes in words (spelled.py): (the source's, the answer's), read only when
# some number is not kept as written.
Spelled = Callable[[], tuple[Counter[Decimal], Counter[Decimal]]]


def compare_numbers(
    source: list[NumberToken],
    answer: list[NumberToken],
    target: frozenset[Convention],
    spelled: Spelled | None = None,
) -> NumberDiff | None:
    """None when the answer has the source's numbers (module docstring), else what differs.
    A number one side writes in words (`spelled`) accounts for the other side's digits."""
    if sorted(t.key for t in source) == sorted(t.key for t in answer):
        return None  # the same numbers, written the same way (most answers)
    twins: dict[str, list[int]] = {}
    for i, token in enumerate(answer):
        twins.setdefault(token.key, []).append(i)
    paired: set[int] = set()
    rest: list[NumberToken] = []
    for token in source:  # a number repeated as written is kept, whatever it means
        same = twins.get(token.key)
        if same:
            paired.add(same.pop())
        else:
            rest.append(token)
    left = [token for i, token in enumerate(answer) if i not in paired and not token.optional]
    rest = [token for token in rest if not token.optional]
    if not rest and not left:
        return None
    evidence: set[Convention] = set()
    for token in source:  # how the source writes numbers, from all of its numbers
        evidence |= readings(token, ANY)[1]
    source_readings = [readings(token, ANY)[0] for token in rest]
    answer_readings = [readings(token, target | evidence)[0] for token in left]
    have, want = _multisets(answer_readings), _multisets(source_readings)
    if have is None or want is None or have & want:
        return None  # too many readings to judge, or one reading fits
    if spelled is not None and _fits_with_words(want, have, *spelled()):
        return None
    return _diff(rest, source_readings, left, answer_readings)


def _fits_with_words(
    want: set[Reading], have: set[Reading], in_source: Counter[Decimal], in_answer: Counter[Decimal]
) -> bool:
    """Some reading of the source and some of the answer differ only by numbers the other side
    writes in words (`05.03.2024` is 5, 3 and 2024; `5 марта 2024` is 5 and 2024, and March)."""
    if not in_source and not in_answer or len(want) * len(have) > MAX_COMBINATIONS**2 // 16:
        return False
    for source in want:
        wanted = Counter(source)
        for answer in have:
            got = Counter(answer)
            if not (wanted - got) - in_answer and not (got - wanted) - in_source:
                return True
    return False


def _multisets(per_token: list[set[Reading]]) -> set[Reading] | None:
    """Every multiset of values the tokens may stand for, each as a sorted tuple; None when
    there are more than MAX_COMBINATIONS."""
    size = 1
    for options in per_token:
        size *= len(options)
        if size > MAX_COMBINATIONS:
            return None
    return {tuple(sorted(v for reading in combo for v in reading)) for combo in itertools.product(*per_token)}


def _diff(
    source: list[NumberToken],
    source_readings: list[set[Reading]],
    answer: list[NumberToken],
    answer_readings: list[set[Reading]],
) -> NumberDiff:
    """Pair tokens that may mean the same value; what stays unpaired is missing or added."""
    unpaired = list(range(len(answer)))
    missing: list[str] = []
    for token, options in zip(source, source_readings, strict=True):
        values = {v for reading in options for v in reading}
        match = next((i for i in unpaired if values & {v for r in answer_readings[i] for v in r}), None)
        if match is None:
            missing.append(token.text)
        else:
            unpaired.remove(match)
    added = [answer[i].text for i in unpaired]
    if not missing and not added:  # paired one by one, yet no reading fits: all of them differ
        missing, added = [t.text for t in source], [t.text for t in answer]
    return NumberDiff(tuple(missing), tuple(added))
