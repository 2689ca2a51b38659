"""The identity engine: every segment comes back unchanged.

With it the whole pipeline (parsing, dedupe, batching, validation, reassembly, writing)
can be checked byte for byte against the input.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import BatchEngine, Generation, GenerationRequest


class IdentityEngine(BatchEngine):
    name = "identity"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [
            Generation(r.source_text, "stop", len(r.prompt_token_ids) or len(r.source_text.split()))
            for r in requests
        ]
