"""`hymt serve`: the engine a run of these settings would build, built once and served in the
background (serve/server.py) until it has been idle for `--serve-idle` minutes, is stopped
(`hymt serve --stop`) or killed; `--status` lists this user's servers.

In the background the server is a child of this process in a session of its own, its output in
a log file beside its record; this process waits until the engine is ready (or failed: the log's
last lines say why), then says where it listens and exits. `--foreground` serves in this process
(a service manager, a container)."""

from __future__ import annotations

import os
import socket
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..errors import EngineUnavailable, ExitCode, UsageError
from ..model.files import check_model_reachable
from ..reporting.progress import NoticeKind, ProgressEvents
from ..serve.client import ServedUnreachable, ask
from ..serve.options import ServeOptions
from ..serve.records import (
    ServeRecord,
    live_records,
    new_record,
    prune_logs,
    remove_record,
    serve_folder,
)
from ..serve.server import EngineServer
from ..settings import Settings
from ._engine_log import EngineLog
from .config import EngineChoice, engine_choice
from .engine_setup import EngineFactory
from .serve_key import servable, settings_key

Say = Callable[[str], None]


def describe(record: ServeRecord) -> str:
    idle = f"stops after {record.idle_stop / 60:g} min idle" if record.idle_stop > 0 else "no idle stop"
    return f"{record.engine} ({record.model}), pid {record.pid}, {idle}"


def serve(settings: Settings, say: Say, *, foreground: bool) -> ExitCode:
    """Start a server of these settings (none when one runs already)."""
    if not hasattr(os, "fork") or not hasattr(socket, "AF_UNIX"):
        raise UsageError("hymt serve needs a POSIX system (a background process, a Unix socket)")
    choice = engine_choice(settings)
    servable(choice)
    if choice.uses_model:  # a model that is not there fails here, in one line, not in the background
        check_model_reachable(choice.model, choice.options.revision)
    key = settings_key(choice)
    folder = serve_folder()
    prune_logs(folder)
    running = next((r for r in live_records(folder) if r.settings == key), None)
    if running is not None:
        say(f"already serving {describe(running)}")
        return ExitCode.OK
    record = new_record(
        folder,
        settings=key,
        engine=choice.runs.name,
        model=choice.model if choice.uses_model else "no model",
        pid=os.getpid(),
        started=time.time(),
        idle_stop=settings.of(ServeOptions).serve_idle * 60,
        log="",
    )
    if foreground:
        record = replace(record, log=str(settings.reporting.log_file or ""))
        return _serve(record, folder, choice, settings, say, log_file=settings.reporting.log_file)
    record = replace(record, log=str(settings.reporting.log_file or folder / f"{record.id}.log"))
    pid = os.fork()
    if pid == 0:  # the server: a session of its own, its output in its log
        code = 1
        try:
            os.setsid()
            _detach(Path(record.log))
            code = _serve(
                replace(record, pid=os.getpid()), folder, choice, settings, _logged, log_file=Path(record.log)
            )
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return _wait_started(replace(record, pid=pid), pid, say)


def _detach(log: Path) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    os.close(null)


def _logged(line: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} hymt serve: {line}", flush=True)


class _Told(ProgressEvents):
    """The engine's start, told line by line."""

    def __init__(self, say: Say) -> None:
        self._say = say

    def engine_phase(self, name: str) -> None:
        self._say(f"engine: {name}")

    def notice(self, kind: NoticeKind, message: str) -> None:
        self._say(f"{kind}: {message}")


def _serve(
    record: ServeRecord,
    folder: Path,
    choice: EngineChoice,
    settings: Settings,
    say: Say,
    *,
    log_file: Path | None,
) -> ExitCode:
    server = EngineServer(record, folder, say=say)
    server.listen()
    factory = EngineFactory(choice, _Told(say), verbose=settings.reporting.verbose, log_file=log_file)
    try:
        code = server.run(factory)
    finally:
        factory.stop_log()
    if code:
        factory.failure_notices()
    return ExitCode.OK if code == 0 else ExitCode.ENGINE_UNAVAILABLE


def _wait_started(record: ServeRecord, pid: int, say: Say) -> ExitCode:
    say(f"starting {record.engine} ({record.model}) in the background; its log: {record.log}")
    try:
        return _poll_started(record, pid, say)
    except KeyboardInterrupt:
        say("the server goes on starting in the background (`hymt serve --status`, `--stop`)")
        raise


def _poll_started(record: ServeRecord, pid: int, say: Say) -> ExitCode:
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            for line in EngineLog(Path(record.log)).problems():
                say(f"  engine: {line}")
            raise EngineUnavailable(f"the server's engine did not start; its log: {record.log}")
        try:
            state = ask(record, "status")
        except ServedUnreachable:
            state = {}
        if state.get("ready"):
            say(f"serving {describe(record)}; `hymt serve --stop` stops it")
            return ExitCode.OK
        time.sleep(0.2)


def stop(say: Say) -> ExitCode:
    """Stop every server of this user."""
    records = live_records()
    if not records:
        say("no server runs")
    for record in records:
        try:
            ask(record, "stop")
        except ServedUnreachable as exc:
            say(f"pid {record.pid} did not answer ({exc}): stopped with SIGTERM")
            _terminate(record)
        _wait_gone(record)
        say(f"stopped {describe(record)}")
    return ExitCode.OK


def _terminate(record: ServeRecord) -> None:
    import signal

    try:
        os.kill(record.pid, signal.SIGTERM)
    except ProcessLookupError:
        remove_record(record, serve_folder())


def _wait_gone(record: ServeRecord, timeout: float = 120.0) -> None:
    """Until the server's process has ended (its engine's memory is given back then)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(record.pid, 0)
        except ProcessLookupError:
            return
        if _reaped(record.pid):
            return
        time.sleep(0.1)


def _reaped(pid: int) -> bool:
    """A server started by this process (a test, `--foreground` aside) is its child: reap it."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return False
    return done == pid


def status(say: Say) -> ExitCode:
    """This user's servers, one line each."""
    records = live_records()
    if not records:
        say("no server runs")
    for record in records:
        try:
            state = ask(record, "status")
        except ServedUnreachable as exc:
            say(f"{describe(record)}: not answering ({exc})")
            continue
        ready = "ready" if state.get("ready") else "starting"
        say(
            f"{describe(record)}: {ready}, {state.get('answered', 0)} answers, "
            f"idle {state.get('idle_for', 0)} s, socket {record.socket}"
        )
    return ExitCode.OK
