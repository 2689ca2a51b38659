"""Which served engine (`hymt serve`) a run may use: one built from the same settings as the engine
the run would build itself, so that its answers are the ones the run's own engine would give.

The settings' key is a digest of everything that decides what the engine answers: the engine
(and the one a wrapper runs), what it loads and how (model, revision, dtype, context, vLLM's own
options, `--engine-arg`), the sampling, the engine's declared options, hymt's version, and the
model's files on this machine (a model downloaded again, or rebuilt, is another model)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import replace
from pathlib import Path

from .. import __version__
from ..errors import UsageError
from ..model.files import model_folder
from .config import EngineChoice


def servable(choice: EngineChoice) -> None:
    """UsageError when the run's engine is not one `hymt serve` keeps (a served one already, or
    one that runs on a cluster)."""
    if choice.runs.served:
        raise UsageError(
            f"--engine {choice.runs.name} sends to a server already; hymt serve keeps a local engine"
        )
    if choice.inner is not None or choice.spec.wraps:
        raise UsageError(f"hymt serve keeps a local engine, not the {choice.spec.name} engine")


def settings_key(choice: EngineChoice) -> str:
    own = [
        _plain(choice.declared.of(spec.options))
        for spec in (choice.spec, choice.inner)
        if spec is not None and spec.options is not None
    ]
    parts = {
        "hymt": __version__,
        "engine": [choice.spec.name, choice.runs.name],
        # (vLLM's options as their record or, for an engine that reads none, their defaults)
        "options": _plain(replace(choice.options, vllm=choice.options.vllm_options())),
        "sampling": _plain(choice.sampling),
        "declared": own,
        "files": _model_files(choice.model) if choice.uses_model else None,
    }
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(record: object) -> object:
    return (
        dataclasses.asdict(record)
        if dataclasses.is_dataclass(record) and not isinstance(record, type)
        else record
    )


def _model_files(model: str) -> list[tuple[str, int, int]] | None:
    """The files of the model's folder on this machine, with their sizes and times."""
    folder = model_folder(model)
    if folder is None:
        return None
    found = []
    for path in sorted(Path(folder).expanduser().iterdir()):
        try:
            info = path.stat()
        except OSError:
            continue
        found.append((path.name, info.st_size, info.st_mtime_ns))
    return found
