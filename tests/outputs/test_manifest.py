"""hymt replaces only what it wrote itself: a person's translation is never overwritten."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clirun import hymt

from hymt_cli.errors import ExitCode
from hymt_cli.outputs import manifest
from hymt_cli.outputs.manifest import MANIFEST_NAME, read_manifest, record, written_by_hymt


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Welcome\n\nHello world.\n", encoding="utf-8")
    (docs / "guide.md").write_text("A guide.\n", encoding="utf-8")
    return docs


def _translate(*args: str, cwd: Path):
    return hymt("translate", *args, "--engine", "pseudo", "--no-cache", cwd=cwd, text=True)


def test_a_persons_translation_is_skipped_with_a_warning(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    human = docs / "index.de.md"
    human.write_text("# Willkommen\n\nHallo Welt, von Hand übersetzt.\n", encoding="utf-8")
    report = tmp_path / "r.json"
    result = _translate(str(docs), "--to", "de", "--report", str(report), cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    assert human.read_text(encoding="utf-8") == "# Willkommen\n\nHallo Welt, von Hand übersetzt.\n"
    assert f"warning: {human} exists and hymt did not write it" in result.stderr
    assert "⟦" in (docs / "guide.de.md").read_text(encoding="utf-8")  # the others are done
    files = {Path(f["input"]).name: f for f in json.loads(report.read_text())["files"]}
    assert files["index.md"]["status"] == "skipped" and "--overwrite" in files["index.md"]["warning"]
    assert files["guide.md"]["status"] == "ok"
    # --overwrite says so
    result = _translate(str(docs), "--to", "de", "--overwrite", cwd=tmp_path)
    assert result.returncode == ExitCode.OK and "⟦" in human.read_text(encoding="utf-8")


def test_hymts_own_output_is_replaced_an_edited_one_is_not(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    assert _translate(str(docs), "--to", "fr", cwd=tmp_path).returncode == ExitCode.OK
    output = docs / "guide.fr.md"
    assert written_by_hymt(output)
    (docs / "guide.md").write_text("A better guide.\n", encoding="utf-8")
    assert _translate(str(docs), "--to", "fr", cwd=tmp_path).returncode == ExitCode.OK
    assert "ƀéţţéŕ" in output.read_text(encoding="utf-8")  # its own output: replaced
    output.write_text(output.read_text(encoding="utf-8") + "\nA reviewer's note.\n", encoding="utf-8")
    edited = output.read_bytes()
    result = _translate(str(docs), "--to", "fr", cwd=tmp_path)
    assert result.returncode == ExitCode.OK and output.read_bytes() == edited
    assert "hymt's output edited since" in result.stderr


def test_tables_follow_the_same_rule(tmp_path: Path) -> None:
    src = tmp_path / "cat.parquet"
    pq.write_table(pa.table({"title": ["Red shirt"]}), src)
    curated = tmp_path / "cat.fr.parquet"
    pq.write_table(pa.table({"title": ["Chemise rouge (revue)"]}), curated)
    before = curated.read_bytes()
    result = _translate(str(src), "--to", "fr", "--columns", "title", cwd=tmp_path)
    assert result.returncode == ExitCode.OK and curated.read_bytes() == before
    assert "hymt did not write it" in result.stderr


def test_the_manifest_is_deterministic_and_names_the_source(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    out = tmp_path / "out"
    assert _translate(str(docs), "--to", "fr", "-o", str(out), cwd=tmp_path).returncode == ExitCode.OK
    first = (out / "fr" / MANIFEST_NAME).read_bytes()
    assert _translate(str(docs), "--to", "fr", "-o", str(out), cwd=tmp_path).returncode == ExitCode.OK
    assert (out / "fr" / MANIFEST_NAME).read_bytes() == first  # no timestamps: reruns change nothing
    entries = read_manifest(out / "fr")
    assert set(entries) == {"index.md", "guide.md"}
    assert entries["index.md"].source == "../../docs/index.md" and entries["index.md"].provenance
    assert not list((out / "fr").glob("*.lock"))


def _record_many(folder: str, worker: int) -> None:
    for i in range(25):
        path = Path(folder) / f"w{worker}-{i}.txt"
        path.write_text(f"{worker} {i}\n")
        record(path, None, "p")


def test_concurrent_runs_keep_every_entry(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_record_many, args=(str(tmp_path), n)) for n in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert all(w.exitcode == 0 for w in workers)
    assert len(read_manifest(tmp_path)) == 100


def test_an_unreadable_manifest_protects_everything(tmp_path: Path) -> None:
    path = tmp_path / "a.fr.txt"
    path.write_text("x\n")
    record(path, None, "p")
    assert written_by_hymt(path)
    (tmp_path / MANIFEST_NAME).write_text("{not json")
    assert not written_by_hymt(path)


def test_a_file_name_that_is_not_utf8_is_recorded(tmp_path: Path) -> None:
    import os

    raw = os.path.join(os.fsencode(tmp_path), b"caf\xff.fr.txt")
    try:
        with open(raw, "wb") as handle:
            handle.write(b"x\n")
    except OSError:
        return  # a file system that takes UTF-8 names only
    path = Path(os.fsdecode(raw))
    record(path, None, "p")
    assert written_by_hymt(path) and path.name in read_manifest(tmp_path)


def test_a_folder_of_many_outputs_is_recorded_through_the_journal(tmp_path: Path) -> None:
    """Each record appends a line to the journal; the manifest is rewritten only when the journal
    is as long as it (amortized: not once per output), and `settle` leaves the manifest alone,
    the same bytes as if every entry had been written into it directly."""
    from hymt_cli.outputs.manifest import FOLD_AT_LEAST, JOURNAL_NAME, settle

    rewrites, last = 0, None
    for i in range(5 * FOLD_AT_LEAST):
        path = tmp_path / f"page-{i:04d}.fr.md"
        path.write_text(f"page {i}\n")
        record(path, None, "p")
        manifest = tmp_path / MANIFEST_NAME
        stamp = manifest.stat().st_ino if manifest.exists() else None
        rewrites += stamp != last
        last = stamp
        assert len(read_manifest(tmp_path)) == i + 1
    assert 2 <= rewrites <= 4  # 64, 128, 256 entries: doubling
    assert (tmp_path / JOURNAL_NAME).exists()
    settle(tmp_path)
    assert not (tmp_path / JOURNAL_NAME).exists()
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert list(data["files"]) == sorted(data["files"]) and len(data["files"]) == 5 * FOLD_AT_LEAST
    assert all(written_by_hymt(tmp_path / f"page-{i:04d}.fr.md") for i in (0, 100, 5 * FOLD_AT_LEAST - 1))


def test_a_journal_left_by_a_killed_run_counts_and_a_cut_line_costs_nothing(tmp_path: Path) -> None:
    """A run killed before it settled leaves its journal: its outputs are still hymt's (the next
    run replaces them, discovery skips them). A line cut by the kill is ignored, and the next
    record starts on a line of its own."""
    from hymt_cli.outputs.manifest import JOURNAL_NAME

    first = tmp_path / "a.fr.md"
    first.write_text("a\n")
    record(first, None, "p")
    journal = tmp_path / JOURNAL_NAME
    assert journal.exists() and not (tmp_path / MANIFEST_NAME).exists()
    with open(journal, "ab") as handle:
        handle.write(b'{"name": "half.fr.md", "sha2')  # killed mid-line
    assert set(read_manifest(tmp_path)) == {"a.fr.md"}
    second = tmp_path / "b.fr.md"
    second.write_text("b\n")
    record(second, None, "p")
    assert written_by_hymt(first) and written_by_hymt(second)
    assert set(read_manifest(tmp_path)) == {"a.fr.md", "b.fr.md"}
    first.write_text("edited by a person\n")
    assert not written_by_hymt(first)


def test_threads_of_one_process_recording_into_one_folder_keep_every_entry(tmp_path: Path) -> None:
    """What a process keeps of a folder is shared by its threads (two API translators writing
    into one folder): every record is seen, none read twice or skipped."""
    import threading

    from hymt_cli.outputs.manifest import FOLD_AT_LEAST

    unseen: list[str] = []

    def work(worker: int) -> None:
        for i in range(FOLD_AT_LEAST):
            path = tmp_path / f"t{worker}-{i}.txt"
            path.write_text(f"{worker} {i}\n")
            record(path, None, "p")
            if not written_by_hymt(path):
                unseen.append(path.name)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not unseen and len(read_manifest(tmp_path)) == 4 * FOLD_AT_LEAST


def test_a_journal_linked_elsewhere_gets_no_line_and_the_output_is_still_recorded(tmp_path: Path) -> None:
    """The journal comes with the folder, which may be anybody's (a cloned repository): a link in
    its place is never followed (hymt's lines must not land in the file it names), and the output
    goes into the manifest instead, which replaces the link."""
    from hymt_cli.outputs.manifest import JOURNAL_NAME, settle

    outside = tmp_path / "bashrc"
    outside.write_text("export PATH=/usr/bin\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / JOURNAL_NAME).symlink_to(outside)
    path = folder / "a.fr.md"
    path.write_text("a\n")
    record(path, None, "p")
    settle(folder)
    assert outside.read_text() == "export PATH=/usr/bin\n"
    assert not (folder / JOURNAL_NAME).is_symlink()
    assert written_by_hymt(path) and set(read_manifest(folder)) == {"a.fr.md"}


def test_manifest_files_that_are_fifos_are_not_waited_on(tmp_path: Path) -> None:
    """A FIFO where the manifest or the journal goes (a hostile input folder) reads as an unreadable
    manifest at once: nothing counts as hymt's, and nothing hangs."""
    import os
    import threading

    from hymt_cli.outputs.manifest import JOURNAL_NAME

    for name in (MANIFEST_NAME, JOURNAL_NAME):
        folder = tmp_path / name.strip(".")
        folder.mkdir()
        os.mkfifo(folder / name)
        found: list[int] = []
        reader = threading.Thread(
            target=lambda f=folder, into=found: into.append(len(read_manifest(f))), daemon=True
        )
        reader.start()
        reader.join(timeout=10)
        assert found == [0], f"reading a folder with a FIFO {name} hung"


def test_the_folders_kept_in_memory_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run writing into many folders keeps the last few of them (CACHED_FOLDERS); a
    folder let go is read again from its manifest and journal, and answers as before."""
    assert manifest.FolderCache().size == manifest.CACHED_FOLDERS
    kept = manifest.FolderCache(4)
    monkeypatch.setattr(manifest, "_cache", kept)
    folders = [tmp_path / f"f{i}" for i in range(6)]
    for i, folder in enumerate(folders):
        folder.mkdir()
        (folder / "out.txt").write_text(f"output {i}\n")
        record(folder / "out.txt", None, "p")
    assert len(kept) == 4
    assert folders[0] not in kept and folders[1] not in kept and folders[5] in kept  # the oldest let go
    assert written_by_hymt(folders[0] / "out.txt")  # read again from its files
    assert folders[0] in kept and folders[2] not in kept
    read_manifest(folders[3])  # used again: kept longest of the others
    written_by_hymt(folders[1] / "out.txt")
    written_by_hymt(folders[2] / "out.txt")
    assert [f in kept for f in folders] == [True, True, True, True, False, False]
