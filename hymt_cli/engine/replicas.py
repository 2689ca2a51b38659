"""Several engines as one: each replica an engine in its own process, the answers one stream.

The pipeline sees one engine. Each replica process sets its own environment (on a GPU machine
`CUDA_VISIBLE_DEVICES`) before it builds its engine, and is fed requests while it works: the parent
keeps `in_flight` requests queued or running in every replica that is ready (no more than an equal
share of what is left, so a small job is shared too, and the last requests are spread evenly),
dealt round-robin a few at a time, and hands out the next ones, in order, to whichever replica
answers: a faster replica takes more, all of them run out of work together. A replica may wait for
another to be ready before it starts (sharing a GPU: tuning.py); the first one ready starts working.

Why processes, not vLLM's data parallelism (vLLM 0.26): `LLM(data_parallel_size>1)` is refused
in one process, the offline multi-process recipe (`VLLM_DP_*`) refuses dense models, `AsyncLLM`
(`vllm serve`) keeps every rank's answers in one event loop, balances by request count, takes one
rank per device. Independent processes scale the host work with the engines, any number per GPU.
"""

from __future__ import annotations

import atexit
import itertools
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol, runtime_checkable

from ..errors import EngineUnavailable, one_line
from .base import BatchLimits, Engine, Generation, GenerationRequest, StartGate
from .early import EarlyRequests, is_early
from .process_tree import descendants, end_leftovers

BATCH_IN_FLIGHT = 256  # requests queued per replica for an engine that answers batches
_SEND_CHUNK = 512  # requests per message to a replica
_DEAL = 32  # requests handed to one replica before the next one gets its turn
_GATE_POLL = 0.2  # seconds between looks at an early start's gate
_CLOSE_WAIT = 60.0  # seconds the replicas get to close their engines when asked to
_STOP_WAIT = 10.0  # seconds a stopped replica gets to end its engine's processes
_LEFTOVER_WAIT = 5.0  # seconds its processes get to end once it is gone (then SIGKILL)


@runtime_checkable
class Feed(Protocol):
    """An engine that takes requests while it works (`VllmEngine` is one)."""

    in_flight: int  # requests it wants queued or running to stay busy

    @property
    def pending(self) -> int: ...
    def submit(self, tag: int, request: GenerationRequest) -> None: ...
    def step(self) -> list[tuple[int, Generation]]: ...
    def abort(self) -> None: ...


class BatchFeed:
    """Any engine as a feed: a step answers everything submitted since the last one."""

    in_flight = BATCH_IN_FLIGHT

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._queued: list[tuple[int, GenerationRequest]] = []

    @property
    def pending(self) -> int:
        return len(self._queued)

    def submit(self, tag: int, request: GenerationRequest) -> None:
        self._queued.append((tag, request))

    def step(self) -> list[tuple[int, Generation]]:
        queued, self._queued = self._queued, []
        return [(queued[i][0], g) for i, g in self._engine.generate_stream([r for _, r in queued])]

    def abort(self) -> None:
        self._queued = []


@dataclass(frozen=True, slots=True)
class ReplicaSlot:
    """Where one replica runs: a label for messages, its environment, and the replica that
    must be ready (or have failed) before it starts (one sharing its GPU)."""

    label: str
    env: Mapping[str, str]
    after: int | None = None


# A replica's engine builder: a picklable callable (a module-level function, or a
# functools.partial of one or of an engine class) taking the start-phase callback.
Build = Callable[..., Engine]


@dataclass(eq=False)
class _Replica:
    slot: ReplicaSlot
    process: Any  # multiprocessing's SpawnProcess
    conn: Connection
    ready: bool = False
    dead: bool = False
    in_flight: int = 0
    tags: set[int] = field(default_factory=set)
    served: int = 0
    last_phase: str = ""


_WHOLE_JOBS = BatchLimits()  # no limits of its own: the pipeline's


class ReplicaEngine:
    """Replicas of one engine behind the `Engine` interface (see the module docstring)."""

    retries = 0  # local engine processes: nothing is sent again over a network

    def __init__(
        self,
        build: Build,
        slots: Sequence[ReplicaSlot],
        *,
        name: str = "replicas",
        limits: BatchLimits = _WHOLE_JOBS,
        on_phase: Callable[[str], None] | None = None,
        gate: StartGate | None = None,
    ) -> None:
        """Start every replica; return once one of them is ready (EngineUnavailable if none
        can start). `on_phase` hears the replicas' start-up phases, labelled. A `gate` that the
        run abandons meanwhile stops them all (EngineUnavailable) within a fraction of a second."""
        if not slots:
            raise ValueError("no replica to start")
        self.name = name
        self.limits = limits
        self._on_phase = on_phase
        self._calls = itertools.count(1)
        self._early = EarlyRequests()
        self.failures: list[str] = []
        context = multiprocessing.get_context("spawn")  # CUDA and vLLM need fresh processes
        # kept for the replicas' lifetime: a child unpickles its events only once it runs
        self._started = started = [context.Event() for _ in slots]
        self._replicas: list[_Replica] = []
        for i, slot in enumerate(slots):
            parent_end, child_end = context.Pipe()
            wait_for = started[slot.after] if slot.after is not None else None
            # not a daemon: the replica's engine starts processes of its own
            process = context.Process(
                target=_serve,
                args=(child_end, build, slot, wait_for, started[i]),
                name=f"hymt-replica-{i + 1}",
            )
            process.start()
            child_end.close()
            self._replicas.append(_Replica(slot, process, parent_end))
        atexit.register(self._stop_at_exit)
        try:
            while not any(r.ready for r in self._replicas):
                if all(r.dead for r in self._replicas):
                    raise EngineUnavailable(f"no engine replica could start: {self.failures[0]}")
                if gate is not None and gate.abandoned:
                    self._stop_now()
                    raise EngineUnavailable("the engine was not needed: its start was abandoned")
                self._pump(_GATE_POLL if gate is not None else None)
        except BaseException:
            self.close()
            raise

    def wait_started(self) -> int:
        """Wait until every replica is ready or has failed; the number ready. (The engine
        works as soon as one is: this is for tests and benchmarks.)"""
        while any(not (r.ready or r.dead) for r in self._replicas):
            for replica, answers in self._pump():  # those of an abandoned call are dropped
                for tag, generation in answers:
                    self._early_answer(replica, tag, generation, {})
        return sum(r.ready and not r.dead for r in self._replicas)

    @property
    def served(self) -> dict[str, int]:
        """Requests answered by each replica, by label (how the work was shared)."""
        return {r.slot.label: r.served for r in self._replicas}

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        answers = dict(self.generate_stream(requests))
        return [answers[i] for i in range(len(requests))]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        """(index, Generation) as each answer arrives from any replica. Requests go out in
        their order (those sent early and equal to some of them are taken as theirs); a replica
        that stops has its unanswered requests sent to the others."""
        if not requests:
            return
        base = next(self._calls) << 32
        adopted, answered = self._early.adopt(requests)
        taken = set(adopted.values()) | {index for index, _ in answered}
        todo = (i for i in range(len(requests)) if i not in taken)
        resend: deque[int] = deque()
        left = len(requests) - len(answered)
        try:
            yield from answered
            while left:
                self._deal(requests, base, todo, resend, left)
                if all(r.dead for r in self._replicas):
                    raise RuntimeError(f"every engine replica stopped: {'; '.join(self.failures)}")
                for replica, answers in self._pump():
                    for tag, generation in answers:
                        if is_early(tag):
                            index = self._early_answer(replica, tag, generation, adopted)
                            if index is None:
                                continue
                        elif tag >> 32 != base >> 32 or tag not in replica.tags:
                            continue  # an answer to an earlier, abandoned call
                        else:
                            replica.tags.discard(tag)
                            replica.served += 1
                            index = tag - base
                        left -= 1
                        yield index, generation
                for replica in self._replicas:
                    if replica.dead and replica.tags:  # stopped: its work goes to the others
                        resend.extend(sorted(self._lost(replica, base, adopted)))
                        replica.tags.clear()
        finally:
            for replica in self._replicas:
                if replica.tags and not replica.dead:
                    self._send(replica, ("abort", None))
                replica.tags.clear()
            self._early.clear()

    def early_room(self) -> int:
        """How many requests `send_early` would start now: what fills every ready replica."""
        return sum(max(0, r.in_flight - len(r.tags)) for r in self._replicas if r.ready and not r.dead)

    def send_early(self, requests: Sequence[GenerationRequest]) -> None:
        """Start these now (base.TakesEarlyRequests), dealt to the ready replicas as `_deal` does."""
        working = [r for r in self._replicas if r.ready and not r.dead]
        room = {id(r): max(0, r.in_flight - len(r.tags)) for r in working}
        batches: dict[int, list[tuple[int, GenerationRequest]]] = {id(r): [] for r in working}
        pending = deque(requests)
        while pending and any(n > 0 for n in room.values()):
            for replica in working:
                for _ in range(min(_DEAL, room[id(replica)], len(pending))):
                    request = pending.popleft()
                    batches[id(replica)].append((self._early.add(request), request))
                    room[id(replica)] -= 1
        for replica in working:
            batch = batches[id(replica)]
            for start in range(0, len(batch), _SEND_CHUNK):
                chunk = batch[start : start + _SEND_CHUNK]
                if not self._send(replica, ("add", chunk)):
                    for tag, _ in batch[start:]:
                        self._early.forget(tag)
                    break
                replica.tags.update(t for t, _ in chunk)

    def _early_answer(
        self, replica: _Replica, tag: int, generation: Generation, adopted: dict[int, int]
    ) -> int | None:
        """An answer to a request sent early: its index in the call that adopted it, or None
        (kept for a later call; dropped if not early)."""
        if not is_early(tag) or tag not in replica.tags:
            return None
        replica.tags.discard(tag)
        replica.served += 1
        index = adopted.pop(tag, None)
        if index is None:
            self._early.answered(tag, generation)
        return index

    def _lost(self, replica: _Replica, base: int, adopted: dict[int, int]) -> list[int]:
        """The indices of this call that a stopped replica still owed (early ones nobody asked
        for yet are forgotten: they will be asked for again)."""
        lost = []
        for tag in replica.tags:
            if not is_early(tag):
                lost.append(tag - base)
            elif tag in adopted:
                lost.append(adopted.pop(tag))
            else:
                self._early.forget(tag)
        return lost

    def _deal(
        self,
        requests: Sequence[GenerationRequest],
        base: int,
        todo: Iterator[int],
        resend: deque[int],
        left: int,
    ) -> None:
        """Top every working replica up to its `in_flight` (no more than an equal share of what
        is left: a small job is still shared), dealing the next requests round-robin, _DEAL at
        a time: neighbours in the order (the longest requests lead it) go to different
        replicas, so no replica gets all the long ones."""
        working = [r for r in self._replicas if r.ready and not r.dead]
        fair = -(-left // max(1, len(working)))
        room = {id(r): min(r.in_flight, fair) - len(r.tags) for r in working}
        batches: dict[int, list[tuple[int, GenerationRequest]]] = {id(r): [] for r in working}
        exhausted = False
        while not exhausted and any(n > 0 for n in room.values()):
            for replica in working:
                take = min(_DEAL, room[id(replica)])
                for _ in range(take):
                    index = resend.popleft() if resend else next(todo, None)
                    if index is None:
                        exhausted = True
                        break
                    batches[id(replica)].append((base + index, requests[index]))
                    room[id(replica)] -= 1
                if exhausted:
                    break
        for replica in working:
            batch = batches[id(replica)]
            for start in range(0, len(batch), _SEND_CHUNK):
                chunk = batch[start : start + _SEND_CHUNK]
                if not self._send(replica, ("add", chunk)):
                    resend.extendleft(reversed([t - base for t, _ in batch[start:]]))
                    break
                replica.tags.update(t for t, _ in chunk)

    def _send(self, replica: _Replica, message: tuple[str, object]) -> bool:
        try:
            replica.conn.send(message)
            return True
        except (OSError, EOFError, ValueError):
            self._stopped(replica, "its process stopped")
            return False

    def _pump(self, timeout: float | None = None) -> list[tuple[_Replica, list[tuple[int, Generation]]]]:
        """Wait for any replica to say something (at most `timeout` seconds); handle start-up
        news, return answers."""
        alive = [r for r in self._replicas if not r.dead]
        if not alive:
            return []
        objects: list[Any] = [r.conn for r in alive] + [r.process.sentinel for r in alive]
        readable = wait(objects, timeout)
        answers: list[tuple[_Replica, list[tuple[int, Generation]]]] = []
        for replica in alive:
            if replica.conn not in readable and replica.process.sentinel not in readable:
                continue
            try:
                while replica.conn.poll():
                    kind, payload = replica.conn.recv()
                    if kind == "done":
                        answers.append((replica, payload))
                    elif kind == "phase":
                        self._phase(replica, payload)
                    elif kind == "ready":
                        replica.ready, replica.in_flight = True, int(payload)
                        if replica.last_phase != "ready":  # an engine may have said so itself
                            self._phase(replica, "ready")
                    elif kind == "error":
                        self._stopped(replica, payload)
                        break
            except (EOFError, OSError):
                self._stopped(replica, "its process stopped")
            if replica.process.sentinel in readable and not replica.conn.poll():
                self._stopped(replica, f"its process stopped (exit code {replica.process.exitcode})")
        return answers

    def _phase(self, replica: _Replica, name: str) -> None:
        replica.last_phase = name
        if self._on_phase is not None:
            self._on_phase(name if len(self._replicas) == 1 else f"{replica.slot.label}: {name}")

    def _stopped(self, replica: _Replica, why: str) -> None:
        if not replica.dead:
            replica.dead = True
            self.failures.append(f"{replica.slot.label}: {why}")
            self._phase(replica, f"stopped ({why})")

    def _stop_at_exit(self) -> None:
        """The interpreter ends with the engine open (an exception past the code that would close
        it): its exit would join replicas waiting for requests forever. SIGTERM stops them now."""
        self._stop_now()
        for replica in self._replicas:
            replica.dead = True
            replica.conn.close()

    def _stop_now(self) -> None:
        """Stop replicas still starting (they read no message before they are ready): SIGTERM,
        which a replica turns into an orderly exit that stops its engine's own processes too."""
        trees = self._trees()
        for replica in self._replicas:
            if replica.process.is_alive():
                replica.process.terminate()
        self._join_all(_STOP_WAIT)
        for replica in self._replicas:
            replica.dead = True
        self._end(trees)

    def close(self) -> None:
        """Stop every replica (each closes its engine); safe to call twice."""
        atexit.unregister(self._stop_at_exit)
        trees = self._trees()
        for replica in self._replicas:
            if not replica.dead:
                self._send(replica, ("close", None))
        self._join_all(_CLOSE_WAIT)
        for replica in self._replicas:
            if replica.process.is_alive():
                replica.process.terminate()
        self._join_all(_STOP_WAIT)
        for replica in self._replicas:
            replica.dead = True
            replica.conn.close()
        self._end(trees)

    def _join_all(self, seconds: float) -> None:
        """Wait up to `seconds` in all (not each) for the replicas to end: they stop together."""
        deadline = time.monotonic() + seconds
        for replica in self._replicas:
            replica.process.join(timeout=max(0.0, deadline - time.monotonic()))

    def _trees(self) -> list[list[Any]]:
        """The processes each running replica has started. (Only running ones: the pid of a
        replica that ended and was reaped may be another process's by now.)"""
        return [descendants(r.process.pid) if r.process.is_alive() else [] for r in self._replicas]

    def _end(self, trees: list[list[Any]]) -> None:
        """SIGKILL replicas that did not stop in time, then what is left of the processes each had
        started (its engine's, which would outlive it: process_tree.py)."""
        leftovers = {p.pid: p for tree in trees for p in tree}
        for replica in self._replicas:
            if replica.process.is_alive():
                leftovers.update((p.pid, p) for p in descendants(replica.process.pid))  # started since
                replica.process.kill()
        self._join_all(_STOP_WAIT)
        end_leftovers(list(leftovers.values()), _LEFTOVER_WAIT)

    def __enter__(self) -> ReplicaEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _serve(conn: Connection, build: Build, slot: ReplicaSlot, wait_for: Any, started: Any) -> None:
    """A replica process: build the engine, then take requests and send answers until told
    to close (or the parent is gone)."""
    os.environ.update(slot.env)
    # SIGTERM (an abandoned start, a replica that does not close): an orderly exit, so that the
    # engine's own processes (vLLM's engine core) are stopped too, not left behind
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        os.dup2(2, 1)  # stdout carries the parent's documents: nothing of ours goes there
    except OSError:
        pass
    engine: Engine | None = None
    try:
        if wait_for is not None:
            wait_for.wait()
        try:
            engine = build(on_phase=lambda name: conn.send(("phase", name)))
        except BaseException as exc:
            conn.send(("error", one_line(exc)))
            return
        finally:
            started.set()
        feed = engine if isinstance(engine, Feed) else BatchFeed(engine)
        # Messages are read by a thread of their own: the parent's sends never wait for a step
        # to end (nor for our answers to be read: both sides blocked in send would deadlock).
        inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        threading.Thread(target=_read, args=(conn, inbox), name="hymt-replica-inbox", daemon=True).start()
        conn.send(("ready", feed.in_flight))
        while True:
            while feed.pending == 0 or not inbox.empty():
                kind, payload = inbox.get()
                if kind == "add":
                    for tag, request in payload:
                        feed.submit(tag, request)
                elif kind == "abort":
                    feed.abort()
                elif kind == "close":
                    return
            done = feed.step()
            if done:
                conn.send(("done", done))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass  # the parent is gone or stopping
    finally:
        if engine is not None:
            engine.close()


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _read(conn: Connection, inbox: queue.Queue[tuple[str, Any]]) -> None:
    try:
        while True:
            inbox.put(conn.recv())
    except (EOFError, OSError):
        inbox.put(("close", None))  # the parent is gone
