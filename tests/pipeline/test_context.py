"""Context (HY-MT's context prompt): the model reads what a text belongs to and never translates it.
A document's title and nearest heading go with `--context on`; the same text in another context
is another request, and the memory keeps them apart; an answer that repeats its context is
rejected like any broken answer."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import hymt
from engines import Faulty
from pipelines import make_pipeline, run_pipeline, sources_of, write

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.pipeline import PlannedRequest

DOC = """# Orbit Desk manual

## Installing

Run the installer and restart.

## Removing

Run the installer and restart.
"""


def _planned(doc: Path, context: str) -> list[PlannedRequest]:
    seen: list[PlannedRequest] = []
    run_pipeline([doc], IdentityEngine(), dry_run=True, context=context, on_planned=seen.extend)
    return seen


def test_documents_get_their_title_and_heading_only_when_asked(tmp_path: Path) -> None:
    doc = write(tmp_path, "manual.md", DOC)
    plain = _planned(doc, "auto")
    assert all(r.context == "" and "参考上面的信息" not in r.prompt for r in plain)
    assert len(plain) == 4  # the repeated paragraph is one request
    told = _planned(doc, "on")
    contexts = {r.core: [x.context for x in told if x.core == r.core] for r in told}
    assert contexts["Installing"] == ["Orbit Desk manual"]
    assert sorted(contexts["Run the installer and restart."]) == [
        "Orbit Desk manual\nInstalling",
        "Orbit Desk manual\nRemoving",
    ]
    request = next(r for r in told if r.context == "Orbit Desk manual\nInstalling")
    assert request.prompt.startswith("Orbit Desk manual\nInstalling\n参考上面的信息")
    assert request.prompt.endswith("\nRun the installer and restart.")
    assert request.source_tokens < request.prompt_tokens // 2  # the context is overhead, not source


def test_an_answer_that_repeats_its_context_is_retried_then_the_source_kept(tmp_path: Path) -> None:
    doc = write(tmp_path, "manual.md", DOC)
    context_of: dict[str, str] = {}

    def echo(request: GenerationRequest) -> Generation | None:
        context = context_of[request.source_text]
        return Generation(f"{context}\n{request.source_text}", "stop", 9) if context else None

    pipeline = make_pipeline(
        Faulty(echo),
        out_dir=tmp_path / "out",
        context="on",
        on_planned=lambda requests: context_of.update((r.model_text, r.context) for r in requests),
    )
    report = pipeline.run(sources_of([doc]))
    problems = [p.problem for f in report.files for p in f.problems]
    assert report.untranslated == 4 and problems and all("repeats the context" in p for p in problems)
    assert (tmp_path / "out" / "fr" / "manual.md").read_text(encoding="utf-8") == DOC


def test_the_memory_keeps_one_text_in_two_contexts_apart(tmp_path: Path) -> None:
    doc = write(tmp_path / "docs", "manual.md", DOC)
    args = (
        "translate",
        str(doc.parent),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--context",
        "on",
        "--cache",
        str(tmp_path / "m.sqlite3"),
        "-o",
        str(tmp_path / "out"),
        "--report",
        str(tmp_path / "r.json"),
    )
    first = hymt(*args, text=True)
    assert first.returncode == 0, first.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["unique_segments"] == 5 and report["engine_requests"] == 5
    again = hymt(*args, "--overwrite", text=True)
    assert again.returncode == 0, again.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["engine_requests"] == 0 and report["cache_hits"] == 5
    checked = hymt(
        "translate",
        str(doc.parent),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "-o",
        str(tmp_path / "out"),
        "--check",
        text=True,
    )  # written with --context on: a run without it would write otherwise
    assert checked.returncode == 5 and "stale" in checked.stderr
