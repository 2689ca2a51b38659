"""The settings of its format that an output is written with, for its manifest entry: `--check`
finds an output stale when they differ now (`--columns title` where it was `title,body`), as it
does when the model or the glossary differ (run/session.py `provenance`)."""

from __future__ import annotations

from ..options import OptionSet, settings_of
from ..outputs.manifest import with_settings
from .registry import FORMATS, TABLE_OPTIONS


def format_settings(name: str, options: OptionSet) -> str:
    """`key=value` of each setting of format `name` (a table's cell format's too) that can change
    what is written and is not at its default, in declaration order; "" when none is."""
    spec = FORMATS.get(name)
    if spec is None:
        return ""
    kinds = list(spec.option_types)
    if TABLE_OPTIONS in spec.options:
        cells = FORMATS.get(options.of(TABLE_OPTIONS).cell_format)
        kinds += cells.option_types if cells is not None else ()
    parts = []
    for kind in dict.fromkeys(kinds):
        record = options.of(kind)
        for setting in settings_of(kind):
            value = getattr(record, setting.name)
            if setting.declared.shapes_output and value != setting.default:
                parts.append(f"{setting.key}={value!r}")
    return ", ".join(parts)


def output_provenance(run: str, format_name: str, options: OptionSet) -> str:
    """The run's provenance, and the settings of the format the output is written in."""
    return with_settings(run, format_settings(format_name, options))
