"""Where this user's served engines listen: one record per server in a private folder of the cache
folder (platformdirs: `~/.cache/hymt/serve/` on Linux), read by `hymt translate` to find one of
its settings, and by `hymt serve --stop` and `--status`.

The folder is this user's alone (0700, owned by the user; a folder owned by another user is
refused), a record and its socket are 0600, and a record holds the token a client must present:
another user can neither reach the socket nor read the token. A record whose server is gone (it
crashed, the machine restarted) is stale: `live_records` removes it, and its socket file.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import socket
import stat
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import UsageError

_SUFFIX = ".json"
_MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes on Linux, 104 on macOS


class ServeFolderError(UsageError):
    """The serve folder cannot be trusted (another owner, a file in its place)."""


def serve_folder(create: bool = True) -> Path:
    """This user's serve folder, made private (0700) if it is ours; ServeFolderError if another
    user owns it."""
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("hymt", appauthor=False)) / "serve"
    if create:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        info = folder.lstat()
    except FileNotFoundError:
        return folder
    if not stat.S_ISDIR(info.st_mode):
        raise ServeFolderError(f"{folder} is not a folder")
    if info.st_uid != os.getuid():
        raise ServeFolderError(f"{folder} belongs to another user (uid {info.st_uid}): not used")
    if stat.S_IMODE(info.st_mode) != 0o700:
        folder.chmod(0o700)
    return folder


@dataclass(frozen=True, slots=True)
class ServeRecord:
    """One running server: where it listens, the token it asks for, the settings it serves
    (`settings`: their digest, run/serve_key.py), what it runs, and its process."""

    id: str
    socket: str
    token: str
    settings: str
    engine: str
    model: str
    pid: int
    started: float
    idle_stop: float  # seconds without a request before it stops (0: never)
    log: str


def new_record(folder: Path, **fields: object) -> ServeRecord:
    """A record with a new id and token, and a socket path short enough for the system (in the
    serve folder, else in a private temporary folder)."""
    server_id = secrets.token_hex(8)
    place = folder / f"{server_id}.sock"
    if len(str(place).encode()) > _MAX_SOCKET_PATH:
        place = Path(tempfile.mkdtemp(prefix="hymt-serve-")) / "engine.sock"  # 0700 by mkdtemp
    return ServeRecord(id=server_id, socket=str(place), token=secrets.token_hex(32), **fields)  # type: ignore[arg-type]


def write_record(folder: Path, record: ServeRecord) -> None:
    """Atomically, readable by this user only."""
    target = record_path(folder, record)
    temp = folder / f".{record.id}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(asdict(record), out)
    os.replace(temp, target)


def record_path(folder: Path, record: ServeRecord) -> Path:
    return folder / f"{record.id}{_SUFFIX}"


def remove_record(record: ServeRecord, folder: Path) -> None:
    record_path(folder, record).unlink(missing_ok=True)
    place = Path(record.socket)
    place.unlink(missing_ok=True)
    if place.parent != folder and place.parent.name.startswith("hymt-serve-"):
        try:
            place.parent.rmdir()
        except OSError:
            pass


def _read(path: Path) -> ServeRecord | None:
    """A record file of this user's, or None (not ours, not a record)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, encoding="utf-8") as source:
        info = os.fstat(source.fileno())
        if info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & 0o077:
            return None
        try:
            data = json.load(source)
            return ServeRecord(**data) if isinstance(data, dict) else None
        except (ValueError, TypeError):
            return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user took the number
        return False
    return True


def _listening(record: ServeRecord) -> bool:
    """Whether something listens on the record's socket (a refused or missing socket: no)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(2.0)
    try:
        probe.connect(record.socket)
    except OSError as exc:
        return exc.errno not in (errno.ECONNREFUSED, errno.ENOENT, errno.ENOTSOCK)
    finally:
        probe.close()
    return True


def live_records(folder: Path | None = None) -> list[ServeRecord]:
    """This user's servers that still run, oldest first; stale records (their process is gone,
    or nothing listens on their socket) are removed with their socket."""
    folder = folder or serve_folder(create=False)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob(f"*{_SUFFIX}")):
        record = _read(path)
        if record is None or path.name != f"{record.id}{_SUFFIX}":
            continue
        if not _alive(record.pid) or not _listening(record):
            remove_record(record, folder)
            continue
        found.append(record)
    return sorted(found, key=lambda r: r.started)


def prune_logs(folder: Path, keep: int = 20) -> None:
    """The logs of servers that ended, beyond the last `keep`, removed."""
    running = {path.stem for path in folder.glob(f"*{_SUFFIX}")}
    ended = sorted(
        (p for p in folder.glob("*.log") if p.stem not in running), key=lambda p: p.stat().st_mtime
    )
    for old in ended[: max(0, len(ended) - keep)]:
        old.unlink(missing_ok=True)
