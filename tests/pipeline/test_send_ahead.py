"""An engine that takes requests while it works gets the first parts of a window while the
pipeline still reads and plans the rest (Dispatcher.send_ahead): the output, the report and
the translation memory are those of a run that planned everything first."""

from __future__ import annotations

from pathlib import Path

from engines import identity_replica
from pipelines import run_pipeline

from hymt_cli.engine.replicas import ReplicaEngine, ReplicaSlot
from hymt_cli.memory import PipelineMemory, TranslationMemory, build_context
from hymt_cli.model.prompts import TEMPLATE_VERSION
from hymt_cli.reporting.progress import ProgressEvents
from hymt_cli.reporting.report import RunReport


class Events(ProgressEvents):
    """The order of reads and planned parts."""

    def __init__(self) -> None:
        self.log: list[tuple[str, int]] = []

    def phase(self, name: str) -> None:
        if name == "reading":
            self.log.append(("reading", 0))

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
        self.log.append(("planned", requests))


def write_documents(folder: Path, count: int, *, first: int = 0) -> None:
    folder.mkdir(exist_ok=True)
    for i in range(first, first + count):
        body = "\n\n".join(f"Paragraph {j} of document {i}, with {'words ' * (j % 9)}." for j in range(30))
        (folder / f"doc{i:02d}.txt").write_text(body + "\n\nThe shared footer.\n", encoding="utf-8")


def translate(
    docs: Path, out: Path, send_ahead: int | None, memory: PipelineMemory | None = None
) -> tuple[RunReport, Events, dict[str, int]]:
    """A run on two identity replicas, started before it (as a warm engine)."""
    events = Events()
    with ReplicaEngine(identity_replica, [ReplicaSlot(f"r{i}", {}) for i in range(2)]) as engine:
        engine.wait_started()
        report = run_pipeline(
            [docs], engine, to="fr,de", out_dir=out, progress=events, send_ahead=send_ahead, memory=memory
        )
        return report, events, engine.served


def test_parts_go_to_the_engine_while_the_rest_is_read(tmp_path: Path) -> None:
    write_documents(tmp_path / "docs", 20)
    ahead, events, served = translate(tmp_path / "docs", tmp_path / "ahead", send_ahead=100)
    whole, whole_events, _ = translate(tmp_path / "docs", tmp_path / "whole", send_ahead=None)
    reads = [n for n, (kind, _) in enumerate(events.log) if kind == "reading"]
    parts = [n for n, (kind, requests) in enumerate(events.log) if kind == "planned" and requests]
    assert len(parts) > 3 and parts[0] < reads[-1], events.log  # sent before the last input was read
    assert [kind for kind, requests in whole_events.log if kind == "planned"] == ["planned"]
    assert all(n > 0 for n in served.values()), served
    for field in ("files_ok", "unique_segments", "engine_requests", "prompt_tokens", "output_tokens"):
        assert getattr(ahead, field) == getattr(whole, field), field
    assert ahead.files_ok == 40 and ahead.untranslated == 0
    for doc in sorted((tmp_path / "docs").iterdir()):
        for lang in ("fr", "de"):
            assert (tmp_path / "ahead" / lang / doc.name).read_bytes() == doc.read_bytes()


def test_parts_sent_ahead_skip_what_the_memory_knows(tmp_path: Path) -> None:
    context = build_context(
        engine="identity",
        model=None,
        revision=None,
        sampling=None,
        template_version=TEMPLATE_VERSION,
        model_free=True,
    )
    write_documents(tmp_path / "docs", 12)
    memory = PipelineMemory(TranslationMemory.open(tmp_path / "tm.sqlite3"), context, None)
    try:
        first, _, _ = translate(tmp_path / "docs", tmp_path / "out1", send_ahead=50, memory=memory)
        write_documents(tmp_path / "docs", 1, first=12)  # one new document
        again, _, _ = translate(tmp_path / "docs", tmp_path / "out2", send_ahead=50, memory=memory)
    finally:
        memory.close()
    assert first.engine_requests == first.unique_segments and first.cache_hits == 0
    new = again.unique_segments - first.unique_segments  # the new document's own paragraphs
    assert 0 < new <= 2 * 31 and again.engine_requests == new
    assert again.cache_hits == first.unique_segments and again.files_ok == 26
    for lang in ("fr", "de"):
        for doc in sorted((tmp_path / "docs").iterdir()):
            assert (tmp_path / "out2" / lang / doc.name).read_bytes() == doc.read_bytes()
