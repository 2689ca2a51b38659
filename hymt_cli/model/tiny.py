"""A tiny random-weight model of HY-MT's real architecture, built locally in seconds.

Tests and the no-GPU demo need a model that vLLM and transformers load exactly like
HY-MT1.5-1.8B (`HunYuanDenseV1ForCausalLM`, qk-norm, tied embeddings, the 1.8B chat
template's special tokens) without downloading weights. The output is gibberish: the
weights are random, with the embeddings arranged (`_arrange_embeddings`) so that only
visible word pieces are emitted, never special tokens or broken bytes:

- default: noise that never ends by itself (a word piece repeated up to max_tokens,
  finish_reason "length"), the failure path a pipeline must catch;
- `answers=True`: one context-dependent word piece, then EOS ("stop" after 2 tokens;
  "length" with max_tokens=1), to exercise the success path.

`config.json` carries `"hymt_random_weights": true` so the CLI can say plainly that the
output is not a translation (`has_random_weights`).

    python -m hymt_cli.model.tiny OUT_DIR [--answers]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from transformers import HunYuanDenseV1ForCausalLM, PreTrainedTokenizerFast

from .files import RANDOM_WEIGHTS_KEY

# Bump when the build changes, so cached builds are rebuilt rather than reused.
BUILDER_VERSION = 3
_VERSION_KEY = "hymt_tiny_model_version"
_ANSWERS_KEY = "hymt_tiny_model_answers"

BOS = "<｜hy_begin▁of▁sentence｜>"
EOS = "<｜hy_place▁holder▁no▁2｜>"
PAD = "<｜hy_▁pad▁｜>"
USER = "<｜hy_User｜>"
ASSISTANT = "<｜hy_Assistant｜>"
SYSTEM_END = "<｜hy_place▁holder▁no▁3｜>"
SPECIAL_TOKENS = [
    BOS,
    EOS,
    PAD,
    USER,
    ASSISTANT,
    SYSTEM_END,
    "<｜hy_end▁of▁sentence｜>",
    "<｜hy_place▁holder▁no▁8｜>",
]

# Shaped like HY-MT1.5-1.8B's template for what hymt sends (one user turn, no system
# prompt): BOS, the user marker, the message, then the assistant marker.
CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{%- set ns = namespace(system='') -%}"
    "{%- for m in messages if m['role'] == 'system' -%}"
    "{%- set ns.system = ns.system + m['content'] -%}"
    "{%- endfor -%}"
    "{%- if ns.system -%}{{ ns.system }}" + SYSTEM_END + "{%- endif -%}"
    "{%- for m in messages -%}"
    "{%- if m['role'] == 'user' -%}" + USER + "{{ m['content'] }}"
    "{%- elif m['role'] == 'assistant' -%}" + ASSISTANT + "{{ m['content'] }}{{ eos_token }}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}" + ASSISTANT + "{%- endif -%}"
)


class _Shape(TypedDict):
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    max_position_embeddings: int


_SHAPE = _Shape(
    hidden_size=128,
    intermediate_size=256,
    num_hidden_layers=2,
    num_attention_heads=2,
    num_key_value_heads=1,
    head_dim=64,  # vLLM's CPU attention rejects smaller heads
    max_position_embeddings=8192,
)
_VOCAB_SIZE = 3072
_CORPUS_LINES = 4000

_LANGUAGES = [
    ("English", "英语"),
    ("Chinese", "中文"),
    ("French", "法语"),
    ("German", "德语"),
    ("Spanish", "西班牙语"),
    ("Japanese", "日语"),
    ("Russian", "俄语"),
    ("Arabic", "阿拉伯语"),
    ("Korean", "韩语"),
    ("Portuguese", "葡萄牙语"),
    ("Italian", "意大利语"),
]
_EN_INSTRUCTION = "Translate the following segment into {}, without additional explanation."
_ZH_INSTRUCTION = "将以下文本翻译为{}，注意只需要输出翻译后的结果，不要额外解释："
_TAGS = ["<s1>", "</s1>", "<s2>", "</s2>", "<target>", "</target>", "<source>", "</source>"]
_ENGLISH = (
    "the of and to in a is that for it as was with be by on not this are or from at "
    "which but have an they you were there one all we has been would more if will when "
    "who so no can what about out up into time than only some could new other two then "
    "document page text file line table title chapter section note figure"
)
_CYRILLIC = "при как это что для все его она они был быть мир дом слово текст перевод страница"
_ARABIC = "في من على إلى هذا التي الذي كان عن مع هذه ترجمة النص الصفحة كتاب عالم"
_PUNCTUATION = [".", ",", "?", "!", ";", ":", "…", "。", "，", "？", "！", "、", "：", "؟", "«", "»"]


def _corpus(lines: int, seed: int) -> Iterator[str]:
    """Pseudo-multilingual text so that every script HY-MT serves gets real merges."""
    rng = random.Random(seed)
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
    latin = _ENGLISH.split() + ["".join(rng.choices(syllables, k=rng.randint(1, 3))) for _ in range(400)]
    cyrillic, arabic = _CYRILLIC.split(), _ARABIC.split()
    cjk = [chr(c) for c in range(0x4E00, 0x4E00 + 800)]
    for _ in range(lines):
        pick = rng.random()
        english, chinese = rng.choice(_LANGUAGES)
        if pick < 0.05:
            line = _EN_INSTRUCTION.format(english)
        elif pick < 0.10:
            line = _ZH_INSTRUCTION.format(chinese)
        elif pick < 0.30:
            line = "".join(rng.choices(cjk, k=rng.randint(4, 30))) + rng.choice("。，？！")
        else:
            words = rng.choices(rng.choice([latin, latin, cyrillic, arabic]), k=rng.randint(3, 15))
            if rng.random() < 0.3:
                words.insert(rng.randrange(len(words)), str(rng.randint(0, 9999)))
            if rng.random() < 0.2:
                i = rng.randrange(len(words))
                words[i] = f"<s1>{words[i]}</s1>"
            line = " ".join(words) + rng.choice(_PUNCTUATION)
            if rng.random() < 0.1:
                line = f"<target>{line}</target>"
        yield line
    yield " ".join(_TAGS)


def _build_tokenizer(seed: int) -> PreTrainedTokenizerFast:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=_VOCAB_SIZE,
        min_frequency=2,
        show_progress=False,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(_corpus(_CORPUS_LINES, seed), trainer=trainer)
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]  # **kwargs only
        tokenizer_object=tok,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        chat_template=CHAT_TEMPLATE,
        model_max_length=_SHAPE["max_position_embeddings"],
    )


def _build_model(tokenizer: PreTrainedTokenizerFast, seed: int, answers: bool) -> HunYuanDenseV1ForCausalLM:
    import torch
    from transformers import HunYuanDenseV1Config, HunYuanDenseV1ForCausalLM

    def ids(token: str) -> int:
        return _token_id(tokenizer, token)

    config = HunYuanDenseV1Config(
        **_SHAPE,
        vocab_size=len(tokenizer),
        hidden_act="silu",
        rms_norm_eps=1e-5,
        initializer_range=0.02,
        tie_word_embeddings=True,
        attention_bias=False,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        bos_token_id=ids(BOS),
        eos_token_id=ids(EOS),
        pad_token_id=ids(PAD),
        eod_token_id=ids(EOS),
        architectures=["HunYuanDenseV1ForCausalLM"],
        # float32: this CPU class (AVX2, no AVX-512) has no fast bf16 path in vLLM
        dtype="float32",
    )
    # Read by vLLM's native hunyuan_v1 class; transformers' class always has qk-norm.
    config.use_qk_norm = True
    config.use_cla = False
    torch.manual_seed(seed)
    # _from_config is untyped in transformers
    model: HunYuanDenseV1ForCausalLM = HunYuanDenseV1ForCausalLM._from_config(  # type: ignore[no-untyped-call]
        config, dtype=torch.float32
    )
    _arrange_embeddings(model, tokenizer, seed, answers)
    gen = model.generation_config
    gen.bos_token_id, gen.eos_token_id, gen.pad_token_id = ids(BOS), ids(EOS), ids(PAD)
    # HY-MT's recommended sampling, as the real model ships it
    gen.do_sample, gen.temperature, gen.top_p, gen.top_k = True, 0.7, 0.6, 20
    gen.repetition_penalty = 1.05
    return model


def _arrange_embeddings(
    model: HunYuanDenseV1ForCausalLM, tokenizer: PreTrainedTokenizerFast, seed: int, answers: bool
) -> None:
    """Make decoding emit visible word pieces, and (with `answers`) stop after one.

    A fully random model repeats the last prompt token (a special token: empty text) and
    stops only by chance. With tied embeddings, logit(t) = E[t] . norm(h), and large
    unit-variance rows make the residual stream follow the last token's own row, so a
    word piece, once emitted, repeats. Special tokens, bare bytes and EOS get small rows:
    never emitted; after the (small) assistant marker the layers' output decides which
    word comes first, so the word depends on the prompt.

    With `answers`, hidden dimension 0 becomes a "just emitted a word" flag that only the
    embeddings write (no layer writes it): word pieces carry ALPHA there and the EOS row
    is BETA on that dimension alone. After the assistant marker the flag is 0 and a word
    wins; after a word, BETA * ALPHA beats the word's own logit (|row|^2 ~ hidden +
    ALPHA^2), so EOS follows.
    """
    import torch

    alpha, beta, small = 8.0, 30.0, 0.05
    embeddings = model.get_input_embeddings()
    assert isinstance(embeddings, torch.nn.Embedding)
    vocab, hidden = embeddings.weight.shape
    rows = torch.randn(vocab, hidden, generator=torch.Generator().manual_seed(seed))
    special = {_token_id(tokenizer, t) for t in SPECIAL_TOKENS} | set(tokenizer.all_special_ids)
    pieces = [tokenizer.decode([i]) for i in range(vocab)]
    words = torch.tensor(
        [
            i not in special and isinstance(piece, str) and piece.strip() != "" and "\ufffd" not in piece
            for i, piece in enumerate(pieces)
        ]
    )
    rows[~words] *= small  # EOS included: without `answers` it is never emitted
    if answers:
        rows[:, 0] = 0.0
        rows[words, 0] = alpha
        eos = _token_id(tokenizer, EOS)
        rows[eos] = 0.0
        rows[eos, 0] = beta
    with torch.no_grad():
        embeddings.weight.copy_(rows)  # tied: the LM head too
        if answers:
            for layer in model.model.layers:
                layer.self_attn.o_proj.weight[0] = 0.0
                layer.mlp.down_proj.weight[0] = 0.0


def _token_id(tokenizer: PreTrainedTokenizerFast, token: str) -> int:
    found = tokenizer.convert_tokens_to_ids(token)
    assert isinstance(found, int)  # one token in, one id out
    return found


def _is_complete(out_dir: Path, answers: bool) -> bool:
    try:
        config = json.loads((out_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        config.get(_VERSION_KEY) == BUILDER_VERSION
        and config.get(_ANSWERS_KEY) is answers
        and (out_dir / "model.safetensors").is_file()
        and (out_dir / "tokenizer.json").is_file()
    )


def build_tiny_model(out_dir: Path, *, seed: int = 0, answers: bool = False) -> Path:
    """Build the tiny model into `out_dir` (created) and return it; reuse a complete build.

    `answers=False` gives endless noise, `answers=True` one word then EOS (module doc).

    Files are written to a temporary sibling and moved in with `config.json` last, so a
    reader (or a second builder) never mistakes a half-written folder for a model.
    """
    out_dir = Path(out_dir)
    if _is_complete(out_dir, answers):
        return out_dir
    from transformers.utils import logging as hf_logging

    tokenizer = _build_tokenizer(seed)
    model = _build_model(tokenizer, seed, answers)
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tiny-model-", dir=out_dir.parent))
    bars = hf_logging.is_progress_bar_enabled()
    # (transformers' logging helpers are untyped)
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # a shard bar for a 3 MB file is noise
    try:
        tokenizer.save_pretrained(tmp)
        model.save_pretrained(tmp)
        config_path = tmp / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config[RANDOM_WEIGHTS_KEY] = True
        config[_VERSION_KEY] = BUILDER_VERSION
        config[_ANSWERS_KEY] = answers
        config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (out_dir / "config.json").unlink(missing_ok=True)
        for path in sorted(tmp.iterdir(), key=lambda p: p.name == "config.json"):
            path.chmod(0o644)  # safetensors writes 0600; the folder may be shared
            os.replace(path, out_dir / path.name)
    finally:
        if bars:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]
        shutil.rmtree(tmp, ignore_errors=True)
    return out_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hymt_cli.model.tiny",
        description="Build a tiny random-weight HY-MT-shaped model (for tests and demos; "
        "its output is not a translation).",
    )
    parser.add_argument("out_dir", type=Path, help="folder to create (reused when complete)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--answers", action="store_true", help="answer one word then stop (default: noise that never stops)"
    )
    args = parser.parse_args(argv)
    path = build_tiny_model(args.out_dir, seed=args.seed, answers=args.answers)
    print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
