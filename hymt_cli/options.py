"""How a setting is declared: once, as a field of a frozen options dataclass beside its owner.

    segment_by: Literal["paragraph", "line"] = option(
        "paragraph", "--segment-by", help="txt: paragraphs or lines.", panel=FORMATS)

Everything else is derived from the field (settings/schema.py gathers them): the typer option
(cli/options.py), the config-file key (the long flag without `--`), the `HYMT_*` variable, the
line `hymt config` prints and the Python API's keyword argument (the field's name). The field's
type says how a value is read: `str`, `int`, `float`, `bool`, `Path`, each optional (`| None`)
or repeated (`tuple[X, ...]`), and `Literal[...]` for a closed set of words.

An options dataclass derives from `Options`: every value is checked against its declaration
when the record is made, whoever makes it (flags, a config file, the environment, Python).
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterable, Iterator
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, overload

from .errors import UsageError
from .later import Deferred, resolved

# The config file that declares settings for a folder (settings/_layers.py finds it); never an input.
CONFIG_FILE = "hymt.toml"


class Panel:
    """The help panels options are grouped in, in the order `--help` shows them."""

    IO = "Input and output"
    FORMATS = "Formats"
    MODEL = "Model and engine"
    SAMPLING = "Sampling"
    MEMORY = "Glossary, context and memory"
    QUALITY = "Quality checks"
    REPORTING = "Reporting"
    ORDER = (IO, FORMATS, MODEL, SAMPLING, MEMORY, QUALITY, REPORTING)


_META = "hymt.option"
_BASES = (str, int, float, bool, Path)


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a field declares besides its type and default.

    flag: the long flag (`--to`); its text without `--` is the config key and, upper-cased, the
        `HYMT_*` variable's name. For the positional argument (`argument=True`) the key itself.
    off_flag: a boolean's flag that turns it off (`--no-overwrite`); None: a switch.
    default_text: what the help says the default is when the default value tells nothing (None).
    minimum/maximum: inclusive bounds; above: an exclusive lower bound.
    comma_list: a comma-separated list: a text field joins a list given to it; a tuple field
        given one text splits it on commas (`--columns a,b`, `columns = "a,b"`, HYMT_COLUMNS=a,b),
        given a list takes its items as they are (`columns = ["Description, short"]`).
    model_path: a hub id or a folder; in a config file, `./`, `../`, `/` and `~` make it a path
        relative to the file.
    paths: text naming files: in a config file, relative to the file's folder (Path fields are).
    pairs: `KEY=VALUE` items; a config file may give a TOML table.
    value_pattern: the flag takes a value only when the next argument matches this regular
        expression (`--ray` alone, or `--ray HOST:PORT`); alone, its value is "".
    shapes_output: a format's setting whose value can change what is written (`--columns`); an
        output's manifest records those that are not at their defaults, so `--check` finds the
        outputs written otherwise. False: how, not what (`--rows-per-batch`).
    globs: .gitignore-style patterns: in a config file, relative to the file's folder.
    per_path: a run-wide setting that a config file's `[[files]]` entry may set for the paths it
        matches (`format`); every setting of a format's options may be, without saying so.
    common: `--help` shows it; `--help-all` shows every option.
    engine_arg: an engine's setting given to the engine's constructor as the keyword of its name
        (vLLM's `LLM(...)`), when set: `hymt serve-args` takes it too, for the same server.
    """

    flag: str
    help: str
    panel: str
    short: str | None = None
    metavar: str | None = None
    off_flag: str | None = None
    default_text: str | None = None
    env: bool = True
    config: bool = True
    argument: bool = False
    minimum: float | None = None
    maximum: float | None = None
    above: float | None = None
    comma_list: bool = False
    model_path: bool = False
    paths: bool = False
    pairs: bool = False
    value_pattern: str | None = None
    shapes_output: bool = True
    globs: bool = False
    per_path: bool = False
    common: bool = False
    engine_arg: bool = False

    @property
    def key(self) -> str:
        return self.flag if self.argument else self.flag.removeprefix("--")


def option(default: Any, flag: str, short: str | None = None, *, help: str, panel: str, **more: Any) -> Any:
    """A declared field (see the module docstring); `more` holds `Declaration`'s other fields."""
    return field(default=default, metadata={_META: Declaration(flag, help, panel, short, **more)})


@dataclass(frozen=True, slots=True)
class Setting:
    """One declared field, with what its type says: `base` (str, int, float, bool or Path),
    `many` (a tuple of them), `optional` (None allowed) and `choices` (a Literal's words)."""

    owner: type
    name: str
    declared: Declaration
    base: type
    many: bool
    optional: bool
    choices: tuple[str, ...]
    default: object

    @property
    def key(self) -> str:
        return self.declared.key

    @property
    def flag(self) -> str:
        return self.declared.flag

    @property
    def env_name(self) -> str | None:
        return "HYMT_" + self.key.upper().replace("-", "_") if self.declared.env else None

    def problem(self, value: object) -> str | None:
        """Why `value` is not a valid value of this setting, or None."""
        if value is None:
            return None if self.optional else f"{self.flag} needs a value"
        items = value if self.many and isinstance(value, tuple) else (value,)
        for item in items:
            if self.choices and item not in self.choices:
                return f"{self.flag} must be one of {', '.join(self.choices)}, not {item!r}"
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                bad = self._out_of_range(float(item))
                if bad is not None:
                    return bad
        return None

    def _out_of_range(self, value: float) -> str | None:
        d = self.declared
        low, high, above = d.minimum, d.maximum, d.above
        if (
            math.isnan(value)
            or math.isinf(value)
            or (low is not None and value < low)
            or (high is not None and value > high)
            or (above is not None and value <= above)
        ):
            if above is not None:
                bounds = f"above {above:g}" if high is None else f"in ({above:g}, {high:g}]"
            elif low is not None:
                bounds = f"at least {low:g}" if high is None else f"in [{low:g}, {high:g}]"
            else:
                bounds = f"at most {high:g}"
            number = f"{value:g}" if self.base is float else str(int(value))
            return f"{self.flag} must be {bounds}, not {number}"
        return None

    def coerce(self, value: object) -> object:
        """A value given from Python as the field's type: a list for a tuple, a str for a Path,
        an int for a float, a list of words for a comma-separated text. TypeError otherwise."""
        if value is None:
            return None
        if self.many:
            if isinstance(value, str) and self.declared.comma_list:
                return split_list(value)
            items = list(value) if isinstance(value, (list, tuple)) else [value]
            return tuple(self._one(v) for v in items)
        if self.declared.comma_list and isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        return self._one(value)

    def _one(self, value: object) -> object:
        if self.base is Path and isinstance(value, str):
            return Path(value)
        if self.base is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, self.base) or (self.base is int and isinstance(value, bool)):
            raise TypeError(f"{self.name} must be {self.describe_type()}, not {value!r}")
        return value

    def describe_type(self) -> str:
        kind = {str: "text", int: "a whole number", float: "a number", bool: "true or false", Path: "a path"}[
            self.base
        ]
        return f"a list of {kind}" if self.many else kind


def split_list(text: str) -> tuple[str, ...]:
    """A comma-separated list's items (`a, b,c` -> ("a", "b", "c"))."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


class Options:
    """Base of every options dataclass: each value is coerced to the field's type and checked
    against its declaration when the record is made; `validate` adds checks across fields."""

    __slots__ = ()

    def __post_init__(self) -> None:
        for setting in settings_of(type(self)):
            value = getattr(self, setting.name)
            try:
                coerced = setting.coerce(value)
            except TypeError as exc:
                raise UsageError(str(exc)) from None
            if coerced is not value:
                object.__setattr__(self, setting.name, coerced)
            problem = setting.problem(coerced)
            if problem is not None:
                raise UsageError(problem)
        self.validate()

    def validate(self) -> None:
        """Checks that involve several fields of this record (UsageError)."""


_DECLARED: dict[type, tuple[Setting, ...]] = {}


def settings_of(owner: type) -> tuple[Setting, ...]:
    """The declared fields of an options dataclass, in order."""
    known = _DECLARED.get(owner)
    if known is None:
        known = _DECLARED[owner] = _declared(owner)
    return known


def _declared(owner: type) -> tuple[Setting, ...]:
    hints = get_type_hints(owner)
    found = []
    for f in fields(owner):
        declared = f.metadata.get(_META)
        if declared is None:
            continue
        base, many, optional, choices = _shape(hints[f.name], f"{owner.__name__}.{f.name}")
        default = f.default if f.default is not MISSING else None
        found.append(Setting(owner, f.name, declared, base, many, optional, choices, default))
    return tuple(found)


def _shape(hint: Any, where: str) -> tuple[type, bool, bool, tuple[str, ...]]:
    optional = False
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        optional = len(args) < len(get_args(hint))
        if len(args) != 1:
            raise TypeError(f"{where}: one type (or None) per setting, not {hint}")
        hint = args[0]
    many = False
    if get_origin(hint) is tuple:
        items = get_args(hint)
        if len(items) != 2 or items[1] is not Ellipsis:
            raise TypeError(f"{where}: a repeated setting is tuple[X, ...], not {hint}")
        hint, many = items[0], True
    choices: tuple[str, ...] = ()
    if get_origin(hint) is Literal:
        choices = tuple(str(a) for a in get_args(hint))
        hint = str
    if hint not in _BASES:
        raise TypeError(f"{where}: a setting is str, int, float, bool or Path, not {hint}")
    return hint, many, optional, choices


def flag_of(owner: type, name: str) -> str:
    """How messages name a declared field: its flag, after its short one (`-o/--out`)."""
    setting = next(s for s in settings_of(owner) if s.name == name)
    return f"{setting.declared.short}/{setting.flag}" if setting.declared.short else setting.flag


_T = TypeVar("_T", bound=Options)


class OptionSet:
    """The options records of a run, one per options dataclass, looked up by class: a format or
    an engine asks for its own (`options.of(TextOptions)`) and gets its defaults when none was
    given."""

    __slots__ = ("_records",)

    def __init__(self, records: Iterable[Options] = ()) -> None:
        self._records: dict[type, Options] = {type(r): r for r in records}

    @overload
    def of(self, kind: type[_T]) -> _T: ...

    @overload
    def of(self, kind: Deferred) -> Any: ...

    def of(self, kind: type[_T] | Deferred) -> Any:
        """The record of `kind` (a class, or a `lazy(...)` one, imported now), or its defaults."""
        found: type[Options] = resolved(kind)
        record = self._records.get(found)
        if record is None:
            return found()
        assert isinstance(record, found)
        return record

    @overload
    def held(self, kind: type[_T]) -> _T | None: ...

    @overload
    def held(self, kind: Deferred) -> Any: ...

    def held(self, kind: type[_T] | Deferred) -> Any:
        """The record of `kind` given, or None (its defaults hold): a `lazy(...)` kind whose
        module is not imported yet has none, and is not imported for it."""
        if isinstance(kind, Deferred) and not kind.imported:
            return None
        return self._records.get(resolved(kind))

    def with_records(self, *records: Options) -> OptionSet:
        return OptionSet([*self._records.values(), *records])

    def __iter__(self) -> Iterator[Options]:
        return iter(self._records.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OptionSet) and self._records == other._records

    def __hash__(self) -> int:
        return hash(frozenset(self._records.values()))

    def __repr__(self) -> str:
        return f"OptionSet({list(self._records.values())!r})"
