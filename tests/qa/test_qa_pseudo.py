"""The pseudo engine answers as a translation would for the QA checks: every letter changes,
but numbers, URLs, emails, paths, handles, hashtags and codes stay as they are, the padding has
no digits, and the end punctuation stays at the end."""

from __future__ import annotations

import pytest

from hymt_cli.acceptance.answers import find_loop
from hymt_cli.engine.pseudo import CLOSE, OPEN, pseudo_localize
from hymt_cli.qa import check_answer

PRODUCT = [
    "Price: $1,299.00 incl. VAT, 24 months warranty.",
    "Manual at https://example.com/docs/xr-2000?lang=en (PDF).",
    "Write to support@example.com or follow @hymt_app and #BlackFriday!",
    "Edit ~/.config/hymt/config.toml, then run ./setup.sh",
    "The XR-2000 prints on A4 paper at 1200 dpi.",
    'Click "Save" to finish: done...',
    "Save <s1>now</s1> and <s2/> later?",
    "foo<s1/>bar",
]


@pytest.mark.parametrize("source", PRODUCT)
def test_pseudo_answers_pass_every_check(source: str) -> None:
    answer = pseudo_localize(source)
    assert answer.startswith(OPEN) and answer.endswith(CLOSE) and answer != source
    assert check_answer(source, answer, "de") == ()


def test_what_a_translation_keeps_stays_as_it_is() -> None:
    answer = pseudo_localize(" ".join(PRODUCT[:5]))
    for kept in (
        "$1,299.00",
        "24",
        "https://example.com/docs/xr-2000?lang=en",
        "support@example.com",
        "@hymt_app",
        "#BlackFriday",
        "~/.config/hymt/config.toml",
        "./setup.sh",
        "XR-2000",
        "A4",
        "1200",
    ):
        assert kept in answer
    assert "Price" not in answer and "Ƥŕíçé" not in answer and "Þŕíçé" in answer


@pytest.mark.parametrize("length", [1, 4, 5, 10, 29, 30, 31, 100, 1000, 5000])
def test_the_padding_has_no_digits_and_no_loop(length: int) -> None:
    answer = pseudo_localize("x" * length)
    padding = answer[answer.rindex(" ") + 1 : -1]
    assert len(padding) == max(1, length * 3 // 10)
    assert not any(ch.isdigit() for ch in padding) and find_loop(padding) is None


def test_the_end_punctuation_stays_last() -> None:
    assert pseudo_localize("Deep file.") == "⟦Đééþ ƒíĺé ··.⟧"
    assert pseudo_localize('He said "yes."').endswith('·."⟧')
    assert pseudo_localize("Why?</s1>").endswith("?</s1>⟧")
