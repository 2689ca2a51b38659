"""No false alarms on generated text: for any segment, the identity answer (the source) and the
pseudo answer pass every check. The alphabet is heavy in what the checks read: digits of
several scripts and their separators, addresses, codes, tags, brackets, quotes and the end
punctuation of several languages."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.qa import check_answer
from hymt_cli.qa.judgements import Pair
from hymt_cli.qa.table import CHECKS
from hymt_cli.text.segments import is_translatable

PIECES = (
    list("ab é中あ日 \n\t.,;:!?()[]{}\"'-_/@#%$+*&<>=~\\|^`")
    + list("0123456789٠١٢٣۴५６")
    + [
        "\u00a0",
        "\u202f",
        "\u2009",
        "٫",
        "٬",
        "’",
        "“",
        "”",
        "„",
        "«",
        "»",
        "「",
        "」",
        "『",
        "』",
        "（",
        "）",
    ]
    + ["【", "】", "。", "？", "！", "：", "…", "...", "؟", "،", "۔", "।", "¿", "¡", "万", "億", "PM", "am"]
    + ["<s1>", "</s1>", "<s2/>", "<s3>", "</s3>", "https://", "www.", "http://x.com/a_(b)", ".com", "mailto:"]
    + [
        "a@b.co",
        "@user",
        "#tag",
        "/usr/bin",
        "C:\\x",
        "~/.rc",
        "./run.sh",
        "file.txt",
        "XR-2000",
        "A4",
        "5kg",
    ]
    + [
        "1,299.00",
        "1.299,00",
        "1 299",
        "2 500",
        "1,23,456",
        "1.2.3",
        "24",
        "the the",
        "Bora Bora",
        "vous vous",
    ]
    + ["Word ", "word. ", "Save now", "  ", "\r\n", "😀", "e\u0301", "ẞ", "İ", "Ⅳ", "½", "²"]
)
TARGETS = st.sampled_from(["de", "fr", "ja", "zh", "ar", "ru", "th", "hi", "en"])


def segment_text() -> st.SearchStrategy[str]:
    """What a request carries: text with letters, its edges stripped (the pipeline keeps them)."""
    return (
        st.lists(st.sampled_from(PIECES), min_size=1, max_size=40)
        .map(lambda parts: "".join(parts).strip())
        .filter(is_translatable)
    )


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segment_text(), TARGETS)
@example("Price, 1,299.00,", "de")
@example("word.<s2/> “q”", "ja")
def test_the_source_is_its_own_answer(text: str, target: str) -> None:
    assert check_answer(text, text, target, translating=False) == ()


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segment_text(), TARGETS, st.sampled_from([None, "en", "fr", "ja"]))
@example("Price, 1,299.00,", "de", None)
@example("Word the the؟", "de", "fr")
def test_only_checks_that_flag_the_source_can_flag_it(text: str, target: str, source: str | None) -> None:
    """A QA suite skips the other checks for an answer that is its source (the identity engine's
    every answer): each of them, run itself, must pass it."""
    for check in CHECKS:
        if check.run is not None and not check.flags_the_source:
            assert check.run(Pair(text, text, target, source)) is None, check.id


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segment_text(), TARGETS)
@example("Price, 1,299.00,", "de")
@example("a (b).</s1>", "fr")
@example("Word the the؟", "de")  # a double before punctuation outside ASCII: the quick test missed it
def test_the_pseudo_answer_passes(text: str, target: str) -> None:
    flags = check_answer(text, pseudo_localize(text), target)
    assert flags == (), (text, pseudo_localize(text), flags)
