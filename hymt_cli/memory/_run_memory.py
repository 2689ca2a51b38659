"""A memory bound to one run: the pipeline's recall/remember hook."""

from __future__ import annotations

from collections.abc import Sequence

from ._errors import MemoryFileError
from .fingerprint import Fingerprint
from .store import TranslationMemory


class PipelineMemory:
    """Binds a memory to one run's context and source language; the pipeline's hook.

    `recall` looks (target language, source text, context) keys up; `remember` stores the
    answers that passed validation (failed ones never are).
    Store failures after retries do not stop the run: they are counted and reported.
    """

    def __init__(self, memory: TranslationMemory, context: Fingerprint, src_lang: str | None) -> None:
        self.memory = memory
        self.context = context
        self.src_lang = src_lang or "auto"
        self.stored = 0
        self.store_error: str | None = None

    def recall(self, keys: Sequence[tuple[str, str, str]]) -> list[str | None]:
        """Translations for (target language, source text, context) keys, in order; None: not stored."""
        return self.memory.lookup(self.context, self.src_lang, keys)

    def remember(self, items: Sequence[tuple[tuple[str, str, str], str]]) -> None:
        """Store (key, translation) of answers that passed validation."""
        if self.store_error is not None or not items:
            return
        try:
            self.stored += self.memory.store(
                self.context, self.src_lang, [(tgt, src, note, out) for (tgt, src, note), out in items]
            )
        except MemoryFileError as exc:
            self.store_error = f"{exc.message}; later translations of this run were not stored"

    def close(self) -> None:
        self.memory.close()
