"""End punctuation in every script: a sentence that ends with its script's own full stop ends
with a period. Only a dozen marks were listed, so an Armenian (։), Khmer (៕), Javanese (꧉) or
Ol Chiki (᱾) full stop read as no punctuation, and every correct sentence in those languages was
flagged; Armenian puts its question mark on the stressed word (՞) and often types its full stop
as a colon."""

from __future__ import annotations

import pytest

from hymt_cli.qa import check_answer
from hymt_cli.qa.punctuation import end_class

CASES = [
    ("It is waterproof.", "Այն անջրանցիկ է։", "hy"),
    ("It is waterproof.", "Այն անջրանցիկ է:", "hy"),
    ("Is it waterproof?", "Այն անջրանցի՞կ է։", "hy"),
    ("Is it waterproof?", "Այն անջրանցի՞կ է:", "hy"),
    ("Don't touch it!", "Մի՜ դիպչիր։", "hy"),
]


@pytest.mark.parametrize(("source", "answer", "target"), CASES)
def test_armenian_sentences_end_as_armenian_writes_them(source: str, answer: str, target: str) -> None:
    assert check_answer(source, answer, target, "en") == ()


def test_a_missing_full_stop_is_still_caught_in_armenian() -> None:
    flags = check_answer("It is waterproof.", "Այն անջրանցիկ է", "hy", "en")
    assert [f.check for f in flags] == ["end-punctuation"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Այն է։", "period"),
        ("វាការពារទឹក៕", "period"),
        ("ꦲꦏꦸ꧉", "period"),
        ("ᱚᱞ᱾", "period"),
        ("Really‼", "exclamation"),
        ("Really⁇", "question"),
        ("No mark", ""),
    ],
)
def test_every_scripts_sentence_terminals_end_a_text(text: str, kind: str) -> None:
    assert end_class(text) == kind
