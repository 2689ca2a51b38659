"""`--check`: which outputs are missing or stale, without an engine (outputs/staleness.py compares
the manifests)."""

from __future__ import annotations

from dataclasses import dataclass

from ..formats import output_provenance
from ..glossary import load_glossaries
from ..inputs.discovery import InputProblem, find_inputs
from ..options import OptionSet
from ..outputs.staleness import Stale, stale_outputs
from .config import RunConfig
from .session import connect_served, memory_context, provenance


@dataclass(frozen=True, slots=True)
class CheckResult:
    stale: list[Stale]  # missing, or not what a run would write now
    edited: list[Stale]  # edited since hymt wrote them (kept: notes, not failures)
    problems: list[InputProblem]  # inputs that cannot be checked
    checked: int  # outputs looked at


def check_outputs(config: RunConfig) -> CheckResult:
    config, _ = connect_served(config)
    settings = config.settings
    found = find_inputs(list(settings.inputs.inputs), config.discovery)
    glossary = (
        load_glossaries(list(settings.memory.glossary), source=config.source)
        if settings.memory.glossary
        else None
    )
    sources = [s for s in found.sources if s.path is not None]
    run = provenance(config, memory_context(config.engine, glossary, config.remapped))
    options = config.discovery.options or OptionSet()
    stale, edited = stale_outputs(
        sources,
        config.targets,
        settings.output.out,
        lambda source: output_provenance(run, source.format.name, options),
        exact_locales=settings.output.exact_locales,
    )
    return CheckResult(stale, edited, found.problems, len(found.sources) * len(config.targets))
