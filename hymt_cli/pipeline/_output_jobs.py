"""The jobs of an input, one per target language: where each output goes (or why none), its
line of the report, and once it is committed, its record in its folder's manifest."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..formats import Catalog, Finding, Unit
from ..outputs.manifest import KeptTarget, locked, record, settle
from ..outputs.paths import OutputRules
from ..qa import Flag
from ..reporting.progress import ProgressEvents
from ..reporting.report import MAX_OUTDATED, FileReport, GlossaryStats, RunReport
from ..text.languages import Language
from ._jobs import Job, OpenInput
from ._run_plan import RunPlan
from .flagging import Where
from .flagging import record as record_flag

if TYPE_CHECKING:
    from ..review import RecordSpool


class OutputJobs:
    """Makes the jobs of one run's inputs, records each output as it is committed, and settles
    the manifests of the folders written to at the end (`settle_manifests`)."""

    def __init__(
        self,
        plan: RunPlan,
        rules: OutputRules,
        report: RunReport,
        progress: ProgressEvents,
        write_stdout: Callable[[bytes], None] | None,
        *,
        review: RecordSpool | None = None,
    ) -> None:
        self.plan = plan
        self.rules = rules
        self.report = report
        self.progress = progress
        self.write_stdout = write_stdout
        self.review = review
        self.recorded: set[Path] = set()  # output folders whose manifest this run updated

    def job(self, opened: OpenInput, lang: Language) -> Job:
        """The job of writing `opened` in `lang`: its output claimed, its line added to the report."""
        claim = self.rules.claim(opened.source, lang)
        report = FileReport(
            opened.source.display,
            str(claim.path) if claim.path else "<stdout>",
            lang.code,
            format=opened.source.format.name,
            warning=claim.note,  # (a person's file there, or a refusal, says more)
        )
        if claim.refusal is not None:
            report.status, report.error = "failed", claim.refusal
        elif claim.protected is not None:
            report.status, report.warning = "skipped", claim.protected
        elif self.plan.dry_run:
            report.status = "skipped"
        if self.plan.glossary is not None:
            report.glossary = GlossaryStats()
        self.report.files.append(report)
        job = Job(
            opened,
            lang,
            claim.path,
            report,
            self.write_stdout,
            live=claim.refusal is None and claim.protected is None,
            merge=claim.merge,
            label=claim.locale,
            created=claim.path is not None and not os.path.lexists(claim.path),
        )
        job.on_committed = lambda: self._committed(job)
        job.on_findings = lambda unit, translated, found: self._found(job, unit, translated, found)
        if claim.path is not None and claim.merge:
            folder = claim.path.parent
            job.guard = lambda: locked(folder)
        return job

    def kept_targets(self, opened: OpenInput) -> dict[str, KeptTarget | None]:
        """The target of each live job of `opened`, for its reader's merge (formats/base.TargetMerge):
        the file that exists, read by outputs/ (a `KeptTarget`), or None: written anew."""
        return {
            job.lang.code: KeptTarget(job.output) if job.merge and job.output is not None else None
            for job in opened.jobs
            if job.live
        }

    def _found(self, job: Job, unit: Unit, translated: Mapping[int, str], found: Sequence[Finding]) -> None:
        """Findings of writing a unit: flags of the file's report and of the review page."""
        texts = {s.id: s.text for s in unit.segments}
        for finding in found:
            flag = Flag(finding.check, "warning", finding.message)
            where = Where.of(job.report, unit, finding.segment)
            record_flag(where, flag, texts.get(finding.segment, ""), translated.get(finding.segment, ""))
            if self.review is not None:
                self.review.flag_later(
                    job.report,
                    unit.index,
                    finding.segment,
                    Flag(finding.check, "warning", finding.message),
                )

    def _committed(self, job: Job) -> None:
        result = job.result
        if result is not None and result.held is not None:  # a catalog left as it is, unrecorded
            job.report.status = "skipped"
            held = f"{job.output}: {result.held}"
            job.report.warning = "; ".join(filter(None, [job.report.warning, held]))
            self.progress.file_done(job.report.output)
            return
        if result is not None:
            job.report.keys = result.counts.as_dict()
            job.report.outdated = result.counts.details[:MAX_OUTDATED]
            job.report.up_to_date = result.unchanged
        if job.encoding is not None and job.encoding.substituted:  # one line per output, and the report's
            job.report.substituted = job.encoding.report()
            line = job.encoding.warning(f"{job.input.source.display} ({job.lang.code})")
            job.report.warning = "; ".join(filter(None, [job.report.warning, line]))
        if job.output is not None:
            self.recorded.add(job.output.parent)
            try:
                record(
                    job.output,
                    job.input.source.path,
                    self.plan.provenance_of(job.input.source.format.name, job.input.source.options),
                    entries=result.records if result is not None else None,
                    removed=result.archive if result is not None else None,
                    sources=result.sources if result is not None else None,
                )
            except OSError as exc:
                unrecorded = (
                    f"{job.output}: written, but not recorded in its folder's manifest "
                    f"({exc.strerror or exc}): the next run will not replace it"
                )
                job.report.warning = "; ".join(filter(None, [job.report.warning, unrecorded]))
        catalog = job.input.source.format.catalog
        if job.created and job.output is not None and catalog is not None:
            self._announce(job.output, catalog)
        self.progress.file_done(job.report.output)

    def _announce(self, output: Path, catalog: Catalog) -> None:
        """A new catalog: what its project must be told, and the file listing the project's
        catalogs joined (outputs/listings.py)."""
        listing = catalog.listing(output)
        joined = None
        if listing is not None:
            from ..outputs.listings import join  # lazy: a run of documents never joins a listing

            joined = join(listing, self.rules.is_input)
        for line in filter(None, (catalog.announce(output), joined)):
            self.progress.notice("info", line)

    def settle_manifests(self) -> None:
        """Each output folder's manifest lists every output, this run's included, with no journal
        beside it (manifest.py); a folder that cannot be settled keeps its journal, which counts too."""
        for folder in sorted(self.recorded):
            try:
                settle(folder)
            except OSError:
                pass
        self.recorded.clear()
