"""Helpers of the `hymt serve` tests: a private cache folder per test (the servers' records live
there), its servers stopped at the end, and a client run as another user (root only)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from clirun import hymt

NOBODY = 65534
SYSTEM_PYTHON = "/usr/bin/python3"  # one that another user may run (not a checkout's or a home's)
# A client of another user: stdlib only (the other user may not read hymt's checkout), it
# connects to the socket and says hello with the token it is given; prints what happened.
OTHER_USER_CLIENT = r"""
import json, socket, struct, sys
path, token, settings = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
try:
    s.connect(path)
except OSError as exc:
    print(json.dumps({"connect": type(exc).__name__}))
    sys.exit(0)
body = json.dumps({"op": "hello", "protocol": 1, "token": token, "settings": settings}).encode()
try:
    s.sendall(struct.pack(">I", len(body)) + body)
except OSError:  # refused before the hello was read: the refusal is there to read
    pass
head = s.recv(4)
if len(head) < 4:
    print(json.dumps({"reply": None}))
    sys.exit(0)
(n,) = struct.unpack(">I", head)
data = b""
while len(data) < n:
    data += s.recv(n - len(data))
print(json.dumps({"reply": json.loads(data)}))
"""


@contextlib.contextmanager
def serve_cache() -> Iterator[Path]:
    """A cache folder (XDG_CACHE_HOME) another user can traverse (not read: the serve folder in it
    is the server's, 0700); the servers it lists are stopped at the end."""
    root = Path(tempfile.mkdtemp(prefix="hymt-serve-test-", dir="/tmp"))
    root.chmod(0o755)
    try:
        yield root
    finally:
        hymt("serve", "--stop", env=env_of(root), timeout=180)
        for record in records(root):
            if record["pid"] != os.getpid():  # (a test's own fake server has the test's pid)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(record["pid"], signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)


def env_of(cache: Path) -> dict[str, str | None]:
    return {"XDG_CACHE_HOME": str(cache)}


def serve_folder(cache: Path) -> Path:
    return cache / "hymt" / "serve"


def records(cache: Path) -> list[dict]:
    folder = serve_folder(cache)
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    return True


def wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.2)
    return False


def as_other_user(record: dict) -> dict:
    """What a client of another user (uid 65534) gets from the record's socket."""
    found = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", SYSTEM_PYTHON]
        + ["-c", OTHER_USER_CLIENT, record["socket"], record["token"], record["settings"]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.returncode == 0, found.stderr
    return json.loads(found.stdout)


def can_switch_user() -> bool:
    return os.geteuid() == 0 and shutil.which("setpriv") is not None and os.access(SYSTEM_PYTHON, os.X_OK)
