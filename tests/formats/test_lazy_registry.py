"""Formats are registered lazily: the registry knows every format's name, suffixes and options
without importing its code (every command imports the registry: `hymt --help` lists the
formats' flags), and a spec's `lazy(...)` names resolve to the format they declare."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import environment

from hymt_cli.formats import FORMATS, lazy, path_marked, walk_refusal
from hymt_cli.options import OptionSet

# What the registry itself and the options dataclasses need; a format's code is none of it.
LIGHT = {
    "hymt_cli.formats",
    "hymt_cli.formats.base",
    "hymt_cli.formats.registry",
    "hymt_cli.formats.document",
    "hymt_cli.formats.document_context",
    "hymt_cli.formats.encodings",
    "hymt_cli.formats.layout",
    "hymt_cli.formats.row_context",
    "hymt_cli.formats.table_cells",
    "hymt_cli.formats.text",  # txt: its code is its options' module, and light
    "hymt_cli.formats.xml_kind",  # which formats claim a .xml file
    "hymt_cli.formats.delimited",
    "hymt_cli.formats.delimited.dialect",
    "hymt_cli.formats.json_strings",
    "hymt_cli.formats.po",
    "hymt_cli.formats.xliff",
    "hymt_cli.formats.subtitles",
    "hymt_cli.formats.subtitles.options",
    "hymt_cli.formats.office_options",
    # The project files that tell a catalog's source (layout.py asks them): a few lines each.
    "hymt_cli.formats.ecosystems",
    "hymt_cli.formats.ecosystems.flutter",
    "hymt_cli.formats.ecosystems.linguas",
    "hymt_cli.formats.ecosystems.xcode",
}


def test_the_settings_import_no_formats_code() -> None:
    probe = (
        "import json, sys; from hymt_cli.settings import all_settings; all_settings(); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('hymt_cli.formats'))))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=environment(), check=True
    )
    imported = set(json.loads(found.stdout))
    assert imported <= LIGHT, (
        f"a format's code is imported with the settings: {sorted(imported - LIGHT)}; name its code with "
        "lazy('module:Name') in formats/__init__.py and keep its options in a module that imports "
        "nothing heavy (ARCHITECTURE.md, Adding a format)"
    )


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_spec_builds_the_format_it_declares(name: str) -> None:
    spec = FORMATS[name]
    built = spec.build(OptionSet())
    assert built.name == name
    assert getattr(type(built), "suffixes", spec.suffixes) == spec.suffixes
    # a lazily named hook answers as the format's own would
    own = getattr(type(built), "layouts", None)
    where = Path("locales") / "de" / f"app{(spec.suffixes or ('.xml',))[0]}"
    if own is not None:
        assert (path_marked(name, where) is None) == (not own or all(rule(where) is None for rule in own))
    refusal = walk_refusal(name, Path("package") / f"x{(spec.suffixes or ('.xml',))[0]}")
    assert refusal is None or isinstance(refusal, str)


def test_a_lazy_name_is_module_colon_name() -> None:
    with pytest.raises(ValueError, match="package.module:Name"):
        lazy("hymt_cli.formats.markdown.MarkdownFormat")
    assert lazy("hymt_cli.formats.text:TextFormat").resolve().name == "txt"
    with pytest.raises(AttributeError):
        lazy("hymt_cli.formats.text:NoSuchFormat").resolve()
