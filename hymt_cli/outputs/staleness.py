"""`hymt translate --check`: for each input and target language, is the output there, and is it
what a run would write now? It compares the source's digest and the run's provenance (model and
its revision or folder digest, prompt template, glossary, sampling: the translation memory's
context key; and the settings of the file's format that change what is written, such as a
table's --columns: formats/_provenance.py) with what the output folder's manifest (manifest.py)
recorded when hymt wrote the file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..text.languages import Language
from .manifest import file_digest, read_manifest, split_provenance
from .paths import Source, output_path

S = TypeVar("S", bound=Source)


@dataclass(frozen=True, slots=True)
class Stale:
    output: str
    reason: str
    input: str = ""  # the source it is judged against ("" where not said)
    lang: str | None = None


def stale_outputs(
    sources: Sequence[S],
    targets: tuple[Language, ...],
    out_dir: Path | None,
    provenance: Callable[[S], str],
    *,
    exact_locales: bool = False,
    overwrite: bool = False,
    current: list[Stale] | None = None,
) -> tuple[list[Stale], list[Stale]]:
    """(stale or missing outputs, outputs edited since hymt wrote them: notes, not failures);
    `provenance`: what a run would record as having written a source's outputs; `current`
    gets the outputs that are up to date (reason ""). A file there that hymt never wrote is a
    person's, which a run keeps (a note) unless `overwrite`."""
    stale: list[Stale] = []
    edited: list[Stale] = []
    for source in sources:
        assert source.path is not None
        for lang in targets:
            out = output_path(source, lang, out_dir, exact_locales=exact_locales)
            assert out is not None
            reason = _why_stale(source.path, out, provenance(source))
            name = str(source.path)
            if reason == "edited":
                edited.append(Stale(str(out), "edited since hymt wrote it (kept)", name, lang.code))
            elif reason == _UNRECORDED and not overwrite:
                kept = "a person's: hymt did not write it (kept; --overwrite replaces it)"
                edited.append(Stale(str(out), kept, name, lang.code))
            elif reason is not None:
                stale.append(Stale(str(out), reason, name, lang.code))
            elif current is not None:
                current.append(Stale(str(out), "", name, lang.code))
    return stale, edited


_UNRECORDED = "no record of hymt writing it (written by hand, or by an older hymt)"


def _why_stale(source: Path, out: Path, provenance: str) -> str | None:
    if not out.exists():
        return "missing"
    written = read_manifest(out.parent).get(out.name)
    if written is None:
        return _UNRECORDED
    if written.source_sha256 != file_digest(source):
        return f"the source changed ({source})"
    if written.provenance != provenance:
        run_before, before = split_provenance(written.provenance)
        run_now, now = split_provenance(provenance)
        if run_before == run_now:
            return f"written with other format settings ({before or 'defaults'}; now: {now or 'defaults'})"
        return "written with another model, glossary, sampling or prompt template"
    if written.sha256 != file_digest(out):
        return "edited"
    return None
