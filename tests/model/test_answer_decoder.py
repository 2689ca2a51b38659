"""hymt decodes the answers itself when vLLM starts without a tokenizer: the text must be what
vLLM's own detokenizer gives (the fast tokenizer, special tokens skipped, the stop token that
ended the answer left out), and the ids that end an answer must be the model's EOS."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from hymt_cli.engine.base import EngineOptions
from hymt_cli.errors import EngineUnavailable
from hymt_cli.model.answer_decoder import AnswerDecoder
from hymt_cli.model.tiny import EOS
from hymt_cli.model.tokenizer import ChatTemplateTokenizer

TEXTS = ["Hallo, Welt.", "今天天气很好。", "Привет <s1>мир</s1> 🙂 €1,299.00", "tabs\tand\nnew lines  ", ""]


def test_answers_decode_as_transformers_decodes_them(tiny_model_dir: Path) -> None:
    decoder = AnswerDecoder.load(str(tiny_model_dir))
    assert decoder is not None
    hf = ChatTemplateTokenizer.load(str(tiny_model_dir)).hf_tokenizer
    eos = hf.convert_tokens_to_ids(EOS)
    assert eos in decoder.stop_ids
    answers = [hf.encode(t, add_special_tokens=False) for t in TEXTS]
    rng = random.Random(7)
    vocabulary = len(hf)
    answers += [[rng.randrange(vocabulary) for _ in range(rng.randrange(1, 40))] for _ in range(200)]
    expected = [hf.decode(ids, skip_special_tokens=True) for ids in answers]
    assert decoder.texts([(ids, False) for ids in answers]) == expected
    assert decoder.texts([(ids, True) for ids in answers[: len(TEXTS)]]) == TEXTS


def test_the_stop_token_is_left_out_only_when_it_ended_the_answer(tiny_model_dir: Path) -> None:
    decoder = AnswerDecoder.load(str(tiny_model_dir))
    assert decoder is not None
    word = decoder.tokenizer.encode("Welt", add_special_tokens=False).ids
    stop = min(decoder.stop_ids)
    # a stop id that is no special token would be decoded: it ends the answer, it is not part of it
    plain = decoder.tokenizer.encode("Hallo", add_special_tokens=False).ids[-1]
    custom = AnswerDecoder(decoder.tokenizer, frozenset({stop, plain}))
    assert custom.texts([(word + [plain], True)]) == ["Welt"]
    assert custom.texts([(word + [plain], False)])[0] != "Welt"  # cut by length: every token counts
    assert custom.texts([([plain] + word, True)])[0].endswith("Welt")
    assert decoder.texts([]) == []


def test_generation_config_eos_ids_stop_answers_too(tiny_model_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    config = json.loads((folder / "generation_config.json").read_text())
    eos = json.loads((folder / "tokenizer.json").read_text())["added_tokens"]
    eos_id = next(t["id"] for t in eos if t["content"] == EOS)
    extra = [i for i in range(2, 12) if i != eos_id][:3]
    config["eos_token_id"] = [extra[0], extra[1], True, str(extra[2]), 10**9]  # only ids of the vocabulary
    (folder / "generation_config.json").write_text(json.dumps(config))
    decoder = AnswerDecoder.load(str(folder))
    assert decoder is not None and decoder.stop_ids == {eos_id, extra[0], extra[1]}


def test_folders_hymt_cannot_read_keep_vllms_tokenizer(tiny_model_dir: Path, tmp_path: Path) -> None:
    from hymt_cli.engine.vllm_engine import answer_decoder

    options = EngineOptions(model=str(tiny_model_dir))
    assert answer_decoder(options) is not None
    assert answer_decoder(EngineOptions(model=str(tiny_model_dir), trust_remote_code=True)) is None
    assert answer_decoder(EngineOptions(model=str(tiny_model_dir), revision="main")) is None
    assert answer_decoder(EngineOptions(model=str(tiny_model_dir), extra={"tokenizer": "x"})) is None
    refused = EngineOptions(model=str(tiny_model_dir), extra={"skip_tokenizer_init": False})
    assert answer_decoder(refused) is None
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "tokenizer.json").unlink()
    assert AnswerDecoder.load(str(folder)) is None
    assert answer_decoder(EngineOptions(model=str(folder))) is None
    with pytest.raises(EngineUnavailable, match="skip_tokenizer_init needs"):
        answer_decoder(EngineOptions(model=str(folder), extra={"skip_tokenizer_init": True}))


def test_a_hub_model_in_the_local_cache_is_read_from_its_snapshot(
    tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--model ORG/NAME` already downloaded: the snapshot folder of the Hugging Face cache is the
    model's folder (hymt's tokenizer and decoder read it); a model not downloaded has none."""
    import huggingface_hub.constants

    from hymt_cli.model.files import model_folder

    repo = tmp_path / "hub" / "models--example--tiny-mt"
    snapshot = repo / "snapshots" / "0123abcd"
    shutil.copytree(tiny_model_dir, snapshot)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert model_folder("example/tiny-mt") == str(snapshot)
    decoder = AnswerDecoder.load("example/tiny-mt")
    assert decoder is not None and decoder.stop_ids == AnswerDecoder.load(str(tiny_model_dir)).stop_ids
    assert (
        model_folder("example/not-downloaded") is None
        and AnswerDecoder.load("example/not-downloaded") is None
    )
    assert model_folder(str(tmp_path / "missing")) is None
