"""Shared helpers for the tests of documents read in parts (formats/document.py): read a
document's bytes as the pipeline does, and write what its writer would."""

from __future__ import annotations

from pathlib import Path

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import Unit
from hymt_cli.formats.document import Document, DocumentReader, SplicingFormat
from hymt_cli.inputs.sources import SourceFile


def read_in_parts(fmt: SplicingFormat, data: bytes, part_bytes: int) -> list[Unit]:
    source = SourceFile(None, Path("doc"), fmt, data=data)
    return list(DocumentReader(fmt, source, part_bytes=part_bytes).units())


def written(units: list[Unit]) -> bytes:
    """Every part's pseudo translation, spliced and encoded: what the writer writes."""
    out = b""
    for unit in units:
        document = unit.content
        assert isinstance(document, Document)
        text = document.parsed.reassemble({s.id: pseudo_localize(s.text) for s in unit.segments})
        out += document.decoded.encode(text)
    return out
