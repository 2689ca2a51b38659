"""Settings: each declared once beside its owner (hymt_cli/options.py); the run-wide groups
(_run.py, _generation.py), all of them gathered into `Settings` (schema.py), read from flags, the
environment and a config file (_layers.py, _values.py) and shown by `hymt config` (describe.py)."""

from ._generation import DEFAULT_MODEL, ModelSettings, SamplingSettings
from ._layers import Origin, Resolved, resolve
from ._run import InputSettings, LanguageSettings, MemorySettings, OutputSettings, ReportSettings
from .schema import Settings, all_settings, option_groups

__all__ = [
    "DEFAULT_MODEL",
    "InputSettings",
    "LanguageSettings",
    "MemorySettings",
    "ModelSettings",
    "Origin",
    "OutputSettings",
    "ReportSettings",
    "Resolved",
    "SamplingSettings",
    "Settings",
    "all_settings",
    "option_groups",
    "resolve",
]
