"""The vLLM engine: offline batched inference, one `vllm.LLM` for the whole run.

vLLM and torch are imported only when an engine is built, so `--help`, `--dry-run` and
most tests never pay for them. Everything vLLM prints goes to stderr: stdout carries
the translated documents.
"""

from __future__ import annotations

import gc
import itertools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import EngineUnavailable, one_line
from ..model.answer_decoder import AnswerDecoder
from ..model.files import INSTALL_HINT, MODEL_HINT, check_local_model
from . import vllm_sampler
from .base import BatchLimits, EngineOptions, Generation, GenerationRequest, Sampling
from .early import EarlyRequests, is_early
from .kernel_pack import KernelCaches
from .tuning import Tuning
from .vllm_arguments import llm_kwargs, request_params, tune_one_engine
from .vllm_trace import StepTrace, core_trace_installed

if TYPE_CHECKING:
    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt
    from vllm.outputs import CompletionOutput

# Per engine call on a GPU: whole jobs at once; the engine feeds vLLM from them as it works
# (IN_FLIGHT_SEQS x max_num_seqs requests queued or running), so that its scheduler always
# has work queued and the pipeline gets answers back as they finish. No more than that: a
# request queued in one engine cannot go to another that has room (replicas.py).
CUDA_BATCH_TOKENS = 8 << 20
CUDA_BATCH_REQUESTS = 65536
IN_FLIGHT_SEQS = 1.25
WARM_UP_TOKENS = 8
WARM_UP_REQUESTS = 256  # on a GPU; as bench/run.py's warm-up, after which no kernel was compiled
_T = TypeVar("_T")


class VllmEngine:
    """Generates with vLLM from pre-tokenized prompts (the pipeline owns the chat template).

    One `vllm.LLM` in this process (its engine core in a child process). On a GPU its
    settings come from `tuning` (see tuning.py); several of them, one process each, make a
    `ReplicaEngine` (replicas.py, started by `start_vllm`).
    """

    name = "vllm"
    limits = BatchLimits()  # on a GPU: whole jobs (see __init__)
    retries = 0

    def __init__(
        self,
        options: EngineOptions,
        sampling: Sampling,
        *,
        verbose: bool = False,
        ignore_eos: bool = False,
        tuning: Tuning | None = None,
        on_phase: Callable[[str], None] | None = None,
        own_process: bool = False,
    ) -> None:
        """Start vLLM (tens of seconds). `verbose` lets vLLM's INFO logs through (to stderr).

        `ignore_eos` is for benchmarks only (not a CLI flag): random-weight models never emit
        EOS, so every request runs to its own max_tokens, the same for every contender.
        `tuning`: the GPU settings (None: the rule of tuning.py for one engine on this GPU).
        `on_phase` hears the name of each start-up phase as it begins. `own_process`: this
        process exists for this engine alone (a replica), so its heap may be frozen.
        """
        phase = on_phase or _no_phase
        self._ignore_eos = ignore_eos
        self._ids = itertools.count()
        self._tags: dict[str, int] = {}
        self._early = EarlyRequests()
        self._llm: LLM | None = None
        self._trace: StepTrace | None = None
        self.sampler = "vllm"  # hymt's sampler once the workers take it (vllm_sampler.py)
        route_vllm_logs_to_stderr(verbose)
        keep_kernel_caches()
        check_local_model(options.model)
        self._decoder = answer_decoder(options)
        phase("importing vLLM")
        try:
            import vllm
            from vllm.platforms import current_platform
        except ImportError as exc:
            raise EngineUnavailable("vLLM is not installed", hint=INSTALL_HINT) from exc
        self._sampling = sampling
        on_cpu = current_platform.is_cpu()
        if not on_cpu and tuning is None:
            tuning = tune_one_engine(options)
        notes: list[str] = []
        kwargs = llm_kwargs(options, sampling, on_cpu=on_cpu, tuning=tuning, notes=notes)
        if self._decoder is not None:
            kwargs["skip_tokenizer_init"] = True  # hymt decodes the answers (answer_decoder.py)
        sharing = tuning.replicas_per_gpu if tuning else 1  # engines on this one GPU
        own_sampler = (
            wants_own_sampler(options.vllm_options().sampler, on_cpu, engines_per_gpu=sharing)
            and "worker_extension_cls" not in kwargs
        )
        if own_sampler:
            kwargs["worker_extension_cls"] = vllm_sampler.EXTENSION
        if not on_cpu:
            self.limits = BatchLimits(CUDA_BATCH_TOKENS, CUDA_BATCH_REQUESTS)
        _inspect_model_in_process()
        if own_process:
            # Everything imported so far (torch, vLLM, transformers: millions of objects) lives
            # as long as the process: frozen, it is left out of the gc.collect() calls that
            # vLLM's start makes (model load, memory profile, before each CUDA graph), which
            # the engine core inherits when it forks. H200: the engine's start 17.3 s -> 11.7-13.4 s
            # (bench/start_probe.py profile --measure-only [--freeze]). Never in a caller's process.
            gc.freeze()
        loading = "; ".join([weights_of(kwargs), *notes])
        phase(f"loading the model ({loading}), sizing the KV cache, capturing CUDA graphs")
        try:
            with (
                _stdout_to_stderr(),
                sampler_warm_up_as(self._params(GenerationRequest("", (), 2))),
                core_trace_installed(),
            ):
                self._llm = llm = vllm.LLM(**kwargs)
        except Exception as exc:
            raise EngineUnavailable(
                f"vLLM could not load model {options.model!r}: {one_line(exc)}", hint=MODEL_HINT
            ) from exc
        if own_sampler and all(llm.collective_rpc(vllm_sampler.SWITCH)):
            self.sampler = "topk-first"
        self.in_flight = int(IN_FLIGHT_SEQS * llm.llm_engine.vllm_config.scheduler_config.max_num_seqs)
        self._trace = StepTrace.attach(llm)
        phase("warming up")  # first use JIT-compiles the sampling kernels (~10 s on a fresh machine)
        self._warm_up(2 if on_cpu else WARM_UP_REQUESTS)
        phase("ready")

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """One Generation per request, in request order; each request keeps its own max_tokens."""
        answers = dict(self.generate_stream(requests))
        return [answers[i] for i in range(len(requests))]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        """(index into `requests`, Generation) for each request as soon as it finishes.

        Requests go to vLLM in their order, `in_flight` at a time (queued or running), topped
        up after every engine step: its scheduler always has work queued, the caller validates
        and writes while the engine-core process keeps generating, and the first requests
        finish first. Requests sent early (`send_early`) that equal some of `requests` are taken
        as theirs. Requests still queued when the caller stops iterating are aborted.
        """
        if not requests:
            return
        self._open()
        adopted, answered = self._early.adopt(requests)
        taken = set(adopted.values()) | {index for index, _ in answered}
        todo = ((i, r) for i, r in enumerate(requests) if i not in taken)
        remaining = len(requests) - len(answered)
        try:
            yield from answered
            self._top_up(todo)
            while remaining:
                for tag, generation in self.step():
                    if is_early(tag):
                        if tag not in adopted:
                            self._early.answered(tag, generation)
                            continue
                        tag = adopted.pop(tag)
                    remaining -= 1
                    yield tag, generation
                self._top_up(todo)
        finally:
            self.abort()
            if self._trace is not None:
                self._trace.flush()
                if self.sampler != "vllm":
                    self._trace.note("sampler", self.sampler_counts())

    def early_room(self) -> int:
        """How many requests `send_early` would start now: what keeps vLLM's queue full."""
        return max(0, self.in_flight - len(self._tags)) if self._llm is not None else 0

    def send_early(self, requests: Sequence[GenerationRequest]) -> None:
        """Start these now (base.TakesEarlyRequests): the engine core works on them while the
        caller plans the rest of its work."""
        for request in requests[: self.early_room()]:
            self.submit(self._early.add(request), request)

    @property
    def decodes_answers(self) -> bool:
        """Whether vLLM started without a tokenizer and hymt decodes the answers (answer_decoder.py)."""
        config = self._open().llm_engine.vllm_config.model_config
        return self._decoder is not None and bool(config.skip_tokenizer_init)

    # -- the feed: requests in while the engine works (replica workers use it directly) -----
    @property
    def pending(self) -> int:
        """Requests submitted and not answered yet."""
        return len(self._tags)

    def submit(self, tag: int, request: GenerationRequest) -> None:
        """Queue one request; its answer comes back from `step` with this tag."""
        from vllm.sampling_params import RequestOutputKind

        llm = self._open()
        params = self._params(request)
        params.output_kind = RequestOutputKind.FINAL_ONLY  # as LLM.generate: no partial outputs
        request_id = f"hymt-{next(self._ids)}"
        llm.llm_engine.add_request(request_id, _tokens_prompt(request), params)
        self._tags[request_id] = tag

    def step(self) -> list[tuple[int, Generation]]:
        """One engine step: the (tag, Generation) of every request it finished."""
        from vllm.outputs import RequestOutput

        if not self._tags:
            return []
        engine = self._open().llm_engine
        if not engine.has_unfinished_requests():
            raise RuntimeError(f"vLLM lost {len(self._tags)} request(s)")
        finished: list[tuple[int, CompletionOutput]] = []
        for out in engine.step():
            if (
                out.finished
                and isinstance(out, RequestOutput)  # (never pooling output here)
                and (tag := self._tags.pop(out.request_id, None)) is not None
            ):
                finished.append((tag, out.outputs[0]))
        return self._generations(finished)

    def _generations(self, finished: list[tuple[int, CompletionOutput]]) -> list[tuple[int, Generation]]:
        """The answers of finished requests, with their text decoded here when vLLM has no tokenizer."""
        done = [(tag, generation_of(completion)) for tag, completion in finished]
        if self._decoder is None or not done:
            return done
        texts = self._decoder.texts(
            [(c.token_ids, g.finish_reason == "stop") for (_, c), (_, g) in zip(finished, done)]
        )
        return [(tag, replace(g, text=text)) for (tag, g), text in zip(done, texts)]

    def abort(self) -> None:
        """Drop every request not answered yet (those sent early too)."""
        if self._tags and self._llm is not None:
            self._llm.llm_engine.abort_request(list(self._tags))
        self._tags.clear()
        self._early.clear()

    def _top_up(self, todo: Iterator[tuple[int, GenerationRequest]]) -> None:
        for tag, request in itertools.islice(todo, max(0, self.in_flight - len(self._tags))):
            self.submit(tag, request)

    def _warm_up(self, requests: int) -> None:
        """A few tokens for `requests` requests of several lengths, with the run's sampling and
        some greedy (retries): vLLM's Triton sampling kernels (penalties, temperature, top-k/
        top-p) are compiled now for the batch sizes of real work, not in the middle of the
        first documents (an H200 showed three such compilations in the first 10 s of a run,
        ~10 s of stall, after a warm-up of 2 requests). From the kernel cache on the next start."""
        for tag in range(requests):
            ids = tuple(range(1 + tag % 7, 17 + tag % 97))
            self.submit(tag, GenerationRequest("", ids, WARM_UP_TOKENS, deterministic=tag % 16 == 15))
        while self._tags:
            self.step()

    @property
    def llm(self) -> LLM:
        """The `vllm.LLM` this engine drives: vLLM's own API (tests and benchmarks use it)."""
        return self._open()

    def sampler_counts(self) -> dict[str, int]:
        """The steps each worker sampled with hymt's sampler and with vLLM's (vllm_sampler.py)."""
        counts: dict[str, int] = {}
        for worker in self._open().collective_rpc(vllm_sampler.COUNTS) if self.sampler != "vllm" else ():
            for key, value in worker.items():
                counts[key] = counts.get(key, 0) + value
        return counts

    def _open(self) -> LLM:
        if self._llm is None:
            raise RuntimeError("the vLLM engine is closed")
        return self._llm

    def _params(self, request: GenerationRequest) -> SamplingParams:
        stop_ids = self._decoder.stop_ids if self._decoder is not None and not self._ignore_eos else ()
        return request_params(self._sampling, request, ignore_eos=self._ignore_eos, stop_ids=stop_ids)

    def close(self) -> None:
        """Stop the engine-core and worker processes; safe to call twice."""
        llm, self._llm = getattr(self, "_llm", None), None
        self._tags = {}
        if llm is None:
            return
        if self._trace is not None:
            self._trace.flush()
        engine_core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
        if engine_core is not None:
            engine_core.shutdown()

    def __enter__(self) -> VllmEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def wants_own_sampler(choice: str, on_cpu: bool, engines_per_gpu: int = 1) -> bool:
    """Whether the engine samples with hymt's sampler (vllm_sampler.py). `auto` takes it where it
    was measured to win: on a CPU, where vLLM's sampler sorts the whole vocabulary of every row
    for top-p (the 1.8B shape's generation 1.77x as fast), and where engines share a GPU, which
    they keep busy (two of the 1.8B shape on an H100: +5-10%). One engine bound by its host ran
    17% slower with it (more, smaller kernels a step), so a lone engine on a GPU keeps vLLM's
    (bench/RESULTS.md, issue 37)."""
    return choice == "topk-first" or (choice == "auto" and (on_cpu or engines_per_gpu > 1))


def keep_kernel_caches() -> KernelCaches:
    """One stable folder for the caches a second start reuses: vLLM's (model inspection,
    compiled graphs) and Triton's kernels (the sampler's JIT), unless the user chose others.
    Set in the environment (vLLM and Triton read them there), and returned."""
    root = os.environ.setdefault(
        "VLLM_CACHE_ROOT",
        os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "vllm"),
    )
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(root, "triton"))
    return KernelCaches(Path(root), Path(os.environ.get("TRITON_CACHE_DIR") or Path(root) / "triton"))


def answer_decoder(options: EngineOptions) -> AnswerDecoder | None:
    """hymt's decoder of the answers when the model's tokenizer is one hymt reads itself (vLLM
    then starts without one); None: vLLM loads and uses its own. An explicit
    `--engine-arg skip_tokenizer_init=...` decides, and `true` needs such a tokenizer."""
    wanted = options.extra.get("skip_tokenizer_init")
    own_tokenizer = {"tokenizer", "tokenizer_mode"} & set(options.extra)
    others = options.trust_remote_code or options.revision or own_tokenizer
    if wanted is False or (wanted is None and others):
        return None
    decoder = AnswerDecoder.load(options.model)
    if decoder is None and wanted:
        raise EngineUnavailable(
            f"skip_tokenizer_init needs a model folder whose tokenizer hymt reads itself: {options.model!r}",
            hint="a local folder with tokenizer.json (a generic fast tokenizer) and an eos_token",
        )
    return decoder


def weights_of(kwargs: dict[str, object]) -> str:
    """Which weights the engine loads, in words: the checkpoint's as they are, or quantized by
    vLLM as it loads them (`quantization`)."""
    dtype = kwargs.get("dtype") or "auto"
    quantization = kwargs.get("quantization")
    if quantization:
        return f"{quantization} weights, quantized as they load; activations {dtype}"
    return f"{dtype} weights" if dtype != "auto" else "weights as the checkpoint has them"


def _no_phase(name: str) -> None:
    pass


@contextmanager
def sampler_warm_up_as(params: SamplingParams) -> Iterator[None]:
    """vLLM's start warms its sampler up with parameters that use every sampling feature
    (`SamplingParams.for_sampler_warmup`: min-p, frequency and presence penalties, logit bias,
    bad words, logprobs, prompt logprobs), so that the first requests compile no kernel; on a
    machine without a kernel cache each feature's Triton kernels are compiled then, seconds
    each. hymt asks for temperature, top-p, top-k and the repetition penalty only: the engine
    core, forked while this holds, warms up with the run's own parameters. Restored once
    `LLM()` returns (an engine in the caller's process leaves vLLM as it found it)."""
    from vllm import SamplingParams as Params

    original = Params.__dict__.get("for_sampler_warmup")
    if not isinstance(original, staticmethod):  # another vLLM: its own warm-up
        yield
        return
    Params.for_sampler_warmup = staticmethod(lambda: params.clone())  # type: ignore[method-assign]
    try:
        yield
    finally:
        Params.for_sampler_warmup = original  # type: ignore[method-assign]


def _inspect_model_in_process() -> None:
    """Let vLLM inspect the model's class in this process instead of a new Python process.

    Unless its cache (VLLM_CACHE_ROOT/modelinfos) already knows the class, vLLM imports it in a
    child process, to keep CUDA out of the process that calls `vllm.LLM`: a second import of
    vLLM and torch, 18-29 s on a fresh machine (../shared/gpu/README.md). This process never
    uses the GPU (vLLM's engine core, another process, does), so the inspection runs here; the
    result goes to the same cache. A vLLM without that private helper keeps its own way."""
    try:
        from vllm.model_executor.models import registry
    except ImportError:
        return
    if callable(getattr(registry, "_run_in_subprocess", None)):
        registry._run_in_subprocess = _call


def _call(fn: Callable[[], _T]) -> _T:
    return fn()


def route_vllm_logs_to_stderr(verbose: bool) -> None:
    """Set vLLM's logging env before it is imported; child processes inherit it.

    vLLM logs to stdout by default (VLLM_LOGGING_STREAM=ext://sys.stdout). A value the
    user set explicitly is kept, except a stream pointing at stdout.
    """
    if "stdout" in os.environ.get("VLLM_LOGGING_STREAM", "stdout"):
        os.environ["VLLM_LOGGING_STREAM"] = "ext://sys.stderr"
    if verbose:
        os.environ["VLLM_LOGGING_LEVEL"] = "INFO"
    else:
        # vLLM's CPU/GPU tuning warnings (tcmalloc, Triton, oneDNN...) are noise to a user
        # translating documents; errors still show, -v shows everything.
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Point file descriptor 1 at stderr while vLLM spawns its processes.

    The engine-core and worker processes inherit fd 1 at start-up; anything they or
    native code print would otherwise land in the middle of the translated document.
    """
    try:
        sys.stdout.flush()
        saved: int | None = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):  # no real fd 1 (embedded, closed): nothing to guard
        saved = None
    try:
        yield
    finally:
        if saved is not None:
            try:
                sys.stdout.flush()
            finally:
                os.dup2(saved, 1)
                os.close(saved)


def _tokens_prompt(request: GenerationRequest) -> TokensPrompt:
    return {"prompt_token_ids": list(request.prompt_token_ids)}


def generation_of(completion: CompletionOutput) -> Generation:
    # vLLM also reports "abort"/"error"; the answer is then incomplete, like a cut one,
    # and the pipeline treats "length" as a per-segment error.
    reason = "stop" if completion.finish_reason == "stop" else "length"
    return Generation(text=completion.text, finish_reason=reason, output_tokens=len(completion.token_ids))
