"""Every setting of a run, gathered from where each is declared: the run-wide groups
(settings/_run.py, _generation.py), then each registered format's and engine's options dataclass.

`Settings` is the typed whole: one record per group, reached by its class
(`settings.of(ModelSettings)`, `settings.of(TextOptions)`), built from values keyed by the
fields' names (`Settings.build(to="de", engine="pseudo", segment_by="line")`: the Python API's
keyword arguments, and what the config layers produce).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from ..engine import ENGINES
from ..errors import UsageError
from ..formats import FORMATS
from ..inputs.per_path import PathRule
from ..later import Deferred, resolved
from ..options import Options, OptionSet, Setting, settings_of
from ._generation import ModelSettings, SamplingSettings
from ._run import RUN_GROUPS, InputSettings, LanguageSettings, MemorySettings, OutputSettings, ReportSettings

_T = TypeVar("_T", bound=Options)


def option_groups() -> tuple[type[Options], ...]:
    """The run's groups, then each registered format's and engine's options (once each), every
    one imported."""
    return _groups(_owners())


def known_groups() -> tuple[type[Options], ...]:
    """The groups imported with the registries: the run's, and the options a spec names by class
    (txt's); a group, a format's or an engine's options named `lazy(...)` are left out. A run
    whose flags, environment and config file give none of theirs reads these alone (the others'
    records: defaults)."""
    return _groups([o for o in _owners() if isinstance(o, type)])


def _owners() -> list[type[Options] | Deferred]:
    formats = [o for f in FORMATS.values() for o in f.options]
    return [*RUN_GROUPS, *formats, *(e.options for e in ENGINES.values() if e.options is not None)]


def _groups(owners: list[type[Options] | Deferred]) -> tuple[type[Options], ...]:
    groups: list[type[Options]] = []
    for owner in owners:
        kind = resolved(owner)
        if kind not in groups:
            groups.append(kind)
    return tuple(groups)


def known_settings() -> tuple[Setting, ...]:
    """The settings of `known_groups`, in help order within each group."""
    return tuple(s for group in known_groups() for s in settings_of(group))


def all_settings() -> tuple[Setting, ...]:
    """Every declared setting, in help order within each group; names, flags and keys unique."""
    found = [s for group in option_groups() for s in settings_of(group)]
    for attribute in ("name", "key", "flag"):
        seen: dict[str, Setting] = {}
        for setting in found:
            value = getattr(setting, attribute)
            if value in seen:
                raise TypeError(
                    f"setting {attribute} {value!r} is declared twice: by "
                    f"{seen[value].owner.__name__} and {setting.owner.__name__}"
                )
            seen[value] = setting
    shorts = [s.declared.short for s in found if s.declared.short]
    if len(shorts) != len(set(shorts)):
        raise TypeError(f"a short flag is declared twice: {shorts}")
    return tuple(found)


def per_path_settings() -> tuple[Setting, ...]:
    """The settings a config file's `[[files]]` entry may give the paths it matches: every
    format's options, and the run-wide ones declared `per_path` (the format)."""
    owners = {o for spec in FORMATS.values() for o in spec.option_types}
    return tuple(
        s for s in all_settings() if s.declared.config and (s.owner in owners or s.declared.per_path)
    )


def setting_named(name: str) -> Setting:
    for settings in (known_settings, all_settings):  # (the others imported only when asked for)
        for setting in settings():
            if setting.name == name:
                return setting
    raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings of a run: one checked record per options dataclass, and the config file's
    per-path entries (`[[files]]`), which discovery applies to the paths they match."""

    records: OptionSet
    path_rules: tuple[PathRule, ...] = ()

    @classmethod
    def build(cls, values: Mapping[str, object] | None = None, /, **more: object) -> Settings:
        """Records from values keyed by setting name (the fields' names); UsageError for an unknown
        name or a bad value, naming its flag."""
        grouped = _by_owner({**(values or {}), **more})
        known = known_groups()
        groups = known if all(owner in known for owner in grouped) else option_groups()
        return cls(OptionSet(group(**grouped.get(group, {})) for group in groups))

    def of(self, kind: type[_T]) -> _T:
        return self.records.of(kind)

    def value(self, name: str) -> object:
        setting = setting_named(name)
        return getattr(self.of(setting.owner), name)

    def replaced(self, **values: object) -> Settings:
        """These settings with some values changed (by setting name)."""
        changed: list[Options] = [
            replace(self.of(owner), **changes) for owner, changes in _by_owner(values).items()
        ]
        return Settings(self.records.with_records(*changed), self.path_rules)

    def items(self) -> Iterator[tuple[Setting, object]]:
        """(setting, value) for every declared setting."""
        for setting in all_settings():
            yield setting, getattr(self.of(setting.owner), setting.name)

    # The run-wide groups, typed.
    @property
    def inputs(self) -> InputSettings:
        return self.of(InputSettings)

    @property
    def languages(self) -> LanguageSettings:
        return self.of(LanguageSettings)

    @property
    def output(self) -> OutputSettings:
        return self.of(OutputSettings)

    @property
    def model(self) -> ModelSettings:
        return self.of(ModelSettings)

    @property
    def sampling(self) -> SamplingSettings:
        return self.of(SamplingSettings)

    @property
    def memory(self) -> MemorySettings:
        return self.of(MemorySettings)

    @property
    def reporting(self) -> ReportSettings:
        return self.of(ReportSettings)


def _by_owner(values: Mapping[str, object]) -> dict[type, dict[str, object]]:
    """Values by the options dataclass that declares them; UsageError for an unknown name."""
    known = {s.name: s for s in known_settings()}
    by_name = known if all(name in known for name in values) else {s.name: s for s in all_settings()}
    grouped: dict[type, dict[str, object]] = {}
    for name, value in values.items():
        setting = by_name.get(name)
        if setting is None:
            close = difflib.get_close_matches(name, list(by_name), n=1)
            raise UsageError(
                f"unknown setting {name!r}", hint=f"did you mean {close[0]!r}?" if close else None
            )
        grouped.setdefault(setting.owner, {})[name] = value
    return grouped
