"""The model's chat template and fast tokenizer, read without transformers (and so without torch).

Loading a tokenizer through transformers imports torch: 15-20 s of a cold `hymt translate` on
a fresh GPU machine, spent while vLLM's engine processes import the same libraries beside it.
A model folder whose tokenizer is the generic fast one (`tokenizer.json`, class
`PreTrainedTokenizerFast` or `TokenizersBackend`) needs none of that: its chat template is
rendered the way transformers renders it (a sandboxed Jinja environment, `trim_blocks` and
`lstrip_blocks`, `raise_exception`, `strftime_now`, a `tojson` that keeps non-ASCII, the named
special tokens as variables) and the text is encoded by the `tokenizers` library, as
`ChatTemplateTokenizer.prompt_ids_batch` does. Any other folder goes through transformers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Template
    from tokenizers import Tokenizer

GENERIC_CLASSES = frozenset({"PreTrainedTokenizerFast", "TokenizersBackend"})
SPECIAL_TOKENS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
_GENERATION_TAG = re.compile(r"\{%-?\s*generation\s*-?%\}")  # transformers' own Jinja extension


class LightChatTokenizer:
    """A `PromptTokenizer` (tokenizer.py) from the files of a local model folder."""

    exact = True

    def __init__(self, tokenizer: Tokenizer, template: Template, special: dict[str, str]) -> None:
        self._tokenizer = tokenizer
        self._template = template
        self._special = special

    @classmethod
    def load(cls, folder: str) -> LightChatTokenizer | None:
        """The tokenizer of `folder` when it is the generic fast one with a chat template;
        None otherwise (transformers then loads it)."""
        path = Path(folder)
        try:
            config = json.loads((path / "tokenizer_config.json").read_text(encoding="utf-8"))
            template_file = path / "chat_template.jinja"
            template = (
                template_file.read_text(encoding="utf-8")
                if template_file.is_file()
                else config.get("chat_template")
            )
        except (OSError, ValueError):
            return None
        if (
            not isinstance(config, dict)
            or config.get("tokenizer_class") not in GENERIC_CLASSES
            or not isinstance(template, str)
            or _GENERATION_TAG.search(template)
            or not (path / "tokenizer.json").is_file()
        ):
            return None
        special = {name: _content(config.get(name)) for name in SPECIAL_TOKENS}
        try:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
            compiled = _compile(template)
        except Exception:  # a file the tokenizers library or Jinja cannot read: transformers says why
            return None
        if not _adds_nothing(config, tokenizer):
            return None
        return cls(tokenizer, compiled, {k: v for k, v in special.items() if v is not None})

    @property
    def backend(self) -> Tokenizer:
        """The `tokenizers` tokenizer itself (decoding answers: answer_decoder.py)."""
        return self._tokenizer

    @property
    def special(self) -> dict[str, str]:
        """The named special tokens of the config (`eos_token`: its text)."""
        return dict(self._special)

    def render(self, user_message: str) -> str:
        return self._template.render(
            messages=[{"role": "user", "content": user_message}],
            tools=None,
            documents=None,
            add_generation_prompt=True,
            **self._special,
        )

    def prompt_ids(self, user_message: str) -> tuple[int, ...]:
        return tuple(self._tokenizer.encode(self.render(user_message), add_special_tokens=False).ids)

    def prompt_ids_batch(self, user_messages: Sequence[str]) -> list[tuple[int, ...]]:
        if not user_messages:
            return []
        texts = [self.render(m) for m in user_messages]
        return [tuple(e.ids) for e in self._tokenizer.encode_batch(texts, add_special_tokens=False)]

    def prompt_count(self, user_message: str) -> int:
        return len(self.prompt_ids(user_message))

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)


def _adds_nothing(config: dict[str, Any], tokenizer: Tokenizer) -> bool:
    """Whether every token the config names is in tokenizer.json already (with its id): else
    transformers would add it, and the ids could differ."""
    known = {token.content: index for index, token in tokenizer.get_added_tokens_decoder().items()}
    declared = config.get("added_tokens_decoder") or {}
    if not isinstance(declared, dict):
        return False
    for index, token in declared.items():
        if not str(index).isdigit() or known.get(_content(token) or "") != int(index):
            return False  # a malformed config is transformers' to report
    named = [config.get(name) for name in SPECIAL_TOKENS]
    extra = config.get("additional_special_tokens") or config.get("extra_special_tokens") or []
    if isinstance(extra, dict):
        extra = list(extra.values())
    if not isinstance(extra, list):
        return False
    return all(_content(t) in known for t in named + extra if t is not None)


def _content(token: Any) -> str | None:
    if isinstance(token, str):
        return token
    if isinstance(token, dict) and isinstance(token.get("content"), str):
        return str(token["content"])
    return None


def _compile(template: str) -> Template:
    import jinja2.ext
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str) -> None:
        raise TemplateError(message)

    def tojson(
        x: object,
        ensure_ascii: bool = False,
        indent: int | None = None,
        separators: Any = None,
        sort_keys: bool = False,
    ) -> str:
        return json.dumps(
            x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
        )

    def strftime_now(format: str) -> str:
        return datetime.now().strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(template)
