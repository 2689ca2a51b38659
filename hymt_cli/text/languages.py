"""The languages HY-MT translates between (model card): code -> English and Chinese names; and
the locales a project names its targets by (`pt-BR`, `zh_TW`), each resolved to one of them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from ..errors import UsageError
from .locales import (
    canonical,
    english_name,
    equivalent,
    maximized,
    minimal,
    own_plural_locales,
    parse_locale,
    plural_rules_of,
    writes,
)


@dataclass(frozen=True, slots=True)
class Language:
    """A language to translate into (or from).

    `code`: the locale as the project names it, in BCP 47's canonical form (`pt-BR`, `zh-Hant`,
    `de`): output names, CLDR plural rules and number symbols, reports. `model`: the HY-MT
    language that writes it (`pt`), whose names (`english`, `chinese`) the prompts use.
    `memory_code`: what requests and the translation memory know the target by: the model
    language where the locale is that language's own (`pt-BR` is pt, `zh-TW` is zh-Hant: CLDR's
    likely subtags), else the locale (`pt-PT`, `de-CH`): locales that differ never share a
    translation."""

    code: str
    english: str
    chinese: str
    model: str = ""
    memory_code: str = ""

    def __post_init__(self) -> None:
        if not self.model:
            object.__setattr__(self, "model", self.code)
        if not self.memory_code:
            object.__setattr__(self, "memory_code", _memory_code(self.code, self.model))

    @property
    def is_chinese(self) -> bool:
        """Chinese varieties: prompts use the Chinese instruction when one is on either side."""
        return self.model in CHINESE_CODES


def _memory_code(tag: str, model: str) -> str:
    if tag == model or parse_locale(tag) is None:
        return tag
    if equivalent(tag, model):
        return model
    shortest = minimal(tag)
    # (a locale a [locales] table gives to another model language than its own, pt-BR=es, is
    # never keyed as that language's: pt)
    return tag if shortest.lower() in _BY_LOWER else shortest


_TABLE = """\
zh Chinese 中文
en English 英语
fr French 法语
pt Portuguese 葡萄牙语
es Spanish 西班牙语
ja Japanese 日语
tr Turkish 土耳其语
ru Russian 俄语
ar Arabic 阿拉伯语
ko Korean 韩语
th Thai 泰语
it Italian 意大利语
de German 德语
vi Vietnamese 越南语
ms Malay 马来语
id Indonesian 印尼语
tl Filipino 菲律宾语
hi Hindi 印地语
zh-Hant Traditional_Chinese 繁体中文
pl Polish 波兰语
cs Czech 捷克语
nl Dutch 荷兰语
km Khmer 高棉语
my Burmese 缅甸语
fa Persian 波斯语
gu Gujarati 古吉拉特语
ur Urdu 乌尔都语
te Telugu 泰卢固语
mr Marathi 马拉地语
he Hebrew 希伯来语
bn Bengali 孟加拉语
ta Tamil 泰米尔语
uk Ukrainian 乌克兰语
bo Tibetan 藏语
kk Kazakh 哈萨克语
mn Mongolian 蒙古语
ug Uyghur 维吾尔语
yue Cantonese 粤语
"""

LANGUAGES: dict[str, Language] = {
    code: Language(code, english.replace("_", " "), chinese)
    for code, english, chinese in (line.split() for line in _TABLE.splitlines())
}
CHINESE_CODES = frozenset({"zh", "zh-Hant", "yue"})
_BY_LOWER = {code.lower(): lang for code, lang in LANGUAGES.items()}


LocaleTable = Mapping[str, str]  # locale (canonical tag) -> the model language that writes it


def model_language(tag: str) -> str | None:
    """The HY-MT language that writes a locale by default: the code itself (`de`, `zh-Hant`), else
    the one of the same language and script once CLDR's likely subtags are added (`pt-BR` -> pt,
    `zh-TW` and `zh-HK` -> zh-Hant, `zh-SG` -> zh, `yue-HK` -> yue); None (`sr-Latn`)."""
    same = _BY_LOWER.get(tag.lower())
    if same is not None:
        return same.code
    return next((code for code in LANGUAGES if writes(tag, code)), None)


def language(code: str, table: LocaleTable | None = None) -> Language:
    """A language code or locale (`de`, `pt-BR`, `pt_br`, `zh-Hant-TW`; any case) as the
    language to translate into; `table` maps a locale to another model language than CLDR's.
    A usage error names a code that is none, or a locale no HY-MT language writes."""
    tag = canonical(code)
    if tag is not None and tag.split("-")[0] == "und":  # BCP 47's "undetermined": no language
        tag = None
    model = None if tag is None else (table or {}).get(tag) or model_language(tag)
    if tag is None or model is None:
        raise UsageError(_unknown(code, tag))
    names = LANGUAGES[model]
    return Language(tag, names.english, names.chinese, model)


def _unknown(code: str, tag: str | None) -> str:
    named = english_name(tag) if tag is not None else None
    if named is None:
        return f"unknown language code {code.strip()!r}; valid codes: {', '.join(LANGUAGES)}"
    return (
        f"no HY-MT language writes {tag} ({named}); the model's languages: {', '.join(LANGUAGES)} "
        f'(a [locales] entry in hymt.toml maps a locale to one of them: "{tag}" = "<code>")'
    )


def parse_language_list(value: str, table: LocaleTable | None = None) -> list[Language]:
    """`de,ja` -> [German, Japanese]; `pt-BR,zh_TW` -> [pt-BR (Portuguese), zh-TW (Traditional
    Chinese)]: without duplicates (`pt_BR` is `pt-BR`), order kept."""
    codes = [part for part in value.split(",") if part.strip()]
    if not codes:
        raise UsageError("no target language given (e.g. --to en or --to de,ja)")
    result: list[Language] = []
    for code in codes:
        lang = language(code, table)
        if lang not in result:
            result.append(lang)
    return result


def locale_table(pairs: Iterable[str]) -> dict[str, str]:
    """`zh-HK=yue` entries (`--locales`, a `[locales]` table) as {canonical locale: model code};
    a usage error names an entry whose locale is no tag or whose language HY-MT lacks."""
    table: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        tag = canonical(key)
        found = _BY_LOWER.get(value.strip().lower())
        if not sep or tag is None:
            raise UsageError(f"--locales must be LOCALE=LANGUAGE (e.g. zh-HK=yue), not {pair!r}")
        if found is None:
            raise UsageError(
                f"--locales {tag}={value.strip()}: {value.strip()!r} is not a HY-MT language; "
                f"valid codes: {', '.join(LANGUAGES)}"
            )
        table[tag] = found.code
    return table


@cache
def plural_languages() -> tuple[str, ...]:
    """The languages a string file gets plural forms for: every HY-MT language, and each CLDR
    locale of one of them whose plural rules differ from all of its language's (pt-PT: 0 is
    `other` there, `one` in pt)."""
    extra: list[str] = []
    for tag in own_plural_locales(frozenset(maximized(code)[0] for code in LANGUAGES)):
        language = maximized(tag)[0]
        same = [c for c in (*LANGUAGES, *extra) if maximized(c)[0] == language]
        if same and all(plural_rules_of(tag) != plural_rules_of(c) for c in same):
            extra.append(tag)
    return (*LANGUAGES, *extra)


def written_for(targets: Collection[str] | None, lang: str) -> bool:
    """Is what is named for some languages' plural rules (`targets`: plural codes, as a new
    plural form's segment names them; None: every language) written in `lang`, a locale?"""
    return targets is None or plural_code(lang) in targets


@cache
def plural_code(tag: str) -> str:
    """The member of `plural_languages()` whose plural rules a locale follows (`pt-BR` -> pt,
    `pt-AO` -> pt-PT, `de-CH` -> de, `zh-TW` -> zh-Hant): what a plural form's segment names."""
    if tag in LANGUAGES:
        return tag
    language, rules = maximized(tag)[0], plural_rules_of(tag)
    default = model_language(tag)
    same = [c for c in plural_languages() if maximized(c)[0] == language]
    ordered = ([default] if default in same else []) + same
    return next((c for c in ordered if plural_rules_of(c) == rules), default or tag)
