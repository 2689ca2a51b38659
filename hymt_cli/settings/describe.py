"""`hymt config`: the settings in effect as TOML a config file can take, each with its origin;
`hymt config --file PATH`: those that apply to one path (its format's, and what the config
file's `[[files]]` entries give it)."""

from __future__ import annotations

import json
from pathlib import Path

from ..formats import FORMATS, format_for_path
from ..inputs.discovery import DiscoveryRules, walk_verdict
from ..inputs.per_path import settings_for
from ..options import settings_of
from ._generation import DEFAULT_MODEL
from ._layers import Resolved
from .schema import setting_named


def describe(resolved: Resolved) -> list[str]:
    """`key = value  # origin` lines, one per setting a config file can hold."""
    lines = [f"# config file: {resolved.config_file or '(none found)'}"]
    rows = []
    for setting, value in resolved.settings.items():
        if not setting.declared.config:
            continue
        if setting.name == "model" and value is None:
            value = DEFAULT_MODEL
        line = f"{setting.key} = {_toml(value)}" if value is not None else f"# {setting.key} (not set)"
        rows.append((line, str(resolved.origins[setting.name])))
    width = max(len(line) for line, _ in rows) + 2
    lines.extend(f"{line.ljust(width)}# {origin}" for line, origin in rows)
    for rule in resolved.settings.path_rules:
        given = ", ".join(setting_named(name).key for name in rule.names) or "nothing (flags win)"
        lines.append(f"# {rule.where}: glob {_toml(rule.globs)} sets {given} (hymt config --file PATH)")
    return lines


def describe_path(resolved: Resolved, path: Path) -> list[str]:
    """`key = value  # origin` lines for the settings that apply to `path`, and whether a folder
    walk takes it."""
    settings = resolved.settings
    inputs = settings.inputs
    applied = settings_for(path, settings.path_rules, settings.records)
    lines = [f"# config file: {resolved.config_file or '(none found)'}", f"# file: {path}"]
    lines += [f"# matched by: {rule.where} (glob {', '.join(rule.globs)})" for rule in applied.matched]
    if applied.format is not None:
        name: str | None = applied.format
        origin = f"config {applied.origins['format'].where}"
    elif inputs.format is not None:
        name, origin = inputs.format, str(resolved.origins["format"])
    else:
        found = format_for_path(path, applied.options)
        name, origin = (found.name if found is not None else None), "by suffix"
    if name is None:
        return [*lines, "# no format reads it: set format in a [[files]] entry (or --format)"]
    rows = [(f"format = {_toml(name)}", origin)]
    for owner in dict.fromkeys(FORMATS[name].option_types):
        record = applied.options.of(owner)
        for setting in settings_of(owner):
            value = getattr(record, setting.name)
            line = f"{setting.key} = {_toml(value)}" if value is not None else f"# {setting.key} (not set)"
            rule = applied.origins.get(setting.name)
            rows.append((line, f"config {rule.where}" if rule else str(resolved.origins[setting.name])))
    width = max(len(line) for line, _ in rows) + 2
    lines.extend(f"{line.ljust(width)}# {origin}" for line, origin in rows)
    rules = DiscoveryRules(
        inputs.format,
        settings.records,
        inputs.source_suffix,
        inputs.follow_symlinks,
        include=inputs.include,
        exclude=inputs.exclude,
        gitignore=inputs.gitignore,
        per_path=settings.path_rules,
    )
    verdict = walk_verdict(path, rules) if path.is_file() else None
    walk = "taken" if verdict is None else f"left alone: {verdict}"
    lines.append(f"# in a folder walk: {walk if path.is_file() else 'no such file'}")
    return lines


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)
