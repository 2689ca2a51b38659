"""CLDR plural categories for every HY-MT language, from Babel (the CLDR data Python projects share).

What a format asks:
- `plural_rules(code).categories(kind)`: the categories a target needs, CLDR order, `other`
  last (`ru` cardinal: one, few, many, other; `ja`: other). ICU `plural`/`selectordinal`
  branches and i18next `_one/_few/...` keys use these.
- `plural_rules(code).examples(category, kind)`: numbers that fall in a category (`few` in
  Russian: 2, 3, 4, 22, 23, 24 ...), told to the model as context, never translated.
- `missing_categories(present, kind)`: which categories each HY-MT language needs that a
  source message lacks; the formats derive those forms (from the source's `other` form).
- `gettext_plurals(code)`: the `Plural-Forms` header and, for each `msgstr[i]`, the category it
  stands for and its example numbers (PO, for strings-b). The header is Babel's gettext table
  (what `pybabel init` writes), whose forms are the categories an integer can take: gettext's
  `n` is an integer, so CLDR categories reached only by fractions (`other` in Russian and
  Polish, `many` in Czech) get no msgstr of their own: 3 forms for `ru`/`pl`, 1 for `ja`.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any, Literal

from babel import Locale
from babel.messages.plurals import get_plural

from ...languages import LANGUAGES

CATEGORIES: tuple[str, ...] = ("zero", "one", "two", "few", "many", "other")  # CLDR order
PluralKind = Literal["cardinal", "ordinal"]
# Numbers a category is shown with: integers first, then these decimals for categories no
# integer reaches (Russian `other`: 1.5), then 10^6 (French `many`).
_INTEGERS = tuple(range(1001))
_LARGE = (1_000_000, 2_000_000)
_DECIMALS = (Decimal("0.5"), Decimal("1.5"), Decimal("2.5"), Decimal("0.1"), Decimal("1.1"))
_SHOWN = 6  # examples per category


def babel_locale(code: str) -> Locale:
    """The Babel locale of a HY-MT language code (`zh-Hant` -> zh_Hant, `tl` -> fil)."""
    return Locale.parse(code.replace("-", "_"))


@dataclass(frozen=True, slots=True)
class PluralRules:
    """One language's CLDR plural categories and examples of each."""

    language: str
    cardinal: tuple[str, ...]
    ordinal: tuple[str, ...]
    cardinal_examples: tuple[tuple[str, ...], ...]  # per category, in `cardinal` order
    ordinal_examples: tuple[tuple[str, ...], ...]
    # Categories whose every sampled number is shown in its examples (German `one`: only 1):
    # explicit selectors (`=1`) can cover them.
    cardinal_finite: frozenset[str] = frozenset()
    ordinal_finite: frozenset[str] = frozenset()

    def categories(self, kind: PluralKind = "cardinal") -> tuple[str, ...]:
        return self.cardinal if kind == "cardinal" else self.ordinal

    def examples(self, category: str, kind: PluralKind = "cardinal") -> tuple[str, ...]:
        """Numbers in `category` (empty when the language has no such category)."""
        cats = self.categories(kind)
        if category not in cats:
            return ()
        table = self.cardinal_examples if kind == "cardinal" else self.ordinal_examples
        return table[cats.index(category)]

    def covered(self, category: str, explicit: frozenset[str], kind: PluralKind = "cardinal") -> bool:
        """Every number of `category` has an explicit selector (`=1` covers German `one`)."""
        finite = self.cardinal_finite if kind == "cardinal" else self.ordinal_finite
        return category in finite and set(self.examples(category, kind)) <= explicit


def _ordered(tags: Iterable[str]) -> tuple[str, ...]:
    present = set(tags) | {"other"}
    return tuple(c for c in CATEGORIES if c in present)


def _examples(
    rule: Callable[[Any], str], categories: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], ...], frozenset[str]]:
    """Examples per category, and the categories whose sampled numbers all fit in them."""
    found: dict[str, list[str]] = {c: [] for c in categories}
    more: set[str] = set()
    for number in (*_INTEGERS, *_LARGE, *_DECIMALS):
        category = rule(number)
        shown = found.setdefault(category, [])
        if len(shown) < _SHOWN:
            shown.append(str(number))
        else:
            more.add(category)
    return tuple(tuple(found[c]) for c in categories), frozenset(categories) - more


@cache
def plural_rules(code: str) -> PluralRules:
    """The rules of a HY-MT language (KeyError: not a HY-MT language code)."""
    lang = LANGUAGES[code].code
    locale = babel_locale(lang)
    cardinal, ordinal = locale.plural_form, locale.ordinal_form
    cardinal_cats, ordinal_cats = _ordered(cardinal.tags), _ordered(ordinal.tags)
    cardinal_examples, cardinal_finite = _examples(cardinal, cardinal_cats)
    ordinal_examples, ordinal_finite = _examples(ordinal, ordinal_cats)
    return PluralRules(
        lang,
        cardinal_cats,
        ordinal_cats,
        cardinal_examples,
        ordinal_examples,
        cardinal_finite,
        ordinal_finite,
    )


def missing_categories(
    present: Iterable[str], kind: PluralKind = "cardinal", languages: Iterable[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """HY-MT language -> the categories it needs that `present` lacks (languages lacking
    nothing are left out). Explicit selectors in `present` (`=1`) are no category, but cover one
    whose every number they name (German `one` is only 1: `=1` is enough)."""
    have = set(present)
    explicit = frozenset(p[1:] for p in have if p.startswith("="))
    out: dict[str, tuple[str, ...]] = {}
    for code in languages if languages is not None else LANGUAGES:
        rules = plural_rules(code)
        missing = tuple(
            c for c in rules.categories(kind) if c not in have and not rules.covered(c, explicit, kind)
        )
        if missing:
            out[code] = missing
    return out


def nearest_form(present: Iterable[str]) -> str | None:
    """The source form a new category is translated from: `other`, else the last category the
    source has in CLDR order; None when the source has no category at all (only `=N`)."""
    have = [c for c in CATEGORIES if c in set(present)]
    if not have:
        return None
    return "other" if "other" in have else have[-1]


def category_note(code: str, category: str, kind: PluralKind = "cardinal") -> str:
    """What the model is told about a plural form it writes (context, never translated)."""
    examples = plural_rules(code).examples(category, kind)
    which = "ordinal" if kind == "ordinal" else "plural"
    numbers = f" (n = {', '.join(examples)}, ...)" if examples else ""
    return f'{LANGUAGES[code].english} {which} form "{category}"{numbers}'


@dataclass(frozen=True, slots=True)
class GettextPlurals:
    """A language's gettext plural forms: the header value, and what each msgstr[i] is."""

    nplurals: int
    expression: str
    categories: tuple[str, ...]  # CLDR category of msgstr[i]: the one most of its numbers have
    examples: tuple[tuple[int, ...], ...]  # integers that select msgstr[i]

    @property
    def header(self) -> str:
        """The `Plural-Forms` header value: `nplurals=3; plural=(...);`."""
        return f"nplurals={self.nplurals}; plural={self.expression};"

    def index(self, n: int) -> int:
        """The msgstr index gettext picks for `n`."""
        return int(gettext.c2py(self.expression)(n))


@cache
def gettext_plurals(code: str) -> GettextPlurals:
    """Babel's gettext plural table for a HY-MT language, each form mapped to its CLDR category."""
    lang = LANGUAGES[code].code
    table = get_plural(babel_locale(lang))
    pick = gettext.c2py(table.plural_expr)
    rule = babel_locale(lang).plural_form
    numbers: list[list[int]] = [[] for _ in range(table.num_plurals)]
    votes: list[dict[str, int]] = [{} for _ in range(table.num_plurals)]
    for n in (*_INTEGERS, *_LARGE):
        i = int(pick(n))
        if 0 <= i < table.num_plurals:
            if len(numbers[i]) < _SHOWN:
                numbers[i].append(n)
            votes[i][rule(n)] = votes[i].get(rule(n), 0) + 1
    categories = tuple(max(v, key=lambda c: (v[c], c == "other")) if v else "other" for v in votes)
    return GettextPlurals(table.num_plurals, table.plural_expr, categories, tuple(map(tuple, numbers)))
