"""Prompt goldens: HY-MT1.5 model-card templates, verbatim."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hymt_cli.errors import UsageError
from hymt_cli.model.prompts import build_prompt, looks_chinese, source_is_chinese
from hymt_cli.text.languages import LANGUAGES, language, parse_language_list


def test_xx_to_xx_uses_the_english_instruction_and_english_name() -> None:
    assert build_prompt("Guten Morgen.", language("fr"), chinese_source=False) == (
        "Translate the following segment into French, without additional explanation.\n\nGuten Morgen."
    )


def test_zh_source_uses_the_chinese_instruction_and_chinese_name() -> None:
    assert build_prompt("早上好。", language("en"), chinese_source=True) == (
        "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n\n早上好。"
    )


def test_zh_target_uses_the_chinese_instruction() -> None:
    assert build_prompt("Good morning.", language("zh"), chinese_source=False) == (
        "将以下文本翻译为中文，注意只需要输出翻译后的结果，不要额外解释：\n\nGood morning."
    )
    assert build_prompt("Good morning.", language("zh-Hant"), chinese_source=False).startswith(
        "将以下文本翻译为繁体中文，"
    )


def test_source_side_is_declared_or_detected() -> None:
    assert source_is_chinese(None, "这是一个测试。")
    assert not source_is_chinese(None, "これはテストです。漢字")  # kana: Japanese
    assert not source_is_chinese(None, "A test with one 中 character and many letters")
    assert source_is_chinese(language("zh"), "English text declared as Chinese")
    assert not source_is_chinese(language("ja"), "漢字")


def test_the_model_card_languages_are_all_there() -> None:
    assert len(LANGUAGES) == 38
    assert language("ZH-hant").code == "zh-Hant"
    assert language("yue").chinese == "粤语"


def test_unknown_language_is_a_usage_error_listing_valid_codes() -> None:
    with pytest.raises(UsageError, match="unknown language code 'xx'.*en, fr"):
        parse_language_list("en,xx")


def test_language_lists_are_deduplicated_in_order() -> None:
    assert [lang.code for lang in parse_language_list("de, ja,de")] == ["de", "ja"]


def test_looks_chinese() -> None:
    assert looks_chinese("同步速度很慢怎么办？")
    assert not looks_chinese("Hello")
    assert not looks_chinese("")
    assert looks_chinese("型号 X200")  # two Han, one Latin letter
    assert not looks_chinese("型号 X200 Pro")  # two Han, four letters
    assert not looks_chinese("東京タワー")  # kana: Japanese
    assert not looks_chinese("서울 中")  # hangul: Korean
    assert not looks_chinese("Café crème brûlée")  # non-ASCII without Han


@given(st.text(alphabet=st.sampled_from("中文字a Zé。タ한1-"), max_size=12))
def test_looks_chinese_is_han_outnumbering_other_letters_without_kana_or_hangul(text: str) -> None:
    """Its shortcuts (ASCII, no Han) answer as the definition does."""
    han = sum(c in "中文字" for c in text)
    letters = sum(c.isalpha() for c in text)
    expected = han > 0 and han * 2 >= letters and not any(c in "タ한" for c in text)
    assert looks_chinese(text) == expected


def test_hy_mt_context_budget_is_one_constant(tmp_path: Path) -> None:
    """The model's context (prompt + output) is declared once: the engines' default, the pipeline's
    output budgets and the help's default all read model.prompts.CONTEXT_TOKENS."""
    from hymt_cli.engine.base import EngineOptions
    from hymt_cli.engine.tuning import model_config
    from hymt_cli.engine.vllm_arguments import default_max_model_len
    from hymt_cli.model.prompts import CONTEXT_TOKENS
    from hymt_cli.pipeline import RunPlan
    from hymt_cli.settings.schema import setting_named

    assert RunPlan(targets=()).context_tokens == CONTEXT_TOKENS
    assert default_max_model_len(model_config(EngineOptions(model=str(tmp_path / "none")))) == CONTEXT_TOKENS
    assert setting_named("max_model_len").declared.default_text == f"{CONTEXT_TOKENS} or the model's"
