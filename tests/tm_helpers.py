"""In-process runs with engines that count or fail, for translation memory and parquet tests."""

from __future__ import annotations

from pathlib import Path

from engines import CountingEngine, FailingEngine  # noqa: F401  (re-exported for the tests)
from pipelines import make_pipeline, sources_of

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import ParquetOptions
from hymt_cli.memory import PipelineMemory, TranslationMemory, build_fingerprint
from hymt_cli.model.prompts import TEMPLATE_VERSION
from hymt_cli.options import OptionSet


def engine_named(name: str):
    return {"identity": IdentityEngine, "pseudo": PseudoEngine}[name]()


def run(
    inputs: list[str],
    to: str,
    engine,
    *,
    cache: Path | None,
    out: Path | None = None,
    dry_run: bool = False,
    batch_tokens: int = 262_144,
    **format_options,
):
    """One in-process run; returns the report. `cache` None: no memory."""
    sources = sources_of(inputs, options=OptionSet([ParquetOptions(**format_options)]))
    memory = None
    if cache is not None:
        context = build_fingerprint(
            engine=engine.name,
            model=None,
            revision=None,
            sampling=None,
            template_version=TEMPLATE_VERSION,
            model_free=True,
        )
        memory = PipelineMemory(TranslationMemory.open(cache, readonly=dry_run), context, None)
    try:
        return make_pipeline(
            engine,
            to=to,
            out_dir=out,
            dry_run=dry_run,
            batch_tokens=batch_tokens,
            engine_name=engine.name,
            memory=memory,
        ).run(sources)
    finally:
        if memory is not None:
            memory.close()
