"""Where each setting of a run comes from: defaults < config file < environment < flags.

The config file is `hymt.toml`, or the `[tool.hymt]` table of a `pyproject.toml`, found in the
current folder or the nearest folder above it that has one (`--config FILE` names one,
`--no-config` ignores them). Keys are the long flag names (`to`, `from`, `out`, `glossary`,
`engine-arg`...; `_` and `-` alike); relative paths and globs in the file are relative to the
file's folder. Its `[[files]]` entries give settings to the paths they match (_file_entries.py).
The environment has `HYMT_<KEY>` (`HYMT_TO=de,ja`, `HYMT_MODEL`, `HYMT_STRICT=1`).
Every key and variable is derived from the settings' declarations (settings/schema.py).
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import UsageError
from ..options import CONFIG_FILE, Setting
from ._file_entries import KEY as FILES_KEY
from ._file_entries import file_entries
from ._values import from_file, from_text
from .schema import Settings, all_settings, known_settings


@dataclass(frozen=True, slots=True)
class Origin:
    kind: Literal["default", "config", "env", "flag"]
    where: str = ""  # the file, the variable or the flag

    def __str__(self) -> str:
        return self.kind if not self.where else f"{self.kind} {self.where}"


@dataclass(frozen=True, slots=True)
class Resolved:
    settings: Settings
    origins: dict[str, Origin]  # by setting name
    config_file: Path | None


def find_config(start: Path) -> tuple[Path, dict[str, object]] | None:
    """The nearest hymt.toml, or pyproject.toml with [tool.hymt], from `start` upward."""
    for folder in (start, *start.parents):
        own = folder / CONFIG_FILE
        if own.is_file():
            return own, _load(own)
        project = folder / "pyproject.toml"
        if project.is_file():
            table = _load(project).get("tool", {})
            hymt = table.get("hymt") if isinstance(table, dict) else None
            if isinstance(hymt, dict):
                return project, hymt
    return None


def load_config(path: Path) -> dict[str, object]:
    """A config file named with --config: hymt.toml, or a pyproject.toml's [tool.hymt]."""
    if not path.is_file():
        raise UsageError(f"config file {path}: no such file")
    data = _load(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        hymt = tool.get("hymt", {}) if isinstance(tool, dict) else {}
        return hymt if isinstance(hymt, dict) else {}
    return data


def _load(path: Path) -> dict[str, object]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"config file {path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"config file {path}: cannot read: {exc.strerror}") from None


def resolve(
    flags: Mapping[str, object],
    *,
    config: Path | None = None,
    use_config: bool = True,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    known_only: bool = False,
) -> Resolved:
    """Settings from the layers; `flags` holds only what was given on the command line, by
    setting name. `known_only`: the settings of the options not imported yet (schema.known_groups)
    are read only where a flag, a variable or the config file may give one of theirs; their
    records are then their defaults, and `origins` names the known settings alone."""
    environ = os.environ if environ is None else environ
    found = (
        (config, load_config(config))
        if config is not None
        else (find_config((cwd or Path.cwd()).resolve()) if use_config else None)
    )
    settings = known_settings()
    if not known_only or _gives_others(settings, flags, environ, found[1] if found else {}):
        settings = all_settings()
    values: dict[str, object] = {}
    origins = {s.name: Origin("default") for s in settings}
    entries: object = None
    if found is not None:
        path, table = found
        by_key = {s.key: s for s in settings if s.declared.config}
        for raw_key, raw in table.items():
            if raw_key == FILES_KEY:
                entries = raw
                continue
            setting = _setting_for(raw_key, path, by_key)
            values[setting.name] = from_file(setting, raw, path)
            origins[setting.name] = Origin("config", _display(path, cwd))
    for setting in settings:
        variable = setting.env_name
        text = environ.get(variable) if variable is not None else None
        if text:
            assert variable is not None
            values[setting.name] = from_text(setting, text, variable)
            origins[setting.name] = Origin("env", variable)
    for setting in settings:
        value = flags.get(setting.name)
        if value is not None:
            values[setting.name] = value
            origins[setting.name] = Origin("flag", setting.flag)
    given = {name for name, origin in origins.items() if origin.kind in ("flag", "env")}
    rules = (
        file_entries(entries, found[0], _display(found[0], cwd), given)
        if found is not None and entries is not None
        else ()
    )
    built = Settings.build(values)
    return Resolved(Settings(built.records, rules), origins, found[0] if found else None)


def _gives_others(
    known: tuple[Setting, ...],
    flags: Mapping[str, object],
    environ: Mapping[str, str],
    table: dict[str, object],
) -> bool:
    """Whether flags, a `HYMT_*` variable or the config file's keys (its `[[files]]` entries) may
    name a setting other than these."""
    names = {s.name for s in known}
    keys = {s.key for s in known if s.declared.config}
    variables = {s.env_name for s in known}
    return (
        any(name not in names for name, value in flags.items() if value is not None)
        or any(name.startswith("HYMT_") and name not in variables for name in environ)
        or any(key == FILES_KEY or key.replace("_", "-") not in keys for key in table)
    )


def _setting_for(raw_key: str, path: Path, by_key: dict[str, Setting]) -> Setting:
    key = raw_key.replace("_", "-")
    setting = by_key.get(key)
    if setting is None:
        close = difflib.get_close_matches(key, list(by_key), n=1)
        raise UsageError(
            f"config file {path}: unknown setting {raw_key!r}",
            hint=f"did you mean {close[0]!r}?"
            if close
            else "keys are the long flag names, e.g. to, from, out, model",
        )
    return setting


def _display(path: Path, cwd: Path | None) -> str:
    try:
        return os.path.relpath(path, cwd or Path.cwd())
    except ValueError:
        return str(path)
