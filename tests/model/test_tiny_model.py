"""The tiny model has HY-MT's architecture, chat template and tokenizer behaviour."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.model.files import RANDOM_WEIGHTS_KEY, has_random_weights
from hymt_cli.model.tiny import ASSISTANT, BOS, EOS, SPECIAL_TOKENS, USER, build_tiny_model

EN_INSTRUCTION = "Translate the following segment into Chinese, without additional explanation."
ZH_INSTRUCTION = "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释："


def test_config_has_the_real_architecture_and_the_random_flag(tiny_model_dir: Path) -> None:
    config = json.loads((tiny_model_dir / "config.json").read_text(encoding="utf-8"))
    assert config["architectures"] == ["HunYuanDenseV1ForCausalLM"]
    assert config["model_type"] == "hunyuan_v1_dense"
    assert config["head_dim"] == 64  # vLLM's CPU attention rejects 16
    assert config["tie_word_embeddings"] is True
    assert config["use_qk_norm"] is True
    assert config["max_position_embeddings"] == 8192
    assert config[RANDOM_WEIGHTS_KEY] is True
    for name in ("model.safetensors", "tokenizer.json", "tokenizer_config.json", "generation_config.json"):
        assert (tiny_model_dir / name).is_file(), name


def test_both_flavours_are_flagged(tiny_model_dir: Path, answering_model_dir: Path) -> None:
    noise = json.loads((tiny_model_dir / "config.json").read_text(encoding="utf-8"))
    answers = json.loads((answering_model_dir / "config.json").read_text(encoding="utf-8"))
    assert noise["hymt_tiny_model_answers"] is False and answers["hymt_tiny_model_answers"] is True
    assert has_random_weights(str(answering_model_dir))
    # same tokenizer: prompts tokenized for one model fit the other
    assert (tiny_model_dir / "tokenizer.json").read_bytes() == (
        answering_model_dir / "tokenizer.json"
    ).read_bytes()


def test_has_random_weights(tiny_model_dir: Path, tmp_path: Path) -> None:
    assert has_random_weights(str(tiny_model_dir))
    assert not has_random_weights(str(tmp_path / "missing"))
    assert not has_random_weights("tencent/HY-MT1.5-1.8B")
    (tmp_path / "config.json").write_text('{"model_type": "hunyuan_v1_dense"}', encoding="utf-8")
    assert not has_random_weights(str(tmp_path))
    (tmp_path / "config.json").write_text("not json", encoding="utf-8")
    assert not has_random_weights(str(tmp_path))


def test_a_complete_build_is_reused(tiny_model_dir: Path) -> None:
    before = {p.name: p.stat().st_mtime_ns for p in tiny_model_dir.iterdir()}
    start = time.perf_counter()
    assert build_tiny_model(tiny_model_dir) == tiny_model_dir
    assert time.perf_counter() - start < 1.0
    assert {p.name: p.stat().st_mtime_ns for p in tiny_model_dir.iterdir()} == before


def test_vocab_matches_the_tokenizer(tiny_model_dir: Path, tiny_tokenizer) -> None:
    config = json.loads((tiny_model_dir / "config.json").read_text(encoding="utf-8"))
    hf = tiny_tokenizer.hf_tokenizer
    assert config["vocab_size"] == len(hf)
    assert config["eos_token_id"] == hf.convert_tokens_to_ids(EOS) == hf.eos_token_id


def test_special_tokens_are_single_ids(tiny_tokenizer) -> None:
    hf = tiny_tokenizer.hf_tokenizer
    for token in SPECIAL_TOKENS:
        assert len(hf(token, add_special_tokens=False)["input_ids"]) == 1, token


def test_chat_template_renders_the_user_message_and_the_assistant_marker(tiny_tokenizer) -> None:
    message = f"{EN_INSTRUCTION}\n\nHello <s1>world</s1>"
    hf = tiny_tokenizer.hf_tokenizer
    rendered = hf.apply_chat_template(
        [{"role": "user", "content": message}], add_generation_prompt=True, tokenize=False
    )
    assert rendered == f"{BOS}{USER}{message}{ASSISTANT}"
    without = hf.apply_chat_template(
        [{"role": "user", "content": message}], add_generation_prompt=False, tokenize=False
    )
    assert without == f"{BOS}{USER}{message}"


def test_prompt_ids_round_trip(tiny_tokenizer) -> None:
    hf = tiny_tokenizer.hf_tokenizer
    message = f"{ZH_INSTRUCTION}\n\n你好，世界！ Привет, мир! مرحبا 123 <target>x</target>"
    ids = tiny_tokenizer.prompt_ids(message)
    assert isinstance(ids, tuple) and all(isinstance(i, int) for i in ids)
    assert ids[0] == hf.convert_tokens_to_ids(BOS)
    assert ids[-1] == hf.convert_tokens_to_ids(ASSISTANT)
    assert hf.decode(list(ids)) == f"{BOS}{USER}{message}{ASSISTANT}"
    assert hf.decode(list(ids), skip_special_tokens=True) == message


def test_the_instructions_and_tags_were_in_the_training_corpus(tiny_tokenizer) -> None:
    # merges learned from the corpus keep prompts short (bytes alone would be ~4x longer)
    assert tiny_tokenizer.count(EN_INSTRUCTION) < len(EN_INSTRUCTION.encode()) / 3
    assert tiny_tokenizer.count(ZH_INSTRUCTION) < len(ZH_INSTRUCTION.encode()) / 3
    # byte-level pre-tokenization splits punctuation from letters: "<", "target", ">"
    assert tiny_tokenizer.count("<target>") == 3
    assert tiny_tokenizer.count("</target>") == 3


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_round_trips_through_the_tokenizer(tiny_tokenizer, text: str) -> None:
    hf = tiny_tokenizer.hf_tokenizer
    ids = hf(text, add_special_tokens=False)["input_ids"]
    assert hf.decode(ids) == text


def test_cli_prints_the_path_to_stderr_only(tiny_model_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hymt_cli.model.tiny", str(tiny_model_dir)],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert done.stdout == b""
    assert done.stderr.decode().strip() == str(tiny_model_dir)
