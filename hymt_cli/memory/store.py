"""The translation memory: a sqlite database of finished segment translations.

A model translation is stored under a key made of its *context* (engine/model id with a
revision or local-path digest, prompt template version, glossary digest, sampling settings),
the source and target language and the source text. Reviewed translations imported from a
CAT tool (`hymt tm import`) are stored by target language and source text only and win over
model output whatever the context.

Every engine batch is committed as it arrives, so a run killed at any point and started
again sends only what was not finished. WAL mode plus a busy timeout and retries let
several runs share one database.

Every failure surfaces as a `MemoryFileError` with a one-line message that says which of two
kinds of trouble it is: the file is not a usable hymt memory (not SQLite, another
application's database, damaged, a newer schema), or the file system is in the way (disk
full, read-only, permission denied, a folder where the file should be, locked for too
long). hymt never modifies or advises deleting a file it did not create as its memory.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import TypeVar

from ._errors import HINT_DAMAGED, HINT_ELSEWHERE, MemoryFileError, folder_error, is_lock_error, memory_error
from .fingerprint import Fingerprint

SCHEMA_VERSION = 1
APPLICATION = "hymt.memory"
_FILE_NAME = "memory.sqlite3"
_CHUNK = 500  # keys per SELECT ... IN (...) (sqlite's default variable limit is far above)
_LOOKUP = f"SELECT key, target FROM segments WHERE key IN ({','.join('?' * _CHUNK)})"
BUSY_MS = 30_000  # sqlite waits this long for a lock before reporting "database is locked"
LOCK_RETRIES = 8  # then hymt backs off and tries again this many times in all
CACHE_KIB = 32 * 1024  # sqlite's page cache for the memory
_ORIGIN_MODEL, _ORIGIN_IMPORT = "model", "import"


T = TypeVar("T")


def default_memory_path() -> Path:
    """`memory.sqlite3` in the user cache dir (XDG_CACHE_HOME/hymt on Linux)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hymt", appauthor=False)) / _FILE_NAME


def _model_key(context: str, src: str, tgt: str, text: str, note: str = "") -> bytes:
    """`note`: what the model was told besides the text (HY-MT's context prompt); none keeps the
    keys entries had before contexts existed."""
    key = f"m\0{context}\0{src}\0{tgt}\0{text}" + (f"\0{note}" if note else "")
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _human_key(tgt: str, text: str) -> bytes:
    return hashlib.blake2b(f"h\0{tgt}\0{text}".encode("utf-8", "surrogatepass"), digest_size=16).digest()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS contexts (context TEXT PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS segments (
    key BLOB PRIMARY KEY,          -- blake2b of origin, context, languages and source text
    origin TEXT NOT NULL,          -- 'model' or 'import' (reviewed, wins over model output)
    context TEXT NOT NULL,         -- contexts.context, '' for imported entries
    src_lang TEXT NOT NULL,        -- a language code or 'auto'
    tgt_lang TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored translation, as exported and imported."""

    source: str
    target: str
    src_lang: str
    tgt_lang: str
    origin: str = _ORIGIN_IMPORT
    context: dict[str, str] | None = None


class TranslationMemory:
    """A sqlite translation memory. Use `open`; close it (or use `with`) when done.

    Every method raises `MemoryFileError` (never a raw sqlite3 or OS error)."""

    def __init__(self, connection: sqlite3.Connection, path: Path, *, readonly: bool) -> None:
        self._db = connection
        self.path = path
        self.readonly = readonly
        self._known_contexts: set[str] = set()

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path, *, readonly: bool = False) -> TranslationMemory:
        """Open or create the database. `readonly`: a missing file is an empty memory and
        nothing is ever written (dry runs). A file that is not a hymt memory is never written."""
        path = Path(path)
        if path.is_dir():
            raise MemoryFileError(
                f"cache {path}: is a folder, not a database file",
                hint="pass --cache FILE (a file in that folder, say) or --no-cache",
            )
        if readonly and not path.exists():
            empty = cls(sqlite3.connect(":memory:", isolation_level=None), path, readonly=True)
            empty._create_tables()
            return empty
        if not _sqlite_or_empty(path):  # sqlite itself takes a file of a byte or two for an empty database
            raise MemoryFileError(
                f"cache {path}: not a hymt translation memory: the file is not an SQLite database",
                hint=HINT_ELSEWHERE,
            )
        if not readonly:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise folder_error(path, exc) from None
        try:
            db = connect(f"file:{_uri_path(path)}?mode=ro" if readonly else f"file:{_uri_path(path)}")
        except sqlite3.Error as exc:
            raise memory_error(path, exc, "open", busy_ms=BUSY_MS) from None
        memory = cls(db, path, readonly=readonly)
        try:
            memory._retry(lambda: db.execute(f"PRAGMA busy_timeout={BUSY_MS}"))
            memory._check_or_init()
            if not readonly:  # only now: another application's database is never converted
                memory._retry(lambda: db.execute("PRAGMA journal_mode=WAL").fetchone())
                db.execute("PRAGMA synchronous=NORMAL")
            # Keys are digests: every lookup and store lands on random pages. sqlite's 2 MiB of
            # them read 4 GB from the file for 200,000 short texts stored and looked up; 32 MiB
            # read 0.8 GB.
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        except sqlite3.Error as exc:
            db.close()
            raise memory_error(path, exc, "open", busy_ms=BUSY_MS) from None
        except BaseException:
            db.close()
            raise
        return memory

    def _create_tables(self) -> None:
        # One statement at a time: executescript() would commit the open transaction first.
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self._db.execute(statement)

    def _check_or_init(self) -> None:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            if self.readonly:
                raise MemoryFileError(
                    f"cache {self.path}: an empty file, not a hymt translation memory yet",
                    hint=HINT_ELSEWHERE,
                )

            def create() -> None:
                with self._transaction():
                    self._create_tables()
                    self._db.execute(
                        "INSERT OR IGNORE INTO meta VALUES ('application', ?), ('schema', ?)",
                        (APPLICATION, str(SCHEMA_VERSION)),
                    )

            self._retry(create)
            return
        meta: dict[str, str] = {}
        if "meta" in tables:
            try:
                meta = {str(k): str(v) for k, v in self._db.execute("SELECT name, value FROM meta")}
            except sqlite3.OperationalError:  # a "meta" table of another shape: not ours
                meta = {}
        if meta.get("application") != APPLICATION:
            names = ", ".join(sorted(tables)[:3]) + (", ..." if len(tables) > 3 else "")
            raise MemoryFileError(
                f"cache {self.path}: not a hymt translation memory: an SQLite database of "
                f"another application (tables: {names})",
                hint=HINT_ELSEWHERE,
            )
        schema = meta.get("schema", "")
        if schema != str(SCHEMA_VERSION):
            newer = schema.isdigit() and int(schema) > SCHEMA_VERSION
            raise MemoryFileError(
                f"cache {self.path}: translation memory schema {schema or '(none)'} "
                f"{'is from a newer hymt' if newer else 'is not supported'}; this hymt reads schema "
                f"{SCHEMA_VERSION}",
                hint=("upgrade hymt, or " if newer else "") + "pass --cache NEW_FILE or --no-cache",
            )
        missing = {"contexts", "segments"} - tables
        if missing:
            raise MemoryFileError(
                f"cache {self.path}: the translation memory is damaged (table "
                f"{', '.join(sorted(missing))} missing)",
                hint=HINT_DAMAGED,
            )

    # -- sqlite plumbing --------------------------------------------------------------------
    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # sqlite may have rolled back by itself (disk full, I/O)
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the first error is the one to report
            raise

    @contextmanager
    def _reporting(self, doing: str) -> Iterator[None]:
        """sqlite errors of the block as a MemoryFileError naming the memory and what failed."""
        try:
            yield
        except sqlite3.Error as exc:
            raise memory_error(self.path, exc, doing, busy_ms=BUSY_MS) from None

    @staticmethod
    def _retry(action: Callable[[], T]) -> T:
        """sqlite waits `busy_timeout` on a lock; beyond that, back off and try again."""
        for attempt in range(LOCK_RETRIES):
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not is_lock_error(exc) or attempt == LOCK_RETRIES - 1:
                    raise
                time.sleep(min(2.0, 0.05 * 2**attempt) * (0.5 + random.random()))
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self._db.close()

    def trace(self, callback: Callable[[str], object] | None) -> None:
        """Hand every SQL statement the memory runs to `callback` (None: stop); what a lookup costs."""
        self._db.set_trace_callback(callback)

    def __enter__(self) -> TranslationMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lookups and writes -----------------------------------------------------------------
    def lookup(
        self, context: Fingerprint, src_lang: str, items: Sequence[tuple[str, str, str]]
    ) -> list[str | None]:
        """Translations for (target language, source text, note) items, in order; None: not stored.
        An imported (reviewed) entry wins over a model translation, whatever the note."""
        ctx = context.key
        model_keys = [_model_key(ctx, src_lang, tgt, text, note) for tgt, text, note in items]
        human_keys = [_human_key(tgt, text) for tgt, text, _ in items]
        found: dict[bytes, str] = {}
        # In key order: each SELECT reads the pages after the last one's, not pages all over a file
        # larger than sqlite's cache (a million keys in a memory of a million: 12.4 -> 6.9 s CPU).
        wanted = sorted(model_keys + human_keys)
        with self._reporting("read"):
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                # Every SELECT has _CHUNK keys (the last chunk repeats its last key): one statement,
                # prepared once. A statement per chunk size filled sqlite3's statement cache with
                # up to 128 of them (~0.1 MB each) as a long run met new sizes: memory that grew
                # with the rows.
                chunk += chunk[-1:] * (_CHUNK - len(chunk))
                rows: list[tuple[bytes, str]] = self._retry(functools.partial(self._select, _LOOKUP, chunk))
                found.update(rows)
        return [found.get(h, found.get(m)) for m, h in zip(model_keys, human_keys)]

    def _select(self, query: str, values: Sequence[bytes]) -> list[tuple[bytes, str]]:
        rows: list[tuple[bytes, str]] = self._db.execute(query, values).fetchall()
        return rows

    def store(self, context: Fingerprint, src_lang: str, items: Iterable[tuple[str, str, str, str]]) -> int:
        """Store model translations (target language, source, note, translation) and commit.
        Texts that are not valid Unicode (lone surrogates) cannot be stored and are left out."""
        if self.readonly:
            return 0
        ctx = context.key
        now = time.time()
        rows = [
            (_model_key(ctx, src_lang, tgt, src, note), _ORIGIN_MODEL, ctx, src_lang, tgt, src, out, now)
            for tgt, src, note, out in items
            if is_unicode(src) and is_unicode(out) and is_unicode(note)
        ]
        if not rows:
            return 0
        # In key order (stable: of two rows with one key the later still wins): the inserts walk
        # the table's pages once, in order, instead of at random through a file larger than
        # sqlite's cache (a million answers in commits of 65,536: 21 -> 14 s CPU).
        rows.sort(key=itemgetter(0))

        def write() -> None:
            with self._transaction():
                if ctx not in self._known_contexts:
                    self._db.execute(
                        "INSERT OR IGNORE INTO contexts VALUES (?, ?)",
                        (ctx, json.dumps(context.describe(), sort_keys=True)),
                    )
                self._db.executemany("INSERT OR REPLACE INTO segments VALUES (?,?,?,?,?,?,?,?)", rows)

        with self._reporting("write"):
            self._retry(write)
        self._known_contexts.add(ctx)
        return len(rows)

    def import_entries(self, entries: Iterable[Entry]) -> int:
        """Store reviewed translations, all or none; they win over model output from now on.
        Entries whose texts are not valid Unicode (lone surrogates) are left out."""
        now = time.time()
        rows = [
            (
                _human_key(e.tgt_lang, e.source),
                _ORIGIN_IMPORT,
                "",
                e.src_lang,
                e.tgt_lang,
                e.source,
                e.target,
                now,
            )
            for e in entries
            if is_unicode(e.source) and is_unicode(e.target)
        ]

        def write() -> None:
            with self._transaction():
                self._db.executemany("INSERT OR REPLACE INTO segments VALUES (?,?,?,?,?,?,?,?)", rows)

        with self._reporting("write"):
            self._retry(write)
        return len(rows)

    def entries(self) -> Iterator[Entry]:
        """Every stored entry (imported ones last-wins already), in a stable order."""
        with self._reporting("read"):
            contexts: dict[str, dict[str, str]] = {
                c: json.loads(d) for c, d in self._db.execute("SELECT context, description FROM contexts")
            }
            cursor = self._db.execute(
                "SELECT source, target, src_lang, tgt_lang, origin, context FROM segments "
                "ORDER BY tgt_lang, source, origin"
            )
            for source, target, src, tgt, origin, ctx in cursor:
                yield Entry(source, target, src, tgt, origin, contexts.get(ctx) if ctx else None)

    def count(self) -> int:
        with self._reporting("read"):
            row: tuple[int] = self._db.execute("SELECT count(*) FROM segments").fetchone()
        return row[0]


def connect(uri: str) -> sqlite3.Connection:
    """The one place hymt opens its memory (tests put a fault-injecting connection here)."""
    return sqlite3.connect(
        uri, uri=True, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False
    )


_SQLITE_MAGIC = b"SQLite format 3\0"


def _sqlite_or_empty(path: Path) -> bool:
    """False for an existing file that does not start as every SQLite database does."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except OSError:  # missing, unreadable...: sqlite's own error says what is wrong
        return True
    return head in (b"", _SQLITE_MAGIC)


def _uri_path(path: Path) -> str:
    # In a file: URI, "?" and "#" would end the path and "%" starts an escape.
    return str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


_SURROGATE = re.compile("[\ud800-\udfff]")


def is_unicode(text: str) -> bool:
    """False for a str holding lone surrogates (e.g. undecodable bytes kept by surrogateescape),
    which no UTF-8 file or database can store."""
    return _SURROGATE.search(text) is None
