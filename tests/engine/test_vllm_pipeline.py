"""The whole pipeline through the real vLLM engine (CPU build) on the tiny random-weight model.

Its outputs are noise that never ends by itself: every output must be caught by validation
(cut off at max_tokens), counted untranslated, and the document written with its source text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import ROOT, hymt
from engines import Recording
from pipelines import make_pipeline, sources_of

pytestmark = pytest.mark.vllm
SAMPLES = ROOT / "samples" / "txt"
MARKUP = [ROOT / "samples" / "docs", ROOT / "samples" / "site"]


@pytest.mark.vllm
def test_every_segment_reaches_vllm_and_is_validated(tmp_path: Path, vllm_engine, tiny_tokenizer) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(SAMPLES, docs)
    sources = sources_of([docs])
    engine = Recording(vllm_engine)
    report = make_pipeline(
        engine, to="en,zh", tokenizer=tiny_tokenizer, batch_tokens=4096, engine_name="vllm"
    ).run(sources)

    assert report.files_ok == 2 * len(sources) and report.files_failed == 0
    assert report.engine_requests == report.unique_segments == len(engine.requests) > 10
    assert engine.calls > 1  # the token budget cut the work into several length-sorted batches
    # every request is the chat-templated HY-MT prompt, tokenized once by the pipeline
    rendered = tiny_tokenizer.hf_tokenizer.decode(list(engine.requests[0].prompt_token_ids))
    assert "Translate the following segment into" in rendered or "将以下文本翻译为" in rendered
    assistant_marker = tiny_tokenizer.hf_tokenizer.decode(list(tiny_tokenizer.prompt_ids("x")[-1:]))
    assert rendered.endswith(assistant_marker) and "Assistant" in assistant_marker
    assert report.output_tokens == sum(r.max_tokens for r in engine.requests)  # noise runs to the limit
    # random weights: nothing passes validation, so every segment keeps its source
    assert report.untranslated == report.segments > 0
    for source in SAMPLES.glob("*.txt"):
        for lang in ("en", "zh"):
            assert (docs / f"{source.stem}.{lang}.txt").read_bytes() == source.read_bytes()
    assert all("cut off at max_tokens" in p.problem for f in report.files for p in f.problems)


@pytest.mark.vllm
def test_cli_with_vllm_writes_answers_and_keeps_stdout_for_the_document(
    answering_model_dir: Path, tmp_path: Path
) -> None:
    """The answering tiny model ends its answers (EOS): they pass validation and are spliced in."""
    source = (SAMPLES / "release-notes.txt").read_bytes()
    report = tmp_path / "r.json"
    result = hymt(
        "translate",
        "-",
        "--format",
        "txt",
        "--to",
        "de",
        "--model",
        str(answering_model_dir),
        "--deterministic",
        "--enforce-eager",
        "--qa",
        "all=off",  # random answers change numbers: QA would keep those segments' sources
        "--report",
        str(report),
        stdin=source,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    err = result.stderr.decode()
    assert "NOT a real translation" in err
    data = json.loads(report.read_text())
    assert data["engine"] == "vllm" and data["engine_requests"] == data["unique_segments"] > 0
    assert data["untranslated"] == 0 and data["files"][0]["translated"] == data["segments"]
    out = result.stdout.decode()
    # stdout is exactly the document: one line per source paragraph, blank lines where they were
    assert out != source.decode()
    assert out.count("\n\n") == source.decode().count("\n\n") and out.endswith("\n")
    assert "hymt:" not in out and "WARNING" not in out and "INFO" not in out


@pytest.mark.vllm
def test_markdown_and_html_samples_run_end_to_end(tmp_path: Path, vllm_engine, tiny_tokenizer) -> None:
    sources = sources_of(MARKUP)
    assert {s.format.name for s in sources} == {"md", "html"}
    engine = Recording(vllm_engine)
    out = tmp_path / "out"
    report = make_pipeline(
        engine, to="ja", tokenizer=tiny_tokenizer, out_dir=out, batch_tokens=8192, engine_name="vllm"
    ).run(sources)
    assert report.files_failed == 0 and report.files_ok == len(sources)
    # tagged segments went out with HY-MT's formatted-translation prompt
    prompts = [tiny_tokenizer.hf_tokenizer.decode(list(r.prompt_token_ids)) for r in engine.requests]
    assert any("<source>" in p and "<s1>" in p for p in prompts)
    # noise fails validation (and the retry/repair path never turns it into a translation)
    assert report.untranslated == report.segments > 0
    for source in sources:
        written = out / "ja" / source.relative
        if source.format.name == "md":
            assert written.read_bytes() == source.path.read_bytes()
        else:
            assert written.stat().st_size > 0
