"""`--prompts-out`: every planned request as a JSON line (what the model is asked, and why)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..outputs.paths import PendingOutput
from ..signals import deferred
from .planning import PlannedRequest, Planner


class PromptsFile:
    """Written to a temp file as requests are planned, committed at the end of a good run."""

    def __init__(self, path: Path) -> None:
        with deferred():
            self._pending = PendingOutput(path, None)

    def write(self, planner: Planner, requests: Sequence[PlannedRequest]) -> None:
        for r in requests:
            line = {
                "file": r.first_use[0],
                "segment": r.first_use[1],
                "lang": r.lang.code,
                "prompt": r.prompt,
                "tokens": r.prompt_tokens,
                "max_tokens": r.max_tokens,
                "uses": planner.uses[r.key],
            }
            self._pending.handle.write(json.dumps(line, ensure_ascii=False).encode() + b"\n")

    def commit(self) -> None:
        self._pending.commit()

    def discard(self) -> None:
        self._pending.discard()
