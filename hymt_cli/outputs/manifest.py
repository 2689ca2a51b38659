"""What hymt wrote: a manifest per output folder, so a run replaces only its own files.

`.hymt-manifest.json` in a folder lists the files hymt wrote there with the SHA-256 of what it
wrote, the source they came from (its digest too) and the run's provenance (model, prompts,
glossary, sampling: `MemoryContext.key`; then, after `; `, the settings of its format that are
not at their defaults: formats/provenance.py). A file that exists and is not listed with its
current digest — a person's translation, or hymt's output edited since — is never replaced
unless the user says `--overwrite`. The manifest holds no timestamps: committed next to
the outputs, it changes only when they do.

Several runs may write into one folder: updates lock the folder (flock). Each output is recorded
by appending one line to `.hymt-manifest.journal` (synced to disk before the next output); the
manifest is rewritten, atomically, with the journal folded in once the journal is as long as the
manifest, and when the run ends (`settle`): recording stays cheap in a folder of thousands of
outputs (rewriting the whole manifest for every output made a folder of 4,000 pages take
minutes), and a run killed between two rewrites loses no entry. Readers take the manifest and the
journal together, and keep what they read: a folder read again costs only what was appended.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .atomic import write_atomically

MANIFEST_NAME = ".hymt-manifest.json"
SCHEMA = "hymt.manifest/1"


@dataclass(frozen=True, slots=True)
class Written:
    """One file hymt wrote."""

    sha256: str
    source: str  # the source's path relative to the manifest's folder (POSIX separators)
    source_sha256: str
    provenance: str


_SETTINGS = "; "  # between the run's provenance (a digest, and a context mode) and format settings


def with_settings(provenance: str, settings: str) -> str:
    """A provenance that also names the format settings an output was written with."""
    return f"{provenance}{_SETTINGS}{settings}" if settings else provenance


def split_provenance(provenance: str) -> tuple[str, str]:
    """The run's provenance, and the format settings it names ("": the defaults)."""
    run, _, settings = provenance.partition(_SETTINGS)
    return run, settings


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def read_manifest(folder: Path) -> Mapping[str, Written]:
    """The files hymt wrote in `folder` (empty when there is no usable manifest: then nothing
    there counts as hymt's, the safe reading). Read-only: a view of what this process keeps."""
    return MappingProxyType(_current(folder).files)


def written_by_hymt(path: Path) -> bool:
    """`path` is a file hymt wrote and nobody changed since."""
    entry = read_manifest(path.parent).get(path.name)
    if entry is None:
        return False
    try:
        return file_digest(path) == entry.sha256
    except OSError:
        return False


def record(path: Path, source: Path | None, provenance: str) -> None:
    """Remember that hymt just wrote `path` (from `source`): a line of the folder's journal,
    folded into the manifest once the journal is as long as the manifest."""
    folder = path.parent
    entry = Written(
        file_digest(path),
        _relative(source, folder) if source else "<stdin>",
        file_digest(source) if source else "",
        provenance,
    )
    line = json.dumps({"name": path.name, **_fields(entry)}, ensure_ascii=True) + "\n"
    with _locked(folder), _memory:
        try:
            _append(folder / JOURNAL_NAME, line)
            appended = True
        except OSError:  # no journal to append to (a link or a FIFO where it goes): the manifest takes it
            appended = False
        state = _current(folder)  # the line read back, with whatever another run appended
        if not appended or not state.usable:  # an unreadable manifest is replaced: this output is hymt's
            if not state.usable:
                state.files, state.usable = {}, True
            state.files[path.name] = entry
            _fold(folder)
        elif state.journal_entries >= max(FOLD_AT_LEAST, state.manifest_entries):
            _fold(folder)


def _append(journal: Path, line: str) -> None:
    """`line` at the end of the journal, on a line of its own, synced to disk."""
    fd = _open_plain(journal, os.O_RDWR | os.O_APPEND | os.O_CREAT)
    try:
        size = os.fstat(fd).st_size
        cut = size > 0 and os.pread(fd, 1, size - 1) != b"\n"  # a run killed mid-line
        os.write(fd, (("\n" if cut else "") + line).encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)


def _open_plain(path: Path, flags: int = os.O_RDONLY) -> int:
    """A descriptor of `path` when it is a regular file: never followed through a link, never
    waited on (a FIFO). A folder's manifest files come with the folder, which may be anybody's
    (a cloned repository): a journal linked to `~/.bashrc` must not get hymt's lines."""
    fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    if stat.S_ISREG(os.fstat(fd).st_mode):
        return fd
    os.close(fd)
    raise OSError(errno.EINVAL, "not a regular file", str(path))


def settle(folder: Path) -> None:
    """Fold the folder's journal into its manifest (the end of a run: the manifest alone then
    lists every output, the same bytes for the same outputs)."""
    with _locked(folder), _memory:
        if _current(folder).journal_entries:
            _fold(folder)


# -- what a process keeps of each folder it read -----------------------------------------------
JOURNAL_NAME = ".hymt-manifest.journal"
FOLD_AT_LEAST = 64  # journal entries before a rewrite, whatever the manifest's size
_Signature = tuple[int, int, int]  # inode, size, mtime (ns): "the same file, unchanged"


@dataclass(slots=True)
class _Folder:
    manifest: _Signature | None
    journal: _Signature | None
    journal_read: int  # bytes of the journal read (up to its last complete line)
    files: dict[str, Written]
    manifest_entries: int
    journal_entries: int
    usable: bool  # False: the manifest exists and cannot be read (nothing counts as hymt's)


_cache: dict[Path, _Folder] = {}
_memory = threading.RLock()


def _current(folder: Path) -> _Folder:
    """The folder's manifest and journal as they are now: what was read before, plus the lines
    appended to the journal since; read again whole when anything else changed."""
    with _memory:  # threads of one process share what it keeps
        return _refreshed(folder)


def _refreshed(folder: Path) -> _Folder:
    manifest, journal = _signature(folder / MANIFEST_NAME), _signature(folder / JOURNAL_NAME)
    known = _cache.get(folder)
    if known is not None and known.manifest == manifest:
        if known.journal == journal:
            return known
        if journal is not None and (known.journal is None or _grew(known.journal, journal)):
            _read_journal(folder, known)
            known.journal = journal
            return known
    state = _read(folder, manifest)
    state.journal = journal
    _cache[folder] = state
    return state


def _read(folder: Path, manifest: _Signature | None) -> _Folder:
    files: dict[str, Written] = {}
    usable = True
    if manifest is not None:
        try:
            with os.fdopen(_open_plain(folder / MANIFEST_NAME), "rb") as handle:
                data = json.loads(handle.read().decode("utf-8"))
        except (OSError, ValueError):  # (a link or a FIFO: unreadable, so it protects everything)
            data = None
        listed = data.get("files") if isinstance(data, dict) and data.get("schema") == SCHEMA else None
        if isinstance(listed, dict):
            for name, entry in listed.items():
                if (written := _entry(entry)) is not None:
                    files[name] = written  # an entry hymt cannot read protects its file
        else:
            usable = False
    state = _Folder(manifest, None, 0, files, len(files), 0, usable)
    _read_journal(folder, state)
    return state


def _read_journal(folder: Path, state: _Folder) -> None:
    """The journal's complete lines after what `state` has read (a line cut by a crash is not one)."""
    try:
        with os.fdopen(_open_plain(folder / JOURNAL_NAME), "rb") as handle:
            handle.seek(state.journal_read)
            appended = handle.read()
    except OSError:
        return
    complete = appended[: appended.rfind(b"\n") + 1]
    state.journal_read += len(complete)
    for line in complete.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        state.journal_entries += 1
        name = item.get("name") if isinstance(item, dict) else None
        if isinstance(name, str) and state.usable and (written := _entry(item)) is not None:
            state.files[name] = written


def _fold(folder: Path) -> None:
    """Rewrite the manifest with every entry (the journal's included), then drop the journal."""
    state = _cache[folder]
    payload = {"schema": SCHEMA, "files": {name: _fields(w) for name, w in sorted(state.files.items())}}
    # ASCII with \u escapes: file names that are not UTF-8 (surrogate-escaped bytes) survive.
    write_atomically(folder / MANIFEST_NAME, (json.dumps(payload, indent=1) + "\n").encode("ascii"))
    (folder / JOURNAL_NAME).unlink(missing_ok=True)
    state.manifest, state.journal = _signature(folder / MANIFEST_NAME), None
    state.journal_read, state.journal_entries = 0, 0
    state.manifest_entries, state.usable = len(state.files), True


def _entry(entry: object) -> Written | None:
    if not isinstance(entry, dict):
        return None
    try:
        return Written(
            str(entry["sha256"]), str(entry["source"]), str(entry["source_sha256"]), str(entry["provenance"])
        )
    except KeyError:
        return None


def _fields(written: Written) -> dict[str, str]:
    return {
        "sha256": written.sha256,
        "source": written.source,
        "source_sha256": written.source_sha256,
        "provenance": written.provenance,
    }


def _signature(path: Path) -> _Signature | None:
    try:
        status = os.lstat(path)
    except OSError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns


def _grew(before: _Signature, now: _Signature) -> bool:
    """The same journal, appended to (not replaced, not cut)."""
    return now[0] == before[0] and now[1] >= before[1]


def _relative(source: Path, folder: Path) -> str:
    return Path(os.path.relpath(source.resolve(), folder.resolve())).as_posix()


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (no lock file left behind)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
