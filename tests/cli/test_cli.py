"""The command line, run as users run it: files, folders, stdin/stdout, errors, exit codes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from clirun import ROOT, hymt, start_hymt

SAMPLES = ROOT / "samples" / "txt"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    shutil.copytree(SAMPLES, folder)
    return folder


def test_help_lists_translate_without_loading_engines() -> None:
    result = hymt("--help")
    assert result.returncode == 0
    assert b"translate" in result.stdout


def test_translate_help_shows_the_flags() -> None:
    result = hymt("translate", "--help")
    for flag in (
        b"--to",
        b"--from",
        b"--engine",
        b"--dry-run",
        b"--prompts-out",
        b"--report",
        b"--segment-by",
        b"--deterministic",
    ):
        assert flag in result.stdout


def test_stdin_to_stdout_carries_only_the_document() -> None:
    src = b"Hello world.\r\n\r\nSecond paragraph.\r\n"
    result = hymt("translate", "-", "--format", "txt", "--to", "en", "--engine", "identity", stdin=src)
    assert result.returncode == 0, result.stderr
    assert result.stdout == src
    pseudo = hymt("translate", "-", "--format", "txt", "--to", "en", "--engine", "pseudo", stdin=src)
    assert pseudo.returncode == 0
    assert pseudo.stdout.decode().count("⟦") == 2 and pseudo.stdout.endswith(b"\r\n")
    assert b"hymt:" in pseudo.stderr and b"hymt:" not in pseudo.stdout
    plain = hymt("translate", "-", "--to", "de", "--engine", "pseudo", stdin=b"Hello\n")
    assert plain.returncode == 0, plain.stderr  # without --format, standard input is plain text
    assert plain.stdout.decode().startswith("\u27e6") and plain.stdout.endswith(b"\n")


def test_folder_writes_translations_beside_each_source_and_skips_translations(docs: Path) -> None:
    (docs / "old.fr.txt").write_text("an earlier translation\n")
    (docs / "image.png").write_bytes(b"\x89PNG")
    result = hymt("translate", str(docs), "--to", "de,ja", "--engine", "identity")
    assert result.returncode == 0, result.stderr
    for source in SAMPLES.glob("*.txt"):
        for lang in ("de", "ja"):
            out = docs / f"{source.stem}.{lang}.txt"
            assert out.read_bytes() == source.read_bytes()
    assert not (docs / "old.fr.de.txt").exists()
    assert not list(docs.glob("image*.de*"))


def test_out_dir_mirrors_the_tree_per_language(docs: Path, tmp_path: Path) -> None:
    (docs / "sub").mkdir()
    (docs / "sub" / "deep.txt").write_text("Deep file.\n")
    out = tmp_path / "out"
    result = hymt("translate", str(docs), "--to", "fr", "-o", str(out), "--engine", "pseudo")
    assert result.returncode == 0, result.stderr
    assert (out / "fr" / "sub" / "deep.txt").read_text() == "⟦Đééþ ƒíĺé ··.⟧\n"
    assert (out / "fr" / "release-notes.txt").exists()
    assert not list(docs.glob("*.fr.txt"))


def test_inputs_are_never_overwritten(docs: Path) -> None:
    before = {p.name: p.read_bytes() for p in docs.iterdir()}
    result = hymt("translate", str(docs), "--to", "fr", "-o", str(docs.parent), "--engine", "pseudo")
    assert result.returncode == 0
    # explicitly naming a file whose output would be another input
    target = docs / "release-notes.fr.txt"
    target.write_text("I am an input.\n")
    result = hymt(
        "translate", str(docs / "release-notes.txt"), str(target), "--to", "fr", "--engine", "pseudo"
    )
    assert result.returncode == 1
    assert b"refusing to overwrite" in result.stderr
    assert target.read_text() == "I am an input.\n"
    assert all((docs / name).read_bytes() == data for name, data in before.items())


def test_report_has_the_contract_fields(docs: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = hymt(
        "translate",
        str(docs / "release-notes.txt"),
        str(docs / "faq-ja.txt"),
        "--to",
        "en,fr",
        "--engine",
        "pseudo",
        "--report",
        str(report),
    )
    assert result.returncode == 0
    data = json.loads(report.read_text())
    assert data["schema"] == "hymt.report/3"
    for key in (
        "files_ok",
        "files_failed",
        "segments",
        "unique_segments",
        "engine_requests",
        "prompt_tokens",
        "output_tokens",
        "untranslated",
        "seconds",
    ):
        assert key in data
    assert data["files_ok"] == 4 and data["files_failed"] == 0
    assert {f["lang"] for f in data["files"]} == {"en", "fr"}
    for entry in data["files"]:
        assert set(entry) >= {"input", "output", "lang", "status", "error", "segments"}
    assert data["engine_requests"] == data["unique_segments"] <= data["segments"]


def test_identical_segments_are_requested_once(tmp_path: Path) -> None:
    doc = tmp_path / "dup.txt"
    doc.write_text("Same text.\n\nSame text.\n\nOther text.\n")
    copy = tmp_path / "copy.txt"
    copy.write_text("Same text.\n")
    report = tmp_path / "r.json"
    result = hymt(
        "translate", str(doc), str(copy), "--to", "fr", "--engine", "pseudo", "--report", str(report)
    )
    assert result.returncode == 0
    data = json.loads(report.read_text())
    assert data["segments"] == 4 and data["unique_segments"] == 2 and data["engine_requests"] == 2


def test_dry_run_plans_without_writing(docs: Path, tmp_path: Path) -> None:
    prompts = tmp_path / "prompts.jsonl"
    result = hymt("translate", str(docs), "--to", "en,zh", "--dry-run", "--prompts-out", str(prompts))
    assert result.returncode == 0, result.stderr
    assert b"plan:" in result.stderr
    assert not list(docs.glob("*.en.txt")) and not list(docs.glob("*.zh.txt"))
    lines = [json.loads(line) for line in prompts.read_text().splitlines()]
    assert lines and all(set(line) >= {"file", "segment", "lang", "prompt", "tokens"} for line in lines)
    zh_source = [line for line in lines if line["file"].endswith("用户指南.txt") and line["lang"] == "en"]
    assert zh_source and all(line["prompt"].startswith("将以下文本翻译为英语") for line in zh_source)
    de_to_en = [line for line in lines if line["file"].endswith("sentences-de.txt") and line["lang"] == "en"]
    assert de_to_en and all(
        line["prompt"].startswith("Translate the following segment into English") for line in de_to_en
    )


def test_segment_by_line_keeps_line_alignment(docs: Path) -> None:
    result = hymt(
        "translate",
        str(docs / "sentences-de.txt"),
        "--to",
        "en",
        "--segment-by",
        "line",
        "--engine",
        "pseudo",
    )
    assert result.returncode == 0
    out = (docs / "sentences-de.en.txt").read_text().splitlines()
    source = (docs / "sentences-de.txt").read_text().splitlines()
    assert len(out) == len(source) == 5
    assert all(line.startswith("⟦") and line.endswith("⟧") for line in out)


@pytest.mark.parametrize(
    "args, message",
    [
        (["-", "--format", "txt", "--to", "en,fr"], b"exactly one --to"),
        (["x.txt", "--to", "xx"], b"unknown language code 'xx'"),
        (["x.txt", "--to", "en", "--engine", "magic"], b"unknown engine"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: bytes) -> None:
    result = hymt("translate", *args, stdin=b"")
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == b""


def test_bad_inputs_are_reported_and_the_others_complete(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("Fine text.\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9 latin-1\n")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    (nothing / "a.png").write_bytes(b"x")
    report = tmp_path / "r.json"
    result = hymt(
        "translate",
        str(good),
        str(bad),
        str(empty),
        str(tmp_path / "missing.txt"),
        str(nothing),
        "--to",
        "fr",
        "--engine",
        "pseudo",
        "--report",
        str(report),
    )
    assert result.returncode == 1
    err = result.stderr.decode()
    assert f"{bad}: not valid UTF-8" in err and "byte offset 3" in err
    assert "missing.txt: no such file or folder" in err
    assert f"{nothing}: folder has no files to translate: 1 skipped (1 not a supported format)" in err
    assert (tmp_path / "good.fr.txt").exists()
    assert (tmp_path / "empty.fr.txt").read_bytes() == b""
    assert not (tmp_path / "bad.fr.txt").exists()
    assert not [p for p in tmp_path.iterdir() if "hymt-tmp" in p.name]
    data = json.loads(report.read_text())
    assert data["files_failed"] == 3 and data["files_ok"] == 2


def test_an_output_folder_that_cannot_be_written_is_refused_before_anything_starts(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Text.\n")
    blocked = tmp_path / "out"
    blocked.write_text("a file where a folder should be")
    result = hymt("translate", str(doc), "--to", "fr", "-o", str(blocked), "--engine", "pseudo")
    assert result.returncode == 2
    assert result.stderr.decode().startswith(f"error: -o/--out {blocked}: is a file, not a folder\n")


def test_missing_model_is_exit_3_with_a_hint(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Text.\n")
    result = hymt("translate", str(doc), "--to", "fr", "--model", str(tmp_path / "no-such-model"))
    assert result.returncode == 3
    assert b"hint:" in result.stderr
    assert not (tmp_path / "a.fr.txt").exists()


def test_two_inputs_never_write_the_same_output(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.txt").write_text(f"From {folder}.\n")
    out = tmp_path / "out"
    result = hymt(
        "translate",
        str(tmp_path / "a"),
        str(tmp_path / "b"),
        "--to",
        "fr",
        "-o",
        str(out),
        "--engine",
        "pseudo",
    )
    assert result.returncode == 1
    assert b"is already written from" in result.stderr
    assert "⟦Ƒŕóɱ á ·.⟧" in (out / "fr" / "index.txt").read_text()


def test_interrupt_exits_130_and_writes_nothing(tmp_path: Path) -> None:
    import signal
    import subprocess
    import time

    # stdin stays open: the run is still reading its input when Ctrl-C arrives
    proc = start_hymt(
        "translate",
        "-",
        "--format",
        "txt",
        "--to",
        "en",
        "--engine",
        "pseudo",
        stdin=subprocess.PIPE,
        cwd=tmp_path,
    )
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert out == b""
    assert b"interrupted" in err


def test_a_killed_runs_temp_files_are_swept_by_the_next_run(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Text.\n")
    dead = tmp_path / ".a.fr.txt.999999999.x1y2.hymt-tmp"  # no such pid: a run killed mid-write
    dead.write_text("half a docu")
    alive = tmp_path / f".b.fr.txt.{os.getpid()}.x1y2.hymt-tmp"  # a live writer's file stays
    alive.write_text("being written")
    result = hymt("translate", str(doc), "--to", "fr", "--engine", "pseudo")
    assert result.returncode == 0
    assert not dead.exists() and alive.exists()
