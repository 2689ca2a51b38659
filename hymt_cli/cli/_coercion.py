"""Command-line values converted without typer's per-parameter adapters.

typer (0.29) converts every parameter of a command through a pydantic `TypeAdapter` that it
builds on first use, for each parameter, given or not: importing pydantic and building ~80
adapters cost `hymt config` 0.13 s of a 0.6 s start. hymt's options are plain (text, whole
numbers, numbers, paths, on/off flags and lists of them) and every value is checked again
against its declaration when the settings are made (options.py), so a plain conversion is all
that is needed here; its messages are the adapters' own. Types this module does not know keep
typer's conversion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, get_args, get_origin

import typer

_WHOLE_WITH_ZEROS = re.compile(r"\s*[+-]?[0-9][0-9_]*\.0*\s*")  # 7.0 is 7, as the adapters read it
_NOT_WHOLE = "Input should be a valid integer, unable to parse string as an integer"
_NOT_A_NUMBER = "Input should be a valid number, unable to parse string as a number"
_NOT_ON_OFF = "Input should be a valid boolean, unable to interpret input"
_ON = frozenset({"1", "on", "t", "true", "y", "yes"})
_OFF = frozenset({"0", "off", "f", "false", "n", "no"})


def _whole(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            if _WHOLE_WITH_ZEROS.fullmatch(value):
                return int(value.strip().split(".")[0])
    raise ValueError(_NOT_WHOLE)


def _number(value: object) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    raise ValueError(_NOT_A_NUMBER)


def _on_off(value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _ON:
        return True
    if word in _OFF or word == "":
        return False
    raise ValueError(_NOT_ON_OFF)


def _text(value: object) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _path(value: object) -> Path:
    return value if isinstance(value, Path) else Path(_text(value))


_CONVERTERS: dict[Any, Callable[[object], Any]] = {
    str: _text,
    int: _whole,
    float: _number,
    bool: _on_off,
    Path: _path,
}


class PlainValues:
    """What typer asks a parameter's runtime conversion for (`coerce`), for one plain type or a
    list of it."""

    def __init__(self, convert: Callable[[object], Any], many: bool) -> None:
        self._convert = convert
        self._many = many

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        many = self._many or bool(getattr(param, "multiple", False)) or getattr(param, "nargs", 1) == -1
        if value is None:
            return () if many else None
        try:
            if many:
                if isinstance(value, str):
                    raise ValueError("Value must be an iterable.")
                return [self._convert(item) for item in value]
            return self._convert(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), ctx=ctx, param=param) from None


def plain_values(annotation: Any) -> PlainValues | None:
    """The conversion for a parameter's annotation (`int`, `list[Path]` ...), or None when it is
    not a plain one."""
    many = get_origin(annotation) is list
    if many:
        (annotation,) = get_args(annotation)
    convert = _CONVERTERS.get(annotation)
    return PlainValues(convert, many) if convert is not None else None


def without_adapters(params: Iterable[Any]) -> None:
    """Give each typer parameter of a plain type the plain conversion, before typer builds its
    adapter (typer builds it on first use: `_runtime_param` is None until then). Parameters of
    other types, and other typer versions, keep typer's own."""
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", False) is not None:
            continue
        if getattr(descriptor, "file_annotation", None) is not None:
            continue
        plain = plain_values(getattr(descriptor, "annotation", None))
        if plain is not None:
            param._runtime_param = plain
