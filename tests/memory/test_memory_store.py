"""Translation memory: keys, persistence, failed segments, errors, concurrency, txt documents."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import hymt
from tm_helpers import CountingEngine, FailingEngine, engine_named, run

from hymt_cli.engine.base import Sampling
from hymt_cli.errors import ExitCode
from hymt_cli.memory import (
    Entry,
    Fingerprint,
    MemoryFileError,
    TranslationMemory,
    build_fingerprint,
    default_memory_path,
)

ROOT = Path(__file__).resolve().parents[2]
CTX = Fingerprint("m", "rev:default", "t/1", "", "s")


def test_store_and_lookup_are_keyed_by_every_context_part(tmp_path):
    with TranslationMemory.open(tmp_path / "tm.db") as tm:
        tm.store(CTX, "en", [("fr", "Red", "", "Rouge")])
        assert tm.lookup(CTX, "en", [("fr", "Red", ""), ("de", "Red", ""), ("fr", "red", "")]) == [
            "Rouge",
            None,
            None,
        ]
        assert tm.lookup(CTX, "auto", [("fr", "Red", "")]) == [None]
        for changed in (
            Fingerprint("m2", "rev:default", "t/1", "", "s"),
            Fingerprint("m", "rev:abc", "t/1", "", "s"),
            Fingerprint("m", "rev:default", "t/2", "", "s"),
            Fingerprint("m", "rev:default", "t/1", "g1", "s"),
            Fingerprint("m", "rev:default", "t/1", "", "s2"),
        ):
            assert tm.lookup(changed, "en", [("fr", "Red", "")]) == [None], changed


def test_the_segment_context_is_part_of_the_key_and_reviewed_entries_win_in_any(tmp_path):
    """ "Save" told it is a button is another entry than "Save" with nothing said; an entry made
    without a context keeps the key it always had; a reviewed translation wins whatever the context."""
    with TranslationMemory.open(tmp_path / "tm.db") as tm:
        tm.store(
            CTX, "en", [("de", "Save", "", "Speichern"), ("de", "Save", "key menu.file.save", "Sichern")]
        )
        assert tm.lookup(
            CTX,
            "en",
            [("de", "Save", ""), ("de", "Save", "key menu.file.save"), ("de", "Save", "key toolbar.save")],
        ) == ["Speichern", "Sichern", None]
        tm.import_entries([Entry("Save", "Speichern (geprüft)", "en", "de")])
        assert tm.lookup(CTX, "en", [("de", "Save", ""), ("de", "Save", "key toolbar.save")]) == [
            "Speichern (geprüft)",
            "Speichern (geprüft)",
        ]


def test_context_covers_engine_sampling_and_local_model_files(tmp_path):
    pseudo = build_fingerprint(
        engine="pseudo", model=None, revision=None, sampling=None, template_version="t"
    )
    identity = build_fingerprint(
        engine="identity", model=None, revision=None, sampling=None, template_version="t"
    )
    assert pseudo.key != identity.key
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"x" * 10)
    a = build_fingerprint(
        engine="vllm", model=str(model), revision=None, sampling=Sampling(), template_version="t"
    )
    b = build_fingerprint(
        engine="vllm",
        model=str(model),
        revision=None,
        sampling=Sampling.deterministic(),
        template_version="t",
    )
    assert a.key != b.key
    (model / "model.safetensors").write_bytes(b"y" * 11)
    c = build_fingerprint(
        engine="vllm", model=str(model), revision=None, sampling=Sampling(), template_version="t"
    )
    assert c.key != a.key
    hub = build_fingerprint(
        engine="vllm", model="org/m", revision="v2", sampling=Sampling(), template_version="t"
    )
    assert hub.model_digest == "rev:v2"


def test_default_path_is_in_the_user_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_memory_path() == tmp_path / "hymt" / "memory.sqlite3"


def test_file_that_is_not_a_database_is_a_clear_config_error(tmp_path):
    bad = tmp_path / "tm.db"
    bad.write_bytes(b"this is not sqlite\n" * 100)
    with pytest.raises(MemoryFileError) as info:
        TranslationMemory.open(bad)
    assert "not a hymt translation memory" in info.value.message and str(bad) in info.value.message
    assert info.value.exit_code == ExitCode.USAGE
    assert bad.read_bytes() == b"this is not sqlite\n" * 100  # untouched


def test_foreign_sqlite_database_is_refused_and_left_alone(tmp_path):
    other = tmp_path / "app.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    with pytest.raises(MemoryFileError, match="not a hymt translation memory"):
        TranslationMemory.open(other)
    with sqlite3.connect(other) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["users"]


def test_readonly_open_of_a_missing_file_creates_nothing(tmp_path):
    path = tmp_path / "nothing" / "tm.db"
    with TranslationMemory.open(path, readonly=True) as tm:
        assert tm.lookup(CTX, "en", [("fr", "x", "")]) == [None]
        assert tm.store(CTX, "en", [("fr", "x", "", "y")]) == 0
    assert not path.exists() and not path.parent.exists()


def test_imported_entries_win_over_model_output_in_any_context(tmp_path):
    from hymt_cli.memory import Entry

    with TranslationMemory.open(tmp_path / "tm.db") as tm:
        tm.store(CTX, "en", [("fr", "Red", "", "Rouge (model)")])
        tm.import_entries([Entry("Red", "Rouge (reviewed)", "en", "fr")])
        other = Fingerprint("other", "", "t/9", "", "")
        assert tm.lookup(CTX, "en", [("fr", "Red", "")]) == ["Rouge (reviewed)"]
        assert tm.lookup(other, "auto", [("fr", "Red", "")]) == ["Rouge (reviewed)"]
        tm.store(CTX, "en", [("fr", "Red", "", "Rouge (model again)")])
        assert tm.lookup(CTX, "en", [("fr", "Red", "")]) == ["Rouge (reviewed)"]


def test_concurrent_writers_do_not_corrupt_or_lose_entries(tmp_path):
    path = tmp_path / "tm.db"
    TranslationMemory.open(path).close()
    script = (
        "import sys; from hymt_cli.memory import TranslationMemory, Fingerprint\n"
        "ctx = Fingerprint('m', '', 't', '', '')\n"
        "tm = TranslationMemory.open(sys.argv[1])\n"
        "for i in range(60):\n"
        "    tm.store(ctx, 'en', [('fr', f'{sys.argv[2]}-{i}-{j}', '', 'x') for j in range(20)])\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), f"w{n}"],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT)},
            stderr=subprocess.PIPE,
        )
        for n in range(4)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    with TranslationMemory.open(path) as tm:
        assert tm.count() == 4 * 60 * 20
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _txt(tmp_path: Path) -> Path:
    doc = tmp_path / "doc.txt"
    doc.write_text("Hello world.\n\nSecond paragraph.\n\nHello world.\n\nThird one.\n", encoding="utf-8")
    return doc


def test_txt_second_run_sends_nothing_and_output_is_identical(tmp_path):
    doc, cache = _txt(tmp_path), tmp_path / "tm.db"
    first = CountingEngine(engine_named("pseudo"))
    report = run([doc], "fr,de", first, cache=cache)
    assert sorted(first.requested) == sorted(["Hello world.", "Second paragraph.", "Third one."] * 2)
    assert report.cache_hits == 0 and report.engine_requests == 6
    out_fr = (tmp_path / "doc.fr.txt").read_bytes()
    (tmp_path / "doc.fr.txt").unlink()
    second = CountingEngine(engine_named("pseudo"))
    report = run([doc], "fr,de", second, cache=cache)
    assert second.requested == [] and report.engine_requests == 0 and report.cache_hits == 6
    assert (tmp_path / "doc.fr.txt").read_bytes() == out_fr
    assert report.files_ok == 2


def test_txt_changed_paragraph_only_is_requested(tmp_path):
    doc, cache = _txt(tmp_path), tmp_path / "tm.db"
    run([doc], "fr", CountingEngine(engine_named("pseudo")), cache=cache)
    doc.write_text("Hello world.\n\nSecond paragraph, edited.\n\nThird one.\n", encoding="utf-8")
    engine = CountingEngine(engine_named("pseudo"))
    report = run([doc], "fr", engine, cache=cache)
    assert engine.requested == ["Second paragraph, edited."] and report.cache_hits == 2


def test_failed_segments_are_not_cached(tmp_path):
    doc, cache = _txt(tmp_path), tmp_path / "tm.db"
    failing = FailingEngine(engine_named("pseudo"), marker="Second")
    report = run([doc], "fr", failing, cache=cache)
    assert report.untranslated == 1
    assert failing.requested.count("Second paragraph.") == 2  # the first try and the deterministic retry
    engine = CountingEngine(engine_named("pseudo"))
    run([doc], "fr", engine, cache=cache)
    assert engine.requested == ["Second paragraph."]


def test_engine_crash_keeps_committed_batches(tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("\n\n".join(f"Paragraph number {i}." for i in range(40)) + "\n", encoding="utf-8")
    cache = tmp_path / "tm.db"

    class Crashing(CountingEngine):
        def generate(self, requests):
            if len(self.requested) >= 10:
                raise RuntimeError("engine died")
            return super().generate(requests)

    crashing = Crashing(engine_named("identity"))
    with pytest.raises(RuntimeError):
        run([doc], "fr", crashing, cache=cache, batch_tokens=30)
    assert not (tmp_path / "doc.fr.txt").exists()
    done = set(crashing.requested)
    assert 10 <= len(done) < 40
    engine = CountingEngine(engine_named("identity"))
    report = run([doc], "fr", engine, cache=cache, batch_tokens=30)
    assert not done & set(engine.requested) and len(done) + len(engine.requested) == 40
    assert report.cache_hits == len(done)
    assert (tmp_path / "doc.fr.txt").read_bytes() == doc.read_bytes()


def _cli(*args: str, cwd: Path, env_extra: dict | None = None):
    return hymt(*args, cwd=cwd, env=env_extra, text=True)


def test_cli_dry_run_counts_engine_vs_memory_and_writes_nothing(tmp_path):
    doc, cache = _txt(tmp_path), tmp_path / "tm.db"
    assert (
        _cli(
            "translate", str(doc), "--to", "fr", "--engine", "pseudo", "--cache", str(cache), cwd=tmp_path
        ).returncode
        == 0
    )
    (tmp_path / "doc.fr.txt").unlink()
    before = cache.stat().st_mtime_ns
    result = _cli(
        "translate",
        str(doc),
        "--to",
        "fr,de",
        "--engine",
        "pseudo",
        "--cache",
        str(cache),
        "--dry-run",
        "--report",
        str(tmp_path / "r.json"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["unique_segments"] == 6 and report["cache_hits"] == 3
    assert "to the engine: 3 requests" in result.stderr and "from the memory: 3" in result.stderr
    assert not (tmp_path / "doc.fr.txt").exists() and not (tmp_path / "doc.de.txt").exists()
    assert cache.stat().st_mtime_ns == before


def test_cli_default_cache_no_cache_and_bad_cache(tmp_path):
    doc = _txt(tmp_path)
    xdg = tmp_path / "xdg"
    for _ in range(2):
        result = _cli(
            "translate",
            str(doc),
            "--to",
            "fr",
            "--engine",
            "identity",
            "--report",
            str(tmp_path / "r.json"),
            cwd=tmp_path,
            env_extra={"XDG_CACHE_HOME": str(xdg)},
        )
        assert result.returncode == 0, result.stderr
    assert (xdg / "hymt" / "memory.sqlite3").is_file()
    assert json.loads((tmp_path / "r.json").read_text())["engine_requests"] == 0
    result = _cli(
        "translate",
        str(doc),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--no-cache",
        "--report",
        str(tmp_path / "r.json"),
        cwd=tmp_path,
        env_extra={"XDG_CACHE_HOME": str(xdg)},
    )
    assert json.loads((tmp_path / "r.json").read_text())["engine_requests"] == 3
    bad = tmp_path / "bad.db"
    bad.write_text("hello")
    (tmp_path / "doc.fr.txt").unlink()
    result = _cli(
        "translate", str(doc), "--to", "fr", "--engine", "identity", "--cache", str(bad), cwd=tmp_path
    )
    assert result.returncode == ExitCode.USAGE
    assert f"cache {bad}: not a hymt translation memory" in result.stderr
    assert not (tmp_path / "doc.fr.txt").exists()
