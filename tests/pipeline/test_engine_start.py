"""With a translation memory, the engine starts at the first unit the memory cannot answer, while
the other inputs are still read (a cold start is tens of seconds), and never for a run the
memory answers entirely."""

from __future__ import annotations

from pathlib import Path

from pipelines import run_pipeline

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.memory import PipelineMemory, TranslationMemory, build_fingerprint
from hymt_cli.model.prompts import TEMPLATE_VERSION
from hymt_cli.reporting.progress import ProgressEvents


class Reads(ProgressEvents):
    """Counts the inputs opened so far."""

    def __init__(self) -> None:
        self.opened = 0

    def phase(self, name: str) -> None:
        self.opened += name == "reading"


class CountingMemory(PipelineMemory):
    """Keeps every key the pipeline looks up."""

    asked: list[tuple[str, str, str]]

    def recall(self, keys):  # type: ignore[no-untyped-def]
        self.asked.extend(keys)
        return super().recall(keys)


def translate(folder: Path, cache: Path, out: Path) -> tuple[list[int], Reads]:
    context = build_fingerprint(
        engine="identity",
        model=None,
        revision=None,
        sampling=None,
        template_version=TEMPLATE_VERSION,
        model_free=True,
    )
    memory = CountingMemory(TranslationMemory.open(cache), context, None)
    memory.asked = []
    reads, started = Reads(), []

    def factory() -> IdentityEngine:
        started.append(reads.opened)
        return IdentityEngine()

    try:
        run_pipeline([folder], factory, out_dir=out, progress=reads, memory=memory)
    finally:
        memory.close()
    # the lookups that decide when the engine starts are not made again when the window is translated
    assert memory.asked and len(memory.asked) == len(set(memory.asked))
    return started, reads


def test_the_engine_starts_at_the_first_unit_the_memory_lacks(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):
        (docs / f"doc{i}.txt").write_text(f"Paragraph {i} of its own.\n\nShared line.\n", encoding="utf-8")
    started, reads = translate(docs, tmp_path / "tm.sqlite3", tmp_path / "out1")
    assert reads.opened == 6 and started == [1]  # after the first document, not after all six
    (docs / "doc6.txt").write_text("Something new.\n", encoding="utf-8")
    started, reads = translate(docs, tmp_path / "tm.sqlite3", tmp_path / "out2")
    assert started == [7]  # six documents answered by the memory, then the new one
    (docs / "doc6.txt").unlink()
    started, _ = translate(docs, tmp_path / "tm.sqlite3", tmp_path / "out3")
    assert started == []  # the memory answers everything: no engine
