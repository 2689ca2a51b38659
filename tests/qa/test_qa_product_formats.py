"""Correct translations of product text that the QA checks used to reject or flag: scale words
(`1.5 million` is `150万`), vulgar fractions (`1½` is `1 1/2`), dimensions (`10x20` is
`10 × 20`), a capitals-and-number pair hyphenated into a German compound (`USB 3.0` ->
`USB-3.0-Anschluss`), a price per month (`€/Monat` is no file path) and the Greek question
mark (`;`). The number check is an error: each of these threw a good translation away. Each
case comes with the wrong answer the check must still catch."""

from __future__ import annotations

import pytest

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.qa import check_answer

# (source, good answer, wrong answer, target, the check the wrong answer fails)
CASES = [
    ("1.5 million users", "150万用户", "250万用户", "zh", "number"),
    ("1.5 million users", "150万人のユーザー", "15万人のユーザー", "ja", "number"),
    ("1.5 million users", "1,5 Millionen Nutzer", "2,5 Millionen Nutzer", "de", "number"),
    ("150万用户", "1.5 million users", "15 million users", "en", "number"),
    ("2 billion won", "20억 원", "30억 원", "ko", "number"),
    ("3 billion", "3 milliards", "4 milliards", "fr", "number"),
    ("2 lakh rupees", "200,000 rupees", "20,000 rupees", "en", "number"),
    (
        "Add 1½ cups of flour.",
        "Ajoutez 1 1/2 tasse de farine.",
        "Ajoutez 2 1/2 tasses de farine.",
        "fr",
        "number",
    ),
    ("Add 1/2 cup of milk.", "Ajoutez ½ tasse de lait.", "Ajoutez ¼ tasse de lait.", "fr", "number"),
    ("Size 10x20 cm", "Größe 10 × 20 cm", "Größe 10 × 25 cm", "de", "number"),
    (
        "Screen: 1920x1080 pixels",
        "Bildschirm: 1920 × 1080 Pixel",
        "Bildschirm: 1280 × 1080 Pixel",
        "de",
        "number",
    ),
    ("USB 3.0 port", "USB-3.0-Anschluss", "USB-3.1-Anschluss", "de", "number"),
    ("HDMI 2.1 cable", "HDMI-2.1-Kabel", "HDMI-2.0-Kabel", "de", "number"),
    ("USB-3.0-Anschluss", "USB 3.0 port", "USB 2.0 port", "en", "number"),
    ("The XR-2000 prints.", "Der XR 2000 druckt.", "Der XR-3000 druckt.", "de", "sku"),
    ("Only $5.99/month", "Nur 5,99 $/Monat", "Nur 5,99 $/Monat in /tmp/x", "de", "path"),
    ("Only 5,99 €/Monat", "Only €5.99/month", "Only €5.99/month, see /etc/x", "en", "path"),
    ("Are you sure?", "Είστε σίγουροι;", "Είστε σίγουροι.", "el", "end-punctuation"),
]


@pytest.mark.parametrize(("source", "good", "wrong", "target", "check"), CASES)
def test_a_correct_translation_passes_and_a_wrong_one_is_caught(
    source: str, good: str, wrong: str, target: str, check: str
) -> None:
    assert check_answer(source, good, target) == ()
    assert check in {f.check for f in check_answer(source, wrong, target)}


@pytest.mark.parametrize("source", sorted({c[0] for c in CASES}))
def test_the_source_is_its_own_answer(source: str) -> None:
    assert check_answer(source, source, "de", translating=False) == ()


@pytest.mark.parametrize(
    "source",
    [
        "Padded to the right with 0x00 until they fit.",
        "A greased 11x7-in. baking dish.",
        "Fred used 10x6=60 tickets.",
    ],
)
def test_the_pseudo_answer_keeps_dimensions_and_hex_codes(source: str) -> None:
    """Dimensions are numbers, yet kept as written (the pseudo engine keeps them, as it keeps
    codes); `0x00` stays a code."""
    answer = pseudo_localize(source)
    assert answer != source and check_answer(source, answer, "de") == ()
