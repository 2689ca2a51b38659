"""Every sample of the repository (samples/, and tests/corpus/ where it exists), as the format
hymt reads it with the options its folder's hymt.toml gives (a table's columns): what the identity
and hostile-answer tests of every registered format run over.

A target file may carry edits the format documents (an HTML page's `lang` is the target's):
`TARGET_EDITS` undoes them before output and source are compared. Formats that are not
byte-exact by design (a Parquet file is re-encoded) compare what they keep in `SAME`.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hymt_cli.formats import format_for_path
from hymt_cli.options import OptionSet
from hymt_cli.settings import resolve

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_ROOTS = (ROOT / "samples", ROOT / "tests" / "corpus")
_NOT_SAMPLES = {"hymt.toml", "SOURCES", "SOURCES.md", "SOURCES.txt", "README.md", "LICENSE"}


@dataclass(frozen=True, slots=True)
class Sample:
    path: Path
    format: str
    options: OptionSet

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT))


@cache
def samples() -> tuple[Sample, ...]:
    found = []
    for root in SAMPLE_ROOTS:
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            if not path.is_file() or path.name in _NOT_SAMPLES or path.name.startswith("."):
                continue
            options = _options(path, root)
            fmt = format_for_path(path, options)
            if fmt is not None:
                found.append(Sample(path, fmt.name, options))
    return tuple(found)


def samples_of(fmt: str) -> list[Sample]:
    return [s for s in samples() if s.format == fmt]


def _options(path: Path, root: Path) -> OptionSet:
    """The options of the nearest hymt.toml from the file's folder up to the sample root."""
    for folder in (path.parent, *path.parent.parents):
        config = folder / "hymt.toml"
        if config.is_file():
            return resolve({}, config=config, environ={}).settings.records
        if folder == root:
            break
    return OptionSet()


_HTML_LANG = re.compile(rb"""(<html\b[^>]*\blang=["']?)[^"'\s>]*""", re.IGNORECASE)


def _html_lang(data: bytes) -> bytes:
    return _HTML_LANG.sub(rb"\1*", data, count=1)


TARGET_EDITS: dict[str, Callable[[bytes], bytes]] = {"html": _html_lang}


def _same_table(a: Path, b: Path) -> bool:
    import pyarrow.parquet as pq

    before, after = pq.read_table(a), pq.read_table(b)
    return after.schema.equals(before.schema, check_metadata=True) and after.equals(before)


SAME: dict[str, Callable[[Path, Path], bool]] = {"parquet": _same_table}


def unchanged(sample: Sample, output: Path) -> bool:
    """The output is the sample, but for the edits its format documents."""
    same = SAME.get(sample.format)
    if same is not None:
        return same(sample.path, output)
    edit = TARGET_EDITS.get(sample.format, lambda data: data)
    return edit(output.read_bytes()) == edit(sample.path.read_bytes())
