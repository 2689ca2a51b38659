"""`--check`: which outputs are missing or stale, without an engine (outputs/staleness.py compares
the manifests). A file of strings merged into is judged key by key (formats/strings/merge.py):
stale where a run would add, update or remove a key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..formats import FormatError, output_provenance
from ..inputs.discovery import InputProblem, find_inputs
from ..inputs.sources import SourceFile
from ..options import OptionSet
from ..outputs.manifest import KeptTarget
from ..outputs.paths import OutputRules, output_path
from ..outputs.staleness import Stale, stale_outputs
from ..reporting.report import MAX_OUTDATED, FileReport, OutdatedValue, RunReport
from ..settings import OutputSettings
from ..text.languages import Language
from ._provenance import connect_served, provenance, run_fingerprint
from .config import RunConfig


@dataclass(frozen=True, slots=True)
class CheckResult:
    stale: list[Stale]  # missing, or not what a run would write now
    edited: list[Stale]  # edited since hymt wrote them (kept: notes, not failures)
    problems: list[InputProblem]  # inputs that cannot be checked
    checked: int  # outputs looked at
    current: list[Stale] = field(default_factory=list)  # up to date
    keys: dict[str, dict[str, int]] = field(default_factory=dict)  # a catalog's output -> its key counts
    # a catalog's output -> the person's values kept there whose source changed since
    outdated: dict[str, list[OutdatedValue]] = field(default_factory=dict)

    def report(self, engine: str, model: str | None, exit_code: int) -> RunReport:
        """The check as a run report (`--check --report FILE`): a line per output looked at,
        with its state (`check`: up-to-date, missing, stale, edited), why, and a catalog's keys."""
        files: list[FileReport] = [
            FileReport(p.input, None, None, "failed", f"{p.input}: {p.message}", hint=p.hint)
            for p in self.problems
        ]
        by_output: dict[str, FileReport] = {}
        for state, items in (("stale", self.stale), ("up-to-date", self.current), ("edited", self.edited)):
            for item in items:
                there = by_output.get(item.output)
                if there is not None:  # a catalog's note (a person's values outdated) beside its state
                    there.warning = item.reason
                    continue
                check = "missing" if item.reason == "missing" else state
                file = FileReport(
                    item.input,
                    item.output,
                    item.lang,
                    check=check,
                    keys=self.keys.get(item.output),
                    outdated=self.outdated.get(item.output, [])[:MAX_OUTDATED],
                )
                if state == "edited":
                    file.warning = item.reason
                else:
                    file.reason = item.reason or None
                by_output[item.output] = file
        files += by_output.values()
        report = RunReport(engine, model, files=files, exit_code=exit_code, check=True)
        report.status = "ok" if exit_code == 0 else "failed"
        return report


def check_outputs(config: RunConfig) -> CheckResult:
    config, _ = connect_served(config)
    settings = config.settings
    found = find_inputs(list(settings.inputs.inputs), config.discovery)
    glossary = None
    if settings.memory.glossary:
        from ..glossary import load_glossaries  # its matching and verification: only where asked for

        glossary = load_glossaries(list(settings.memory.glossary), source=config.source)
    sources = [s for s in found.sources if s.path is not None]
    run = provenance(config, run_fingerprint(config.engine, glossary, config.remapped))
    options = config.discovery.options or OptionSet()
    out, exact = settings.output.out, settings.output.exact_locales
    problems = list(found.problems)
    current: list[Stale] = []
    stale: list[Stale] = []
    edited: list[Stale] = []
    keys: dict[str, dict[str, int]] = {}
    outdated: dict[str, list[OutdatedValue]] = {}
    for source, targets in _claimable(sources, config.targets, settings.output, problems):
        if source.merges and any(_exists(source, lang, out, exact) for lang in targets):
            drift = _catalog_drift(source, targets, out, settings.output, exact)
            stale += drift.stale
            edited += drift.notes
            current += drift.current
            keys.update(drift.keys)
            outdated.update(drift.outdated)
        else:
            more, notes = stale_outputs(
                [source],
                targets,
                out,
                lambda source: output_provenance(run, source.format.name, source.options or options),
                exact_locales=exact,
                overwrite=settings.output.overwrite,
                current=current,
            )
            stale += more
            edited += notes
    checked = len(found.sources) * len(config.targets)
    return CheckResult(stale, edited, problems, checked, current, keys, outdated)


def _claimable(
    sources: list[SourceFile],
    targets: tuple[Language, ...],
    output: OutputSettings,
    problems: list[InputProblem],
) -> list[tuple[SourceFile, tuple[Language, ...]]]:
    """Each source with the targets a run would write: an output the run refuses (a translation
    named as a source, whose output is itself; an output two sources would write) is the error a
    run reports, in `problems`, as `translate` says it."""
    rules = OutputRules(
        list(sources), output.out, overwrite=output.overwrite, exact_locales=output.exact_locales
    )
    out: list[tuple[SourceFile, tuple[Language, ...]]] = []
    for source in sources:
        allowed = []
        for lang in targets:
            claim = rules.claim(source, lang)
            if claim.refusal is not None:
                said = claim.refusal
                if said.startswith(source.display):  # (the line names the source first)
                    said = said[len(source.display) :].lstrip(": ")
                problems.append(InputProblem(source.display, said))
            else:
                allowed.append(lang)
        if allowed:
            out.append((source, tuple(allowed)))
    return out


def _exists(source: SourceFile, lang: Language, out: Path | None, exact: bool) -> bool:
    path = output_path(source, lang, out, exact_locales=exact)
    return path is not None and path.is_file()


@dataclass(slots=True)
class _Drift:
    """What --check finds of one catalog's targets."""

    stale: list[Stale] = field(default_factory=list)
    notes: list[Stale] = field(default_factory=list)
    current: list[Stale] = field(default_factory=list)
    keys: dict[str, dict[str, int]] = field(default_factory=dict)
    outdated: dict[str, list[OutdatedValue]] = field(default_factory=dict)


def _catalog_drift(
    source: SourceFile,
    targets: Sequence[Language],
    out: Path | None,
    output: OutputSettings,
    exact: bool,
) -> _Drift:
    """A file of strings against the targets it is merged into, key by key: stale where a run
    would change one (keys missing, stale or removed); a note for a person's values whose
    source changed since."""
    paths = {lang.code: output_path(source, lang, out, exact_locales=exact) for lang in targets}
    reader = source.format.open(source).merge
    assert reader is not None  # (a catalog whose format merges: `source.merges`)
    existing = {code: path for code, path in paths.items() if path is not None and path.is_file()}
    reader.merge_into(
        {code: KeptTarget(path) for code, path in existing.items()},
        keep_removed=output.keep_removed,
        allow_mass_removal=output.allow_mass_removal,
    )
    name = source.display
    found = _Drift()
    found.stale = [
        Stale(str(path), "missing", name, code)
        for code, path in paths.items()
        if path is not None and code not in existing
    ]
    try:
        drift = reader.drift()
    except FormatError as exc:
        found.stale += [Stale(str(p), f"{name}: {exc}", name, code) for code, p in existing.items()]
        return found
    for code, counts in drift.items():
        where = str(existing[code])
        if isinstance(counts, str):
            found.stale.append(Stale(where, counts, name, code))
            continue
        found.keys[where] = counts.as_dict()
        if counts.details:
            found.outdated[where] = counts.details
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
            found.stale.append(Stale(where, f"keys: {', '.join(parts)}", name, code))
        else:
            found.current.append(Stale(where, "", name, code))
        if counts.outdated:
            found.notes.append(
                Stale(
                    where,
                    f"{counts.outdated} value(s) a person wrote whose source changed since (kept)",
                    name,
                    code,
                )
            )
    return found
