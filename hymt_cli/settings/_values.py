"""A setting's value from a config file (TOML) or from an environment variable (text), as the
type its declaration gives; UsageError naming the file and key, or the variable, otherwise."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import UsageError
from ..options import Setting, split_list

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


def from_file(setting: Setting, raw: object, path: Path) -> object:
    """A TOML value; relative paths are relative to the file's folder."""
    where = f"config file {path}: {setting.key}"
    declared, base = setting.declared, path.parent
    if declared.pairs and isinstance(raw, dict):
        return tuple(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in raw.items())
    if setting.many:
        items = (list(split_list(raw)) if declared.comma_list else [raw]) if isinstance(raw, str) else raw
        if not isinstance(items, list):
            raise UsageError(f"{where} must be a string or a list of strings, not {raw!r}")
        return tuple(_one(setting, item, where, base) for item in items)
    if declared.comma_list and isinstance(raw, list):
        return ",".join(str(v) for v in raw)
    return _one(setting, raw, where, base)


def _one(setting: Setting, raw: object, where: str, base: Path) -> object:
    kind = setting.base
    if kind is bool:
        if not isinstance(raw, bool):
            raise UsageError(f"{where} must be true or false, not {raw!r}")
        return raw
    if kind is int:
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise UsageError(f"{where} must be a whole number, not {raw!r}")
        return raw
    if kind is float:
        if not isinstance(raw, (int, float)) or isinstance(raw, bool):
            raise UsageError(f"{where} must be a number, not {raw!r}")
        return float(raw)
    if not isinstance(raw, str):
        raise UsageError(f"{where} must be a str, not {raw!r}")
    if kind is Path:
        return Path(relative_to(base, raw))
    if setting.declared.paths or (setting.declared.model_path and raw.startswith((".", "/", "~"))):
        return relative_to(base, raw)
    if setting.declared.globs:
        from ..inputs.globs import rebased  # (a glob in the file: pathspec's module is imported for it)

        return rebased(raw, base)
    return raw


def from_text(setting: Setting, text: str, variable: str) -> object:
    """An environment variable's text (a list of paths is separated by the system's path
    separator, as in PATH)."""
    try:
        if setting.many:
            parts = (
                text.split(os.pathsep)
                if setting.base is Path
                else (list(split_list(text)) if setting.declared.comma_list else [text])
            )
            return tuple(_parse(setting.base, part) for part in parts if part)
        return _parse(setting.base, text)
    except ValueError:
        kind = setting.base.__name__
        raise UsageError(
            f"{variable}={text!r}: not a valid {'Path' if setting.base is Path else kind}"
        ) from None


def _parse(kind: type, text: str) -> object:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered not in _TRUE | _FALSE:
            raise ValueError(text)
        return lowered in _TRUE
    if kind is int:
        return int(text)
    if kind is float:
        return float(text)
    if kind is Path:
        return Path(text)
    return text


def relative_to(base: Path, value: str) -> str:
    """`value` from a file in `base`, as a path relative to the current folder where possible."""
    path = Path(value).expanduser()
    if path.is_absolute():
        return str(path)
    joined = base / path
    try:
        return os.path.relpath(joined)
    except ValueError:
        return str(joined)
