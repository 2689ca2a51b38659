"""QaOptions: which checks are errors, warnings or off, from a --qa value or a config table."""

from __future__ import annotations

import pytest

from hymt_cli.qa import CHECK_IDS, QaOptionError, QaOptions, QaSuite

DEFAULT_ERRORS = {"number", "url", "email"}


def test_defaults_number_url_and_email_are_errors_the_rest_warnings() -> None:
    levels = QaOptions().resolved()
    assert set(levels) == set(CHECK_IDS)
    assert {c for c, level in levels.items() if level == "error"} == DEFAULT_ERRORS
    assert {c for c, level in levels.items() if level == "warning"} == set(CHECK_IDS) - DEFAULT_ERRORS


def test_a_flag_value_and_a_config_table_say_the_same() -> None:
    spec = QaOptions.parse(" number = warning , doubled-word=OFF,sku=error ")
    table = QaOptions.parse({"number": "warning", "doubled-word": "off", "sku": "error"})
    assert spec == table
    assert spec.level("number") == "warning" and spec.level("doubled-word") == "off"
    assert spec.level("sku") == "error" and spec.level("url") == "error"


def test_all_applies_first_and_later_entries_win() -> None:
    options = QaOptions.parse("all=off,number=error")
    assert [c for c, level in options.resolved().items() if level != "off"] == ["number"]
    assert QaOptions.parse("number=off,all=warning").level("number") == "warning"
    # the config file, then the flags on top
    merged = QaOptions.parse({"url": "warning"}) + QaOptions.parse("url=off")
    assert merged.level("url") == "off"


def test_the_consistency_check_is_a_report_item_only() -> None:
    with pytest.raises(QaOptionError, match="inconsistent=error: inconsistent is found after the answers"):
        QaOptions.parse("inconsistent=error")
    assert QaOptions.parse("all=error").level("inconsistent") == "warning"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("numbers=error", "no check called 'numbers' (did you mean number?)"),
        ("colour=off", "no check called 'colour'; the checks: number, url"),
        ("number=fatal", "--qa number=fatal: the level is one of error, warning, off"),
        ("number", "--qa 'number': write CHECK=LEVEL"),
    ],
)
def test_a_wrong_value_is_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(QaOptionError) as error:
        QaOptions.parse(spec)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_suite_splits_errors_and_warnings_and_skips_untranslated_for_copying_engines() -> None:
    source, answer = "Add the item to your cart now.", "Add the item to your cart now."
    assert [f.check for f in QaSuite().warnings(source, answer, "de")] == ["untranslated"]
    assert QaSuite(translating=False).warnings(source, answer, "de") == ()
    assert (
        QaSuite(source_lang="de").warnings(source, answer, "de") == ()
    )  # same language: nothing to translate
    suite = QaSuite(QaOptions.parse("number=warning"))
    assert suite.errors("Mail info@shop.example", "Mail an uns", "de")  # url and email are still errors
    assert [f.severity for f in suite.warnings("24 months", "12 Monate", "de")] == ["warning"]
    assert suite.errors("24 months", "12 Monate", "de") == ()
    assert QaSuite(QaOptions.parse("all=warning")).errors("Mail info@shop.example", "Mail an uns", "de") == ()
