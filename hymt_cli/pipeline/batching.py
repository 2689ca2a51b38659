"""Length-bucketed batching and per-request output budgets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

# HY-MT's budget is ~8k tokens, prompt plus output (maintainer answer, Hunyuan-MT#8).
DEFAULT_CONTEXT_TOKENS = 8192


def max_new_tokens(source_tokens: int, prompt_tokens: int, context_tokens: int) -> int:
    """Room for the translation: generous for scripts that tokenize longer than the source
    (3x + 32), never past the context window. Anything longer is a loop, not a translation."""
    return max(1, min(3 * source_tokens + 32, context_tokens - prompt_tokens))


def max_source_tokens(context_tokens: int, overhead_tokens: int) -> int:
    """Longest source piece that leaves room for its translation in the context window."""
    return max(16, (context_tokens - overhead_tokens - 32) // 4)


def submission_order(items: Sequence[T], cost: Callable[[T], int], *, bucket: int | None) -> list[T]:
    """`items` in their own order (documents in order), each run of `bucket` items sorted by
    cost (shortest first); `bucket` None sorts them all (the first item of a late document
    may then come last). An engine working through the result finishes documents in order."""
    if bucket is None:
        return sorted(items, key=cost)
    ordered: list[T] = []
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
