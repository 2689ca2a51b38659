"""The pipeline in-process: dedupe, batching, validation, retry, reassembly, report."""

from __future__ import annotations

from pathlib import Path

from engines import Faulty, Recording
from pipelines import run_pipeline, write

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.model.tokenizer import EstimatingTokenizer
from hymt_cli.pipeline import Planner
from hymt_cli.text.languages import language


def run(paths: list[Path], engine, *, targets=("fr",), **options):
    return run_pipeline(paths, engine, to=targets, **options)


def test_batches_are_length_sorted_and_bounded(tmp_path: Path) -> None:
    paragraphs = [("word " * n).strip() + "." for n in (40, 3, 25, 1, 12, 7)]
    doc = write(tmp_path, "a.txt", "\n\n".join(paragraphs) + "\n")
    engine = Recording(IdentityEngine())
    report = run([doc], engine, batch_tokens=400, batch_requests=2)
    assert engine.calls >= 3
    lengths = [len(r.source_text) for r in engine.requests]
    # the longest request (over twice the mean) leads, the others follow shortest first
    assert lengths[0] == max(lengths) and lengths[1:] == sorted(lengths[1:])
    assert report.engine_requests == 6
    assert (tmp_path / "a.fr.txt").read_text() == doc.read_text()


def test_max_tokens_follow_the_source_length(tmp_path: Path) -> None:
    doc = write(tmp_path, "a.txt", "Short.\n\n" + "A much longer paragraph " * 20 + "\n")
    engine = Recording(IdentityEngine())
    run([doc], engine)
    short, long = sorted(engine.requests, key=lambda r: len(r.source_text))
    assert short.max_tokens < long.max_tokens
    assert long.max_tokens <= 8192


def test_failed_outputs_keep_the_source_and_are_counted(tmp_path: Path) -> None:
    doc = write(tmp_path, "a.txt", "Empty me.\n\nCut me.\n\nEcho me.\n\nLoop me.\n\nKeep me.\n")

    def fault(r: GenerationRequest) -> Generation | None:
        if r.source_text == "Empty me.":
            return Generation("   ", "stop", 0)
        if r.source_text == "Cut me.":
            return Generation("Coupe", "length", r.max_tokens)
        if r.source_text == "Echo me.":
            return Generation(
                "Translate the following segment into French, without additional explanation.", "stop", 12
            )
        if r.source_text == "Loop me.":
            return Generation("la " * 40, "stop", 40)
        return Generation("<target>Garde-moi.</target>", "stop", 3)

    engine = Faulty(fault)
    report = run([doc], engine)
    out = (tmp_path / "a.fr.txt").read_text()
    assert out == "Empty me.\n\nCut me.\n\nEcho me.\n\nLoop me.\n\nGarde-moi.\n"
    (file,) = report.files
    assert file.untranslated == 4 and file.translated == 1
    problems = {p.segment: p.problem for p in file.problems}
    assert problems[0] == "empty output"
    assert "cut off" in problems[1]
    assert "echoes the instruction" in problems[2]
    assert "repetition loop" in problems[3]
    # empty and echo are retried once, deterministically; cut-off and loops are not
    retried = [r.source_text for r in engine.requests if r.deterministic]
    assert sorted(retried) == ["Echo me.", "Empty me."]
    assert report.retried == 2 and file.retried == 2


def test_a_retry_that_succeeds_is_a_translation(tmp_path: Path) -> None:
    doc = write(tmp_path, "a.txt", "Flaky.\n")
    engine = Faulty(
        lambda r: Generation("", "stop", 0) if not r.deterministic else Generation("Instable.", "stop", 2)
    )
    report = run([doc], engine)
    assert (tmp_path / "a.fr.txt").read_text() == "Instable.\n"
    assert report.untranslated == 0 and report.files[0].retried == 1


def test_one_request_per_unique_text_and_language(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", "Hello.\n\nHello.\n\nBye.\n")
    b = write(tmp_path, "b.txt", "Bye.\n")
    engine = Recording(IdentityEngine())
    report = run([a, b], engine, targets=("fr", "de"))
    assert report.segments == 8
    assert report.unique_segments == report.engine_requests == len(engine.requests) == 4


def test_numbers_and_symbols_are_not_sent(tmp_path: Path) -> None:
    doc = write(tmp_path, "a.txt", "2024-05-01\n\n---\n\nReal text.\n")
    engine = Recording(IdentityEngine())
    report = run([doc], engine)
    assert [r.source_text for r in engine.requests] == ["Real text."]
    assert report.segments == 1


def test_long_paragraphs_are_split_and_rejoined(tmp_path: Path) -> None:
    sentence = "This sentence is part of a very long paragraph that goes on. "
    doc = write(tmp_path, "a.txt", sentence * 400 + "\n")
    engine = Recording(IdentityEngine())
    run([doc], engine, context_tokens=2048)
    assert len(engine.requests) > 1
    assert (tmp_path / "a.fr.txt").read_text() == doc.read_text()


def test_zh_and_xx_prompts_are_chosen_per_segment(tmp_path: Path) -> None:
    doc = write(tmp_path, "a.txt", "这是中文。\n\nThis is English.\n")
    prompts = tmp_path / "p.jsonl"
    run([doc], IdentityEngine(), targets=("de",), dry_run=True, prompts_out=prompts)
    lines = prompts.read_text().splitlines()
    assert any(line.startswith('{"file"') and "将以下文本翻译为德语" in line for line in lines)
    assert any("Translate the following segment into German" in line for line in lines)
    assert not (tmp_path / "a.de.txt").exists()


def test_formatted_prompt_for_tagged_segments() -> None:
    planner = Planner(EstimatingTokenizer(), context_tokens=8192, source=None)
    (tagged,) = planner.pieces_for("Use <s1>bold</s1> here", language("fr"), ("x", 0))
    (plain,) = planner.pieces_for("Use bold here", language("fr"), ("x", 1))
    planned = {r.key: r for r in planner.finish()}
    assert tagged.key is not None and plain.key is not None
    assert (
        planned[tagged.key].formatted
        and "<source>Use <s1>bold</s1> here</source>" in planned[tagged.key].prompt
    )
    assert not planned[plain.key].formatted and "<source>" not in planned[plain.key].prompt


def test_only_the_wrapper_the_model_added_is_stripped(tmp_path: Path) -> None:
    text = "<target>kept as written</target>\n\nPlain paragraph.\n"
    doc = write(tmp_path, "a.txt", text)
    run([doc], IdentityEngine())
    assert (tmp_path / "a.fr.txt").read_text() == text  # identity: byte for byte
    wrapped = Faulty(lambda r: Generation(f"<target>{r.source_text}</target>", "stop", 3))
    run([doc], wrapped, out_dir=tmp_path / "o")
    assert (tmp_path / "o" / "fr" / "a.txt").read_text() == text  # one layer added, one stripped
