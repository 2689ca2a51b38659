"""What tells the model which row a table cell belongs to (`Segment.context`, HY-MT's context
prompt): the values of the row's context columns, `name: value`, one line each.

The columns are `--context-columns`; with `--context on` and none named, a column called `title`
(any case) where the table has one; with `--context off`, none (the option is ignored, its
columns are not even looked for). A cell is never told its own value: a context column that is
also translated gets the other context columns only. Empty and null values are left out; a
value is one line (its white space collapsed, HY-MT's `<sN>` tags left out) of at most
MAX_CONTEXT_CHARS.

Every table format (parquet.py, delimited/, jsonlines/) resolves its columns here and asks a
`RowContext` for the context of each row's cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..options import Options
from ..text.tags import TAG
from .base import ContextMode as ContextMode  # (where the tables import it from)
from .base import FormatError
from .document_context import MAX_CONTEXT_CHARS

DEFAULT_CONTEXT_COLUMN = "title"


@dataclass(frozen=True, slots=True)
class ContextOptions(Options):
    """The run's `--context` (settings/_run.py, MemorySettings.context) as the formats see it: the
    run puts it among the options its formats are built with (run/config.py). Not a setting of
    its own (no flag): a table picks its rows' context columns by it."""

    mode: ContextMode = "auto"


def _all_text(name: str) -> str | None:  # (CSV: every column holds text)
    return None


@dataclass(frozen=True, slots=True)
class ContextColumns:
    """Which columns give a table's rows their context, before the table's columns are known."""

    named: tuple[str, ...]  # --context-columns: each must exist
    title: bool  # none named and --context on: a column called title, where there is one

    @classmethod
    def of(cls, named: Sequence[str], mode: ContextMode) -> ContextColumns:
        if mode == "off":
            return cls((), False)
        return cls(tuple(dict.fromkeys(named)), mode == "on" and not named)

    @property
    def wanted(self) -> bool:
        return bool(self.named) or self.title

    def resolve(
        self, available: Sequence[str], listing: str, not_text: Callable[[str], str | None] = _all_text
    ) -> tuple[str, ...]:
        """The context columns among a table's `available` columns; FormatError naming the first
        one asked for that is not there or holds no text (`not_text(name)` says what it holds
        instead, None for text); the message lists what there is."""
        present = set(available)
        for name in self.named:
            if name not in present:
                raise FormatError(f"no context column {name!r} (--context-columns); {listing}")
            holds = not_text(name)
            if holds is not None:
                raise FormatError(
                    f"context column {name!r} is {holds}, not text (--context-columns); {listing}"
                )
        if self.named or not self.title:
            return self.named
        title = title_column([name for name in available if not_text(name) is None])
        return (title,) if title is not None else ()


NO_CONTEXT = ContextColumns((), False)


def title_column(names: Sequence[str]) -> str | None:
    """The column called `title`: that name exactly, else the first in another case (`Title`)."""
    if DEFAULT_CONTEXT_COLUMN in names:
        return DEFAULT_CONTEXT_COLUMN
    return next((name for name in names if name.casefold() == DEFAULT_CONTEXT_COLUMN), None)


def context_line(name: str, value: str) -> str:
    """`name: value` on one line, cut at MAX_CONTEXT_CHARS; "" for a value with nothing in it.
    HY-MT's own tags (`<s1>`) are markup of the prompt, never context: left out."""
    flat = " ".join((TAG.sub("", value) if "<" in value else value).split())
    return f"{name}: {flat[:MAX_CONTEXT_CHARS]}" if flat else ""


class RowContext:
    """The contexts of one row's translated cells from its context columns' values.

    Translated columns that are no context column share one context; one that is gets the
    others' lines (a cell is never told its own value): `variant[k]` says which.
    """

    def __init__(self, names: Sequence[str], translated: Sequence[str]) -> None:
        self.names = tuple(names)
        groups: dict[tuple[int, ...], int] = {}
        variant = []
        for column in translated:
            told = tuple(i for i, name in enumerate(self.names) if name != column)
            variant.append(groups.setdefault(told, len(groups)))
        self.variant: tuple[int, ...] = tuple(variant)  # per translated column
        self._groups = tuple(groups)

    def texts(self, values: Sequence[str | Sequence[str] | None]) -> list[str]:
        """Per variant, the context of a row whose context columns hold `values` (a column may
        hold several strings: a JSON array, joined with commas)."""
        lines = [
            context_line(name, value if isinstance(value, str) else ", ".join(value)) if value else ""
            for name, value in zip(self.names, values)
        ]
        return ["\n".join(line for i in told if (line := lines[i])) for told in self._groups]


def needs_context(value: str) -> bool:
    """A value worth telling the model about: one with a letter. Others (`42`, ``, `—`) never go to
    the model, so they stay one cell whatever their rows' context."""
    return any(ch.isalpha() for ch in value)
