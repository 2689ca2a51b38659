"""Every sample of the repository (samples/, and the real files of shared/corpus/ where they were
gathered: scripts/gather_corpus.py, tests/corpus/SOURCES), as the format
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

from package_checks import package_edits
from pipelines import sources_of

from hymt_cli.formats import FORMATS, format_for_path, path_marked
from hymt_cli.formats.layout import same_language
from hymt_cli.options import OptionSet
from hymt_cli.settings import resolve
from hymt_cli.text.languages import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_ROOTS = (ROOT / "samples", ROOT / "shared" / "corpus")
_NOT_SAMPLES = {"hymt.toml", "SOURCES", "SOURCES.md", "SOURCES.txt", "README.md", "LICENSE"}
# Files of the gathered corpus in a legacy encoding they do not declare (subtitles never do), with
# the encoding `--encoding` names for them.
CORPUS_ENCODINGS = {"subtitles/pysrt-windows-1252.srt": "cp1252", "subtitles/aspasia-gbk.srt": "gbk"}


def corpus_encoding(path: Path) -> str | None:
    """The legacy encoding of a corpus file that declares none (None: it is Unicode, or says)."""
    corpus = SAMPLE_ROOTS[1]
    return CORPUS_ENCODINGS.get(path.relative_to(corpus).as_posix()) if path.is_relative_to(corpus) else None


@dataclass(frozen=True, slots=True)
class Sample:
    path: Path
    format: str
    options: OptionSet

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT))

    @property
    def identity_target(self) -> str:
        """The language to translate into with the identity engine: the sample's own, so that the
        edits a target file carries (Rails' root key, plural forms French has and English has not)
        are no edits. It is the one the path names, or the name's `-ja` ending; a string file is
        English otherwise; a document goes to French (its edits are in TARGET_EDITS)."""
        found = path_marked(self.format, self.path)
        written = found.code if found is not None else None
        named = next((code for code in LANGUAGES if written and same_language(written, code)), None)
        ending = re.search(r"[-_]([a-z]{2})$", self.path.stem)
        if named is None and ending is not None and ending.group(1) in LANGUAGES:
            named = ending.group(1)
        return named or ("en" if FORMATS[self.format].context_by_default else "fr")


@cache
def samples(*, corpus: bool = True) -> tuple[Sample, ...]:
    """Every sample under samples/, and the real files of shared/corpus/ with `corpus`."""
    found = []
    for root in SAMPLE_ROOTS if corpus else SAMPLE_ROOTS[:1]:
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            if not path.is_file() or path.name in _NOT_SAMPLES or path.name.startswith("."):
                continue
            options = _options(path, root)
            fmt = format_for_path(path, options)
            if fmt is not None:
                found.append(Sample(path, fmt.name, options))
    return tuple(found)


def samples_of(fmt: str, *, corpus: bool = False) -> list[Sample]:
    """The samples of one format under samples/ (and shared/corpus/ with `corpus`)."""
    return [s for s in samples(corpus=corpus) if s.format == fmt]


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


TARGET_EDITS: dict[str, Callable[[bytes], bytes]] = {
    "html": _html_lang,
    # A package's language and direction attributes say the target (tests/package_checks.py).
    **dict.fromkeys(("odt", "odp", "ods", "epub"), package_edits),
}


def _same_table(a: Path, b: Path) -> bool:
    import pyarrow.parquet as pq

    before, after = pq.read_table(a), pq.read_table(b)
    return after.schema.equals(before.schema, check_metadata=True) and after.equals(before)


def _same_package(a: Path, b: Path) -> bool:
    from ooxml_checks import same_members

    return same_members(a, b) == []  # member by member, language attributes aside


SAME: dict[str, Callable[[Path, Path], bool]] = {
    "parquet": _same_table,
    "docx": _same_package,
    "xlsx": _same_package,
    "pptx": _same_package,
}


def unchanged(sample: Sample, output: Path) -> bool:
    """The output is the sample, but for the edits its format documents. A string file's target
    edits (a PO header's language, an XLIFF target's state, the plural categories a language has)
    are checked format by format (tests/formats/test_string_files.py, test_resource_corpus.py):
    here it must hold every segment of its source and parse."""
    same = SAME.get(sample.format)
    if same is not None:
        return same(sample.path, output)
    edit = TARGET_EDITS.get(sample.format, lambda data: data)
    before, after = edit(sample.path.read_bytes()), edit(output.read_bytes())
    if before != after and FORMATS[sample.format].context_by_default:
        kept = _segments(sample, output)
        return all(text in kept for text in _segments(sample, sample.path))
    return before == after


def _segments(sample: Sample, path: Path) -> list[str]:
    fmt = format_for_path(path, sample.options) or format_for_path(sample.path, sample.options)
    assert fmt is not None
    source = sources_of([path], options=sample.options, format_name=fmt.name)[0]
    return [s.text for unit in fmt.open(source).units() for s in unit.segments if s.targets is None]
