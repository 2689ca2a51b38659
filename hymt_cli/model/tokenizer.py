"""Prompt tokenization: the model's own chat template, or an estimate when no tokenizer is at hand.

Prompts are tokenized once, here; engines receive token ids and never re-tokenize.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, cast

from ..errors import EngineUnavailable, one_line

if TYPE_CHECKING:
    from transformers import BatchEncoding, PreTrainedTokenizerBase


class PromptTokenizer(Protocol):
    """Turns a user message into the full chat prompt's token ids and counts tokens."""

    exact: bool

    def prompt_ids(self, user_message: str) -> tuple[int, ...]:
        """Token ids of the whole prompt: chat template, no system prompt, generation prompt added."""
        ...

    def prompt_ids_batch(self, user_messages: Sequence[str]) -> list[tuple[int, ...]]:
        """`prompt_ids` of many messages (one call, where the tokenizer can batch)."""
        ...

    def prompt_count(self, user_message: str) -> int:
        """Token count of the whole prompt (exact or estimated, as `exact` says)."""
        ...

    def count(self, text: str) -> int:
        """Token count of plain text (no special tokens)."""
        ...


class ChatTemplateTokenizer:
    """A Hugging Face tokenizer and its chat template."""

    exact = True

    def __init__(self, hf_tokenizer: PreTrainedTokenizerBase) -> None:
        self._tok = hf_tokenizer

    @classmethod
    def load(
        cls, model: str, *, revision: str | None = None, trust_remote_code: bool = False
    ) -> ChatTemplateTokenizer:
        try:
            from transformers import AutoTokenizer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise EngineUnavailable(
                "transformers is not installed",
                hint='pip install -e . (or ".[gpu]"; CPU only: bash scripts/setup-cpu.sh)',
            ) from exc
        try:
            tok = AutoTokenizer.from_pretrained(model, revision=revision, trust_remote_code=trust_remote_code)
        except Exception as exc:
            raise EngineUnavailable(
                f"cannot load the tokenizer of model {model!r}: {one_line(exc)}",
                hint="download the model first (hf download MODEL --local-dir DIR) and pass --model DIR",
            ) from exc
        if not getattr(tok, "chat_template", None):
            raise EngineUnavailable(f"model {model!r} has no chat template in its tokenizer config")
        return cls(tok)

    @property
    def hf_tokenizer(self) -> PreTrainedTokenizerBase:
        return self._tok

    def prompt_ids(self, user_message: str) -> tuple[int, ...]:
        ids = self._tok.apply_chat_template(
            [{"role": "user", "content": user_message}], add_generation_prompt=True, tokenize=True
        )
        if isinstance(ids, list):  # transformers 4: the ids of the one conversation
            return tuple(cast("list[int]", ids))
        return tuple(cast("BatchEncoding", ids)["input_ids"])  # transformers 5

    def prompt_ids_batch(self, user_messages: Sequence[str]) -> list[tuple[int, ...]]:
        """`prompt_ids` for many messages at once, the same ids.

        The chat template renders each prompt to text (what `apply_chat_template(tokenize=True)`
        does first); then one call of the fast tokenizer encodes all of them, in parallel
        in Rust, instead of one Python round trip per prompt. `add_special_tokens=False`
        because the template already wrote BOS and the role markers.
        """
        if not user_messages:
            return []
        texts = self._tok.apply_chat_template(
            [[{"role": "user", "content": m}] for m in user_messages],
            add_generation_prompt=True,
            tokenize=False,
        )
        backend = getattr(self._tok, "backend_tokenizer", None)
        if backend is not None:  # the Rust tokenizer itself: transformers' per-prompt dicts cost a third more
            return [tuple(e.ids) for e in backend.encode_batch(list(texts), add_special_tokens=False)]
        return [tuple(ids) for ids in self._tok(list(texts), add_special_tokens=False)["input_ids"]]

    def prompt_count(self, user_message: str) -> int:
        return len(self.prompt_ids(user_message))

    def count(self, text: str) -> int:
        return len(self._tok(text, add_special_tokens=False)["input_ids"])


class EstimatingTokenizer:
    """For engines that need no model (identity, pseudo) when no tokenizer is available.

    Counts are estimates (about one token per 3 UTF-8 bytes, typical of multilingual BPE);
    `prompt_ids` is empty because nothing will consume ids.
    """

    exact = False
    _TEMPLATE_OVERHEAD = 8

    def prompt_ids(self, user_message: str) -> tuple[int, ...]:
        return ()

    def prompt_ids_batch(self, user_messages: Sequence[str]) -> list[tuple[int, ...]]:
        return [() for _ in user_messages]

    def count(self, text: str) -> int:
        return -(-len(text.encode("utf-8")) // 3)

    def prompt_count(self, user_message: str) -> int:
        return self.count(user_message) + self._TEMPLATE_OVERHEAD
