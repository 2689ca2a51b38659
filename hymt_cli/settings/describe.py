"""`hymt config`: the settings in effect as TOML a config file can take, each with its origin."""

from __future__ import annotations

import json

from .layers import Resolved
from .run import DEFAULT_MODEL


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
    return lines


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)
