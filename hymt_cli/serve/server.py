"""A served engine: one engine of this process, answering the runs of this user that connect to
its Unix socket, until it has been idle for the record's `idle_stop` seconds, is asked to stop,
or gets SIGTERM.

Each connection is checked before anything it says is used: the peer's uid (SO_PEERCRED, where
the system tells it) must be this process's, and its first message must carry the record's
token and the digest of the settings it wants served (another one is refused: its run starts its
own engine). Every later message is read whole and checked (wire.py). One run's requests are
answered at a time, in the order the runs asked (the engine runs one batch stream); answers go
back as they finish. Stopping removes the record and the socket, then closes the engine.
"""

from __future__ import annotations

import hmac
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..engine.base import Engine, GenerationRequest
from .records import ServeRecord, remove_record, write_record
from .wire import MAX_REQUESTS, PROTOCOL, WireError, answer_row, receive, requests_of, send, whole, word

_IDLE_CHECK = 1.0  # seconds between looks at the idle time


def peer_uid(conn: socket.socket) -> int | None:
    """The uid of the process at the other end of a Unix socket, where the system tells it."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:  # (macOS has LOCAL_PEERCRED, which Python does not expose)
        return None
    data = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", data)
    return int(uid)


class EngineServer:
    """Serves the engine that `build` makes, at `record`'s socket (listening from `listen` on,
    while the engine is still starting: runs that connect then wait for it)."""

    def __init__(self, record: ServeRecord, folder: Path, *, say: Callable[[str], None] = print) -> None:
        self.record = record
        self.folder = folder
        self._say = say
        self._listener: socket.socket | None = None
        self._engine: Engine | None = None
        self._failed: str | None = None
        self._ready = threading.Event()  # the engine is built, or failed
        self._stop = threading.Event()
        self._turn = threading.Lock()  # one run's requests at a time
        self._lock = threading.Lock()
        self._runs = 0  # connections that asked for answers, still open
        self._last = time.monotonic()  # when the engine last answered (or became ready)
        self._answered = 0

    # -- life ----------------------------------------------------------------------------------
    def listen(self) -> None:
        """Bind the socket (0600), then publish the record."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            Path(self.record.socket).unlink(missing_ok=True)
            listener.bind(self.record.socket)
        finally:
            os.umask(old)
        os.chmod(self.record.socket, 0o600)
        listener.listen(16)
        listener.settimeout(0.5)
        self._listener = listener
        write_record(self.folder, self.record)

    def run(self, build: Callable[[], Engine]) -> int:
        """Build the engine (on this thread: an engine may need the main thread), serve until
        stopped, then clean up; the exit code (1: the engine could not be built)."""
        assert self._listener is not None, "listen() first"
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            if threading.current_thread() is threading.main_thread():
                signal.signal(number, lambda *_: self._stop.set())
        threading.Thread(target=self._accept, name="hymt-serve-accept", daemon=True).start()
        try:
            engine = build()
        except BaseException as exc:  # told to every run that waits, then the server ends
            self._failed = f"{type(exc).__name__}: {exc}"
            self._say(f"the engine failed to start: {self._failed}")
            self._ready.set()
            self._shutdown()
            return 1
        with self._lock:
            self._engine, self._last = engine, time.monotonic()
        self._ready.set()
        self._say(f"serving {self.record.engine} ({self.record.model}) at {self.record.socket}")
        threading.Thread(target=self._watch_idle, name="hymt-serve-idle", daemon=True).start()
        while not self._stop.wait(0.5):
            pass
        self._shutdown()
        return 0

    def stop(self) -> None:
        self._stop.set()

    def _shutdown(self) -> None:
        if self._listener is not None:
            self._listener.close()
        remove_record(self.record, self.folder)
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
        self._say("stopped")

    def _watch_idle(self) -> None:
        idle = self.record.idle_stop
        while idle > 0 and not self._stop.wait(min(_IDLE_CHECK, idle)):
            with self._lock:
                quiet = self._runs == 0 and time.monotonic() - self._last >= idle
            if quiet:
                self._say(f"idle for {idle:g} s: stopping")
                self._stop.set()

    # -- connections ---------------------------------------------------------------------------
    def _accept(self) -> None:
        assert self._listener is not None
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:  # the listener was closed: stopping
                return
            conn.settimeout(None)
            threading.Thread(target=self._serve, args=(conn,), name="hymt-serve-run", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        run = False  # a run's connection: the server is not idle while one is open
        try:
            hello = self._admitted(conn)
            if hello is None:
                return
            if hello.get("run") is True:
                with self._lock:
                    run = not self._stop.is_set()
                    self._runs += run
                if not run:
                    _refuse(conn, "stopping")
                    return
            send(conn, self._state())
            self._converse(conn)
        except (WireError, OSError) as exc:
            self._say(f"a connection ended: {exc}")
        finally:
            conn.close()
            if run:
                with self._lock:
                    self._runs -= 1
                    self._last = time.monotonic()

    def _admitted(self, conn: socket.socket) -> dict[str, Any] | None:
        """The connection's hello, when it is this user's, with the token and these settings."""
        uid = peer_uid(conn)
        if uid is not None and uid != os.getuid():
            self._say(f"refused a connection of another user (uid {uid})")
            _refuse(conn, "this engine serves another user")
            return None
        hello = receive(conn)
        if hello is None:  # a probe (records.live_records): connected, then gone
            return None
        token = hello.get("token")
        if word(hello, "op") != "hello" or not isinstance(token, str):
            raise WireError("the first message must be a hello with a token")
        if not hmac.compare_digest(token.encode(), self.record.token.encode()):
            self._say("refused a connection with a wrong token")
            _refuse(conn, "wrong token")
            return None
        if hello.get("protocol") != PROTOCOL:
            _refuse(conn, f"protocol {PROTOCOL} only")
            return None
        if hello.get("settings") != self.record.settings:
            _refuse(conn, "this engine serves other settings")
            return None
        return hello

    def _converse(self, conn: socket.socket) -> None:
        while (message := receive(conn)) is not None:
            op = word(message, "op")
            if op == "generate":
                self._generate(conn, whole(message.get("count"), "count", 1, MAX_REQUESTS))
            elif op == "wait":
                while not self._ready.wait(0.5):
                    if self._stop.is_set():
                        raise WireError("stopping")
                send(conn, self._state())
            elif op == "status":
                send(conn, self._state())
            elif op == "stop":
                send(conn, {"ok": True})
                self._say("asked to stop")
                self._stop.set()
                return
            elif op == "bye":
                return
            else:
                raise WireError(f"unknown op {op!r}")

    def _state(self) -> dict[str, Any]:
        with self._lock:
            engine, idle_for = self._engine, time.monotonic() - self._last
            clients, answered = self._runs, self._answered
        limits = engine.limits if engine is not None else None
        return {
            "ok": True,
            "ready": self._ready.is_set() and self._failed is None,
            "failed": self._failed,
            "engine": self.record.engine,
            "model": self.record.model,
            "pid": os.getpid(),
            "limits": [limits.tokens, limits.requests] if limits is not None else None,
            "retries": engine.retries if engine is not None else 0,
            "idle_for": round(idle_for, 1),
            "runs": clients,
            "answered": answered,
        }

    def _generate(self, conn: socket.socket, count: int) -> None:
        requests: list[GenerationRequest] = []
        while len(requests) < count:
            message = receive(conn)
            if message is None:
                raise WireError("the connection ended inside a request")
            requests += requests_of(message, count - len(requests))
        self._ready.wait()
        with self._turn:
            engine = self._engine
            if engine is None:
                send(conn, {"error": self._failed or "the engine is stopping"})
                return
            stream = engine.generate_stream(requests)
            try:
                for index, generation in stream:
                    send(conn, {"answers": [answer_row(index, generation)]})
                    with self._lock:
                        self._answered += 1
                        self._last = time.monotonic()
            finally:  # a run that went away: what the engine still holds of it is dropped
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
            send(conn, {"end": True})


def _refuse(conn: socket.socket, why: str) -> None:
    try:
        send(conn, {"ok": False, "error": why})
    except OSError:
        pass
