"""Answers decoded by hymt from their token ids, so that vLLM can start without a tokenizer.

hymt tokenizes every prompt itself, so vLLM's tokenizer only turns the answers back into text
and names the end-of-sequence token. Loading it (transformers) and its thread-safe copies took
10 s of a profiled engine start on an H200 (bench/RESULTS.md, "where a fresh machine's engine
start goes"). For a model folder whose tokenizer hymt reads itself (light_tokenizer.py) the
engine starts with `skip_tokenizer_init`, stops requests at the ids this decoder names, and
decodes each answer as vLLM's fast detokenizer does: special tokens skipped, the stop token that
ended the answer left out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .files import model_folder
from .light_tokenizer import LightChatTokenizer

if TYPE_CHECKING:
    from tokenizers import Tokenizer


@dataclass(frozen=True, slots=True)
class AnswerDecoder:
    """The model's fast tokenizer and the ids that end an answer."""

    tokenizer: Tokenizer
    stop_ids: frozenset[int]

    @classmethod
    def load(cls, model: str) -> AnswerDecoder | None:
        """The decoder of a model folder (or a hub model in the local cache) with the generic
        fast tokenizer and a known end-of-sequence token; None otherwise (vLLM then loads its
        own tokenizer)."""
        folder = model_folder(model)
        light = LightChatTokenizer.load(folder) if folder is not None else None
        if folder is None or light is None:
            return None
        tokenizer = light.backend
        stop_ids = {tokenizer.token_to_id(light.special.get("eos_token") or "")}
        stop_ids.update(_generation_eos_ids(Path(folder) / "generation_config.json"))
        vocabulary = tokenizer.get_vocab_size(with_added_tokens=True)
        known = frozenset(i for i in stop_ids if isinstance(i, int) and 0 <= i < vocabulary)
        return cls(tokenizer, known) if known else None

    def texts(self, answers: Sequence[tuple[Sequence[int], bool]]) -> list[str]:
        """The text of each (token ids, stopped) answer, decoded in one batch."""
        trimmed = [
            list(ids[:-1]) if stopped and ids and ids[-1] in self.stop_ids else list(ids)
            for ids, stopped in answers
        ]
        return self.tokenizer.decode_batch(trimmed, skip_special_tokens=True) if trimmed else []


def _generation_eos_ids(path: Path) -> list[int]:
    """`eos_token_id` of generation_config.json (an id or a list of them); none when unreadable."""
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    value = config.get("eos_token_id") if isinstance(config, dict) else None
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
