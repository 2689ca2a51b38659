"""Per-path settings: a config file's `[[files]]` entries, each a glob and the settings it gives
the paths it matches (a format, a table's columns, an encoding ...). Every matching entry
applies, in the file's order, so the last one that sets a value wins."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..options import Options, OptionSet

if TYPE_CHECKING:
    from .globs import GlobSet

Values = tuple[tuple[type[Options], tuple[tuple[str, object], ...]], ...]


@lru_cache(maxsize=256)
def _globs(patterns: tuple[str, ...], base: str) -> GlobSet:
    from .globs import GlobSet  # (a run with entries: pathspec is imported for their globs)

    return GlobSet(patterns, Path(base))


@dataclass(frozen=True, slots=True)
class PathRule:
    """One `[[files]]` entry: its globs (relative to the current folder), the format it names
    (None: by suffix) and its other values, by the options dataclass that declares them."""

    globs: tuple[str, ...]
    values: Values = ()
    format: str | None = None
    where: str = ""  # how messages and `hymt config --file` name it: `hymt.toml [[files]] 2`
    names: tuple[str, ...] = field(default=())  # the settings it gives, by name, in file order

    def matches(self, path: Path) -> bool:
        return _globs(self.globs, os.getcwd()).match(path) is not None


@dataclass(frozen=True, slots=True)
class Applied:
    """What the matching entries give one path: its format (None: by suffix), the options it is
    read with and, by setting name, the entry that gave each value."""

    format: str | None
    options: OptionSet
    origins: dict[str, PathRule]
    matched: tuple[PathRule, ...] = ()  # every entry that matches the path, in order


def settings_for(path: Path, rules: Sequence[PathRule], options: OptionSet) -> Applied:
    """The run's `options` with every entry of `rules` that matches `path` applied in order."""
    merged: dict[type[Options], dict[str, object]] = {}
    origins: dict[str, PathRule] = {}
    format_name: str | None = None
    matched = tuple(rule for rule in rules if rule.matches(path))
    for rule in matched:
        for owner, items in rule.values:
            merged.setdefault(owner, {}).update(items)
        for name in rule.names:
            origins[name] = rule
        if rule.format is not None:
            format_name = rule.format
    if not origins:
        return Applied(None, options, {}, matched)
    records = []
    for owner, values in merged.items():
        try:
            records.append(replace(options.of(owner), **values))  # type: ignore[type-var]
        except UsageError as exc:
            where = ", ".join(dict.fromkeys(origins[name].where for name in values if name in origins))
            raise UsageError(f"{path}: {where}: {exc.message}", hint=exc.hint) from None
    return Applied(format_name, options.with_records(*records), origins, matched)
