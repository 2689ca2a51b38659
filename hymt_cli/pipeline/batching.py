"""Length-bucketed batching and per-request output budgets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def max_new_tokens(source_tokens: int, prompt_tokens: int, context_tokens: int) -> int:
    """Room for the translation: generous for scripts that tokenize longer than the source
    (3x + 32), never past the context window. Anything longer is a loop, not a translation."""
    return max(1, min(3 * source_tokens + 32, context_tokens - prompt_tokens))


def max_source_tokens(context_tokens: int, overhead_tokens: int) -> int:
    """Longest source piece that leaves room for its translation in the context window."""
    return max(16, (context_tokens - overhead_tokens - 32) // 4)


# The longest requests of a pass go first: on a GPU the engine runs thousands of requests at
# once, a request needs one engine step per output token, and a long one started late runs on
# after everything else has finished, at a small batch (the tail of the job). Those at least
# LONG_LEAD_FACTOR x the pass's mean length lead, longest first, at most LONG_LEAD_SHARE of the
# pass (the first documents must not wait for a long queue).
LONG_LEAD_FACTOR = 2.0
LONG_LEAD_SHARE = 0.25
# ... except the first QUICK_HEAD requests of the pass, which go before them: the requests of
# the smallest units (the planner puts those first), so that the first answers and the first
# file come a few engine steps after the engine is ready, not once the longest requests of the
# job have been prefilled and decoded (on a GPU, seconds). Too few to change the tail: at most
# 1/32 of the pass (a small pass keeps its order; an engine takes it in one step anyway).
QUICK_HEAD = 64


def quick_head(requests: int) -> int:
    return min(QUICK_HEAD, requests // 32)


def submission_order(
    items: Sequence[T],
    cost: Callable[[T], int],
    *,
    bucket: int | None,
    length: Callable[[T], int] | None = None,
    head: int = 0,
) -> list[T]:
    """`items` in their own order (documents in order), each run of `bucket` items sorted by
    cost (shortest first); `bucket` None sorts them all (the first item of a late document
    may then come last). An engine working through the result finishes documents in order.

    `length` (an item's expected output tokens): the longest items lead, see LONG_LEAD_FACTOR;
    `head`: that many first items go before them, in their order (QUICK_HEAD)."""
    items = list(items)
    quick, items = items[:head], items[head:]
    lead: list[T] = []
    if length is not None and len(items) > 1:
        lengths = [length(item) for item in items]
        floor = LONG_LEAD_FACTOR * sum(lengths) / len(lengths)
        longest = sorted((i for i, n in enumerate(lengths) if n >= floor), key=lambda i: -lengths[i])
        chosen = longest[: int(LONG_LEAD_SHARE * len(items))]
        lead = [items[i] for i in chosen]
        taken = set(chosen)
        items = [item for i, item in enumerate(items) if i not in taken]
    if bucket is None:
        return quick + lead + sorted(items, key=cost)
    ordered: list[T] = quick + lead
    for start in range(0, len(items), max(1, bucket)):
        ordered.extend(sorted(items[start : start + max(1, bucket)], key=cost))
    return ordered


def budget_batches(
    items: Sequence[T], cost: Callable[[T], int], *, token_budget: int, max_items: int
) -> list[list[T]]:
    """Cut `items`, in their order, into batches of at most `token_budget` summed cost and
    `max_items` items; a single item over budget gets a batch of its own."""
    batches: list[list[T]] = []
    current: list[T] = []
    used = 0
    for item in items:
        c = cost(item)
        if current and (used + c > token_budget or len(current) >= max_items):
            batches.append(current)
            current, used = [], 0
        current.append(item)
        used += c
    if current:
        batches.append(current)
    return batches
