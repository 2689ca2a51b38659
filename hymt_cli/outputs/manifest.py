"""What hymt wrote: a manifest per output folder, so a run replaces only its own files.

`.hymt-manifest.json` in a folder lists the files hymt wrote there with the SHA-256 of what it
wrote, the source they came from (its digest too) and the run's provenance (model, prompts,
glossary, sampling: `Fingerprint.key`; then, after `; `, the settings of its format that are
not at their defaults: formats/_provenance.py). A file that exists and is not listed with its
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
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from .atomic import write_atomically

if TYPE_CHECKING:
    from .entries import Archived, KeptRecords, Record

MANIFEST_NAME = ".hymt-manifest.json"
SCHEMA = "hymt.manifest/1"


@dataclass(frozen=True, slots=True)
class Written:
    """One file hymt wrote. A file of strings also lists its values, key by key (`entries`: a
    key's JSON Pointer -> `"<source digest> <value digest>"`, with ` person` where a person wrote
    the value), and the values of keys the source lost (`removed`: key -> `{"source", "text",
    "person"}`): formats/strings/merge.py."""

    sha256: str
    source: str  # the source's path relative to the manifest's folder (POSIX separators)
    source_sha256: str
    provenance: str
    entries: Mapping[str, str] | None = None
    removed: Mapping[str, Mapping[str, object]] | None = None
    # the source text a person's value was first seen with, by key (to name it when it changes)
    sources: Mapping[str, str] | None = None


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


def kept_records(path: Path) -> KeptRecords:
    """What hymt recorded of each value of the file of strings at `path`, of the values its
    source lost, and the source text each person's value was first seen with (empty where it
    recorded none): the folder's manifest read once."""
    # Lazy: a run of documents merges nothing and never imports it (tests/cli/test_modules_entered.py).
    from .entries import Archived, KeptRecords, Record

    written = read_manifest(path.parent).get(path.name)
    records: dict[str, Record] = {}
    archive: dict[str, Archived] = {}
    if written is None:
        return KeptRecords(records, archive, {})
    for key, value in (written.entries or {}).items():
        parts = value.split(" ")
        if len(parts) >= 2:
            records[key] = Record(parts[0], parts[1], len(parts) > 2 and parts[2] == "person")
    for key, item in (written.removed or {}).items():
        text = item.get("text")
        if isinstance(text, str):
            archive[key] = Archived(str(item.get("source") or ""), text, bool(item.get("person", True)))
    return KeptRecords(records, archive, dict(written.sources or {}))


@dataclass(frozen=True, slots=True)
class KeptTarget:
    """A target file that exists, which a file of strings is merged into: its bytes, and what this
    folder's manifest recorded of its values. The I/O of a merge is here; the format
    (formats/strings/target.py) asks for them, and only parses and merges."""

    path: Path

    @property
    def where(self) -> str:
        """The target as messages name it."""
        return str(self.path)

    def read(self) -> bytes:
        """The file's bytes; a regular file only (a FIFO is never waited on)."""
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(0, "not a regular file")
            with os.fdopen(fd, "rb", closefd=False) as handle:
                return handle.read()
        finally:
            os.close(fd)

    def read_again(self) -> bytes:
        """The file's bytes as they are now (under its folder's lock: another run may have
        written it since `read`)."""
        with open(self.path, "rb") as handle:
            return handle.read()

    def records(self) -> KeptRecords:
        """What the manifest recorded of the file's values (kept_records)."""
        return kept_records(self.path)


def entries_field(records: Mapping[str, Record]) -> dict[str, str]:
    return {
        key: f"{r.source} {r.output}" + (" person" if r.person else "") for key, r in sorted(records.items())
    }


def removed_field(archive: Mapping[str, Archived]) -> dict[str, dict[str, object]]:
    return {
        key: {"source": a.source, "text": a.text, "person": a.person} for key, a in sorted(archive.items())
    }


def record(
    path: Path,
    source: Path | None,
    provenance: str,
    *,
    entries: Mapping[str, Record] | None = None,
    removed: Mapping[str, Archived] | None = None,
    sources: Mapping[str, str] | None = None,
) -> None:
    """Remember that hymt just wrote `path` (from `source`): a line of the folder's journal,
    folded into the manifest once the journal is as long as the manifest. `entries` and
    `removed`: a file of strings' values (Written). Nothing is appended when the manifest says
    so already (a merge that changed nothing)."""
    folder = path.parent
    entry = Written(
        file_digest(path),
        _relative(source, folder) if source else "<stdin>",
        file_digest(source) if source else "",
        provenance,
        entries_field(entries) if entries is not None else None,
        (removed_field(removed) or None) if removed is not None else None,
        dict(sorted(sources.items())) if sources else None,
    )
    with locked(folder), _memory:
        if _current(folder).usable and _current(folder).files.get(path.name) == entry:
            return
    line = json.dumps({"name": path.name, **_fields(entry)}, ensure_ascii=True) + "\n"
    with locked(folder), _memory:
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
            _fold(folder, state)
        elif state.journal_entries >= max(FOLD_AT_LEAST, state.manifest_entries):
            _fold(folder, state)


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
    with locked(folder), _memory:
        if (state := _current(folder)).journal_entries:
            _fold(folder, state)


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


CACHED_FOLDERS = 1024  # (a run into every language keeps a few dozen folders busy at a time)


class FolderCache:
    """The folders read last (`size` of them, the one used least recently let go first): a long
    run writing into many folders keeps a bounded number; a folder let go is read again from its
    files, as the first time."""

    def __init__(self, size: int = CACHED_FOLDERS) -> None:
        self.size = size
        self._folders: OrderedDict[Path, _Folder] = OrderedDict()

    def get(self, folder: Path) -> _Folder | None:
        state = self._folders.get(folder)
        if state is not None:
            self._folders.move_to_end(folder)
        return state

    def put(self, folder: Path, state: _Folder) -> None:
        self._folders[folder] = state
        self._folders.move_to_end(folder)
        while len(self._folders) > self.size:
            self._folders.popitem(last=False)

    def __contains__(self, folder: Path) -> bool:
        return folder in self._folders

    def __len__(self) -> int:
        return len(self._folders)


_cache = FolderCache()
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
    _cache.put(folder, state)
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


def _fold(folder: Path, state: _Folder) -> None:
    """Rewrite the manifest with every entry (the journal's included), then drop the journal."""
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
    entries, removed, sources = entry.get("entries"), entry.get("removed"), entry.get("sources")
    try:
        return Written(
            str(entry["sha256"]),
            str(entry["source"]),
            str(entry["source_sha256"]),
            str(entry["provenance"]),
            {str(k): str(v) for k, v in entries.items()} if isinstance(entries, dict) else None,
            {str(k): v for k, v in removed.items() if isinstance(v, dict)}
            if isinstance(removed, dict)
            else None,
            {str(k): v for k, v in sources.items() if isinstance(v, str)}
            if isinstance(sources, dict)
            else None,
        )
    except KeyError:
        return None


def _texts(sources: object) -> dict[str, str] | None:
    if not isinstance(sources, dict):
        return None
    return {str(k): v for k, v in sources.items() if isinstance(v, str)}


def _removed(removed: object) -> dict[str, Mapping[str, object]] | None:
    if not isinstance(removed, dict):
        return None
    return {str(k): v for k, v in removed.items() if isinstance(v, dict)}


def _fields(written: Written) -> dict[str, object]:
    fields: dict[str, object] = {
        "sha256": written.sha256,
        "source": written.source,
        "source_sha256": written.source_sha256,
        "provenance": written.provenance,
    }
    if written.entries is not None:
        fields["entries"] = dict(written.entries)
    if written.removed:
        fields["removed"] = {k: dict(v) for k, v in written.removed.items()}
    if written.sources:
        fields["sources"] = dict(written.sources)
    return fields


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


class _FolderLock:
    """A folder's lock in this process: a thread holding it may take it again; the flock is
    taken by the first hold and released by the last."""

    def __init__(self) -> None:
        self.threads = threading.RLock()
        self.depth = 0
        self.fd = -1


_locks: dict[Path, _FolderLock] = {}
_locks_guard = threading.Lock()


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (no lock file left behind), against other
    processes and threads; the thread holding it may take it again (a merge holds it from
    reading its target again to recording what it wrote)."""
    with _locks_guard:
        lock = _locks.setdefault(folder.resolve(), _FolderLock())
    with lock.threads:
        if lock.depth == 0:
            fd = os.open(folder, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
            lock.fd = fd
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0:
                os.close(lock.fd)  # releases the lock
                lock.fd = -1
