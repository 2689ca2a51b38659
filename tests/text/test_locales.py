"""Locale tags (BCP 47 and POSIX) resolve to the language HY-MT writes by CLDR's likely subtags;
the locale stays the target's identity (its code), the model language gives the prompt's names;
a locale no HY-MT language writes is a usage error naming it."""

from __future__ import annotations

import pytest

from hymt_cli.errors import ExitCode, UsageError
from hymt_cli.formats.strings.plurals import category_note, gettext_plurals, plural_rules
from hymt_cli.model.prompts import build_prompt
from hymt_cli.text.languages import language, locale_table, parse_language_list, plural_code
from hymt_cli.text.locales import canonical, equivalent, minimal


@pytest.mark.parametrize(
    ("given", "code", "model"),
    [
        ("pt-BR", "pt-BR", "pt"),
        ("pt_BR", "pt-BR", "pt"),
        ("PT_br", "pt-BR", "pt"),
        ("zh-TW", "zh-TW", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant-TW", "zh-Hant"),
        ("zh_hant_tw", "zh-Hant-TW", "zh-Hant"),
        ("zh-HK", "zh-HK", "zh-Hant"),
        ("zh-MO", "zh-MO", "zh-Hant"),
        ("zh-CN", "zh-CN", "zh"),
        ("zh-SG", "zh-SG", "zh"),
        ("zh-Hans", "zh-Hans", "zh"),
        ("yue-HK", "yue-HK", "yue"),
        ("es-419", "es-419", "es"),
        ("de-CH", "de-CH", "de"),
        ("fr_CA", "fr-CA", "fr"),
        ("en-GB", "en-GB", "en"),
        ("de", "de", "de"),
        ("DE", "de", "de"),
        ("zh-hant", "zh-Hant", "zh-Hant"),
        ("fil", "fil", "tl"),  # CLDR's alias: tl is fil
        ("iw", "iw", "he"),  # Java's and Android's old Hebrew
    ],
)
def test_a_locale_keeps_its_tag_and_is_written_by_the_model_language(
    given: str, code: str, model: str
) -> None:
    lang = language(given)
    assert (lang.code, lang.model) == (code, model)
    assert (lang.english, lang.chinese) == (language(model).english, language(model).chinese)


@pytest.mark.parametrize("given", ["sr-Latn", "sr_Latn", "mn-Mong", "yue-Hans"])
def test_a_locale_no_hymt_language_writes_is_a_usage_error_naming_it(given: str) -> None:
    with pytest.raises(UsageError) as raised:
        language(given)
    assert canonical(given) in raised.value.message and "no HY-MT language writes" in raised.value.message
    assert raised.value.exit_code == ExitCode.USAGE


@pytest.mark.parametrize("given", ["xx", "klingon", "pt-BRR", "de_DE.UTF-8", "und-TW", ""])
def test_what_is_no_language_stays_an_unknown_code(given: str) -> None:
    with pytest.raises(UsageError, match="unknown language code"):
        language(given)


def test_a_table_sends_a_locale_to_another_model_language() -> None:
    table = locale_table(["zh-hk=YUE"])
    assert table == {"zh-HK": "yue"}
    assert language("zh_HK", table).model == "yue" and language("zh-HK", table).chinese == "粤语"
    assert language("zh-TW", table).model == "zh-Hant"  # only the locale named
    with pytest.raises(UsageError, match="'cantonese' is not a HY-MT language"):
        locale_table(["zh-HK=cantonese"])
    with pytest.raises(UsageError, match="LOCALE=LANGUAGE"):
        locale_table(["zh-HK"])


def test_duplicates_are_one_target_and_order_is_kept() -> None:
    assert [t.code for t in parse_language_list("pt_BR,zh-TW,pt-BR,es-419")] == ["pt-BR", "zh-TW", "es-419"]


def test_the_prompts_for_a_locale_are_its_model_languages() -> None:
    for formatted in (False, True):
        for context in ("", "Key: save"):
            brazil = build_prompt(
                "Save", language("pt-BR"), chinese_source=False, formatted=formatted, context=context
            )
            assert brazil == build_prompt(
                "Save", language("pt"), chinese_source=False, formatted=formatted, context=context
            )
    taiwan = build_prompt("Save", language("zh-TW"), chinese_source=False)
    assert taiwan.startswith("将以下文本翻译为繁体中文") and taiwan == build_prompt(
        "Save", language("zh-Hant"), chinese_source=False
    )


def test_locales_that_differ_never_share_a_memory_code() -> None:
    codes = {tag: language(tag).memory_code for tag in ("pt", "pt-BR", "pt_BR", "pt-PT", "pt-AO")}
    assert codes == {"pt": "pt", "pt-BR": "pt", "pt_BR": "pt", "pt-PT": "pt-PT", "pt-AO": "pt-AO"}
    assert language("zh-TW").memory_code == language("zh-Hant-TW").memory_code == "zh-Hant"
    assert language("zh-HK").memory_code == "zh-HK" and language("de-CH").memory_code == "de-CH"
    assert language("de-DE").memory_code == "de" and language("es-419").memory_code == "es-419"
    # a locale sent to another language than its own is never keyed as its own language's
    assert language("pt-BR", {"pt-BR": "es"}).memory_code == "pt-BR"


def test_likely_subtags_decide_what_is_one_locale() -> None:
    assert equivalent("de", "de-DE") and equivalent("pt", "pt-BR") and equivalent("zh-Hant", "zh-TW")
    assert (
        not equivalent("pt-PT", "pt-BR") and not equivalent("de", "de-AT") and not equivalent("zh", "zh-TW")
    )
    assert equivalent("iw", "he")
    assert [minimal(t) for t in ("pt-BR", "pt-PT", "zh-Hant", "de-Latn-DE", "es-419")] == [
        "pt",
        "pt-PT",
        "zh-TW",
        "de",
        "es-419",
    ]


def test_plural_rules_follow_the_locale() -> None:
    # CLDR: 0 is `one` in Brazilian Portuguese, `other` in European Portuguese
    assert plural_rules("pt-BR").examples("one")[:2] == ("0", "1")
    assert plural_rules("pt-PT").examples("one")[:1] == ("1",) and "0" in plural_rules("pt-PT").examples(
        "other"
    )
    assert plural_code("pt-AO") == "pt-PT" and plural_code("pt-BR") == "pt" and plural_code("de-CH") == "de"
    assert gettext_plurals("pt-PT").header != gettext_plurals("pt-BR").header
    assert gettext_plurals("pt-BR").header == gettext_plurals("pt").header
    assert "n = 1," in category_note("pt-PT", "one") and "Portugal" in category_note("pt-PT", "one")
    assert category_note("pt-BR", "one").startswith('Portuguese plural form "one" (n = 0, 1')
