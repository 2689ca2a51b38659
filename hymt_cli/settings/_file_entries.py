"""A config file's `[[files]]` entries: per-path settings.

    [[files]]
    glob = "docs/data/*.csv"          # or a list of globs (.gitignore syntax, inputs/globs.py)
    columns = ["role"]

An entry's keys are `glob` and the settings that a path may have of its own (`per_path_settings`:
every format's options, and the format itself), spelled as everywhere in the file. Its globs are
relative to the file's folder. A value a flag or an `HYMT_*` variable gives wins over an entry's:
what a person types now beats what a file says.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from pathlib import Path

from ..errors import UsageError
from ..inputs.per_path import PathRule
from ..options import Options, Setting
from ._values import from_file
from .schema import all_settings, per_path_settings

KEY = "files"


def file_entries(raw: object, path: Path, shown: str, given: Collection[str]) -> tuple[PathRule, ...]:
    """The entries of `raw` (the file's `files` value) as rules; `given`: the names of the settings
    a flag or a variable gave, which no entry changes. UsageError naming the file and entry."""
    if not isinstance(raw, list) or not all(isinstance(entry, dict) for entry in raw):
        raise UsageError(
            f"config file {path}: {KEY} must be an array of tables ([[files]] with glob = ...), not {raw!r}"
        )
    return tuple(_entry(entry, path, f"{shown} [[files]] {n}", given) for n, entry in enumerate(raw, 1))


def _entry(entry: dict[str, object], path: Path, where: str, given: Collection[str]) -> PathRule:
    globs = entry.get("glob")
    if isinstance(globs, str):
        globs = [globs]
    if not isinstance(globs, list) or not globs or not all(isinstance(g, str) and g.strip() for g in globs):
        raise UsageError(f'config file {path}: {where} needs glob = "..." (or a list of globs)')
    allowed = {s.key: s for s in per_path_settings()}
    by_owner: dict[type[Options], dict[str, object]] = {}
    names: list[str] = []
    format_name: str | None = None
    for raw_key, raw in entry.items():
        if raw_key == "glob":
            continue
        setting = _setting(raw_key, allowed, path, where)
        value = from_file(setting, raw, path)
        if setting.name in given:
            continue
        names.append(setting.name)
        if setting.name == "format":
            format_name = getattr(_checked(setting, {setting.name: value}, path, where), setting.name)
        else:
            by_owner.setdefault(setting.owner, {})[setting.name] = value
    for owner, values in by_owner.items():
        _checked(next(s for s in allowed.values() if s.owner is owner), values, path, where)
    from ..inputs.globs import rebased  # (where the file has entries)

    return PathRule(
        tuple(rebased(g, path.parent) for g in globs),
        tuple((owner, tuple(values.items())) for owner, values in by_owner.items()),
        format_name,
        where,
        tuple(names),
    )


def _setting(raw_key: str, allowed: dict[str, Setting], path: Path, where: str) -> Setting:
    key = raw_key.replace("_", "-")
    setting = allowed.get(key)
    if setting is not None:
        return setting
    if any(s.key == key for s in all_settings()):
        raise UsageError(
            f"config file {path}: {where}: {raw_key!r} applies to the whole run, not to some paths",
            hint="set it at the top of the file, outside [[files]]",
        )
    close = difflib.get_close_matches(key, list(allowed), n=1)
    raise UsageError(
        f"config file {path}: {where}: unknown per-path setting {raw_key!r}",
        hint=f"did you mean {close[0]!r}?" if close else "hymt config --file PATH lists them",
    )


def _checked(setting: Setting, values: dict[str, object], path: Path, where: str) -> Options:
    """The entry's values as a record of their owner (every value checked); UsageError otherwise."""
    try:
        record: Options = setting.owner(**values)
    except UsageError as exc:
        raise UsageError(f"config file {path}: {where}: {exc.message}", hint=exc.hint) from None
    return record
