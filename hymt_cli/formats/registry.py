"""The format registry: each format by name and file suffixes, with its own options dataclass.

A `FormatSpec` declares a format: how to build it from the run's options (`build` reads its own
options records from the `OptionSet`), its suffixes, its options dataclasses (whose declared fields
become the format's flags, config keys and `HYMT_*` variables: settings/schema.py) and whether it
is a document format (one a table cell can be parsed as). A new format is one module and one
`register` call in formats/__init__.py; nothing else lists formats.

Registered lazily: every command imports the registry (`hymt --help` lists the formats' flags),
so a spec names its format's code with `lazy("package.module:Name")`, imported when a file of
that format is first opened, and only its options dataclasses are imported with it (from a
module that imports nothing heavy: a format package's `__init__`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..later import Deferred, resolved
from ..options import Options, OptionSet
from .base import InputFormat
from .document import SplicingFormat

if TYPE_CHECKING:
    from .layout import Layout, Marked


@dataclass(frozen=True, slots=True)
class FormatSpec:
    name: str
    suffixes: tuple[str, ...]
    build: Callable[[OptionSet], InputFormat]
    # Its options dataclasses (several formats may share one); `lazy(...)` for those imported when
    # asked for (settings/schema.py: the command line and the settings of a run that gives none of
    # theirs leave them out).
    options: tuple[type[Options] | Deferred, ...] = ()
    document: bool = True  # one input is one document
    # The contexts its segments carry (Segment.context) reach the model with `--context auto`:
    # short and telling (a UI string's key) or asked for (a table's --context-columns). A
    # document's title and heading reach it only with `--context on`.
    context_by_default: bool = False
    # Where a path names its language the way the format's ecosystem does (layout.py): output
    # naming and discovery follow it. A `lazy(...)` tuple is read when first asked for.
    layouts: tuple[Layout, ...] | Deferred = ()
    # Why a file of this format found in a folder walk is no input (a suffix it shares with
    # configuration files, `package.json`), or None; files named on the command line are read.
    walk_refusal: Callable[[Path], str | None] | None = None
    # Suffixes it shares with other kinds of files (`.xml`): a file with one is this format's when
    # `claims` says so from its content.
    by_content: tuple[str, ...] = ()
    claims: Callable[[Path], bool] | None = None
    # What a file of this format needs that the options lack (a table's --columns), or None: a
    # folder walk leaves such files alone and says so; a file named on the command line fails.
    # Given the file's path where there is one (a Magento dictionary needs no --columns).
    needs: Callable[[OptionSet, Path | None], str | None] | None = None
    # Why a file holds nothing to translate by its ecosystem's rules (Android lint's
    # `donottranslate*.xml`), or None: it is no input, found in a folder or named.
    not_translated: Callable[[Path], str | None] | None = None
    # The locale a file says it holds, where its content says so (a Rails file's one root key:
    # `en_pirate:`), or None: discovery then tells a source by that locale, not by the name.
    declared_locale: Callable[[Path], str | None] | None = None

    @property
    def option_types(self) -> tuple[type[Options], ...]:
        """Its options dataclasses, imported."""
        return tuple(resolved(o) for o in self.options)


FORMATS: dict[str, FormatSpec] = {}
# The tables' options (table_cells.py), which every table format's spec names: its cells' format.
TABLE_OPTIONS = Deferred("hymt_cli.formats.table_cells:TableOptions")


def register(spec: FormatSpec) -> FormatSpec:
    """Add a format (its name and suffixes must be new)."""
    if spec.name in FORMATS:
        raise ValueError(f"format {spec.name!r} is registered already")
    taken = {s: n for n, f in FORMATS.items() for s in f.suffixes}
    for suffix in spec.suffixes:
        if suffix in taken:
            raise ValueError(f"suffix {suffix} of format {spec.name!r} belongs to {taken[suffix]!r}")
    FORMATS[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a format (tests that register one of their own)."""
    FORMATS.pop(name, None)


def format_named(name: str, options: OptionSet | None = None) -> InputFormat:
    """The format called `name`, built with its own options; KeyError when there is none."""
    return FORMATS[name].build(options or OptionSet())


def document_format(name: str, options: OptionSet | None = None) -> SplicingFormat:
    """The document format called `name`; KeyError when there is none (or it is no document)."""
    spec = FORMATS[name]
    if not spec.document:
        raise KeyError(name)
    built = spec.build(options or OptionSet())
    assert isinstance(built, SplicingFormat)
    return built


def format_for_path(path: Path, options: OptionSet | None = None) -> InputFormat | None:
    """The format for a file's suffix (or its content, where formats share a suffix), or None
    when hymt does not read such files."""
    suffix = path.suffix.lower()
    for spec in FORMATS.values():
        if suffix in spec.suffixes:
            return spec.build(options or OptionSet())
    for spec in FORMATS.values():
        if suffix in spec.by_content and spec.claims is not None and spec.claims(path):
            return spec.build(options or OptionSet())
    return None


def path_marked(name: str, path: Path) -> Marked | None:
    """Where `path` names its language in the layouts of format `name` (None: it does not)."""
    spec = FORMATS.get(name)
    if spec is None:
        return None
    layouts = resolved(spec.layouts)
    if not layouts:
        return None
    from .layout import marked  # (a format with layouts: its paths name their language)

    return marked(path, layouts)


def walk_refusal(name: str, path: Path) -> str | None:
    """Why a file of format `name` found in a folder walk is no input, or None."""
    spec = FORMATS.get(name)
    return spec.walk_refusal(path) if spec is not None and spec.walk_refusal is not None else None


def not_translated(name: str, path: Path) -> str | None:
    """Why a file of format `name` holds nothing to translate by its ecosystem's rules, or None."""
    spec = FORMATS.get(name)
    return spec.not_translated(path) if spec is not None and spec.not_translated is not None else None


def declared_locale(name: str, path: Path) -> str | None:
    """The locale a file of format `name` says it holds in its content, or None."""
    spec = FORMATS.get(name)
    return spec.declared_locale(path) if spec is not None and spec.declared_locale is not None else None


def format_needs(name: str, options: OptionSet, path: Path | None = None) -> str | None:
    """What a file of format `name` (at `path`) needs that `options` lack (`--columns`), or None."""
    spec = FORMATS.get(name)
    return spec.needs(options, path) if spec is not None and spec.needs is not None else None


def suffixes() -> tuple[str, ...]:
    return tuple(sorted({s for spec in FORMATS.values() for s in (*spec.suffixes, *spec.by_content)}))


def described() -> str:
    """Every format by name, with the suffixes it reads besides `.name`: `md (.markdown)`."""
    out = []
    for name, spec in FORMATS.items():
        more = [s for s in (*spec.suffixes, *spec.by_content) if s != f".{name}"]
        out.append(f"{name} ({', '.join(more)})" if more else name)
    return ", ".join(out)
