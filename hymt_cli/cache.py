"""The translation memory: a sqlite database of finished segment translations.

A model translation is stored under a key made of its *context* (engine/model id with a
revision or local-path digest, prompt template version, glossary digest, sampling settings),
the source and target language and the source text. Reviewed translations imported from a
CAT tool (`hymt tm import`) are stored by target language and source text only and win over
model output whatever the context.

Every engine batch is committed as it arrives, so a run killed at any point and started
again sends only what was not finished. WAL mode plus a busy timeout and retries let
several runs share one database.
"""
from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import ExitCode, HymtError

SCHEMA_VERSION = 1
APPLICATION = "hymt.memory"
_FILE_NAME = "memory.sqlite3"
_CHUNK = 500  # keys per SELECT ... IN (...) (sqlite's default variable limit is far above)
_BUSY_MS = 30_000
_ORIGIN_MODEL, _ORIGIN_IMPORT = "model", "import"


class CacheError(HymtError):
    """The translation memory cannot be opened or used: a configuration problem."""

    exit_code = ExitCode.USAGE


def default_cache_path() -> Path:
    """`memory.sqlite3` in the user cache dir (XDG_CACHE_HOME/hymt on Linux)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hymt", appauthor=False)) / _FILE_NAME


@dataclass(frozen=True, slots=True)
class MemoryContext:
    """Everything besides languages and text that decides what a translation looks like."""

    model: str
    model_digest: str
    template_version: str
    glossary_digest: str
    sampling: str

    @property
    def key(self) -> str:
        return _digest(json.dumps(self.describe(), sort_keys=True))[:32]

    def describe(self) -> dict[str, str]:
        return {"model": self.model, "model_digest": self.model_digest,
                "template_version": self.template_version, "glossary_digest": self.glossary_digest,
                "sampling": self.sampling}


def model_digest(model: str, revision: str | None) -> str:
    """A local model folder: digest of its config and weight files (name, size, mtime);
    a hub id: its revision (or "default")."""
    path = Path(model)
    if not path.is_dir():
        return f"rev:{revision or 'default'}"
    h = hashlib.sha256()
    for name in ("config.json", "generation_config.json", "tokenizer_config.json"):
        file = path / name
        if file.is_file():
            h.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    for file in sorted(path.iterdir()):
        if file.suffix in (".safetensors", ".bin", ".gguf", ".pt"):
            st = file.stat()
            h.update(f"{file.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return "path:" + h.hexdigest()[:24]


def build_context(*, engine: str, model: str | None, revision: str | None, sampling: object,
                  template_version: str, glossary_digest: str = "",
                  model_free: bool = False) -> MemoryContext:
    """The context of a run. Model-free engines (identity, pseudo) are their own "model"."""
    if model_free or model is None:
        return MemoryContext(f"engine:{engine}", "", template_version, glossary_digest, "")
    fields = getattr(sampling, "__slots__", ())
    described = json.dumps({f: getattr(sampling, f) for f in fields}, sort_keys=True) if fields else repr(sampling)
    return MemoryContext(model, model_digest(model, revision), template_version, glossary_digest, described)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _model_key(context: str, src: str, tgt: str, text: str) -> bytes:
    return hashlib.blake2b(f"m\0{context}\0{src}\0{tgt}\0{text}".encode("utf-8", "surrogatepass"),
                           digest_size=16).digest()


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
    """A sqlite translation memory. Use `open`; close it (or use `with`) when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path, *, readonly: bool) -> None:
        self._db = connection
        self.path = path
        self.readonly = readonly
        self._known_contexts: set[str] = set()

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path, *, readonly: bool = False) -> TranslationMemory:
        """Open or create the database. `readonly`: a missing file is an empty memory and
        nothing is ever written (dry runs). Raises CacheError with a one-line message."""
        path = Path(path)
        if readonly and not path.exists():
            empty = cls(sqlite3.connect(":memory:", isolation_level=None), path, readonly=True)
            empty._create_tables()
            return empty
        if path.is_dir():
            raise CacheError(f"cache {path}: is a folder, not a database file",
                             hint="pass --cache FILE or --no-cache")
        try:
            if not readonly:
                path.parent.mkdir(parents=True, exist_ok=True)
            uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
            db = sqlite3.connect(uri, uri=True, timeout=_BUSY_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise CacheError(f"cache {path}: cannot open: {_reason(exc)}",
                             hint="pass --cache another path or --no-cache") from None
        memory = cls(db, path, readonly=readonly)
        try:
            memory._retry(lambda: db.execute(f"PRAGMA busy_timeout={_BUSY_MS}"))
            if not readonly:
                memory._retry(lambda: db.execute("PRAGMA journal_mode=WAL").fetchone())
                db.execute("PRAGMA synchronous=NORMAL")
            memory._check_or_init()
        except sqlite3.DatabaseError as exc:
            db.close()
            raise CacheError(f"cache {path}: not a hymt translation memory ({_reason(exc)})",
                             hint="pass --cache another path, delete the file, or use --no-cache") from None
        except CacheError:
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
                raise CacheError(f"cache {self.path}: empty file, not a hymt translation memory")

            def create() -> None:
                with self._transaction():
                    self._create_tables()
                    self._db.execute("INSERT OR IGNORE INTO meta VALUES ('application', ?), ('schema', ?)",
                                     (APPLICATION, str(SCHEMA_VERSION)))
            self._retry(create)
            return
        meta = dict(self._db.execute("SELECT name, value FROM meta").fetchall()) if "meta" in tables else {}
        if meta.get("application") != APPLICATION:
            raise CacheError(f"cache {self.path}: a sqlite database, but not a hymt translation memory",
                             hint="pass --cache another path or --no-cache")
        if meta.get("schema") != str(SCHEMA_VERSION):
            raise CacheError(f"cache {self.path}: translation memory schema {meta.get('schema')} is not "
                             f"supported (this hymt reads schema {SCHEMA_VERSION})")

    # -- sqlite plumbing --------------------------------------------------------------------
    def _transaction(self):
        db = self._db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, exc_type, *rest):
                db.execute("COMMIT" if exc_type is None else "ROLLBACK")
                return False
        return _Tx()

    @staticmethod
    def _retry(action: Callable[[], object], attempts: int = 8):
        """sqlite waits `busy_timeout` on a lock; beyond that, back off and try again."""
        for attempt in range(attempts):
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc) or attempt == attempts - 1:
                    raise
                time.sleep(min(2.0, 0.05 * 2 ** attempt) * (0.5 + random.random()))
        return None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TranslationMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lookups and writes -----------------------------------------------------------------
    def lookup(self, context: MemoryContext, src_lang: str, items: Sequence[tuple[str, str]]
               ) -> list[str | None]:
        """Translations for (target language, source text) pairs, in order; None: not stored.
        An imported (reviewed) entry wins over a model translation."""
        ctx = context.key
        model_keys = [_model_key(ctx, src_lang, tgt, text) for tgt, text in items]
        human_keys = [_human_key(tgt, text) for tgt, text in items]
        found: dict[bytes, str] = {}
        wanted = model_keys + human_keys
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start:start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self._retry(lambda: self._db.execute(
                f"SELECT key, target FROM segments WHERE key IN ({marks})", chunk).fetchall())
            found.update(rows)
        return [found.get(h, found.get(m)) for m, h in zip(model_keys, human_keys)]

    def store(self, context: MemoryContext, src_lang: str, items: Iterable[tuple[str, str, str]]) -> int:
        """Store model translations (target language, source, translation) and commit."""
        if self.readonly:
            return 0
        ctx = context.key
        now = time.time()
        rows = [(_model_key(ctx, src_lang, tgt, src), _ORIGIN_MODEL, ctx, src_lang, tgt, src, out, now)
                for tgt, src, out in items]
        if not rows:
            return 0

        def write() -> None:
            with self._transaction():
                if ctx not in self._known_contexts:
                    self._db.execute("INSERT OR IGNORE INTO contexts VALUES (?, ?)",
                                     (ctx, json.dumps(context.describe(), sort_keys=True)))
                self._db.executemany("INSERT OR REPLACE INTO segments VALUES (?,?,?,?,?,?,?,?)", rows)
        self._retry(write)
        self._known_contexts.add(ctx)
        return len(rows)

    def import_entries(self, entries: Iterable[Entry]) -> int:
        """Store reviewed translations; they win over model output from now on."""
        now = time.time()
        rows = [(_human_key(e.tgt_lang, e.source), _ORIGIN_IMPORT, "", e.src_lang, e.tgt_lang,
                 e.source, e.target, now) for e in entries]

        def write() -> None:
            with self._transaction():
                self._db.executemany("INSERT OR REPLACE INTO segments VALUES (?,?,?,?,?,?,?,?)", rows)
        self._retry(write)
        return len(rows)

    def entries(self) -> Iterator[Entry]:
        """Every stored entry (imported ones last-wins already), in a stable order."""
        contexts = {c: json.loads(d) for c, d in self._db.execute("SELECT context, description FROM contexts")}
        cursor = self._db.execute("SELECT source, target, src_lang, tgt_lang, origin, context FROM segments "
                                  "ORDER BY tgt_lang, source, origin")
        for source, target, src, tgt, origin, ctx in cursor:
            yield Entry(source, target, src, tgt, origin, contexts.get(ctx) if ctx else None)

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM segments").fetchone()[0]


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


class PipelineMemory:
    """Binds a memory to one run's context and source language; the pipeline's hook.

    `recall` looks (target language, source text) pairs up; `remember` stores the answers
    that passed validation (failed ones never are).
    Store failures after retries do not stop the run: they are counted and reported.
    """

    def __init__(self, memory: TranslationMemory, context: MemoryContext, src_lang: str | None) -> None:
        self.memory = memory
        self.context = context
        self.src_lang = src_lang or "auto"
        self.stored = 0
        self.store_error: str | None = None

    def recall(self, keys: Sequence[tuple[str, str]]) -> list[str | None]:
        """Translations for (target language, source text) pairs, in order; None: not stored."""
        return self.memory.lookup(self.context, self.src_lang, keys)

    def remember(self, items: Sequence[tuple[str, str, str]]) -> None:
        """Store (target language, source text, translation) of answers that passed validation."""
        if self.store_error is not None or not items:
            return
        try:
            self.stored += self.memory.store(self.context, self.src_lang, items)
        except sqlite3.Error as exc:
            self.store_error = f"translation memory {self.memory.path}: cannot store: {exc}"

    def close(self) -> None:
        self.memory.close()

