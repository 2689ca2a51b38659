"""Settings: each declared once beside its owner (hymt_cli/options.py); the run-wide groups
(run.py, generation.py), all of them gathered into `Settings` (schema.py), read from flags, the
environment and a config file (layers.py, values.py) and shown by `hymt config` (describe.py)."""

from .generation import DEFAULT_MODEL, ModelSettings, SamplingSettings
from .layers import Origin, Resolved, resolve
from .run import InputSettings, LanguageSettings, MemorySettings, OutputSettings, ReportSettings
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
