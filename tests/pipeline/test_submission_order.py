"""The order in which a pass goes to the engine: the longest requests first (a request needs one
engine step per output token, so a long one started late is the job's tail), then the units
with the fewest requests (a file is written once its last request is answered: small
documents come out early, before a catalog batch of thousands of requests)."""

from __future__ import annotations

from pathlib import Path

from engines import Recording
from pipelines import run_pipeline, write

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.pipeline.batching import (
    LONG_LEAD_FACTOR,
    LONG_LEAD_SHARE,
    QUICK_HEAD,
    quick_head,
    submission_order,
)


def test_the_longest_requests_lead_at_most_a_share_of_the_pass() -> None:
    lengths = [10] * 90 + [100, 30, 25, 200, 15, 21, 300, 19, 400, 50]
    mean = sum(lengths) / len(lengths)
    order = submission_order(
        list(range(len(lengths))), lambda i: lengths[i], bucket=16, length=lambda i: lengths[i]
    )
    long = sorted((n for n in lengths if n >= LONG_LEAD_FACTOR * mean), reverse=True)
    assert [lengths[i] for i in order[: len(long)]] == long  # longest first
    assert sorted(order) == list(range(len(lengths)))  # nothing lost, nothing twice
    rest = order[len(long) :]
    assert rest == [
        i
        for start in range(0, len(rest), 16)
        for i in sorted(rest[start : start + 16], key=lambda i: lengths[i])
    ]
    # a pass of long requests only: a quarter leads, the rest keeps document order
    many = [1] * 10 + [100] * 30
    order = submission_order(list(range(40)), lambda i: many[i], bucket=None, length=lambda i: many[i])
    assert len([i for i in order[:20] if many[i] == 100]) >= int(LONG_LEAD_SHARE * 40)
    assert submission_order([3, 1, 2], lambda i: i, bucket=None) == [1, 2, 3]  # no length: as before


def test_the_first_requests_of_the_smallest_units_go_before_the_long_ones() -> None:
    """The first answers and the first file come a few engine steps after the engine is ready,
    not after the job's longest requests (QUICK_HEAD)."""
    lengths = [5, 6, 400] + [10] * 90 + [300, 200]
    order = submission_order(
        list(range(len(lengths))), lambda i: lengths[i], bucket=16, length=lambda i: lengths[i], head=3
    )
    assert order[:6] == [0, 1, 2, 93, 94, 3]  # the head in its order, then the long lead
    assert sorted(order) == list(range(len(lengths)))
    assert submission_order([1, 2], lambda i: i, bucket=None, head=5) == [1, 2]


def test_the_engine_is_asked_for_the_smallest_document_first_even_behind_long_requests(
    tmp_path: Path,
) -> None:
    long = " ".join(["A long sentence of the big file, repeated to make a long request."] * 12)
    big = write(tmp_path, "a-big.txt", "\n\n".join(f"{long} Number {i}." for i in range(5)) + "\n")
    rest = write(tmp_path, "c-rest.txt", "\n\n".join(f"Short paragraph {i}." for i in range(200)) + "\n")
    small = write(tmp_path, "b-small.txt", "One short note.\n")
    engine = Recording(IdentityEngine())
    run_pipeline([big, rest, small], engine)
    texts = [r.source_text for r in engine.requests]
    assert texts[0] == "One short note."  # without the head, the five long requests would lead
    assert len(texts) == 206 and sum(long in t for t in texts[: quick_head(206) + 5]) == 5
    assert quick_head(20) == 0 and quick_head(100_000) == QUICK_HEAD  # a small pass keeps its order
