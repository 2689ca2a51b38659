"""Shared fixtures: the tiny random-weight model, its tokenizer, and one vLLM engine.

The tiny model is cached under pytest's cache dir, keyed by the builder's version, so
only the first session pays the few seconds of building it. The vLLM engine takes
~20-30 s to start on CPU, so one engine serves the whole session.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hymt_cli.engine.base import EngineOptions, Sampling
from hymt_cli.tiny_model import BUILDER_VERSION, build_tiny_model


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU and real model weights")


@pytest.fixture(scope="session")
def tiny_model_dir(request: pytest.FixtureRequest) -> Path:
    cache = request.config.cache
    if cache is None:  # pytest -p no:cacheprovider
        root = request.getfixturevalue("tmp_path_factory").mktemp("tiny-model")
    else:
        root = cache.mkdir(f"hymt-tiny-model-v{BUILDER_VERSION}")
    return build_tiny_model(root / "model")


@pytest.fixture(scope="session")
def tiny_tokenizer(tiny_model_dir: Path):
    from hymt_cli.tokenizer import ChatTemplateTokenizer

    return ChatTemplateTokenizer.load(str(tiny_model_dir))


@pytest.fixture(scope="session")
def tiny_engine_options(tiny_model_dir: Path) -> EngineOptions:
    # eager: torch.compile would add ~25 s of start-up on CPU for a 3 MB model
    return EngineOptions(model=str(tiny_model_dir), dtype="float32", enforce_eager=True)


@pytest.fixture(scope="session")
def vllm_engine(tiny_engine_options: EngineOptions):
    pytest.importorskip("vllm")
    from hymt_cli.engine.vllm_engine import VllmEngine

    engine = VllmEngine(tiny_engine_options, Sampling.deterministic())
    yield engine
    engine.close()


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path_factory, monkeypatch):
    """The translation memory defaults to the user cache dir: never the real one in tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
