"""Shared fixtures: the tiny random-weight models, their tokenizer, and one vLLM engine.

`tiny_model_dir` is noise that never stops (every answer runs to max_tokens);
`answering_model_dir` answers one word piece, then EOS (see hymt_cli.model.tiny). Both
share the tokenizer. They are cached under pytest's cache dir, keyed by the builder's
version, so only the first session pays the few seconds of building them. The vLLM engine takes
~20-30 s to start on CPU, so one engine serves the whole session.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from hymt_cli.engine.base import EngineOptions, Sampling
from hymt_cli.engine.vllm_options import VllmOptions
from hymt_cli.model.tiny import BUILDER_VERSION, build_tiny_model

# CI (.ci/run sets HYMT_CI=1) runs the same property-test examples every time, so that a red CI
# is reproducible and a green one does not turn red by chance; a developer's runs draw new ones.
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
# (taken out of the environment once read: a HYMT_* variable that names no known setting makes a
# run read every family's settings, so the CLI run by the tests would not take a user's path)
if os.environ.pop("HYMT_CI", None):
    hypothesis_settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU and real model weights")


# Fixtures that start a vLLM engine: a test using one must say so with the `vllm` marker, so that
# `-m "not vllm"` really runs without vLLM.
_STARTS_VLLM = frozenset({"vllm_engine", "vllm_server"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _STARTS_VLLM & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("vllm") is None:
            raise pytest.UsageError(f"{item.nodeid} starts vLLM (a vllm_* fixture) without @pytest.mark.vllm")


def _model_root(request: pytest.FixtureRequest) -> Path:
    cache = getattr(request.config, "cache", None)
    if cache is None:  # pytest -p no:cacheprovider (the plugin that sets `config.cache`)
        return request.getfixturevalue("tmp_path_factory").mktemp("tiny-model")
    return cache.mkdir(f"hymt-tiny-model-v{BUILDER_VERSION}")


@pytest.fixture(scope="session")
def tiny_model_dir(request: pytest.FixtureRequest) -> Path:
    return build_tiny_model(_model_root(request) / "noise")


@pytest.fixture(scope="session")
def answering_model_dir(request: pytest.FixtureRequest) -> Path:
    return build_tiny_model(_model_root(request) / "answers", answers=True)


@pytest.fixture(scope="session")
def tiny_tokenizer(tiny_model_dir: Path):
    from hymt_cli.model.tokenizer import ChatTemplateTokenizer

    return ChatTemplateTokenizer.load(str(tiny_model_dir))


@pytest.fixture(scope="session")
def tiny_engine_options(tiny_model_dir: Path) -> EngineOptions:
    # eager: torch.compile would add ~25 s of start-up on CPU for a 3 MB model
    return EngineOptions(model=str(tiny_model_dir), dtype="float32", vllm=VllmOptions(enforce_eager=True))


@pytest.fixture(scope="session")
def vllm_engine(tiny_engine_options: EngineOptions):
    pytest.importorskip("vllm")
    from hymt_cli.engine.vllm_engine import VllmEngine

    engine = VllmEngine(tiny_engine_options, Sampling.deterministic())
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def vllm_server(answering_model_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    """vLLM's OpenAI-compatible server on the CPU with the answering tiny model, one per session
    (ready in one to two minutes)."""
    pytest.importorskip("vllm")
    from servers import VllmServer

    server = VllmServer(answering_model_dir, tmp_path_factory.mktemp("vllm-server") / "server.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def ray_head():
    """One local Ray cluster per session (2 CPUs: workers get fractions of them)."""
    pytest.importorskip("ray")
    import tempfile

    from servers import RayHead

    with tempfile.TemporaryDirectory(prefix="hymt-ray-", dir="/tmp") as temp:  # short: Ray's socket paths
        head = RayHead(Path(temp))
        try:
            head.wait_ready()
            yield head
        finally:
            head.stop()


@pytest.fixture(scope="session")
def ray_cluster(ray_head):
    """This test process connected to `ray_head` (on the main thread, as hymt does)."""
    import os

    from ray._private.authentication.authentication_token_setup import _enable_token_auth

    from hymt_cli.engine.ray_engine import RayCluster

    saved = {k: os.environ.get(k) for k in ray_head.client_env}
    os.environ.update(ray_head.client_env)
    _enable_token_auth()  # RAY_AUTH_MODE=token, and Ray's config (read at import) told so
    cluster = RayCluster.connect(ray_head.address)
    try:
        yield cluster
    finally:
        cluster.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path_factory, monkeypatch):
    """The translation memory defaults to the user cache dir: never the real one in tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


# -- the corpus on a fresh clone --------------------------------------------------------------
# Tests over the real-world corpus (shared/corpus, tests/corpus/SOURCES) skip where it was not
# gathered, and their skip reasons name scripts/gather_corpus.py. scripts/test.sh ends with one
# line that counts them (written to the file HYMT_CORPUS_REPORT names), so that a partial run is
# never taken for a full one.
_ROOT = Path(__file__).resolve().parent.parent


def corpus_line(skipped: int) -> str:
    listed = [
        line.split("\t")[0]
        for line in (_ROOT / "tests" / "corpus" / "SOURCES").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    missing = sum(not (_ROOT / "shared" / "corpus" / name).is_file() for name in listed)
    if not skipped and not missing:
        return f"corpus: 0 tests skipped for lack of the corpus (all {len(listed)} files gathered)"
    return (
        f"corpus: {skipped} tests skipped for lack of the corpus ({missing} of {len(listed)} files of "
        "tests/corpus/SOURCES missing): a partial run; gather it with python3 scripts/gather_corpus.py"
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    target = os.environ.get("HYMT_CORPUS_REPORT")
    if not target:
        return
    skipped = sum(
        "gather_corpus" in str(getattr(report, "longrepr", ""))
        for report in terminalreporter.stats.get("skipped", [])
    )
    Path(target).write_text(corpus_line(skipped) + "\n", encoding="utf-8")
