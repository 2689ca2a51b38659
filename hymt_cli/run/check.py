"""`--check`: which outputs are missing or stale, without an engine (outputs/staleness.py compares
the manifests). A file of strings merged into is judged key by key (formats/strings/merge.py):
stale where a run would add, update or remove a key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..formats import FormatError, output_provenance
from ..inputs.discovery import InputProblem, find_inputs
from ..inputs.sources import SourceFile
from ..options import OptionSet
from ..outputs.paths import output_path
from ..outputs.staleness import Stale, stale_outputs
from ..text.languages import Language
from .config import RunConfig
from .provenance import connect_served, memory_context, provenance


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
    glossary = None
    if settings.memory.glossary:
        from ..glossary import load_glossaries  # its matching and verification: only where asked for

        glossary = load_glossaries(list(settings.memory.glossary), source=config.source)
    sources = [s for s in found.sources if s.path is not None]
    run = provenance(config, memory_context(config.engine, glossary, config.remapped))
    options = config.discovery.options or OptionSet()
    out, exact = settings.output.out, settings.output.exact_locales
    merged = [s for s in sources if s.merges and any(_exists(s, lang, out, exact) for lang in config.targets)]
    stale, edited = stale_outputs(
        [s for s in sources if s not in merged],
        config.targets,
        out,
        lambda source: output_provenance(run, source.format.name, source.options or options),
        exact_locales=exact,
    )
    for source in merged:
        catalog_stale, catalog_notes = _catalog_drift(
            source, config.targets, out, settings.output.keep_removed, exact
        )
        stale += catalog_stale
        edited += catalog_notes
    return CheckResult(stale, edited, found.problems, len(found.sources) * len(config.targets))


def _exists(source: SourceFile, lang: Language, out: Path | None, exact: bool) -> bool:
    path = output_path(source, lang, out, exact_locales=exact)
    return path is not None and path.is_file()


def _catalog_drift(
    source: SourceFile,
    targets: Sequence[Language],
    out: Path | None,
    keep_removed: bool,
    exact: bool,
) -> tuple[list[Stale], list[Stale]]:
    """A file of strings against the targets it is merged into, key by key: stale where a run
    would change one (keys missing, stale or removed); a note for a person's values whose
    source changed since."""
    from ..formats import StringsReader  # the strings core: only for files of strings

    paths = {lang.code: output_path(source, lang, out, exact_locales=exact) for lang in targets}
    reader = source.format.open(source)
    assert isinstance(reader, StringsReader)
    existing = {code: path for code, path in paths.items() if path is not None and path.is_file()}
    reader.merge_into(existing, keep_removed=keep_removed)
    stale = [
        Stale(str(path), "missing")
        for code, path in paths.items()
        if path is not None and code not in existing
    ]
    notes: list[Stale] = []
    try:
        drift = reader.drift()
    except FormatError as exc:
        return [*stale, *(Stale(str(p), f"{source.display}: {exc}") for p in existing.values())], notes
    for code, counts in drift.items():
        where = str(existing[code])
        if isinstance(counts, str):
            stale.append(Stale(where, counts))
            continue
        parts = [
            f"{n} {what}"
            for n, what in (
                (counts.added, "missing"),
                (counts.updated, "stale"),
                (counts.removed, "removed from the source"),
            )
            if n
        ]
        if parts:
            stale.append(Stale(where, f"keys: {', '.join(parts)}"))
        if counts.outdated:
            notes.append(
                Stale(where, f"{counts.outdated} value(s) a person wrote whose source changed since (kept)")
            )
    return stale, notes
