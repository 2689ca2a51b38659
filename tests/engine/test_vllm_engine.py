"""VllmEngine on the tiny random models: a real engine, structural assertions.

The session engine runs the noise model: every answer is a word piece repeated up to its
max_tokens ("length"). The answering model (one word piece, then EOS: "stop" after 2
tokens) runs in the stdout subprocess test, which starts an engine of its own anyway.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from engines import with_vllm

from hymt_cli.engine.base import EngineOptions, Generation, GenerationRequest, Sampling
from hymt_cli.errors import EngineUnavailable

pytest.importorskip("vllm")

REPO = Path(__file__).resolve().parents[2]
MESSAGES = [
    "Translate the following segment into Chinese, without additional explanation.\n\nThe cat sat.",
    "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n\n你好，世界",
    "Привет, мир",
    "Hello <s1>world</s1>",
    "x",
]


def requests_for(tokenizer, max_tokens: list[int]) -> list[GenerationRequest]:
    return [GenerationRequest(m, tokenizer.prompt_ids(m), n) for m, n in zip(MESSAGES, max_tokens)]


def test_importing_the_engine_modules_imports_neither_vllm_nor_torch() -> None:
    code = (
        "import sys, hymt_cli.engine.vllm_engine, hymt_cli.engine.transformers_engine, "
        "hymt_cli.model.tiny; print(sorted(m for m in ('vllm', 'torch', 'transformers') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.vllm
def test_one_generation_per_request_in_order(vllm_engine, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [16] * len(MESSAGES))
    forward = vllm_engine.generate(requests)
    backward = vllm_engine.generate(requests[::-1])
    assert len(forward) == len(requests)
    assert forward == backward[::-1]
    alone = [vllm_engine.generate([r])[0] for r in requests[:2]]
    assert alone == forward[:2]


@pytest.mark.vllm
def test_each_request_keeps_its_own_max_tokens(vllm_engine, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [1, 16, 3, 2, 40])
    results = vllm_engine.generate(requests)
    for request, result in zip(requests, results):
        # noise never stops: every row runs to its own budget, not the batch's largest
        assert (result.finish_reason, result.output_tokens) == ("length", request.max_tokens)
        assert result.text and "<｜" not in result.text and "\ufffd" not in result.text


def test_finish_reasons_map_to_stop_or_length() -> None:
    from types import SimpleNamespace

    from hymt_cli.engine.vllm_engine import generation_of

    def completion(reason: str | None) -> SimpleNamespace:
        return SimpleNamespace(text="t", finish_reason=reason, token_ids=[5, 6, 1])

    assert generation_of(completion("stop")) == Generation("t", "stop", 3)
    for incomplete in ("length", "abort", "error", None):
        assert generation_of(completion(incomplete)).finish_reason == "length"


@pytest.mark.vllm
def test_vllm_starts_without_a_tokenizer_when_hymt_decodes(vllm_engine, tiny_tokenizer) -> None:
    """The tiny model's tokenizer is one hymt reads itself: vLLM loads none (its start skips the
    tokenizer and its copies), and the answers still come back as text (answer_decoder.py)."""
    assert vllm_engine.decodes_answers
    (result,) = vllm_engine.generate(requests_for(tiny_tokenizer, [6])[:1])
    assert result.output_tokens == 6 and result.text.strip()


@pytest.mark.vllm
def test_greedy_is_deterministic(vllm_engine, tiny_tokenizer) -> None:
    request = requests_for(tiny_tokenizer, [8])[0]
    first = vllm_engine.generate([request, request])
    again = vllm_engine.generate([request])
    assert first[0] == first[1] == again[0]


@pytest.mark.vllm
def test_an_engine_in_the_callers_process_leaves_its_heap_alone(vllm_engine) -> None:
    """A replica freezes its heap before vLLM starts (own_process: the start's gc.collect()
    calls skip what the imports made); an engine in the caller's own process (the API, one
    engine) must not, or the caller's garbage would never be collected."""
    import gc

    assert gc.get_freeze_count() == 0


@pytest.mark.vllm
def test_no_requests_no_work(vllm_engine) -> None:
    assert vllm_engine.generate([]) == []


@pytest.mark.vllm
def test_agrees_with_the_transformers_engine(vllm_engine, tiny_tokenizer, tiny_engine_options) -> None:
    from hymt_cli.engine.transformers_engine import TransformersEngine

    requests = requests_for(tiny_tokenizer, [1, 8, 8, 8, 8])
    with TransformersEngine(tiny_engine_options, Sampling.deterministic()) as reference:
        assert vllm_engine.generate(requests) == reference.generate(requests)


@pytest.mark.vllm  # builds vLLM's SamplingParams
def test_sampling_params_follow_sampling() -> None:
    from hymt_cli.engine.vllm_arguments import sampling_params

    params = sampling_params(Sampling(seed=7), 12)
    assert (
        params.max_tokens,
        params.temperature,
        params.top_p,
        params.top_k,
        params.repetition_penalty,
        params.seed,
    ) == (12, 0.7, 0.6, 20, 1.05, 7)
    greedy = sampling_params(Sampling.deterministic(), 3)
    assert (greedy.max_tokens, greedy.temperature, greedy.top_k) == (3, 0.0, 0)


def test_memory_defaults_follow_the_platform(tiny_engine_options) -> None:
    from dataclasses import replace

    from hymt_cli.engine.vllm_arguments import llm_kwargs

    cpu = llm_kwargs(tiny_engine_options, Sampling(seed=7), on_cpu=True)
    assert cpu["seed"] == 7 and cpu["max_model_len"] == 8192
    assert "gpu_memory_utilization" not in cpu and cpu["kv_cache_memory_bytes"] >= 512 << 20
    cuda = llm_kwargs(tiny_engine_options, Sampling(), on_cpu=False)
    assert "kv_cache_memory_bytes" not in cuda  # the tuning (tuning.py) sizes GPU memory
    chosen = replace(
        with_vllm(tiny_engine_options, gpu_memory_utilization=0.2),
        max_model_len=1024,
        extra={"max_num_seqs": 4},
    )
    kwargs = llm_kwargs(chosen, Sampling(), on_cpu=True)
    assert kwargs["gpu_memory_utilization"] == 0.2 and "kv_cache_memory_bytes" not in kwargs
    assert kwargs["max_model_len"] == 1024 and kwargs["max_num_seqs"] == 4


@pytest.mark.vllm  # builds a VllmEngine
def test_a_missing_model_folder_is_engine_unavailable(tmp_path: Path) -> None:
    from hymt_cli.engine.vllm_engine import VllmEngine

    with pytest.raises(EngineUnavailable, match="does not exist") as info:
        VllmEngine(EngineOptions(model=str(tmp_path / "nope")), Sampling.deterministic())
    assert "--model /local/path" in info.value.hint
    with pytest.raises(EngineUnavailable, match="no config.json"):
        VllmEngine(EngineOptions(model=str(tmp_path)), Sampling.deterministic())


@pytest.mark.vllm
def test_stdout_stays_clean_and_answers_stop(answering_model_dir: Path, tmp_path: Path) -> None:
    """vLLM's logs, its child processes and native code must not write to stdout.

    The same run checks the "stop" path on the answering model: one word piece, then EOS.
    """
    results = tmp_path / "results.json"
    script = textwrap.dedent(f"""
        import json, sys
        from hymt_cli.engine.base import EngineOptions, GenerationRequest, Sampling
        from hymt_cli.engine.vllm_engine import VllmEngine
        from hymt_cli.engine.vllm_options import VllmOptions
        from hymt_cli.model.tokenizer import ChatTemplateTokenizer

        if __name__ == "__main__":
            model = {str(answering_model_dir)!r}
            ids = ChatTemplateTokenizer.load(model).prompt_ids("Hello")
            options = EngineOptions(model=model, dtype="float32", vllm=VllmOptions(enforce_eager=True))
            with VllmEngine(options, Sampling.deterministic()) as engine:
                out = engine.generate([GenerationRequest("Hello", ids, n) for n in (1, 8)])
            print("generated", out, file=sys.stderr)
            with open({str(results)!r}, "w") as f:
                json.dump([[g.text, g.finish_reason, g.output_tokens] for g in out], f)
            print("DOCUMENT")  # the one stdout writer still reaches stdout afterwards
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_LOGGING")}
    env["VLLM_LOGGING_LEVEL"] = "INFO"  # the noisiest level, still on stderr
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=REPO, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    assert done.stdout == b"DOCUMENT\n"
    assert b"INFO" in done.stderr and b"generated [Generation(" in done.stderr
    (text1, reason1, tokens1), (text8, reason8, tokens8) = json.loads(results.read_text())
    assert (reason1, tokens1) == ("length", 1)
    assert (reason8, tokens8) == ("stop", 2)  # EOS counted, not decoded
    assert text1 == text8 and text8.strip() and "<｜" not in text8


@pytest.mark.vllm  # builds vLLM's SamplingParams
def test_a_deterministic_request_is_greedy_whatever_the_run_sampling(tiny_engine_options) -> None:
    """Retries ask for greedy decoding: the same deterministic request twice gives the same text,
    also under the run's (random) HY-MT sampling."""
    pytest.importorskip("vllm")
    from hymt_cli.engine.base import GenerationRequest, Sampling
    from hymt_cli.engine.vllm_arguments import request_params, sampling_params

    run = Sampling(temperature=1.5)
    greedy = request_params(run, GenerationRequest("x", (1, 2), 8, deterministic=True))
    sampled = request_params(run, GenerationRequest("x", (1, 2), 8))
    assert greedy.temperature == 0.0 and sampled.temperature == 1.5
    assert sampling_params(Sampling(temperature=1.5), 8).temperature == 1.5
