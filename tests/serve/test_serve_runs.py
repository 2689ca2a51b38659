"""`hymt serve` through the real command line, with the pseudo engine (no model: fast): a pipe's
run uses a server of its settings and says so in one line, gets what its own engine gives, and
leaves servers of other settings alone; `--status`, `--stop`, the idle stop; a crashed server's
record is found stale and removed; a wrong token, other settings and another user are refused;
a server that answers garbage or goes away mid-run leaves the run to its own engine."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import threading
from pathlib import Path

import pytest
from clirun import hymt
from serve_helpers import (
    alive,
    as_other_user,
    can_switch_user,
    env_of,
    records,
    serve_cache,
    serve_folder,
    wait_gone,
)

from hymt_cli.run.config import engine_choice
from hymt_cli.run.serve_key import settings_key
from hymt_cli.serve.records import new_record, write_record
from hymt_cli.serve.wire import receive, send
from hymt_cli.settings import Settings

PIPE = ("translate", "-", "--format", "txt", "--to", "de", "--no-cache")
USING = "hymt: using the engine of hymt serve"


@pytest.fixture
def cache():
    with serve_cache() as root:
        yield root


def _serve(cache: Path, *flags: str) -> dict:
    result = hymt("serve", "--engine", "pseudo", *flags, env=env_of(cache), text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "serving pseudo" in result.stderr, result.stderr
    (record,) = records(cache)
    return record


def _pipe(cache: Path, text: bytes, *flags: str):
    return hymt(*PIPE, *flags, stdin=text, env=env_of(cache))


def test_a_pipe_uses_the_server_of_its_settings_and_gets_its_own_engines_answer(
    cache: Path, tmp_path: Path
) -> None:
    text = b"Hello, world.\n\nSave your work before you leave.\n"
    direct = _pipe(tmp_path / "no-server", text, "--engine", "pseudo")  # its own engine: no server there
    assert direct.returncode == 0 and USING.encode() not in direct.stderr
    record = _serve(cache, "--serve-idle", "5")
    folder = serve_folder(cache)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / f"{record['id']}.json").stat().st_mode) == 0o600
    sock = Path(record["socket"]).stat()
    assert stat.S_ISSOCK(sock.st_mode) and stat.S_IMODE(sock.st_mode) == 0o600

    served = _pipe(cache, text, "--engine", "pseudo")
    assert served.returncode == 0, served.stderr
    lines = served.stderr.decode().splitlines()
    assert [line for line in lines if line.startswith(USING)] == [lines[0]]
    assert f"pid {record['pid']}" in lines[0]
    assert served.stdout == direct.stdout
    status = hymt("serve", "--status", env=env_of(cache), text=True)
    assert "pseudo (no model)" in status.stdout and "ready, 2 answers" in status.stdout, status.stdout

    quiet = _pipe(cache, text, "--engine", "pseudo", "-q")
    assert quiet.returncode == 0 and quiet.stderr == b"" and quiet.stdout == direct.stdout
    other = _pipe(cache, text, "--engine", "identity")  # other settings: its own engine
    assert other.returncode == 0 and USING.encode() not in other.stderr
    assert f"note: hymt serve (pid {record['pid']}) serves other settings: not used".encode() in other.stderr
    assert other.stdout == text


def test_stop_ends_the_server_and_removes_its_record(cache: Path) -> None:
    record = _serve(cache)
    again = hymt("serve", "--engine", "pseudo", env=env_of(cache), text=True)
    assert again.returncode == 0 and "already serving" in again.stderr
    assert len(records(cache)) == 1
    stopped = hymt("serve", "--stop", env=env_of(cache), text=True)
    assert stopped.returncode == 0 and f"stopped pseudo (no model), pid {record['pid']}" in stopped.stderr
    assert not alive(record["pid"])
    assert records(cache) == [] and not Path(record["socket"]).exists()
    assert "no server runs" in hymt("serve", "--status", env=env_of(cache), text=True).stdout


def test_an_idle_server_stops_by_itself(cache: Path) -> None:
    record = _serve(cache, "--serve-idle", "0.03")  # 1.8 s
    assert _pipe(cache, b"Hello\n", "--engine", "pseudo").returncode == 0
    assert wait_gone(record["pid"], timeout=60), "the idle server still runs"
    assert records(cache) == [] and not Path(record["socket"]).exists()
    log = (serve_folder(cache) / f"{record['id']}.log").read_text()
    assert "idle for 1.8 s: stopping" in log and "stopped" in log


def test_a_crashed_servers_record_is_found_stale_and_removed(cache: Path) -> None:
    record = _serve(cache)
    os.kill(record["pid"], signal.SIGKILL)
    assert wait_gone(record["pid"], timeout=30)
    assert records(cache) and Path(record["socket"]).exists()  # left behind
    run = _pipe(cache, b"Hello\n", "--engine", "pseudo")
    assert run.returncode == 0 and USING.encode() not in run.stderr
    assert records(cache) == [] and not Path(record["socket"]).exists()


def _hello(path: str, **fields: object) -> dict | None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(10)
        conn.connect(path)
        send(conn, {"op": "hello", "protocol": 1, **fields})
        return receive(conn)


def test_a_wrong_token_and_other_settings_are_refused(cache: Path) -> None:
    record = _serve(cache)
    assert _hello(record["socket"], token="0" * 64, settings=record["settings"]) == {
        "ok": False,
        "error": "wrong token",
    }
    other = _hello(record["socket"], token=record["token"], settings="another")
    assert other == {"ok": False, "error": "this engine serves other settings"}
    assert _hello(record["socket"], token=record["token"], settings=record["settings"])["ok"] is True


@pytest.mark.skipif(not can_switch_user(), reason="needs root and setpriv to run a client as another user")
def test_another_user_is_refused(cache: Path) -> None:
    record = _serve(cache)
    # the serve folder is 0700: another user cannot even reach the socket
    assert as_other_user(record) == {"connect": "PermissionError"}
    # were the folder and the socket open to all, the server still refuses another uid, token or not
    serve_folder(cache).chmod(0o711)
    Path(record["socket"]).chmod(0o666)
    found = as_other_user(record)
    assert found == {"reply": {"ok": False, "error": "this engine serves another user"}}
    log = (serve_folder(cache) / f"{record['id']}.log").read_text()
    assert "refused a connection of another user (uid 65534)" in log


# -- a server that misbehaves (a test double: fault injection) ----------------------------------
def _fake_server(cache: Path, answer) -> tuple[Path, socket.socket]:  # type: ignore[no-untyped-def]
    """A listener with a record of the pseudo engine's settings, answering with `answer(conn, count)`;
    its record (with this process's pid) and the listener, for the test to remove."""
    folder = serve_folder(cache)
    folder.mkdir(parents=True, mode=0o700)
    key = settings_key(engine_choice(Settings.build(engine="pseudo")))
    record = new_record(
        folder,
        settings=key,
        engine="pseudo",
        model="no model",
        pid=os.getpid(),
        started=0.0,
        idle_stop=0.0,
        log="",
    )
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(record.socket)
    listener.listen(4)
    write_record(folder, record)

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                hello = receive(conn)
                if hello is None:
                    continue
                send(conn, {"ok": True, "ready": True, "limits": [None, None], "retries": 0})
                ask = receive(conn)
                if ask and ask.get("op") == "generate":
                    count, got = ask["count"], 0
                    while got < count:
                        got += len((receive(conn) or {}).get("requests", []))
                    answer(conn, count)

    threading.Thread(target=serve, daemon=True).start()
    return folder / f"{record.id}.json", listener


@pytest.mark.parametrize(
    ("answer", "why", "kept"),
    [
        (lambda conn, count: None, "the server closed the connection", None),  # gone mid-run
        (lambda conn, count: send(conn, {"answers": [[count, "x", "stop", 1]]}), "an answer's index", None),
        (lambda conn, count: conn.sendall(b"\xff\xff\xff\xff"), "over the limit", None),
        # one answer, then gone: that answer is kept, the other comes from the run's own engine
        (
            lambda conn, count: send(conn, {"answers": [[0, "Erster.", "stop", 1]]}),
            "closed the connection",
            b"Erster.",
        ),
    ],
)
def test_a_server_that_fails_mid_run_leaves_the_run_to_its_own_engine(  # type: ignore[no-untyped-def]
    cache: Path, answer, why: str, kept: bytes | None
) -> None:
    record, listener = _fake_server(cache, answer)
    try:
        text = b"First paragraph.\n\nSecond paragraph.\n"
        run = _pipe(cache, text, "--engine", "pseudo", "--report", str(cache / "r.json"))
        direct = _pipe(cache / "none", text, "--engine", "pseudo")
    finally:
        listener.close()
        record.unlink()
    stderr = run.stderr.decode()
    assert run.returncode == 0, stderr
    assert USING in stderr and "the served engine went away" in stderr and why in stderr, stderr
    assert "this run starts its own engine" in stderr
    first, second = direct.stdout.split(b"\n\n")
    # every answer once: the server's where it gave one, the run's own engine's for the rest
    assert run.stdout == (kept or first) + b"\n\n" + second
    assert json.loads((cache / "r.json").read_text())["untranslated"] == 0
