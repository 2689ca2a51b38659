"""The translation memory's errors: a file that is not a usable hymt memory vs a file system in
the way. Each says what is wrong in one line; none advises deleting the user's file."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hymt_cli.errors import ExitCode
from hymt_cli.memory import Fingerprint, MemoryFileError, PipelineMemory, TranslationMemory, store

ROOT = Path(__file__).resolve().parents[2]
CTX = Fingerprint("m", "rev:default", "t/1", "", "s")


def _memory(path: Path, entries: int = 10) -> Path:
    with TranslationMemory.open(path) as tm:
        tm.store(
            CTX, "en", [("fr", f"text number {i} " * 10, "", f"texte {i} " * 10) for i in range(entries)]
        )
    return path


def _error(path: Path, **open_args: bool) -> MemoryFileError:
    with pytest.raises(MemoryFileError) as info:
        TranslationMemory.open(path, **open_args).close()
    return info.value


def _never_advises_deleting(error: MemoryFileError) -> None:
    text = f"{error.message} {error.hint or ''}".lower()
    assert "delete" not in text and "remove" not in text, text
    assert "\n" not in error.message


# -- the file is not a usable hymt memory --------------------------------------------------------
def test_garbage_file_is_named_as_not_sqlite_and_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / "tm.db"
    bad.write_bytes(b"this is not sqlite\n" * 100)
    error = _error(bad)
    assert error.message == f"cache {bad}: not a hymt translation memory: the file is not an SQLite database"
    assert "--cache" in (error.hint or "") and "--no-cache" in (error.hint or "")
    assert error.exit_code == ExitCode.USAGE
    _never_advises_deleting(error)
    assert bad.read_bytes() == b"this is not sqlite\n" * 100


@pytest.mark.parametrize("content", [b"x", b"\n\n", b"SQLite format 2\0" + bytes(200)], ids=repr)
def test_tiny_file_that_sqlite_would_take_for_an_empty_database_is_left_alone(
    tmp_path: Path, content: bytes
) -> None:
    small = tmp_path / "notes.txt"
    small.write_bytes(content)
    for readonly in (False, True):
        error = _error(small, readonly=readonly)
        assert (
            error.message
            == f"cache {small}: not a hymt translation memory: the file is not an SQLite database"
        )
    assert small.read_bytes() == content


def test_empty_file_becomes_a_memory(tmp_path: Path) -> None:
    path = tmp_path / "tm.db"
    path.write_bytes(b"")
    with TranslationMemory.open(path) as tm:
        assert tm.store(CTX, "en", [("fr", "Red", "", "Rouge")]) == 1


def test_truncated_memory_is_called_damaged(tmp_path: Path) -> None:
    data = _memory(tmp_path / "full.db", entries=3000).read_bytes()
    truncated = tmp_path / "tm.db"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(MemoryFileError) as info:
        with TranslationMemory.open(truncated) as tm:  # the damage may show on first use
            tm.lookup(CTX, "en", [("fr", "text number 2999 " * 10, "")])
            list(tm.entries())
    assert info.value.message.startswith(f"cache {truncated}: the translation memory is damaged (")
    assert ".recover" in (info.value.hint or "")
    _never_advises_deleting(info.value)


def test_foreign_sqlite_database_is_named_and_not_converted(tmp_path: Path) -> None:
    other = tmp_path / "app.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE users (name TEXT)")
        db.execute("INSERT INTO users VALUES ('ada')")
    db.close()
    before = other.read_bytes()
    error = _error(other)
    assert error.message == (
        f"cache {other}: not a hymt translation memory: an SQLite database of another "
        "application (tables: users)"
    )
    _never_advises_deleting(error)
    assert other.read_bytes() == before  # not even switched to WAL
    assert not (tmp_path / "app.db-wal").exists()


def test_memory_of_a_newer_schema_asks_for_a_newer_hymt(tmp_path: Path) -> None:
    path = _memory(tmp_path / "tm.db")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(store.SCHEMA_VERSION + 1),))
    db.close()
    error = _error(path)
    assert error.message == (
        f"cache {path}: translation memory schema {store.SCHEMA_VERSION + 1} is from a "
        f"newer hymt; this hymt reads schema {store.SCHEMA_VERSION}"
    )
    assert (error.hint or "").startswith("upgrade hymt")
    _never_advises_deleting(error)


def test_folder_where_the_file_should_be(tmp_path: Path) -> None:
    error = _error(tmp_path)
    assert error.message == f"cache {tmp_path}: is a folder, not a database file"
    _never_advises_deleting(error)


# -- the file system is in the way ---------------------------------------------------------------
class _FullDisk(sqlite3.Connection):
    """A connection on a disk that has just filled up: every write fails as sqlite reports it."""

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("INSERT", "CREATE", "BEGIN")):
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: object) -> sqlite3.Cursor:
        raise sqlite3.OperationalError("database or disk is full")


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    def connect(uri: str) -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, isolation_level=None, factory=_FullDisk)

    monkeypatch.setattr(store, "connect", connect)


def test_full_disk_while_storing_is_a_disk_problem_and_the_memory_keeps_its_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _memory(tmp_path / "tm.db", entries=10)
    _full_disk(monkeypatch)
    with TranslationMemory.open(path) as tm:
        with pytest.raises(MemoryFileError) as info:
            tm.store(CTX, "en", [("de", "Red", "", "Rot")])
    assert info.value.message == f"cache {path}: cannot write: the disk is full (database or disk is full)"
    assert "free some space" in (info.value.hint or "")
    assert "not a hymt" not in info.value.message
    _never_advises_deleting(info.value)
    monkeypatch.undo()
    with TranslationMemory.open(path) as tm:
        assert tm.count() == 10


def test_full_disk_when_creating_a_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _full_disk(monkeypatch)
    error = _error(tmp_path / "new.db")
    assert (
        error.message
        == f"cache {tmp_path / 'new.db'}: cannot open: the disk is full (database or disk is full)"
    )
    _never_advises_deleting(error)


def test_real_sqlite_full_error_through_a_page_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sqlite's own SQLITE_FULL (with its result code), from a database capped at its current size."""
    path = _memory(tmp_path / "tm.db")
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]

    class Capped(sqlite3.Connection):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.execute(f"PRAGMA max_page_count={pages}")

    monkeypatch.setattr(
        store, "connect", lambda uri: sqlite3.connect(uri, uri=True, isolation_level=None, factory=Capped)
    )
    memory = PipelineMemory(TranslationMemory.open(path), CTX, "en")
    try:
        with pytest.raises(MemoryFileError) as info:
            memory.memory.store(
                CTX, "en", [("de", f"long text {i} " * 50, "", "x" * 500) for i in range(200)]
            )
        assert info.value.message.startswith(f"cache {path}: cannot write: the disk is full")
        _never_advises_deleting(info.value)
    finally:
        memory.close()


def test_pipeline_memory_keeps_going_and_says_why_nothing_more_was_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _memory(tmp_path / "tm.db")
    _full_disk(monkeypatch)
    memory = PipelineMemory(TranslationMemory.open(path), CTX, "en")
    memory.remember([(("de", "Red", ""), "Rot")])
    memory.remember([(("de", "Red", ""), "Rot")])
    memory.close()
    assert memory.store_error == (
        f"cache {path}: cannot write: the disk is full (database or disk is full); "
        "later translations of this run were not stored"
    )
    assert memory.stored == 0


def test_disk_io_error_while_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _memory(tmp_path / "tm.db")

    class FailingDisk(sqlite3.Connection):
        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
            if "FROM segments" in sql:
                raise sqlite3.OperationalError("disk I/O error")
            return super().execute(sql, *args)

    monkeypatch.setattr(
        store,
        "connect",
        lambda uri: sqlite3.connect(uri, uri=True, isolation_level=None, factory=FailingDisk),
    )
    with TranslationMemory.open(path) as tm:
        with pytest.raises(MemoryFileError) as info:
            tm.lookup(CTX, "en", [("fr", "Red", "")])
    assert info.value.message == f"cache {path}: cannot read: disk I/O error"
    assert info.value.hint == "check the disk or file system; the memory itself may be fine"
    _never_advises_deleting(info.value)


def test_locked_for_too_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _memory(tmp_path / "tm.db")
    monkeypatch.setattr(store, "BUSY_MS", 50)
    monkeypatch.setattr(store, "LOCK_RETRIES", 2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, and not finishing
    try:
        with TranslationMemory.open(path) as tm:
            with pytest.raises(MemoryFileError) as info:
                tm.store(CTX, "en", [("de", "Red", "", "Rot")])
        assert info.value.message == f"cache {path}: locked by another process for over 0.05 s"
        assert "wait for the other hymt run" in (info.value.hint or "")
        _never_advises_deleting(info.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with TranslationMemory.open(path) as tm:  # free again: it works
        assert tm.store(CTX, "en", [("de", "Red", "", "Rot")]) == 1


def test_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    error = _error(blocker / "sub" / "tm.db")
    assert error.message.startswith(f"cache {blocker / 'sub' / 'tm.db'}: cannot create folder ")
    assert error.message.endswith(": Not a directory")
    _never_advises_deleting(error)


# -- a real read-only folder and file, without root's override of file permissions ---------------
def _unprivileged() -> list[str]:
    """A command prefix under which file permissions apply (root drops CAP_DAC_OVERRIDE)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions cannot be enforced")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def _hymt_unprivileged(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [*_unprivileged(), sys.executable, "-m", "hymt_cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _require_enforced(folder: Path) -> None:
    probe = subprocess.run(
        [*_unprivileged(), sys.executable, "-c", f"open({str(folder / 'probe')!r}, 'w')"], capture_output=True
    )
    if probe.returncode == 0:
        (folder / "probe").unlink()
        pytest.skip("this file system lets the test write into a read-only folder")


@pytest.fixture
def document(tmp_path: Path) -> Path:
    doc = tmp_path / "doc.txt"
    doc.write_text("Hello world.\n", encoding="utf-8")
    return doc


@pytest.mark.parametrize("existing", [False, True], ids=["new memory", "existing memory"])
def test_read_only_folder(tmp_path: Path, document: Path, existing: bool) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    memory = folder / "tm.db"
    if existing:
        _memory(memory)
        before = memory.read_bytes()
    folder.chmod(0o555)
    try:
        _require_enforced(folder)
        result = _hymt_unprivileged(
            "translate",
            str(document),
            "--to",
            "fr",
            "--engine",
            "identity",
            "--cache",
            str(memory),
            cwd=tmp_path,
        )
    finally:
        folder.chmod(0o755)
    assert result.returncode == ExitCode.USAGE, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    verb = "write" if existing else "open"  # sqlite: SQLITE_READONLY vs SQLITE_CANTOPEN
    assert errors == [
        f"error: cache {memory}: cannot {verb}: folder {folder} is read-only "
        "(sqlite needs to create files beside the memory)"
    ], result.stderr
    assert "  hint: pass --cache FILE in a writable folder, or --no-cache" in result.stderr
    assert "delete" not in result.stderr and "not a hymt" not in result.stderr
    assert not (tmp_path / "doc.fr.txt").exists()
    if existing:
        assert memory.read_bytes() == before


def test_read_only_memory_file_is_still_read_and_the_run_says_nothing_was_stored(
    tmp_path: Path, document: Path
) -> None:
    """A read-only memory (a team's reference memory, say) still answers; storing fails softly."""
    memory = _memory(tmp_path / "tm.db")
    memory.chmod(0o444)
    probe = subprocess.run(
        [*_unprivileged(), sys.executable, "-c", f"open({str(memory)!r}, 'a')"], capture_output=True
    )
    if probe.returncode == 0:
        pytest.skip("this file system lets the test write a read-only file")
    before = memory.read_bytes()
    result = _hymt_unprivileged(
        "translate", str(document), "--to", "fr", "--engine", "identity", "--cache", str(memory), cwd=tmp_path
    )
    assert result.returncode == ExitCode.OK, result.stderr
    assert (
        f"warning: cache {memory}: cannot write: the file is read-only; later translations of this run "
        "were not stored\n"
    ) in result.stderr
    assert "delete" not in result.stderr and "not a hymt" not in result.stderr
    assert (tmp_path / "doc.fr.txt").read_bytes() == document.read_bytes()
    assert memory.read_bytes() == before


def test_unreadable_memory_file(tmp_path: Path, document: Path) -> None:
    """The default memory (no --cache, so no check by the option parser) is unreadable."""
    memory = _memory(tmp_path / "xdg" / "hymt" / "memory.sqlite3")
    memory.chmod(0o000)
    probe = subprocess.run(
        [*_unprivileged(), sys.executable, "-c", f"open({str(memory)!r}, 'rb')"], capture_output=True
    )
    if probe.returncode == 0:
        pytest.skip("this file system lets the test read an unreadable file")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    result = subprocess.run(
        [*_unprivileged(), sys.executable, "-m", "hymt_cli", "tm", "export", "--format", "jsonl"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == ExitCode.USAGE, result.stderr
    assert result.stderr.startswith(
        f"error: cache {memory}: cannot open: permission denied (the file is not readable)\n"
    ), result.stderr
    assert "delete" not in result.stderr and "not a hymt" not in result.stderr
