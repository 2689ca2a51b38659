"""CLDR plural categories for every HY-MT language and locale, from Babel (the CLDR data Python
projects share). A locale has its own rules where CLDR gives it some (`pt-PT`: 0 is `other`, not
`one` as in Brazil); a function given a locale (`pt-BR`, `pt-AO`) answers for the language whose
rules it follows (text.languages.plural_code: pt, pt-PT).

What a format asks:
- `plural_rules(code).categories(kind)`: the categories a target needs, CLDR order, `other`
  last (`ru` cardinal: one, few, many, other; `ja`: other). ICU `plural`/`selectordinal`
  branches and i18next `_one/_few/...` keys use these.
- `plural_rules(code).examples(category, kind)`: numbers that fall in a category (`few` in
  Russian: 2, 3, 4, 22, 23, 24 ...), told to the model as context, never translated.
- `missing_categories(present, kind)`: which categories each language of `plural_languages()`
  (the HY-MT languages, and pt-PT) needs that a source message lacks; the formats derive those
  forms (from the source's `other` form).
- `gettext_plurals(code)`: the `Plural-Forms` header and, for each `msgstr[i]`, the category it
  stands for and its example numbers (PO, for strings-b). The header is Babel's gettext table
  (what `pybabel init` writes), whose forms are the categories an integer can take: gettext's
  `n` is an integer, so CLDR categories reached only by fractions (`other` in Russian and
  Polish, `many` in Czech) get no msgstr of their own: 3 forms for `ru`/`pl`, 1 for `ja`.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any, Literal

from babel import Locale
from babel.messages.plurals import get_plural

from ...text.languages import LANGUAGES, plural_code, plural_languages
from ...text.locales import babel_locale as _locale_data
from ...text.locales import english_name

CATEGORIES: tuple[str, ...] = ("zero", "one", "two", "few", "many", "other")  # CLDR order
PluralKind = Literal["cardinal", "ordinal"]
# Numbers a category is shown with: integers first, then these decimals for categories no
# integer reaches (Russian `other`: 1.5), then 10^6 (French `many`).
_INTEGERS = tuple(range(1001))
_LARGE = (1_000_000, 2_000_000)
_DECIMALS = (Decimal("0.5"), Decimal("1.5"), Decimal("2.5"), Decimal("0.1"), Decimal("1.1"))
_SHOWN = 6  # examples per category


def babel_locale(code: str) -> Locale:
    """The Babel locale of a language code or locale (`zh-Hant` -> zh_Hant, `tl` -> fil,
    `pt-PT` -> pt_PT)."""
    return _locale_data(code)


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
    """The rules of a HY-MT language, or of the language a locale follows (`pt-BR`: pt)."""
    lang = plural_code(code)
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


PluralLanguages = tuple[str, ...] | None  # the plural codes new forms are made for (None: every language)


def plural_codes(languages: Iterable[str] | None) -> PluralLanguages:
    """The plural codes (`plural_code`) of the languages a run translates into: a scan of a
    source of strings makes new plural forms for those alone, not every language's (an English
    catalog into German makes no Russian `few`). None: every language."""
    return None if languages is None else tuple(sorted({plural_code(lang) for lang in languages}))


def missing_categories(
    present: Iterable[str], kind: PluralKind = "cardinal", languages: Iterable[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Language (`plural_languages()`) -> the categories it needs that `present` lacks (languages lacking
    nothing are left out). Explicit selectors in `present` (`=1`) are no category, but cover one
    whose every number they name (German `one` is only 1: `=1` is enough). `languages`: those
    asked about (None: every language of `plural_languages()`)."""
    chosen = tuple(languages) if languages is not None else None
    return dict(_missing(frozenset(present), kind, chosen))


@cache
def _missing(
    have: frozenset[str], kind: PluralKind, languages: tuple[str, ...] | None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`missing_categories`, once per set of categories (a catalog's plurals share a few)."""
    explicit = frozenset(p[1:] for p in have if p.startswith("="))
    out: list[tuple[str, tuple[str, ...]]] = []
    for code in languages if languages is not None else plural_languages():
        rules = plural_rules(code)
        missing = tuple(
            c for c in rules.categories(kind) if c not in have and not rules.covered(c, explicit, kind)
        )
        if missing:
            out.append((code, missing))
    return tuple(out)


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
    return f'{_english(code)} {which} form "{category}"{numbers}'


def _english(code: str) -> str:
    """How a plural note names the language: HY-MT's name (`Portuguese`), CLDR's for a locale
    with rules of its own (`Portuguese (Portugal)`)."""
    lang = plural_code(code)
    return LANGUAGES[lang].english if lang in LANGUAGES else english_name(lang) or lang


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
    """Babel's gettext plural table for a language or locale (`pt_PT`: `n != 1`, `pt`: `n > 1`),
    each form mapped to its CLDR category."""
    lang = plural_code(code)
    table = get_plural(babel_locale(lang))
    found = gettext_plurals_of(lang, table.num_plurals, table.plural_expr)
    assert found is not None
    return found


_PLURAL_FORMS = re.compile(r"^\s*nplurals\s*=\s*(\d{1,2})\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$", re.DOTALL)
_MAX_EXPRESSION = 500


def parse_plural_forms(value: str) -> tuple[int, str] | None:
    """`nplurals=3; plural=(n==1 ? 0 : ...);` (a PO header's Plural-Forms) as (nplurals,
    expression); None when it is not one (`nplurals=INTEGER; plural=EXPRESSION;` in a template)."""
    match = _PLURAL_FORMS.match(value)
    if match is None or len(match.group(2)) > _MAX_EXPRESSION:
        return None
    return int(match.group(1)), match.group(2)


@cache
def gettext_plurals_of(code: str, nplurals: int, expression: str) -> GettextPlurals | None:
    """The forms of a plural expression (a file's own `Plural-Forms`), each mapped to the CLDR
    category of `code` that most of its numbers have; None when the expression is not one
    gettext can evaluate or picks a form outside 0..nplurals-1."""
    if not 1 <= nplurals <= 6:
        return None
    try:
        pick = gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError):
        return None
    rule = babel_locale(plural_code(code)).plural_form
    numbers: list[list[int]] = [[] for _ in range(nplurals)]
    votes: list[dict[str, int]] = [{} for _ in range(nplurals)]
    for n in (*_INTEGERS, *_LARGE):
        try:
            i = int(pick(n))
        except (ArithmeticError, ValueError, RecursionError):
            return None
        if not 0 <= i < nplurals:
            return None
        if len(numbers[i]) < _SHOWN:
            numbers[i].append(n)
        votes[i][rule(n)] = votes[i].get(rule(n), 0) + 1
    categories = tuple(max(v, key=lambda c: (v[c], c == "other")) if v else "other" for v in votes)
    return GettextPlurals(nplurals, expression, categories, tuple(map(tuple, numbers)))
