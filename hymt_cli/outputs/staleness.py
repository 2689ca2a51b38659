"""`hymt translate --check`: for each input and target language, is the output there, and is it
what a run would write now? It compares the source's digest and the run's provenance (model and
its revision or folder digest, prompt template, glossary, sampling: the translation memory's
context key) with what the output folder's manifest (manifest.py) recorded when hymt wrote the
file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..text.languages import Language
from .manifest import file_digest, read_manifest
from .paths import Source, output_path


@dataclass(frozen=True, slots=True)
class Stale:
    output: str
    reason: str


def stale_outputs(
    sources: Sequence[Source], targets: tuple[Language, ...], out_dir: Path | None, provenance: str
) -> tuple[list[Stale], list[Stale]]:
    """(stale or missing outputs, outputs edited since hymt wrote them: notes, not failures)."""
    stale: list[Stale] = []
    edited: list[Stale] = []
    for source in sources:
        assert source.path is not None
        for lang in targets:
            out = output_path(source, lang, out_dir)
            assert out is not None
            reason = _why_stale(source.path, out, provenance)
            if reason == "edited":
                edited.append(Stale(str(out), "edited since hymt wrote it (kept)"))
            elif reason is not None:
                stale.append(Stale(str(out), reason))
    return stale, edited


def _why_stale(source: Path, out: Path, provenance: str) -> str | None:
    if not out.exists():
        return "missing"
    written = read_manifest(out.parent).get(out.name)
    if written is None:
        return "no record of hymt writing it (written by hand, or by an older hymt)"
    if written.source_sha256 != file_digest(source):
        return f"the source changed ({source})"
    if written.provenance != provenance:
        return "written with another model, glossary, sampling or prompt template"
    if written.sha256 != file_digest(out):
        return "edited"
    return None
