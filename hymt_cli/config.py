"""Where each setting of a run comes from: defaults < config file < environment < flags.

The config file is `hymt.toml`, or the `[tool.hymt]` table of a `pyproject.toml`, found in the
current folder or the nearest folder above it that has one (`--config FILE` names one,
`--no-config` ignores them). Keys are the long flag names (`to`, `from`, `out`, `glossary`,
`engine-arg`...; `_` and `-` alike); relative paths in the file are relative to the file's
folder. The environment has `HYMT_<KEY>` (`HYMT_TO=de,ja`, `HYMT_MODEL`, `HYMT_STRICT=1`).
`hymt config` prints the result, each value with its origin.
"""
from __future__ import annotations

import difflib
import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TypeVar

from .errors import UsageError
from .settings import DEFAULT_MODEL, TranslateSettings

CONFIG_FILE = "hymt.toml"
# Settings whose key is not the field name with `-` for `_`.
_KEYS = {"source_lang": "from", "format_name": "format", "engine_args": "engine-arg", "check_only": "check"}
_NOT_IN_FILES = {"check_only"}  # a mode of one command, never a project's setting
_NOT_IN_ENV = {"inputs", "engine_args", "check_only"}
_T = TypeVar("_T")
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


@dataclass(frozen=True, slots=True)
class Origin:
    kind: str  # default | config | env | flag
    where: str = ""  # the file, the variable or the flag

    def __str__(self) -> str:
        return self.kind if not self.where else f"{self.kind} {self.where}"


@dataclass(frozen=True, slots=True)
class Resolved:
    settings: TranslateSettings
    origins: dict[str, Origin]
    config_file: Path | None


def key_of(field_name: str) -> str:
    return _KEYS.get(field_name, field_name.replace("_", "-"))


_FIELDS = {f.name: str(f.type) for f in fields(TranslateSettings)}
_BY_KEY = {key_of(name): name for name in _FIELDS}


def env_name(field_name: str) -> str:
    return "HYMT_" + key_of(field_name).upper().replace("-", "_")


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


def resolve(flags: Mapping[str, object], *, config: Path | None = None, use_config: bool = True,
            environ: Mapping[str, str] | None = None, cwd: Path | None = None) -> Resolved:
    """Settings from the layers; `flags` holds only what was given on the command line."""
    environ = os.environ if environ is None else environ
    values: dict[str, object] = {}
    origins = {name: Origin("default") for name in _FIELDS}
    found = None
    if config is not None:
        found = (config, load_config(config))
    elif use_config:
        found = find_config((cwd or Path.cwd()).resolve())
    if found is not None:
        path, table = found
        for raw_key, raw in table.items():
            name = _field_for(raw_key, path)
            values[name] = _from_file(name, raw, path)
            origins[name] = Origin("config", _display(path, cwd))
    for name in _FIELDS:
        if name in _NOT_IN_ENV:
            continue
        variable = env_name(name)
        text = environ.get(variable)
        if text:
            values[name] = _from_text(name, text, variable)
            origins[name] = Origin("env", variable)
    for name, value in flags.items():
        if value is not None:
            values[name] = value
            origins[name] = Origin("flag", "--" + key_of(name))
    return Resolved(replace(TranslateSettings(), **values), origins, found[0] if found else None)  # type: ignore[arg-type]


def _field_for(raw_key: str, path: Path) -> str:
    key = raw_key.replace("_", "-")
    name = _BY_KEY.get(key)
    if name is None or name in _NOT_IN_FILES:
        close = difflib.get_close_matches(key, [k for k, n in _BY_KEY.items() if n not in _NOT_IN_FILES], n=1)
        raise UsageError(f"config file {path}: unknown setting {raw_key!r}",
                         hint=f"did you mean {close[0]!r}?" if close else "keys are the long flag names, "
                                                                          "e.g. to, from, out, model")
    return name


def _from_file(name: str, raw: object, path: Path) -> object:
    """A TOML value as the field's type; relative paths against the file's folder."""
    kind = _FIELDS[name]
    where = f"config file {path}: {key_of(name)}"
    base = path.parent
    if name == "engine_args":
        if isinstance(raw, dict):
            return tuple(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in raw.items())
        return tuple(str(v) for v in _as_list(raw, where))
    if name == "inputs":
        return tuple(_relative(base, str(v)) for v in _as_list(raw, where))
    if name in ("to", "columns"):
        return ",".join(str(v) for v in raw) if isinstance(raw, list) else _expect(raw, str, where)
    if name == "model":
        model = _expect(raw, str, where)
        return _relative(base, model) if model.startswith((".", "/", "~")) else model
    if kind.startswith("tuple[Path"):
        return tuple(Path(_relative(base, str(v))) for v in _as_list(raw, where))
    if "Path" in kind:
        return Path(_relative(base, _expect(raw, str, where)))
    if kind.startswith("bool"):
        return _expect(raw, bool, where)
    if kind.startswith("int"):
        return _expect(raw, int, where)
    if kind.startswith("float"):
        number = raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
        if number is None:
            raise UsageError(f"{where} must be a number, not {raw!r}")
        return float(number)
    return _expect(raw, str, where)


def _from_text(name: str, text: str, variable: str) -> object:
    """An environment variable's text as the field's type."""
    kind = _FIELDS[name]
    try:
        if kind.startswith("tuple[Path"):
            return tuple(Path(p) for p in text.split(os.pathsep) if p)
        if "Path" in kind:
            return Path(text)
        if kind.startswith("bool"):
            lowered = text.strip().lower()
            if lowered not in _TRUE | _FALSE:
                raise ValueError
            return lowered in _TRUE
        if kind.startswith("int"):
            return int(text)
        if kind.startswith("float"):
            return float(text)
    except ValueError:
        raise UsageError(f"{variable}={text!r}: not a valid {kind.split(' ')[0]}") from None
    return text


def _as_list(raw: object, where: str) -> list[object]:
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list):
        return raw
    raise UsageError(f"{where} must be a string or a list of strings, not {raw!r}")


def _expect(raw: object, kind: type[_T], where: str) -> _T:
    if not isinstance(raw, kind) or (kind is int and isinstance(raw, bool)):
        raise UsageError(f"{where} must be {'true or false' if kind is bool else 'a ' + kind.__name__}, "
                         f"not {raw!r}")
    return raw


def _relative(base: Path, value: str) -> str:
    """`value` from a file in `base`, as a path relative to the current folder where possible."""
    path = Path(value).expanduser()
    if path.is_absolute():
        return str(path)
    joined = base / path
    try:
        return os.path.relpath(joined)
    except ValueError:
        return str(joined)


def _display(path: Path, cwd: Path | None) -> str:
    try:
        return os.path.relpath(path, cwd or Path.cwd())
    except ValueError:
        return str(path)


def describe(resolved: Resolved) -> list[str]:
    """`key = value  # origin` lines, TOML a config file can take."""
    lines = [f"# config file: {resolved.config_file or '(none found)'}"]
    rows = []
    for f in fields(TranslateSettings):
        if f.name in _NOT_IN_FILES:
            continue
        value = getattr(resolved.settings, f.name)
        if f.name == "model" and value is None:
            value = DEFAULT_MODEL
        line = f"{key_of(f.name)} = {_toml(value)}" if value is not None else f"# {key_of(f.name)} (not set)"
        rows.append((line, str(resolved.origins[f.name])))
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
