"""The pipeline: the one driver of every run, whatever the format.

inputs -> units (format readers) -> pieces -> unique requests (dedupe) -> memory ->
prompt -> length-bucketed batches -> engine -> checks -> retry/repair -> units reassembled
-> outputs written in unit order, committed atomically.

Units are read and translated a window at a time (`RunPlan.window_segments`): all of a
folder of documents usually fits in one window (one engine job, length-sorted across the
documents); a table streams through window after window, so memory stays bounded.
"""

from __future__ import annotations

import gc
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine.base import TakesEarlyRequests
from ..formats import FORMATS, FormatError, Unit
from ..inputs.sources import SourceFile
from ..model.tokenizer import PromptTokenizer
from ..outputs.paths import PendingOutput
from ..qa import QaSuite
from ..reporting.progress import ProgressEvents
from ..reporting.report import FileReport, RunReport
from ..signals import collector_paused, deferred
from ..text.segments import is_translatable
from ._acceptance import context_left_out, glossary_terms_used, tags_kept
from ._jobs import OpenInput
from ._outcomes import AnswerCheck
from ._output_jobs import OutputJobs
from ._run_plan import RunPlan
from ._unit_results import finish_unit
from ._unsendable import note_unsendable, unsendable
from .dispatch import Dispatcher, Memory, engine_request
from .engine_start import EngineLease
from .flagging import Flagger
from .held_answers import HeldAnswers
from .planning import PlannedRequest, Planner, RequestKey
from .window import UnitWork, Window, smallest_units_first

if TYPE_CHECKING:
    from ..review import RecordSpool

# Requests planned together and sent early to an engine that is already running (`_send_early`):
# one batch call of the tokenizer each.
EARLY_CHUNK = 256


class Pipeline:
    """One run of `plan` over its inputs: the plan says what is asked, the rest are the live
    objects the run uses (the tokenizer, the engine's factory, the memory, the QA suite, and
    where its news and records go)."""

    def __init__(
        self,
        plan: RunPlan,
        tokenizer: PromptTokenizer,
        engine: EngineLease,
        *,
        memory: Memory | None = None,
        qa: QaSuite | None = None,
        progress: ProgressEvents | None = None,
        write_stdout: Callable[[bytes], None] | None = None,
        review: RecordSpool | None = None,
        on_planned: Callable[[Sequence[PlannedRequest]], None] | None = None,
    ) -> None:
        """`engine`: the run's engine, lent (its owner closes it on every path too); `on_planned`
        sees every window's planned requests (benchmarks and tests read the plan);
        `review` gets every finished unit's segment records (the review page's data); `qa`: the QA
        checks (hymt_cli/qa) to run on every answer (None: none)."""
        self.plan = plan
        self.tokenizer = tokenizer
        # Inline tags must survive in every format, a context never comes back; glossary terms when
        # there is a glossary; the QA checks when asked for.
        self.flagger = Flagger(qa, review) if qa is not None else None
        self.checks: tuple[AnswerCheck, ...] = (
            (tags_kept, context_left_out)
            + plan.validators
            + ((glossary_terms_used,) if plan.glossary is not None else ())
            + (self.flagger.checks() if self.flagger is not None else ())
        )
        # Answers held across windows until a commit is worth its cost (held_answers.py).
        self.memory = HeldAnswers(memory, max_held=plan.max_held) if memory is not None else None
        self.engine = engine  # lent for the run: started, taken and closed through it
        self.progress = progress or ProgressEvents()
        self.write_stdout = write_stdout
        self.report = RunReport(
            engine=plan.engine_name,
            model=plan.model,
            dry_run=plan.dry_run,
            estimated_tokens=not tokenizer.exact,
            qa_levels=dict(qa.levels) if qa is not None else None,
        )
        self._queue: deque[SourceFile] = deque()
        self._current: OpenInput | None = None
        self._inputs: list[OpenInput] = []
        self._input_order: dict[OpenInput, int] = {}
        self._prompts: PendingOutput | None = None
        self._on_planned = on_planned
        self.review = review

    def stages(self) -> tuple[Callable[[Window], None], ...]:
        """The run's outline. `run` reads the inputs a window at a time (`_read`: units split
        into pieces, each a request), and takes every window through these stages, in order:

        plan       `_plan`: what the memory knows is recalled, the rest tokenized into prompts
                   (the engine starts meanwhile; `--prompts-out` gets them);
        translate  `_translate`: the prompts go to the engine; as each answer comes back it is
                   checked (`self.checks`: tags, glossary, QA), retried or repaired (dispatch.py),
                   and every unit whose answers are all in is reassembled and written
                   (`_write`: its output committed once its last unit is).

        A dry run plans only: nothing is translated, nothing written."""
        return (self._plan,) if self.plan.dry_run else (self._plan, self._translate)

    def run(self, sources: Sequence[SourceFile]) -> RunReport:
        started = time.monotonic()
        self._jobs = OutputJobs(
            self.plan,
            self.plan.output_rules(sources),
            self.report,
            self.progress,
            self.write_stdout,
            review=self.review,
        )
        self._queue = deque(sources)
        if self.plan.prompts_out is not None:
            with deferred():
                self._prompts = PendingOutput(self.plan.prompts_out, None)
        stages = self.stages()
        failed = True
        # A window's objects (a million for 65,536 segments) live until it is written: the cycle
        # collector, run as they are made, went through them again and again (a quarter of a
        # long text's run). It runs once between windows instead, on what was made since (with
        # collection paused, every new object stays in the youngest generation).
        try:
            with collector_paused() as collecting:
                while (window := self._read()) is not None:
                    for stage in stages:
                        stage(window)
                    del window  # translated and written: freed before the next one is read
                    if collecting and (self._current is not None or self._queue):
                        gc.collect(0)  # (not after the last: automatic collection takes over then)
                if self._prompts is not None:
                    self._prompts.commit()
                if self.flagger is not None:
                    self.flagger.finish()
            failed = False
        finally:
            if self.memory is not None:  # what was answered is kept, also when the run stops early
                self.memory.flush()
            self.engine.close(failed=failed)
            if failed:
                self._discard_all()
            self._jobs.settle_manifests()
        report = self.report
        report.segments = sum(f.segments for f in report.files)
        report.engine_seconds = round(report.engine_seconds, 3)
        report.seconds = round(time.monotonic() - started, 3)
        return report

    # -- reading and planning -----------------------------------------------------------------
    def _read(self) -> Window | None:
        """Read units until the window is full or the inputs are done; None when nothing is left."""
        if self.flagger is not None:
            self.flagger.new_window()
        window = Window.checked_by(
            Planner(
                self.tokenizer,
                context_tokens=self.plan.context_tokens,
                source=self.plan.source,
                glossary=self.plan.glossary,
            ),
            self.checks,
        )
        while window.segments < self.plan.window_segments:
            current = self._next_input(window)
            if current is None:
                break
            try:
                unit = next(current.units)
            except StopIteration:
                self._exhausted(current)
                continue
            except FormatError as exc:
                self._unreadable(current, f"{current.source.display}: {exc}")
                continue
            current.read += 1
            if unit.warning:
                current.warn(unit.warning)
            if current.read == 1:
                self._decide_encodings(current)
            self._plan_unit(window, current, unit)
        if not window.works and self._current is None and not self._queue:
            return None
        return window

    def _next_input(self, window: Window) -> OpenInput | None:
        while self._current is None and self._queue:
            source = self._queue.popleft()
            self.progress.phase("reading")
            opened = OpenInput(source, source.format.open(source, self.plan.read_sizes), iter(()))
            opened.units = opened.reader.units()
            for lang in self.plan.targets:
                job = self._jobs.job(opened, lang)
                opened.jobs.append(job)
                window.new_jobs += job.live
            merge = opened.reader.merge
            if merge is not None:
                merge.merge_into(
                    self._jobs.kept_targets(opened),
                    keep_removed=self.plan.keep_removed,
                    allow_mass_removal=self.plan.allow_mass_removal,
                )
            if any(job.live for job in opened.jobs):
                self._current = opened
                self._input_order[opened] = len(self._inputs)  # document order, for QA reports
                self._inputs.append(opened)
        return self._current

    def _decide_encodings(self, current: OpenInput) -> None:
        """Before anything of an input is translated: a target language whose letters its
        output's legacy encoding lacks, even as their conventional substitutes (German in GBK),
        fails that output in one line naming the file, the language and the encoding; the other
        languages and files go on. The others learn their output's encoding (_output_encoding.py:
        what the model writes that it lacks)."""
        reader = current.reader.encoded
        if reader is None:
            return
        for job in current.jobs:
            if not job.live:
                continue
            if (why := reader.unwritable(job.lang.code)) is not None:
                job.fail(f"{current.source.display}: {why}")
            elif (codec := reader.output_encoding(job.lang.code)) is not None:
                job.written_in(codec)

    def _exhausted(self, current: OpenInput) -> None:
        current.exhausted = True
        self._current = None
        for job in current.jobs:
            job.commit_if_done()

    def _unreadable(self, current: OpenInput, message: str) -> None:
        """An input that cannot be read: nothing of it is written, one line says why."""
        self._current = None
        current.exhausted = True
        if current.read == 0:  # failed before any unit: one report for the input, not per language
            for job in current.jobs:
                self.report.files.remove(job.report)
            self.report.files.append(
                FileReport(
                    current.source.display, None, None, "failed", message, format=current.source.format.name
                )
            )
            current.jobs = []
        current.fail(message)

    def _plan_unit(self, window: Window, current: OpenInput, unit: Unit) -> None:
        planner = window.planner
        translatable = [s for s in unit.segments if is_translatable(s.text)]
        refused = unsendable(unit.segments)
        window.segments += len(unit.segments)
        with_context = self._with_context(current)
        display, weights = current.source.display, unit.weights
        for job in current.jobs:
            if not job.live:
                continue
            note_unsendable(job, unit, refused)
            work = UnitWork(job, unit, {})
            lang = job.lang
            only = unit.only.get(lang.code)
            counted = 0
            for segment in translatable:  # (every segment of a run: names read once, above)
                if not segment.is_for(lang.code) or (only is not None and segment.id not in only):
                    continue
                work.pieces[segment.id] = planner.pieces_for(
                    segment.text,
                    lang,
                    (display, segment.id),
                    segment.context if with_context else "",
                )
                counted += weights.get(segment.id, 1)
            job.report.segments += counted
            keys = {p.key for pieces in work.pieces.values() for p in pieces if p.key is not None}
            for key in keys:
                window.waiting[key].append(work)
            work.pending = len(keys)
            window.works.append(work)
        if planner.asks and not self.engine.started and self._needs_engine(window):
            # Work for the model: load it while the other inputs are read (a cold start is tens
            # of seconds; reading a large folder or catalog can be too).
            self.engine.start()
        self._send_early(window)

    def _send_early(self, window: Window) -> None:
        """An engine that is running already gets the window's first requests while the rest is
        read and planned (EARLY_CHUNK at a time, as long as it has room): it works meanwhile, and
        the window's dispatch takes their answers (engine.base.TakesEarlyRequests)."""
        if not self.engine.started or window.early_closed:  # (a dry run's never starts)
            return
        engine: object = self.engine.ready()  # (any engine; some take requests early)
        if engine is None:  # still starting (or kept by an EngineKeeper): the next unit asks again
            return
        if not isinstance(engine, TakesEarlyRequests):
            # never again for this window: each unit would copy the window's requests so far
            window.early_closed = True
            return
        planner = window.planner
        new = planner.registered_since(window.early_seen)
        if len(new) < EARLY_CHUNK:
            return
        room = engine.early_room()
        if room <= 0:
            window.early_closed = True
            return
        window.early_seen += len(new)
        if self.memory is not None:  # what the memory knows is never asked for
            keys = [a.key for a in new if a.key not in window.looked_up]
            if keys:
                window.looked_up.update(zip(keys, self.memory.recall(keys), strict=True))
            new = [a for a in new if window.looked_up.get(a.key) is None]
        planner.finish()
        # the longest first, as a pass sends them (batching.LONG_LEAD_FACTOR): the tail of the job
        # is the longest request's steps
        planned = sorted((planner.planned[a.key] for a in new), key=lambda r: -r.max_tokens)
        engine.send_early([engine_request(r) for r in planned[:room]])

    def _with_context(self, current: OpenInput) -> bool:
        mode = self.plan.context
        spec = FORMATS.get(current.source.format.name)
        return mode == "on" or (mode == "auto" and spec is not None and spec.context_by_default)

    def _needs_engine(self, window: Window) -> bool:
        """Whether the window's requests so far include one the translation memory lacks (a
        fully remembered run starts no engine). Asked unit by unit until the engine starts."""
        if self.memory is None:
            return True
        new = window.planner.registered_since(window.checked)  # not every ask again: unit by unit
        window.checked += len(new)
        keys = [a.key for a in new if a.key not in window.planner.planned]
        found = self.memory.recall(keys) if keys else []
        window.looked_up.update(zip(keys, found, strict=True))  # `_recall` does not ask again
        return any(t is None for t in found)

    # -- planning and translating ---------------------------------------------------------------
    def _plan(self, window: Window) -> None:
        """Recall what the memory knows (by text: the engine can start first), tokenize the rest."""
        planner = window.planner
        asks = list(planner.asks.values())  # (some may be planned already: sent early)
        window.recalled = self._recall(window, [a.key for a in asks])
        window.to_send = [a.key for a in asks if a.key not in window.recalled]
        if window.to_send:
            self.engine.start()
        self.progress.phase("planning")
        planner.finish()  # tokenized while the engine starts
        requests = [planner.planned[a.key] for a in asks]
        report = self.report
        report.unique_segments += len(requests)
        report.prompt_tokens += sum(r.prompt_tokens for r in requests)
        report.cache_hit_tokens += sum(r.prompt_tokens for r in requests if r.key in window.recalled)
        if self._prompts is not None:
            self._write_prompts(planner, requests)
        if self._on_planned is not None:
            self._on_planned(requests)

    def _translate(self, window: Window) -> None:
        """Send what the memory did not know; units are written as their answers come in."""
        planner, left = window.planner, window.to_send
        self.progress.planned(
            files=window.new_jobs,
            requests=len(left),
            prompt_tokens=sum(planner.planned[k].prompt_tokens for k in left),
        )
        for work in window.works:  # units with nothing to translate are done already
            if work.pending == 0:
                self._write(window, work)
        for key in window.recalled:
            self._settled(window, key)
        dispatcher = Dispatcher(
            self.plan,
            self.engine.get,
            window.outcomes,
            planner,
            report=self.report,
            progress=self.progress,
            memory=self.memory,
            on_final=lambda key: self._settled(window, key),
        )
        dispatcher.dispatch(smallest_units_first([planner.planned[k] for k in left], window))
        unfinished = [w for w in window.works if w.pending]
        if unfinished:
            raise RuntimeError(f"{len(unfinished)} unit(s) never got all their answers")

    def _recall(self, window: Window, keys: list[RequestKey]) -> set[RequestKey]:
        """Settle what the translation memory knows; return those keys."""
        if self.memory is None or not keys:
            return set()
        answers = window.looked_up
        asked = [k for k in keys if k not in answers]
        if asked:
            answers.update(zip(asked, self.memory.recall(asked), strict=True))
        found = set()
        for key in keys:
            translation = answers[key]
            if translation is not None:
                window.outcomes.recalled(key, translation)
                found.add(key)
        self.report.cache_hits += len(found)
        return found

    def _settled(self, window: Window, key: RequestKey) -> None:
        """The request has its final outcome: finish every unit that was waiting only for it."""
        for work in window.waiting.pop(key, ()):
            work.pending -= 1
            if work.pending == 0:
                self._write(window, work)

    def _write(self, window: Window, work: UnitWork) -> None:
        """A unit whose answers are all in: counted, flagged, handed to its job to be written."""
        finish_unit(window, work, self._input_order[work.job.input], flagger=self.flagger, review=self.review)

    def _write_prompts(self, planner: Planner, requests: Sequence[PlannedRequest]) -> None:
        assert self._prompts is not None
        for r in requests:
            line = {
                "file": r.first_use[0],
                "segment": r.first_use[1],
                "lang": r.lang.code,
                "prompt": r.prompt,
                "tokens": r.prompt_tokens,
                "max_tokens": r.max_tokens,
                "uses": planner.uses[r.key],
            }
            self._prompts.handle.write(json.dumps(line, ensure_ascii=False).encode() + b"\n")

    def _discard_all(self) -> None:
        """The run stopped early (a signal, an error): remove every temp file; an output not
        committed yet is reported as not written ("interrupted")."""
        for opened in self._inputs:
            for job in opened.jobs:
                job.discard()
                if not job.committed and job.report.status == "ok":
                    job.report.status = "interrupted"
        if self._prompts is not None:
            self._prompts.discard()
