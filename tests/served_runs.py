"""Runs of a folder of plain documents through a served engine (tests/engine): the documents,
one pipeline run into German, and the comparisons the served and the offline engine share."""

from __future__ import annotations

import subprocess
from pathlib import Path

from clirun import hymt
from pipelines import make_pipeline, sources_of

from hymt_cli.memory import PipelineMemory
from hymt_cli.model.tokenizer import ChatTemplateTokenizer
from hymt_cli.pipeline import target_script
from hymt_cli.reporting.report import RunReport

WORDS = (
    "alpha beta gamma delta epsilon zeta theta iota kappa lambda omicron sigma tau upsilon omega "
    "river stone cloud harbour lantern meadow orchard quarry signal timber"
).split()


def write_docs(folder: Path, files: int = 3, paragraphs: int = 30) -> Path:
    """Plain paragraphs of varied length, some repeated across files (dedupe)."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        paras = []
        for p in range(paragraphs):
            n = 3 + (p * 7 + f) % 23
            seed = p if p % 4 else 0  # every fourth paragraph is shared by all files
            paras.append(
                " ".join(WORDS[(seed * 5 + f * (p % 4 != 0) + i) % len(WORDS)] for i in range(n)) + "."
            )
        (folder / f"doc{f}.txt").write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    return folder


def run(
    docs: Path,
    out: Path,
    engine_factory,
    tokenizer,
    *,
    memory: PipelineMemory | None = None,
    name: str = "openai",
) -> RunReport:
    sources = sources_of([docs])
    return make_pipeline(
        engine_factory,
        to="de",
        tokenizer=tokenizer,
        out_dir=out,
        context_tokens=2048,
        engine_name=name,
        model="served",
        validators=(target_script,) if name == "openai" else (),
        memory=memory,
    ).run(sources)


def same_tree(a: Path, b: Path) -> None:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*.txt"))
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*.txt")) and files_a
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def decoder(tokenizer: ChatTemplateTokenizer):
    return lambda ids: tokenizer.hf_tokenizer.decode(ids, skip_special_tokens=True)


def served_cli(docs: Path, base_url: str, out: Path, report: Path) -> subprocess.CompletedProcess[str]:
    """`hymt translate DOCS --to de --engine openai` against the server at `base_url`, greedy, no
    memory, the report written to `report` (text output)."""
    return hymt(
        "translate",
        str(docs),
        "--to",
        "de",
        "--engine",
        "openai",
        "--base-url",
        base_url,
        "--deterministic",
        "--max-model-len",
        "2048",
        "--no-cache",
        "-o",
        str(out),
        "--report",
        str(report),
        text=True,
    )
