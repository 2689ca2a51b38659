"""One call's requests on the replicas: dealt in order, answered by any replica, and (for a
stream) added while the replicas work.

A `ReplicaCall` keeps every working replica topped up to its `in_flight` (no more than an
equal share of what is left, so a small job is shared too and the last requests are spread
evenly), dealing the next requests round-robin DEAL at a time: neighbours in the order (the
longest requests lead it) go to different replicas, so no replica gets all the long ones. A
replica that stops has its unanswered requests dealt again to the others.

A `ReplicaStream` runs a call in a thread of its own: the pipeline adds requests as it plans
them and reads the answers once it has planned everything; meanwhile the thread deals and
collects (pipes are read as the answers come, so a replica never waits on a full pipe).
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .base import Generation, GenerationRequest

if TYPE_CHECKING:
    from .replicas import ReplicaEngine

SEND_CHUNK = 512  # requests per message to a replica
DEAL = 32  # requests handed to one replica before the next one gets its turn
_WAIT = 0.05  # seconds a stream's thread waits for news before it looks for new requests


class ReplicaCall:
    """The requests of one call and where they are (see the module docstring)."""

    def __init__(self, engine: ReplicaEngine) -> None:
        self.engine = engine
        self.base = engine.next_call()
        self.requests: list[GenerationRequest] = []
        self._lead: deque[int] = deque()
        self._rest: deque[int] = deque()
        self._resend: deque[int] = deque()
        self.left = 0  # added and not answered

    def add(self, requests: Sequence[GenerationRequest], lead: int = 0) -> None:
        """Queue `requests`; the first `lead` go ahead of every request not dealt yet."""
        start = len(self.requests)
        self.requests.extend(requests)
        self._lead.extend(range(start, start + lead))
        self._rest.extend(range(start + lead, start + len(requests)))
        self.left += len(requests)

    def turn(self, timeout: float | None = None) -> list[tuple[int, Generation]]:
        """Deal what the replicas have room for, wait for news (at most `timeout` seconds),
        and return the answers that came."""
        self._deal()
        engine = self.engine
        if all(r.dead for r in engine.replicas):
            raise RuntimeError(f"every engine replica stopped: {'; '.join(engine.failures)}")
        answered: list[tuple[int, Generation]] = []
        for replica, answers in engine.pump(timeout):
            for tag, generation in answers:
                if tag >> 32 != self.base >> 32 or tag not in replica.tags:
                    continue  # an answer to an earlier, abandoned call
                replica.tags.discard(tag)
                replica.served += 1
                self.left -= 1
                answered.append((tag - self.base, generation))
        for replica in engine.replicas:
            if replica.dead and replica.tags:  # stopped: its work goes to the others
                self._resend.extend(sorted(t - self.base for t in replica.tags))
                replica.tags.clear()
        return answered

    def abort(self) -> None:
        """The call ends: the replicas drop what they still have of it."""
        for replica in self.engine.replicas:
            if replica.tags and not replica.dead:
                self.engine.send(replica, ("abort", None))
            replica.tags.clear()

    def _next(self) -> int | None:
        for waiting in (self._resend, self._lead, self._rest):
            if waiting:
                return waiting.popleft()
        return None

    def _deal(self) -> None:
        working = [r for r in self.engine.replicas if r.ready and not r.dead]
        fair = -(-self.left // max(1, len(working)))
        room = {id(r): min(r.in_flight, fair) - len(r.tags) for r in working}
        batches: dict[int, list[tuple[int, GenerationRequest]]] = {id(r): [] for r in working}
        exhausted = False
        while not exhausted and any(n > 0 for n in room.values()):
            for replica in working:
                for _ in range(min(DEAL, room[id(replica)])):
                    index = self._next()
                    if index is None:
                        exhausted = True
                        break
                    batches[id(replica)].append((self.base + index, self.requests[index]))
                    room[id(replica)] -= 1
                if exhausted:
                    break
        for replica in working:
            batch = batches[id(replica)]
            for start in range(0, len(batch), SEND_CHUNK):
                chunk = batch[start : start + SEND_CHUNK]
                if not self.engine.send(replica, ("add", chunk)):
                    self._resend.extendleft(reversed([t - self.base for t, _ in batch[start:]]))
                    break
                replica.tags.update(t for t, _ in chunk)


class ReplicaStream:
    """A call run by a thread of its own, fed while it runs (base.RequestStream)."""

    def __init__(self, call: ReplicaCall) -> None:
        self._call = call
        self._lock = threading.Lock()
        self._added: list[tuple[list[GenerationRequest], int]] = []
        self._total = 0
        self._closed = False
        self._news = threading.Event()  # requests were added, or the stream was closed or stopped
        self._stopping = threading.Event()
        self._out: queue.Queue[tuple[int, Generation] | BaseException | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="hymt-replica-stream", daemon=True)
        self._thread.start()

    def add(self, requests: Sequence[GenerationRequest], lead: int = 0) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("requests added to a stream whose answers are being read")
            self._added.append((list(requests), lead))
            self._total += len(requests)
        self._news.set()

    def answers(self) -> Iterator[tuple[int, Generation]]:
        with self._lock:
            self._closed = True
            expected = self._total
        self._news.set()
        received = 0
        try:
            while received < expected:
                item = self._out.get()
                if isinstance(item, BaseException):
                    raise item
                if item is None:
                    raise RuntimeError("the request stream stopped before every request was answered")
                received += 1
                yield item
        finally:
            self.stop()

    def stop(self) -> None:
        self._stopping.set()
        self._news.set()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def _take_added(self) -> bool:
        """Move the requests added since the last look into the call; whether the stream is
        closed (nothing more will come)."""
        with self._lock:
            added, self._added = self._added, []
            closed = self._closed
            self._news.clear()
        for requests, lead in added:
            self._call.add(requests, lead)
        return closed

    def _run(self) -> None:
        call = self._call
        try:
            while not self._stopping.is_set():
                closed = self._take_added()
                if call.left == 0:
                    if closed:
                        break
                    self._news.wait()
                    continue
                for answer in call.turn(_WAIT):
                    self._out.put(answer)
        except BaseException as exc:  # handed to the reader of the answers
            self._out.put(exc)
        finally:
            call.abort()
            self._out.put(None)
