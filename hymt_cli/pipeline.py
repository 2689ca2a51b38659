"""One path for every format:
extract -> skip/dedupe -> prompt -> length-bucketed batches -> engine -> validate -> reassemble -> write.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .atomic import write_atomically
from .batching import length_sorted_batches, max_new_tokens, max_source_tokens
from .discovery import SourceFile, output_path
from .engine.base import Engine, Generation, GenerationRequest
from .errors import InputError
from .formats import Decoded, DocumentDecodeError, ParsedDocument
from .languages import Language
from .placeholders import has_tags, tag_validator
from .prompts import build_prompt, source_is_chinese
from .glossary import tally
from .repair import Repair, wants_repair
from .report import FileReport, GlossaryStats, RunReport, SegmentProblem
from .segments import Segment, is_translatable
from .sentences import split_long
from .tokenizer import EstimatingTokenizer, PromptTokenizer
from .validation import Problem, clean_output, problem_with

if TYPE_CHECKING:
    from .glossary import Glossary, GlossaryUse  # noqa: F401

# Extra output checks a feature adds (inline tags kept, glossary terms used): None when fine.
Validator = Callable[["Request", str], "Problem | None"]


@dataclass(frozen=True, slots=True)
class RunOptions:
    targets: tuple[Language, ...]
    source: Language | None = None  # None: detect per segment (only Chinese-or-not matters)
    out_dir: Path | None = None
    context_tokens: int = 8192
    # Per engine call. None: the engine's preference (`batch_tokens`/`batch_requests` attributes;
    # vLLM on a GPU takes whole jobs), else the defaults below.
    batch_tokens: int | None = None
    batch_requests: int | None = None
    dry_run: bool = False
    prompts_out: Path | None = None


DEFAULT_BATCH_TOKENS = 262_144
DEFAULT_BATCH_REQUESTS = 4096


class ProgressSink(Protocol):
    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None: ...
    def advanced(self, *, requests: int, output_tokens: int) -> None: ...
    def file_done(self) -> None: ...


class Memory(Protocol):
    """Translation memory hook (cache.PipelineMemory): `recall` fills `translation` of the
    requests it knows and returns how many; `remember` stores a finished batch."""

    def recall(self, requests: Sequence[Request]) -> int: ...
    def remember(self, requests: Sequence[Request]) -> None: ...


class NoProgress:
    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None: ...
    def advanced(self, *, requests: int, output_tokens: int) -> None: ...
    def file_done(self) -> None: ...


@dataclass(slots=True, eq=False)
class Request:
    """One unique (text, target language, prompt form): sent to the engine once."""

    core: str
    lang: Language
    prompt: str
    prompt_ids: tuple[int, ...]
    prompt_tokens: int
    source_tokens: int
    max_tokens: int
    first_use: tuple[str, int]
    uses: int = 0
    waiting: list[Job] = field(default_factory=list)
    translation: str | None = None
    problem: Problem | None = None
    attempts: int = 0
    formatted: bool = False  # carries <sN> tags: HY-MT's formatted-translation prompt
    repaired: bool = False  # tags kept by translating the inline runs separately
    glossary: GlossaryUse | None = None  # matched terms, do-not-translate placeholders
    kept: tuple[str, Problem] | None = None  # the least bad soft-problem output so far
    accepted: Problem | None = None  # the soft problem of the output finally kept

    @property
    def model_text(self) -> str:
        """The text the model translates (do-not-translate terms replaced by placeholders)."""
        return self.glossary.text if self.glossary is not None else self.core


@dataclass(slots=True)
class Piece:
    """Part of a segment: surrounding whitespace stays as in the source."""

    lead: str
    core: str
    trail: str
    request: Request | None  # None: nothing to translate (kept as is)


@dataclass(slots=True, eq=False)
class Job:
    """One document into one target language."""

    source: SourceFile
    lang: Language
    output: Path | None
    text: Decoded
    parsed: ParsedDocument
    pieces: dict[int, list[Piece]]
    report: FileReport
    pending: int = 0


def _split_whitespace(text: str) -> tuple[str, str, str]:
    core = text.strip()
    if not core:
        return text, "", ""
    start = text.index(core)
    return text[:start], core, text[start + len(core):]


class Planner:
    """Builds the unique requests: tokenizes every prompt exactly once."""

    def __init__(self, tokenizer: PromptTokenizer, options: RunOptions,
                 glossary: Glossary | None = None) -> None:
        self.tokenizer = tokenizer
        self.options = options
        self.glossary = glossary
        self.requests: dict[tuple, Request] = {}
        self._overhead: dict[tuple[str, bool, bool], int] = {}
        self._deferred: list[tuple[Request, int]] | None = None

    def defer_tokenization(self) -> None:
        """Collect new prompts and tokenize them together in `tokenize_deferred`: one batch call
        of the fast tokenizer instead of one per prompt (where the tokenizer has one)."""
        if self.tokenizer.exact and hasattr(self.tokenizer, "prompt_ids_batch"):
            self._deferred = []

    def tokenize_deferred(self) -> bool:
        """Token ids, counts and output budgets for the prompts collected since `defer_tokenization`."""
        pending, self._deferred = self._deferred, None
        if pending is None:
            return False
        all_ids = self.tokenizer.prompt_ids_batch([request.prompt for request, _ in pending])
        for (request, overhead), ids in zip(pending, all_ids, strict=True):
            self._set_tokens(request, ids, len(ids), overhead)
        return True

    def _set_tokens(self, request: Request, ids: tuple[int, ...], prompt_tokens: int, overhead: int) -> None:
        request.prompt_ids, request.prompt_tokens = ids, prompt_tokens
        request.source_tokens = max(1, prompt_tokens - overhead)
        request.max_tokens = max_new_tokens(request.source_tokens, prompt_tokens, self.options.context_tokens)

    def _overhead_tokens(self, lang: Language, chinese_source: bool, formatted: bool = False) -> int:
        key = (lang.code, chinese_source, formatted)
        if key not in self._overhead:
            # An empty source under the same template: what every prompt of this kind pays.
            probe = build_prompt("", lang, chinese_source=chinese_source, formatted=formatted)
            self._overhead[key] = self._prompt_tokens(probe)[1]
        return self._overhead[key]

    def _prompt_tokens(self, prompt: str) -> tuple[tuple[int, ...], int]:
        if isinstance(self.tokenizer, EstimatingTokenizer):
            return (), self.tokenizer.prompt_count(prompt)
        ids = self.tokenizer.prompt_ids(prompt)
        return ids, len(ids)

    def pieces_for(self, text: str, lang: Language, where: tuple[str, int]) -> list[Piece]:
        context = self.options.context_tokens
        limit = max_source_tokens(context, 64)
        # A token is at least one UTF-8 byte: shorter texts need no counting.
        parts = [text] if len(text.encode("utf-8")) <= limit else split_long(text, limit, self.tokenizer.count)
        pieces = []
        for part in parts:
            lead, core, trail = _split_whitespace(part)
            request = self._request(core, lang, where) if is_translatable(core) else None
            pieces.append(Piece(lead, core, trail, request))
        return pieces

    def _request(self, core: str, lang: Language, where: tuple[str, int]) -> Request:
        # Prompt form, glossary use and tags all follow from the text and the language: a
        # repeated text is looked up, not matched and detected again.
        key = (lang.code, core)
        request = self.requests.get(key)
        if request is None:
            chinese_source = source_is_chinese(self.options.source, core)
            use = self.glossary.use(core, lang) if self.glossary is not None else None
            model_text = use.text if use is not None else core
            formatted = has_tags(model_text)  # inline markup or do-not-translate placeholders
            prompt = build_prompt(model_text, lang, chinese_source=chinese_source,
                                  terms=use.terms if use is not None else (), formatted=formatted)
            overhead = self._overhead_tokens(lang, chinese_source, formatted)
            request = Request(core, lang, prompt, (), 0, 0, 0, where, formatted=formatted, glossary=use)
            if self._deferred is not None:
                self._deferred.append((request, overhead))
            else:
                self._set_tokens(request, *self._prompt_tokens(prompt), overhead)
            self.requests[key] = request
        request.uses += 1
        return request


class Pipeline:
    def __init__(self, options: RunOptions, tokenizer: PromptTokenizer,
                 engine_factory: Callable[[], Engine], *, progress: ProgressSink | None = None,
                 write_stdout: Callable[[bytes], None] | None = None,
                 engine_name: str = "", model: str | None = None,
                 validators: Sequence[Validator] = (), glossary: Glossary | None = None,
                 memory: Memory | None = None) -> None:
        self.options = options
        self.glossary = glossary
        # Inline tags must survive in every format; glossary terms when there is a glossary.
        self.validators = ((tag_validator,) + tuple(validators)
                           + ((glossary.check,) if glossary is not None else ()))
        self.memory = memory
        self._engine: Engine | None = None
        self.tokenizer = tokenizer
        self.engine_factory = engine_factory
        self.progress = progress or NoProgress()
        self.write_stdout = write_stdout
        self.report = RunReport(engine=engine_name, model=model, dry_run=options.dry_run,
                                estimated_tokens=not tokenizer.exact)
        self._engine_start: EngineStart | None = None

    def run(self, sources: Sequence[SourceFile]) -> RunReport:
        started = time.monotonic()
        # Streamed formats (parquet) drive themselves through recall/translate_requests.
        streamed = [s for s in sources if getattr(s.format, "streamed", False)]
        sources = [s for s in sources if not getattr(s.format, "streamed", False)]
        planner = self._planner = Planner(self.tokenizer, self.options, self.glossary)
        planner.defer_tokenization()
        if streamed and self.memory is None:
            self._start_engine()
        try:
            jobs = self._plan(sources, planner)
            requests = list(planner.requests.values())
            self.recall(requests)  # by text: before tokenizing, so the engine can start first
            if jobs and any(r.translation is None for r in requests):
                self._start_engine()
            deferred = planner.tokenize_deferred()  # while the engine starts
        except BaseException:
            if self._engine_start is not None:
                self._engine_start.discard()
            raise
        if deferred:  # recalled before their tokens were counted
            self.report.cache_hit_tokens = sum(r.prompt_tokens for r in requests if r.translation is not None)
        self.report.segments = sum(j.report.segments for j in jobs)
        self.report.unique_segments = len(requests)
        self.report.prompt_tokens = sum(r.prompt_tokens for r in requests)
        if self.options.prompts_out is not None:
            self._write_prompts(requests)
        try:
            if self.options.dry_run:
                for job in jobs:
                    job.report.status = "skipped"
            elif jobs:
                self._translate(jobs, requests)
            for source in streamed:
                source.format.translate_stream(source, self)
        finally:
            start, self._engine_start = self._engine_start, None
            if start is not None:  # started, never used (e.g. an unreadable parquet file)
                try:
                    self._engine = start.result()
                except Exception:  # nothing needed it: its failure is not the run's
                    pass
            if self._engine is not None:
                self._engine.close()
                self._engine = None
        self.report.engine_seconds = round(self.report.engine_seconds, 3)
        self.report.seconds = round(time.monotonic() - started, 3)
        return self.report

    # -- planning ---------------------------------------------------------------------------
    def _plan(self, sources: Sequence[SourceFile], planner: Planner) -> list[Job]:
        jobs: list[Job] = []
        inputs = {s.path.resolve() for s in sources if s.path is not None}
        writers: dict[Path, str] = {}  # output -> the input it is translated from
        for source in sources:
            try:
                text, parsed = self._load(source)
                segments = list(parsed.segments)
            except InputError as exc:
                self.report.files.append(FileReport(source.display, None, None, "failed", exc.message,
                                                    format=source.format.name))
                continue
            for lang in self.options.targets:
                out = output_path(source, lang, self.options.out_dir)
                file_report = FileReport(source.display, str(out) if out else "<stdout>", lang.code,
                                         format=source.format.name)
                self.report.files.append(file_report)
                if out is not None and out.resolve() in inputs:
                    file_report.status, file_report.error = "failed", (
                        f"{source.display}: output {out} is an input of this run; refusing to overwrite it")
                    continue
                if out is not None and writers.setdefault(out.resolve(), source.display) != source.display:
                    file_report.status, file_report.error = "failed", (
                        f"{source.display}: output {out} is already written from "
                        f"{writers[out.resolve()]}; use separate --out folders")
                    continue
                job = Job(source, lang, out, text, parsed, {}, file_report)
                if self.glossary is not None:
                    file_report.glossary = GlossaryStats()
                for segment in segments:
                    if not is_translatable(segment.text):
                        continue
                    job.pieces[segment.id] = planner.pieces_for(segment.text, lang,
                                                                (source.display, segment.id))
                    file_report.segments += 1
                distinct = {id(p.request): p.request for ps in job.pieces.values() for p in ps if p.request}
                for request in distinct.values():
                    request.waiting.append(job)
                job.pending = len(distinct)
                jobs.append(job)
            if planner.requests and self.memory is None:
                # Work for the model: load it while the other documents are parsed (with a
                # translation memory, once the memory has been asked: see `run`).
                self._start_engine()
        return jobs

    def _start_engine(self) -> None:
        """Build the engine in the background (vLLM takes tens of seconds to start)."""
        if self._engine_start is None and self._engine is None and not self.options.dry_run:
            self._engine_start = EngineStart(self.engine_factory)

    @staticmethod
    def _load(source: SourceFile) -> tuple[Decoded, ParsedDocument]:
        try:
            data = source.path.read_bytes() if source.path is not None else _read_stdin()
        except OSError as exc:
            raise InputError(f"{source.display}: cannot read: {exc.strerror or exc}") from None
        try:
            decoded = source.format.decode(data)
        except DocumentDecodeError as exc:
            raise InputError(f"{source.display}: {exc}") from None
        try:
            return decoded, source.format.parse(decoded.text)
        except ValueError as exc:
            raise InputError(f"{source.display}: cannot parse as {source.format.name}: {exc}") from None

    def _write_prompts(self, requests: list[Request]) -> None:
        lines = []
        for r in requests:
            lines.append(json.dumps({"file": r.first_use[0], "segment": r.first_use[1], "lang": r.lang.code,
                                     "prompt": r.prompt, "tokens": r.prompt_tokens,
                                     "max_tokens": r.max_tokens, "uses": r.uses}, ensure_ascii=False))
        write_atomically(self.options.prompts_out, ("\n".join(lines) + "\n" if lines else "").encode())

    # -- translation ------------------------------------------------------------------------
    def recall(self, requests: Sequence[Request]) -> list[Request]:
        """Settle what the translation memory knows; return the requests left for the engine."""
        if self.memory is None or not requests:
            return list(requests)
        self.report.cache_hits += self.memory.recall(requests)
        left = []
        for request in requests:
            if request.translation is None:
                left.append(request)
            else:
                self.report.cache_hit_tokens += request.prompt_tokens
        return left

    def engine(self) -> Engine:
        """The run's one engine, created on first use, closed when `run` ends."""
        if self._engine is None:
            start, self._engine_start = self._engine_start, None
            self._engine = start.result() if start is not None else self.engine_factory()
        return self._engine

    def translate_requests(self, requests: list[Request]) -> None:
        """Engine pass, then one deterministic second try for outputs that failed a check."""
        if not requests:
            return
        engine = self.engine()
        self._run_pass(engine, requests, deterministic=False)
        retry = [r for r in requests if r.problem is not None and r.problem.retryable]
        if retry:
            self.report.retried += len(retry)
            self._run_pass(engine, retry, deterministic=True)
            self._repair(engine, [r for r in retry if wants_repair(r)])

    def _translate(self, jobs: list[Job], requests: list[Request]) -> None:
        left = [r for r in requests if r.translation is None]  # the rest came from the memory
        self.progress.planned(files=len(jobs), requests=len(left),
                              prompt_tokens=self.report.prompt_tokens - self.report.cache_hit_tokens)
        for job in jobs:  # documents with nothing to translate are done already
            if job.pending == 0:
                self._finish(job)
        for request in requests:
            if request.translation is not None:
                self._settle(request)
        self.translate_requests(left)

    def _run_pass(self, engine: Engine, requests: list[Request], *, deterministic: bool) -> None:
        options = self.options
        batches = length_sorted_batches(
            requests, lambda r: r.prompt_tokens + r.max_tokens,
            token_budget=options.batch_tokens or getattr(engine, "batch_tokens", None) or DEFAULT_BATCH_TOKENS,
            max_items=options.batch_requests or getattr(engine, "batch_requests", None) or DEFAULT_BATCH_REQUESTS)
        # An engine that streams hands back each answer as soon as it is done: validation and
        # writing overlap with generation, and a document is written once its last answer is in.
        stream = getattr(engine, "generate_stream", None)
        for batch in batches:
            t0 = time.monotonic()
            generation_requests = [GenerationRequest(r.model_text, r.prompt_ids, r.max_tokens, deterministic)
                                   for r in batch]
            results = (stream(generation_requests) if stream is not None
                       else enumerate(engine.generate(generation_requests)))
            self.report.engine_requests += len(batch)
            done = out_tokens = 0
            answered: list[Request] = []
            for index, generation in results:
                done += 1
                out_tokens += generation.output_tokens
                answered.append(batch[index])
                self._accept(batch[index], generation, deterministic)
                if len(answered) == 1024:
                    self._advanced(answered, out_tokens, deterministic)
                    answered, out_tokens = [], 0
            self._advanced(answered, out_tokens, deterministic)
            self.report.engine_seconds += time.monotonic() - t0
            if done != len(batch):
                raise RuntimeError(f"engine {engine.name!r} answered {done} of {len(batch)} requests")

    def _advanced(self, answered: list[Request], output_tokens: int, deterministic: bool) -> None:
        """Count and commit answers in chunks: a killed run resumes from the memory."""
        self.report.output_tokens += output_tokens
        if self.memory is not None and answered:
            self.memory.remember(answered)
        if answered and not deterministic:
            self.progress.advanced(requests=len(answered), output_tokens=output_tokens)

    def _accept(self, request: Request, generation: Generation, deterministic: bool) -> None:
        """Validate one answer; settle the request (write what waited for it) once final."""
        request.attempts += 1
        cleaned = clean_output(generation.text)
        if request.glossary is not None:
            cleaned = request.glossary.restore(cleaned)
        # A hard problem (output unusable) outranks a soft one (output usable, imperfect).
        request.problem = problem_with(generation, request.core, cleaned) or min(
            (p for p in (check(request, cleaned) for check in self.validators) if p),
            key=lambda p: p.soft, default=None)
        if request.problem is not None and request.problem.soft and (
                request.kept is None or request.problem.severity <= request.kept[1].severity):
            request.kept = (cleaned, request.problem)
        request.translation = None if request.problem else cleaned
        final = request.problem is None or not request.problem.retryable or (
            deterministic and not wants_repair(request))
        if final:
            if request.problem is not None and request.kept is not None:
                request.translation, request.accepted = request.kept
                request.problem = None
            self._settle(request)

    def _repair(self, engine: Engine, broken: list[Request]) -> None:
        """Tags still broken after the retry: translate each inline run on its own (repair.py)."""
        if not broken:
            return
        repairs = [Repair.plan(r, lambda text, r=r: self._planner._request(text, r.lang, r.first_use))
                   for r in broken]
        fresh = {id(run): run for rep in repairs for run in rep.run_requests() if run.attempts == 0}
        if fresh:
            self._run_pass(engine, list(fresh.values()), deterministic=True)
        for rep in repairs:
            rep.apply()
            self._settle(rep.request)

    def _settle(self, request: Request) -> None:
        """The request has its final outcome: write every document that was waiting only for it."""
        for job in request.waiting:
            job.pending -= 1
            if job.pending == 0:
                self._finish(job)

    def _finish(self, job: Job) -> None:
        translated: dict[int, str] = {}
        for segment_id, pieces in job.pieces.items():
            requests = [p.request for p in pieces if p.request is not None]
            if any(r.attempts > 1 for r in requests):
                job.report.retried += 1
            if any(r.repaired for r in requests):
                job.report.repaired += 1
            failed = [r.problem for r in requests if r.problem is not None]
            if failed:
                job.report.untranslated += 1
                job.report.problems.append(SegmentProblem(segment_id, failed[0].message))
                continue
            translated[segment_id] = "".join(
                p.lead + (p.request.translation if p.request else p.core) + p.trail for p in pieces)
            job.report.translated += 1
            if job.report.glossary is not None:
                tally(job.report.glossary, segment_id, job.lang.code,
                      [(r.glossary, r.translation) for r in requests if r.glossary is not None])
        try:
            text = job.parsed.reassemble(translated, target_language=job.lang.code)
            data = job.text.encode(text)
            if job.output is None:
                assert self.write_stdout is not None
                self.write_stdout(data)
            else:
                write_atomically(job.output, data)
        except OSError as exc:
            job.report.status = "failed"
            job.report.error = f"{job.output}: cannot write: {exc.strerror or exc}"
        except Exception as exc:  # a format bug must not take the other files down
            job.report.status = "failed"
            job.report.error = f"{job.source.display}: cannot reassemble: {type(exc).__name__}: {exc}"
        self.progress.file_done()


class EngineStart:
    """Builds the engine in a background thread, so that loading the model (and vLLM's CUDA
    graph capture) overlaps with parsing the documents and tokenizing the prompts."""

    def __init__(self, factory: Callable[[], Engine]) -> None:
        self._engine: Engine | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._build, args=(factory,), name="hymt-engine-start",
                                        daemon=True)
        self._thread.start()

    def _build(self, factory: Callable[[], Engine]) -> None:
        try:
            self._engine = factory()
        except BaseException as exc:  # handed to the thread that asks for the engine
            self._error = exc

    def result(self) -> Engine:
        """The engine, once built; the factory's exception if it failed."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._engine is not None
        return self._engine

    def discard(self) -> None:
        """The run ended early: close the engine if it is already built (a daemon thread
        still building one is left to the end of the process)."""
        if not self._thread.is_alive() and self._engine is not None:
            self._engine.close()


def _read_stdin() -> bytes:
    import sys

    return sys.stdin.buffer.read()
