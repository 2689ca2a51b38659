"""`--ray`: the run's engine on the workers of a Ray cluster.

The driver plans as ever (dedupe, memory, glossary); only the unique requests that need the
engine travel. Each worker is a Ray actor holding one hymt engine (vLLM on one GPU, or any
other engine), built once for the whole run; the driver sends chunks of requests to the least
busy worker (two in flight per worker, so the next is there when one ends) and hands the
answers back to the pipeline chunk by chunk, for checks, retry, repair, memory and writing.

Failures: the actors are created with `max_restarts=-1, max_task_retries=-1`, so a worker that
dies mid-chunk is restarted (its engine built again) and only its chunks in flight are asked
again; answers that reached the driver are committed to the translation memory as they arrive,
which is also what a rerun after a killed driver resumes from.

Why actors and not a Ray Data pipeline (`map_batches` with a callable class, or
`ray.data.llm`): the engine serves many calls in a run (each window of a catalog, the greedy
retry, the tag repair), and a Ray Data actor pool lives for one dataset execution, so every
call would start the pool and load the model again (measured on 2 cores with the identity
engine: 5.5-11 s per call through Ray Data against 0.02-0.04 s with warm actors; vLLM on a GPU
loads for about a minute). A queue-fed streaming source that would keep one pipeline alive
never emitted a block in Ray 2.60. `ray.data.llm` (its vLLMEngineStage) takes token-id prompts
and per-row sampling, but its output has no finish_reason (a cut answer looks finished), it runs
only vLLM (not the identity and pseudo engines the tests need), bypasses hymt's engine settings,
and needs `ray[llm]`, which pins a CUDA vLLM of its own.

Ray must be initialised on the main thread (a `ray.init()` from a thread that then ends loses
its GCS connection after a minute): `RayCluster.connect` runs there, before the pipeline starts
its engine in the background; building a `RayEngine` only creates actors.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import EngineUnavailable, UsageError, one_line
from ..options import Options, Panel, option
from .base import BatchLimits, Engine, Generation, GenerationRequest

_PACKAGE = Path(__file__).resolve().parents[1]  # hymt_cli/: what the workers import

RAY_HINT = 'install the Ray extra: pip install "hymt[ray]" (ray[data])'
CHUNK_REQUESTS = 256  # requests per worker call (a GPU worker's vLLM batches them)
IN_FLIGHT_PER_WORKER = 2
# Whole jobs per engine call: the driver keeps every worker busy across the job.
BATCH_TOKENS = 8 << 20
BATCH_REQUESTS = 1 << 20


_ADDRESS = r"^(auto|local|ray://\S+|[\w.\-]+:\d+|\[[0-9a-fA-F:]+\]:\d+)$"


@dataclass(frozen=True, slots=True)
class RayOptions(Options):
    """`address`: None, no Ray; "" lets Ray choose (RAY_ADDRESS, a cluster running on this
    machine, else a new local instance); else HOST:PORT, ray://HOST:PORT, auto or local.
    `workers`: engine actors (None: one per `gpus_per_worker` GPUs of the cluster, 1 without
    GPUs). `gpus_per_worker`: what one engine needs (set from the engine it runs).
    `cpus_per_worker`: None picks 1 for GPU workers, else a share of the cluster's CPUs that
    leaves room for Ray's own tasks."""

    address: str | None = option(
        None,
        "--ray",
        metavar="[ADDRESS]",
        value_pattern=_ADDRESS,
        panel=Panel.MODEL,
        help="Run the engine on a Ray cluster: --ray (RAY_ADDRESS, a running local cluster, else a new local "
        "one) or --ray HOST:PORT / ray://HOST:PORT. Needs hymt[ray].",
    )
    workers: int | None = option(
        None,
        "--ray-workers",
        metavar="N",
        minimum=1,
        panel=Panel.MODEL,
        default_text="one per GPU of the cluster, else 1",
        help="--ray: engine workers.",
    )
    gpus_per_worker: float = 0.0
    cpus_per_worker: float | None = None
    chunk_requests: int = CHUNK_REQUESTS

    def validate(self) -> None:
        if self.address is None and self.workers is not None:
            raise UsageError("--ray-workers needs --ray")


class RayCluster:
    """This process's connection to a Ray cluster. Made on the main thread; closing it ends the
    connection (and a local instance it started)."""

    def __init__(self, started_here: bool) -> None:
        self._started_here = started_here

    @classmethod
    def connect(cls, address: str = "", *, verbose: bool = False) -> RayCluster:
        """Connect (or start a local instance); EngineUnavailable when Ray is missing or the
        cluster cannot be reached."""
        try:
            import ray
        except ImportError as exc:
            raise EngineUnavailable("--ray needs Ray, which is not installed", hint=RAY_HINT) from exc
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("Ray must be initialised on the main thread")
        if ray.is_initialized():
            return cls(started_here=False)
        try:
            ray.init(
                address=address or None,
                log_to_driver=False,  # worker output would reach stdout
                logging_level=logging.INFO if verbose else logging.WARNING,
                # the workers run this very hymt, whatever is installed on the nodes
                runtime_env={"py_modules": [str(_PACKAGE)]},
            )
        except Exception as exc:  # ConnectionError, ValueError (bad address), RuntimeError
            where = f"at {address}" if address else "(Ray's default: RAY_ADDRESS, a local cluster)"
            raise EngineUnavailable(
                f"cannot connect to the Ray cluster {where}: {one_line(exc)}",
                hint="start one with `ray start --head`, or give --ray with no address for a local instance",
            ) from exc
        return cls(started_here=True)

    def resources(self) -> dict[str, float]:
        import ray

        resources: dict[str, Any] = ray.cluster_resources()
        return {k: float(v) for k, v in resources.items()}

    def close(self) -> None:
        if self._started_here:
            import ray

            ray.shutdown()
            self._started_here = False


class _Worker:
    """One engine on a Ray worker (the actor's class)."""

    def __init__(self, build: Callable[[Any], Engine], setup: Any) -> None:
        self._engine = build(setup)

    def ready(self) -> bool:
        return True

    def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        return self._engine.generate(requests)

    def close(self) -> None:
        self._engine.close()


class RayEngine:
    """The run's engine on Ray workers (see the module doc)."""

    limits = BatchLimits(BATCH_TOKENS, BATCH_REQUESTS)
    retries = 0

    def __init__(
        self,
        cluster: RayCluster,
        build: Callable[[Any], Engine],
        setup: Any,
        options: RayOptions,
        *,
        name: str,
    ) -> None:
        """Start the workers and wait until every one has built its engine (the pipeline does
        this in the background, while it plans)."""
        import ray

        self.name = f"{name} on ray"
        resources = cluster.resources()
        gpus = options.gpus_per_worker if resources.get("GPU", 0.0) >= options.gpus_per_worker > 0 else 0.0
        count = options.workers or (max(1, int(resources["GPU"] // gpus)) if gpus else 1)
        cpus = options.cpus_per_worker
        if cpus is None:
            cpus = 1.0 if gpus else min(1.0, resources.get("CPU", 1.0) / (2 * count))
        self._chunk = max(1, options.chunk_requests)
        actor = ray.remote(num_cpus=cpus, num_gpus=gpus, max_restarts=-1, max_task_retries=-1)(_Worker)
        self._workers: list[Any] = [actor.remote(build, setup) for _ in range(count)]
        try:
            ray.get([w.ready.remote() for w in self._workers])
        except Exception as exc:
            self.close()
            cause = getattr(exc, "cause", None) or exc
            message = getattr(cause, "message", None) or one_line(cause)
            raise EngineUnavailable(
                f"a Ray worker could not start its engine: {message}", hint=getattr(cause, "hint", None)
            ) from exc

    @property
    def workers(self) -> int:
        return len(self._workers)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        answers: list[Generation | None] = [None] * len(requests)
        for index, generation in self.generate_stream(requests):
            answers[index] = generation
        return [a for a in answers if a is not None]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        """(index, Generation) chunk by chunk, as workers finish them."""
        import ray

        chunks = [
            (start, list(requests[start : start + self._chunk]))
            for start in range(0, len(requests), self._chunk)
        ]
        chunks.reverse()  # popped from the end: first chunk first
        busy = [0] * len(self._workers)
        in_flight: dict[Any, tuple[int, int]] = {}  # ref -> (first index, worker)

        def submit() -> None:
            while chunks:
                worker = min(range(len(busy)), key=busy.__getitem__)
                if busy[worker] >= IN_FLIGHT_PER_WORKER:
                    return
                start, chunk = chunks.pop()
                in_flight[self._workers[worker].generate.remote(chunk)] = (start, worker)
                busy[worker] += 1

        try:
            submit()
            while in_flight:
                done, _ = ray.wait(list(in_flight), num_returns=1)
                start, worker = in_flight.pop(done[0])
                busy[worker] -= 1
                try:
                    answers = ray.get(done[0])
                except ray.exceptions.RayError as exc:
                    raise EngineUnavailable(
                        f"a Ray worker failed: {one_line(exc)}",
                        hint="the answers received so far are in the translation memory: "
                        "run the same command again to resume",
                    ) from exc
                submit()
                for offset, generation in enumerate(answers):
                    yield start + offset, generation
        finally:
            for ref in in_flight:  # the caller stopped early: nothing more is wanted
                ray.cancel(ref)

    def close(self) -> None:
        """Close the workers' engines and end the actors; safe to call twice."""
        import ray

        workers, self._workers = self._workers, []
        if not workers:
            return
        try:
            ray.get([w.close.remote() for w in workers], timeout=60)
        except Exception:  # a worker already gone: nothing to close
            pass
        for worker in workers:
            ray.kill(worker, no_restart=True)
