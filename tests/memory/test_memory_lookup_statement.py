"""Lookups of any number of keys use one SQL statement: sqlite3 keeps up to 128 prepared statements
(~0.1 MB each with 500 keys), and a statement per chunk size made a long run's memory grow as it
met new sizes (bench/RESULTS.md, issue 20 goal 6). The answers stay those of each key."""

from __future__ import annotations

from pathlib import Path

from hymt_cli.memory import Fingerprint, TranslationMemory

CTX = Fingerprint("m", "rev:default", "t/1", "", "s")


def test_lookups_of_every_size_run_one_statement_and_answer_each_key(tmp_path: Path) -> None:
    with TranslationMemory.open(tmp_path / "tm.db") as tm:
        tm.store(CTX, "en", [("fr", f"Text {i}", "", f"Texte {i}") for i in range(0, 1200, 3)])
        selects: set[str] = set()
        tm.trace(lambda sql: selects.add(sql) if sql.startswith("SELECT") else None)
        for size in (1, 2, 7, 250, 499, 500, 501, 1199):
            items = [("fr", f"Text {i}", "") for i in range(size)]
            expected = [f"Texte {i}" if i % 3 == 0 else None for i in range(size)]
            assert tm.lookup(CTX, "en", items) == expected, size
        assert tm.lookup(CTX, "en", []) == []
        # (the trace shows each statement with its values bound: blobs, written x'..')
        assert {sql.split(" IN (")[1].count(",") + 1 for sql in selects} == {500}
