"""Write files so that a reader never sees half of one: temp file in the same folder, then rename.

Temp files are named `.<name>.<pid>.<random>.hymt-tmp`, so a later run can tell the leftovers
of a killed process (its pid is gone) from a live writer's file.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, TextIO

TMP_SUFFIX = ".hymt-tmp"


def temp_beside(path: Path) -> Path:
    """An empty temp file in `path`'s folder (created, with its parents); the leftovers of
    killed runs writing the same file are removed first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=path.parent)
    os.close(fd)
    return Path(tmp)


def commit_temp(tmp: Path, path: Path) -> None:
    """Flush `tmp` to disk and rename it over `path`, keeping the permissions of the file replaced."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    if path.exists():
        os.chmod(tmp, path.stat().st_mode & 0o7777)
    else:
        os.chmod(tmp, 0o666 & ~_umask())
    os.replace(tmp, path)


@contextmanager
def open_atomically(path: Path) -> Iterator[BinaryIO]:
    """`open(path, "wb")`, except that `path` appears only, and whole, when the block succeeds."""
    tmp = temp_beside(path)
    try:
        with open(tmp, "wb") as handle:
            yield handle
        commit_temp(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def open_text_atomically(path: Path) -> Iterator[TextIO]:
    """`open_atomically` for UTF-8 text with "\n" line ends on every platform."""
    tmp = temp_beside(path)
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
        commit_temp(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomically(path: Path, data: bytes) -> None:
    with open_atomically(path) as handle:
        handle.write(data)


_STALE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+" + re.escape(TMP_SUFFIX) + "$")


_swept: set[Path] = set()  # folders already cleaned by this process: one listing each, not one per file


def _remove_stale_temps(path: Path) -> None:
    """Temp files of runs that were killed (their process is gone) are removed."""
    folder = path.parent
    if folder in _swept:
        return
    _swept.add(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = _STALE.match(name)
        if match and not _pid_alive(int(match.group("pid"))):
            try:
                os.unlink(folder / name)
            except OSError:
                pass


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
