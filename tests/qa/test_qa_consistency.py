"""The run-wide consistency check: the same source translated two ways is reported once per
other translation, at its first place in document order, whatever order answers arrive in."""

from __future__ import annotations

import itertools

from hymt_cli.qa import ConsistencyTracker

USES = [  # (order, source, answer)
    ((0, 0, 1), "Add to cart", "In den Warenkorb"),
    ((0, 0, 7), "Add to <s1>cart</s1>", "In den <s1>Warenkorb</s1>"),  # the same, through tags
    ((1, 0, 2), "Add to cart", "Zum Warenkorb hinzufügen"),
    ((1, 3, 0), "Add  to\ncart", "Zum Warenkorb hinzufügen"),  # the same, whitespace aside
    ((2, 0, 0), "In stock", "Auf Lager"),
    ((0, 0, 3), "Add to cart", "In den Warenkorb legen"),
]


def findings(uses: list[tuple[tuple[int, ...], str, str]]) -> list[tuple[tuple[int, ...], str, str, str]]:
    tracker: ConsistencyTracker[str] = ConsistencyTracker()
    for order, source, answer in uses:
        tracker.add("de", source, answer, order, f"at {order}")
    return sorted((i.order, i.where, i.message, i.answer) for i in tracker.findings())


def test_each_other_translation_is_reported_at_its_first_place() -> None:
    assert findings(USES) == [
        (
            (0, 0, 3),
            "at (0, 0, 3)",
            "translated differently elsewhere in this run: first as 'In den Warenkorb'",
            "In den Warenkorb legen",
        ),
        (
            (1, 0, 2),
            "at (1, 0, 2)",
            "translated differently elsewhere in this run (2 times): first as 'In den Warenkorb'",
            "Zum Warenkorb hinzufügen",
        ),
    ]


def test_the_order_answers_arrive_in_does_not_matter() -> None:
    expected = findings(USES)
    for permutation in itertools.islice(itertools.permutations(USES), 0, None, 37):
        assert findings(list(permutation)) == expected


def test_languages_are_apart_and_memory_is_bounded() -> None:
    tracker: ConsistencyTracker[int] = ConsistencyTracker(max_texts=2)
    tracker.add("de", "A", "a1", (0,), 0)
    tracker.add("fr", "A", "a2", (1,), 1)  # another language: not a second translation
    tracker.add("de", "B", "b1", (2,), 2)  # beyond two texts: not followed
    tracker.add("de", "B", "b2", (3,), 3)
    assert list(tracker.findings()) == []
    tracker.add("de", "A", "a3", (4,), 4)
    assert [i.where for i in tracker.findings()] == [4]
