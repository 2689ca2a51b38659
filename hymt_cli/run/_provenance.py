"""What a run's translations are made with, as the translation memory and the output manifests
record it: the memory's context (engine, model, sampling, prompt template, glossary) and the
provenance `--check` compares; a served engine's model, asked of its server before anything is
read (it names the model)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..engine import ServedModel
from ..memory.fingerprint import Fingerprint, build_fingerprint
from ..model.prompts import TEMPLATE_VERSION
from .config import EngineChoice, RunConfig

if TYPE_CHECKING:
    from ..glossary import Glossary


def connect_served(
    config: RunConfig, announce: Callable[[str], None] | None = None
) -> tuple[RunConfig, ServedModel | None]:
    """Ask a served engine's server for its model before anything is read (a dry run that names
    its model plans without the server). `announce` hears that a server is being waited for."""
    engine, spec = config.engine, config.engine.runs
    if (
        spec.connect is None
        or engine.server is None
        or (config.settings.reporting.dry_run and config.settings.model.model is not None)
    ):
        return config, None
    server = replace(engine.server, announce=announce) if announce is not None else engine.server
    served = spec.connect(server)
    return config.with_engine(engine.served_by(served.name, server)), served


def provenance(config: RunConfig, context: Fingerprint) -> str:
    """What the output manifests record as having made a file (`--check` compares it): the memory's
    context, and the context mode when it is not the default (it changes what documents get)."""
    mode = config.settings.memory.context
    return context.key if mode == "auto" else f"{context.key}:context-{mode}"


def run_fingerprint(engine: EngineChoice, glossary: Glossary | None, remapped: str = "") -> Fingerprint:
    """What decides a translation besides its text and its context (RunConfig.remapped too)."""
    spec = engine.runs
    return build_fingerprint(
        engine=spec.name,
        model=engine.model,
        revision=engine.options.revision,
        sampling=engine.sampling,
        template_version=TEMPLATE_VERSION,
        glossary_digest=glossary.digest if glossary else "",
        model_free=not spec.needs_model,
        locales=remapped,
    )
