"""Locale tags as projects write them: BCP 47 (`pt-BR`, `zh-Hant-TW`, `es-419`) or POSIX (`pt_BR`),
read in any case, written one canonical way, and compared through CLDR's likely subtags (Babel's
copy of CLDR, `likely_subtags` and `language_aliases`).

- `parse_locale("pt_br")` -> `LocaleTag("pt", None, "BR")`; None when the text is no tag.
- `LocaleTag.tag`: BCP 47 casing (`pt-BR`, `zh-Hant-TW`); a plain `de` stays `de`.
- `maximized(tag)`: CLDR's "add likely subtags" (`zh-TW` -> zh-Hant-TW, `pt` -> pt-Latn-BR,
  `de` -> de-Latn-DE), after CLDR's aliases for old codes (`iw` -> he, `tl` -> fil).
- `equivalent(a, b)`: one locale once maximized: `de` ~ `de_DE`, `pt` ~ `pt-BR`, `zh-Hant` ~
  `zh_TW`, never `pt-PT` ~ `pt-BR`.
- `minimal(tag)`: CLDR's "remove likely subtags" (`pt-BR` -> pt, `pt-PT` stays, `zh-Hant` -> zh-TW).
- `writes(tag, code)`: a locale is written by a language code when both have the same language and
  script once maximized (`pt-BR` by pt, `zh-HK` by zh-Hant, `yue-HK` by yue, `sr-Latn` by none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale

_LANGUAGE = re.compile(r"^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})$")
_SCRIPT = re.compile(r"^[A-Za-z]{4}$")
_REGION = re.compile(r"^(?:[A-Za-z]{2}|[0-9]{3})$")
_VARIANT = re.compile(r"^(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3})$")


@dataclass(frozen=True, slots=True)
class LocaleTag:
    """A locale's subtags, in canonical case: language (`pt`), script (`Hant`), region (`BR`,
    `419`), variants (`valencia`)."""

    language: str
    script: str | None = None
    region: str | None = None
    variants: tuple[str, ...] = ()

    @property
    def tag(self) -> str:
        """BCP 47: `pt-BR`, `zh-Hant-TW`."""
        return self.spelled("-")

    def spelled(self, sep: str) -> str:
        """The subtags joined with `sep` (`_`: `pt_BR`, as POSIX, Java and gettext write them)."""
        return sep.join(p for p in (self.language, self.script, self.region, *self.variants) if p)


def parse_locale(text: str) -> LocaleTag | None:
    """`pt-BR`, `pt_br`, `zh-Hant-TW`, `es-419`, `de` as a locale; None when `text` is no tag
    (extensions, private use and POSIX charsets such as `.UTF-8` are none either). A POSIX
    `@modifier` (gettext's `sr@latin`, `ca@valencia`, `sr_RS@latin`) is the script it names
    (`sr-Latn`) or a variant (`ca-valencia`)."""
    text, at, modifier = text.strip().partition("@")
    if at:
        return _with_modifier(parse_locale(text), modifier)
    parts = text.replace("_", "-").split("-")
    if not parts or not _LANGUAGE.match(parts[0]):
        return None
    language, rest = parts[0].lower(), parts[1:]
    script = region = None
    if rest and _SCRIPT.match(rest[0]):
        script, rest = rest[0].title(), rest[1:]
    if rest and _REGION.match(rest[0]):
        region, rest = rest[0].upper(), rest[1:]
    if any(not _VARIANT.match(v) for v in rest):
        return None
    return LocaleTag(language, script, region, tuple(v.lower() for v in rest))


# gettext's script modifiers (glibc locale names: `sr_RS@latin`, `uz_UZ@cyrillic`, `be_BY@latin`).
_MODIFIER_SCRIPTS = {
    "latin": "Latn",
    "cyrillic": "Cyrl",
    "devanagari": "Deva",
    "arabic": "Arab",
    "hebrew": "Hebr",
    "greek": "Grek",
    "iqtelif": "Latn",
    "shaw": "Shaw",
}
_MODIFIER = re.compile(r"^[A-Za-z0-9]{2,8}$")


def _with_modifier(found: LocaleTag | None, modifier: str) -> LocaleTag | None:
    """A POSIX locale's `@modifier` on the tag before it: the script it names, else a variant
    (one BCP 47 could not spell, `quot` of gettext's `en@quot`, is kept as one too: the locale
    is then none of the plain language's)."""
    if found is None or not _MODIFIER.match(modifier):
        return None
    script = _MODIFIER_SCRIPTS.get(modifier.lower())
    if script is not None and found.script is None:
        return LocaleTag(found.language, script, found.region, found.variants)
    return LocaleTag(found.language, found.script, found.region, (*found.variants, modifier.lower()))


def posix_spelling(tag: str) -> str:
    """A locale as gettext names its catalogs: `pt_BR`, `sr@latin` for sr-Latn (glibc's script
    modifiers), `ca@valencia` for ca-valencia; a script gettext has no modifier for stays a
    subtag (`zh_Hant`)."""
    found = parse_locale(tag)
    if found is None:
        return tag.replace("-", "_")
    named = next((name for name, script in _MODIFIER_SCRIPTS.items() if script == found.script), None)
    base = "_".join(p for p in (found.language, None if named else found.script, found.region) if p)
    modifier = named or (found.variants[0] if found.variants else None)
    return base + (f"@{modifier}" if modifier else "")


def canonical(text: str) -> str | None:
    """A tag written the canonical way (`pt_br` -> `pt-BR`), or None when it is none."""
    found = parse_locale(text)
    return found.tag if found is not None else None


@cache
def maximized(tag: str) -> tuple[str, str | None, str | None]:
    """(language, script, region) with the likely subtags CLDR adds: `zh-TW` -> (zh, Hant, TW),
    `pt` -> (pt, Latn, BR); an old code is its current one (`iw` -> he). Subtags CLDR knows
    nothing about stay as they are (None)."""
    from babel.core import get_global

    found = parse_locale(tag)
    if found is None:
        return (tag.lower(), None, None)
    language, script, region = found.language, found.script, found.region
    alias = get_global("language_aliases").get(language)
    if isinstance(alias, str):
        replaced = parse_locale(alias)
        if replaced is not None:
            language = replaced.language
            script, region = script or replaced.script, region or replaced.region
    likely = get_global("likely_subtags")
    keys = [
        "_".join(p for p in (language, script, region) if p),
        *([f"{language}_{region}"] if region and script else []),
        *([f"{language}_{script}"] if script and region else []),
        language,
    ]
    for key in keys:
        value = likely.get(key)
        if value is not None:
            more = parse_locale(value)
            if more is not None:
                language = more.language if language == "und" else language
                return (language, script or more.script, region or more.region)
    return (language, script, region)


def equivalent(a: str, b: str) -> bool:
    """Two spellings of one locale once CLDR's likely subtags are added (`de` ~ `de_DE`)."""
    return maximized(a) == maximized(b) and _variants(a) == _variants(b)


def _variants(tag: str) -> tuple[str, ...]:
    found = parse_locale(tag)
    return found.variants if found is not None else ()


@cache
def minimal(tag: str) -> str:
    """The shortest tag of the same locale (CLDR's "remove likely subtags", region before
    script): `pt-BR` -> pt, `de-DE` -> de, `zh-Hant` -> zh-TW; `pt-PT` and `de-CH` stay."""
    found = parse_locale(tag)
    if found is None:
        return tag
    full = maximized(tag)
    language, script, region = full
    trials = [
        language,
        *([f"{language}-{region}"] if region else []),
        *([f"{language}-{script}"] if script else []),
    ]
    for trial in trials:
        if maximized(trial) == full:
            return "-".join([trial, *found.variants])
    return LocaleTag(language, script, region, found.variants).tag


def writes(tag: str, code: str) -> bool:
    """Does the language `code` (a model language: `pt`, `zh-Hant`) write the locale `tag`: the
    same language in the same script, whatever the region (`pt-BR`, `pt-PT` by pt; `zh-HK` by
    zh-Hant; `sr-Latn` by no language that writes Serbian in Cyrillic)."""
    return maximized(tag)[:2] == maximized(code)[:2]


def english_name(tag: str) -> str | None:
    """The locale's English name from CLDR (`pt-PT` -> Portuguese (Portugal)); None where CLDR
    has no data for it."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(tag.replace("-", "_")).get_display_name("en"))
    except (UnknownLocaleError, ValueError):
        return None


def babel_locale(tag: str) -> Locale:
    """Babel's CLDR data for a locale: its own (`pt_PT`, `de_CH`), else its language's (`de-US`
    -> de); UnknownLocaleError where CLDR knows neither."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(tag.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(maximized(tag)[0])


PluralRules = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]


@cache
def plural_rules_of(tag: str) -> PluralRules:
    """A locale's CLDR plural rules, cardinal and ordinal (`pt` and `pt-PT` differ: 0 is `one`
    in Brazil, `other` in Portugal)."""
    locale = babel_locale(tag)
    return (
        tuple(sorted(locale.plural_form.rules.items())),
        tuple(sorted(locale.ordinal_form.rules.items())),
    )


@cache
def own_plural_locales(languages: frozenset[str]) -> tuple[str, ...]:
    """The CLDR locales of `languages` whose own plural rules differ from their language's, as
    tags (`pt-PT`); every other locale has its parent's. Read from each locale's own data file
    (no merged data: a few milliseconds, not Babel's merge of every locale)."""
    found = []
    for name in _locale_names():
        language = name.split("_")[0]
        if "_" not in name or language not in languages:
            continue
        own = _own_rules(name)
        if own and any(
            rules is not None and rules != _own_rules(language).get(kind) for kind, rules in own.items()
        ):
            found.append(name.replace("_", "-"))
    return tuple(found)


def _locale_names() -> list[str]:
    from babel import localedata

    return localedata.locale_identifiers()


@cache
def _own_rules(name: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """The plural rules a CLDR locale's own data file gives (cardinal, ordinal; none: its parent's)."""
    import pickle

    from babel import localedata

    # The file itself, unmerged: what localedata.load reads (whose cache would keep the unmerged
    # data for every later lookup if asked for it with merge_inherited=False).
    with open(localedata.resolve_locale_filename(name), "rb") as handle:
        own = pickle.load(handle)
    return {
        kind: tuple(sorted(own[kind].rules.items()))
        for kind in ("plural_form", "ordinal_form")
        if kind in own
    }
