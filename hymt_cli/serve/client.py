"""A run's engine when a served engine of its settings is running: the requests go to it over its
socket and the answers come back as they finish, as from an engine of the run's own.

A server that is still starting is waited for (its engine will be ready before one of the run's
own would be). Where the server cannot be reached, refuses the run, or goes away while the run
needs it (stopped, crashed), the run's own engine is built (`fallback`) and gets every request
not answered yet: answers already received are kept and never asked again.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator, Sequence

from ..engine.base import BatchLimits, Engine, Generation, GenerationRequest
from .records import ServeRecord
from .server import peer_uid
from .wire import PROTOCOL, REQUESTS_PER_MESSAGE, WireError, answers_of, receive, request_rows, send


class ServedUnreachable(Exception):
    """The server cannot serve this run (gone, refused it, failed to start)."""


class ServedEngine:
    """The engine of the server at `record`, connected and ready (`connect`)."""

    def __init__(
        self,
        record: ServeRecord,
        fallback: Callable[[], Engine],
        *,
        on_fallback: Callable[[str], None] | None = None,
    ) -> None:
        self.record = record
        self.name = record.engine
        self._fallback = fallback
        self._on_fallback = on_fallback
        self._conn: socket.socket | None = None
        self._own: Engine | None = None
        self._limits = BatchLimits()
        self._retries = 0

    # -- connecting ----------------------------------------------------------------------------
    def connect(self, on_wait: Callable[[], None] | None = None) -> ServedEngine:
        """Connect, present the token and the settings, wait for the engine to be ready;
        ServedUnreachable when the server cannot serve this run."""
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.settimeout(10.0)
            conn.connect(self.record.socket)
            uid = peer_uid(conn)
            if uid is not None and uid != os.getuid():
                raise ServedUnreachable(
                    f"the socket {self.record.socket} belongs to another user (uid {uid})"
                )
            send(conn, {**_hello(self.record), "run": True})  # a run: the server stays while it is open
            state = self._answer(conn)
            if not state.get("ready"):
                if on_wait is not None:
                    on_wait()
                conn.settimeout(None)  # an engine's start takes what it takes
                send(conn, {"op": "wait"})
                state = self._answer(conn)
            conn.settimeout(None)
        except (OSError, WireError, ServedUnreachable) as exc:
            conn.close()
            raise ServedUnreachable(str(exc)) from None
        self._conn = conn
        self._limits = _limits(state.get("limits"))
        retries = state.get("retries")
        self._retries = retries if isinstance(retries, int) and not isinstance(retries, bool) else 0
        return self

    @staticmethod
    def _answer(conn: socket.socket) -> dict[str, object]:
        state = receive(conn)
        if state is None:
            raise ServedUnreachable("the server closed the connection")
        if state.get("ok") is not True:
            raise ServedUnreachable(str(state.get("error") or "refused"))
        if state.get("failed"):
            raise ServedUnreachable(f"its engine failed to start: {state['failed']}")
        return state

    # -- the engine ----------------------------------------------------------------------------
    @property
    def limits(self) -> BatchLimits:
        return self._own.limits if self._own is not None else self._limits

    @property
    def retries(self) -> int:
        return self._retries + (self._own.retries if self._own is not None else 0)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        found: dict[int, Generation] = dict(self.generate_stream(requests))
        return [found[i] for i in range(len(requests))]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        if not requests:
            return
        answered: set[int] = set()
        if self._own is None and self._conn is not None:
            complete = False
            try:
                for index, generation in self._ask(self._conn, requests):
                    if index not in answered:  # an answer received is never taken twice
                        answered.add(index)
                        yield index, generation
                if len(answered) != len(requests):
                    raise WireError("the server ended the answers early")
                complete = True
                return
            except (OSError, WireError, ServedUnreachable) as exc:
                self._lose(f"the served engine went away ({exc})")
            finally:
                if not complete and self._conn is not None:
                    # the caller stopped taking answers: the rest would still come on this
                    # connection, so it is dropped (a later call starts the run's own engine)
                    self._conn.close()
                    self._conn = None
        rest = [i for i in range(len(requests)) if i not in answered]
        own = self._own_engine()
        for j, generation in own.generate_stream([requests[i] for i in rest]):
            yield rest[j], generation

    def _ask(
        self, conn: socket.socket, requests: Sequence[GenerationRequest]
    ) -> Iterator[tuple[int, Generation]]:
        send(conn, {"op": "generate", "count": len(requests)})
        rows = request_rows(requests)
        for start in range(0, len(rows), REQUESTS_PER_MESSAGE):
            send(conn, {"requests": rows[start : start + REQUESTS_PER_MESSAGE]})
        while True:
            message = receive(conn)
            if message is None:
                raise WireError("the server closed the connection")
            if message.get("end") is True:
                return
            if "error" in message:
                raise ServedUnreachable(str(message["error"])[:500])
            yield from answers_of(message, len(requests))

    def _lose(self, why: str) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._on_fallback is not None:
            self._on_fallback(f"{why}: this run starts its own engine")

    def _own_engine(self) -> Engine:
        if self._own is None:
            self._own = self._fallback()
        return self._own

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                send(conn, {"op": "bye"})
            except OSError:
                pass
            conn.close()
        own, self._own = self._own, None
        if own is not None:
            own.close()


def _hello(record: ServeRecord) -> dict[str, object]:
    return {"op": "hello", "protocol": PROTOCOL, "token": record.token, "settings": record.settings}


def _limits(value: object) -> BatchLimits:
    if isinstance(value, list) and len(value) == 2:
        tokens, requests = value
        if all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v > 0) for v in value):
            return BatchLimits(tokens, requests)
    return BatchLimits()


def ask(record: ServeRecord, op: str, timeout: float = 10.0) -> dict[str, object]:
    """One request to a server outside a run (`status`, `stop`): its reply."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    try:
        conn.connect(record.socket)
        send(conn, _hello(record))
        ServedEngine._answer(conn)
        send(conn, {"op": op})
        reply = receive(conn)
        if reply is None:
            raise ServedUnreachable("the server closed the connection")
        return reply
    except (OSError, WireError) as exc:
        raise ServedUnreachable(str(exc)) from None
    finally:
        conn.close()
