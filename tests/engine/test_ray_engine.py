"""`--ray`: the engine on the workers of a real local Ray cluster (one node, fractional CPUs):
identity through Ray is byte-equal, a worker that dies mid-chunk costs only that chunk, a
killed driver's rerun repeats no engine work, and vLLM runs in a CPU worker (`vllm` marker)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from catalog_gen import write_catalog
from clirun import ROOT, hymt, start_hymt
from pipelines import make_pipeline, sources_of
from servers import RayHead

from hymt_cli.engine import ENGINES, EngineOptions, EngineSetup, GenerationRequest, Sampling
from hymt_cli.engine.base import Engine, Generation
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.ray_engine import RayCluster, RayEngine, RayOptions
from hymt_cli.formats import ParquetOptions
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import RunReport

pytest.importorskip("ray")
COLUMNS = ("title", "body_html", "option1_value")
SETUP = EngineSetup(EngineOptions(model="none"), Sampling.deterministic())


def run(src: Path, out: Path, engine_factory, *, to: str = "fr,de", name: str = "identity") -> RunReport:
    sources = sources_of([src], options=OptionSet([ParquetOptions(columns=COLUMNS)]))
    return make_pipeline(engine_factory, to=to, out_dir=out, engine_name=name).run(sources)


def on_ray(cluster: RayCluster, name: str, *, workers: int = 2, chunk: int = 64) -> RayEngine:
    return RayEngine(
        cluster,
        ENGINES[name].build,
        SETUP,
        RayOptions(address="", workers=workers, cpus_per_worker=0.25, chunk_requests=chunk),
        name=name,
    )


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_catalog(tmp_path_factory.mktemp("ray") / "catalog.parquet", 3000, row_group_rows=1000)


def test_identity_and_pseudo_through_ray_equal_the_local_path(
    ray_cluster: RayCluster, catalog: Path, tmp_path: Path
) -> None:
    """Identity: every output Parquet equals its input (data, order, schema and metadata).
    Pseudo: the same bytes as the local run."""
    report = run(catalog, tmp_path / "identity", lambda: on_ray(ray_cluster, "identity"))
    assert report.files_ok == 2 and report.engine_requests == report.unique_segments > 300
    source = pq.read_table(catalog)
    for lang in ("fr", "de"):
        got = pq.read_table(tmp_path / "identity" / lang / "catalog.parquet")
        assert got.equals(source, check_metadata=True)
        assert got.schema.equals(source.schema, check_metadata=True)

    ray_report = run(catalog, tmp_path / "ray", lambda: on_ray(ray_cluster, "pseudo"), name="pseudo")
    local = run(catalog, tmp_path / "local", lambda: ENGINES["pseudo"].build(SETUP), name="pseudo")
    assert ray_report.unique_segments == local.unique_segments and ray_report.untranslated == 0
    for lang in ("fr", "de"):
        assert (tmp_path / "ray" / lang / "catalog.parquet").read_bytes() == (
            tmp_path / "local" / lang / "catalog.parquet"
        ).read_bytes()


# -- a worker that dies mid-chunk ------------------------------------------------------------
class DyingOnce(IdentityEngine):
    """Identity, but the worker process dies (os._exit) the first time it meets `marker` in a
    chunk; every call is logged (start, end) in `log_dir`, one file per call."""

    def __init__(self, log_dir: str, marker: str) -> None:
        self.log_dir, self.marker = Path(log_dir), marker

    def generate(self, requests):  # type: ignore[no-untyped-def]
        texts = [r.source_text for r in requests]
        stamp = f"{os.getpid()}-{time.monotonic_ns()}"
        (self.log_dir / f"start-{stamp}.json").write_text(json.dumps(texts))
        flag = self.log_dir / "died"
        if any(self.marker in t for t in texts) and not flag.exists():
            flag.write_text(str(os.getpid()))
            time.sleep(0.5)  # some work done (and the previous chunk's answer long sent), then...
            os._exit(1)  # ...the worker process is gone, mid-chunk
        out = super().generate(requests)
        (self.log_dir / f"end-{stamp}.json").write_text(json.dumps(texts))
        return out


def build_dying(setup: EngineSetup) -> Engine:
    extra = setup.options.extra
    return DyingOnce(str(extra["log_dir"]), str(extra["marker"]))


def test_a_worker_dying_mid_chunk_costs_only_that_chunk(ray_cluster: RayCluster, tmp_path: Path) -> None:
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import tests/
    logs = tmp_path / "calls"
    logs.mkdir()
    requests = [GenerationRequest(f"segment {i}", (), 8) for i in range(200)]
    setup = EngineSetup(
        EngineOptions(model="none", extra={"log_dir": str(logs), "marker": "segment 130"}),
        Sampling.deterministic(),
    )
    engine = RayEngine(
        ray_cluster,
        build_dying,
        setup,
        RayOptions(address="", workers=2, cpus_per_worker=0.25, chunk_requests=20),
        name="dying",
    )
    try:
        answers = dict(engine.generate_stream(requests))
    finally:
        engine.close()
    assert answers == {i: Generation(f"segment {i}", "stop", 2) for i in range(200)}  # nothing lost
    assert (logs / "died").exists()
    started = [json.loads(p.read_text()) for p in logs.glob("start-*.json")]
    ended = [json.loads(p.read_text()) for p in logs.glob("end-*.json")]
    assert sorted(t for chunk in ended for t in chunk) == sorted(r.source_text for r in requests)  # each once
    assert len(started) == len(ended) + 1  # one chunk died with its worker...
    redone = [chunk for chunk in started if started.count(chunk) > 1]
    assert len(redone) == 2 and any("segment 130" in t for t in redone[0])  # ...and only it was asked again


# -- the command line --------------------------------------------------------------------------
def _stored(cache: Path) -> int:
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM segments").fetchone()[0])
    except sqlite3.Error:
        return 0


def _translate(src: Path, out: Path, cache: Path, head: RayHead, report: Path) -> subprocess.Popen[bytes]:
    # a small token budget: many engine calls, each committed to the memory as it comes back
    return start_hymt(
        "translate",
        str(src),
        "--to",
        "fr,de",
        "--engine",
        "pseudo",
        "--columns",
        ",".join(COLUMNS),
        "--batch-tokens",
        "400",
        "--cache",
        str(cache),
        "-o",
        str(out),
        "-q",
        "--ray",
        head.address,
        "--ray-workers",
        "2",
        "--report",
        str(report),
        cwd=ROOT,
        stdout=None,
        env=head.client_env,
    )


def test_cli_ray_killed_driver_then_rerun_repeats_no_engine_work(ray_head, tmp_path: Path) -> None:
    src = write_catalog(tmp_path / "catalog.parquet", 6000, row_group_rows=2000)
    cache, out = tmp_path / "tm.db", tmp_path / "out"
    proc = _translate(src, out, cache, ray_head, tmp_path / "killed.json")
    deadline = time.monotonic() + 240
    while _stored(cache) < 300 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "finished before the kill"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    committed = _stored(cache)
    assert committed >= 300 and not list(out.rglob("catalog.parquet"))

    again = _translate(src, out, cache, ray_head, tmp_path / "rerun.json")
    assert again.wait(timeout=400) == 0, again.stderr.read().decode() if again.stderr else ""
    report = json.loads((tmp_path / "rerun.json").read_text())
    assert report["cache_hits"] == committed  # everything the killed run got back...
    assert report["engine_requests"] == report["unique_segments"] - committed  # ...is not asked again
    reference = tmp_path / "reference"
    local = hymt(
        "translate",
        str(src),
        "--to",
        "fr,de",
        "--engine",
        "pseudo",
        "--columns",
        ",".join(COLUMNS),
        "--no-cache",
        "-o",
        str(reference),
        "-q",
    )
    assert local.returncode == 0, local.stderr
    for lang in ("fr", "de"):
        got = pq.read_table(out / lang / "catalog.parquet")
        assert got.equals(pq.read_table(reference / lang / "catalog.parquet"), check_metadata=True)


def test_ray_without_ray_installed_is_one_line_and_exit_3(tmp_path: Path) -> None:
    fake = tmp_path / "site" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'ray'\")\n")
    doc = tmp_path / "a.txt"
    doc.write_text("Hello.\n")
    result = hymt(
        "translate",
        str(doc),
        "--to",
        "fr",
        "--engine",
        "pseudo",
        "--ray",
        text=True,
        env={"PYTHONPATH": f"{fake.parent}{os.pathsep}{ROOT}"},
    )
    assert result.returncode == 3
    assert result.stderr.splitlines() == [
        "error: --ray needs Ray, which is not installed",
        '  hint: install the Ray extra: pip install "hymt[ray]" (ray[data])',
    ]
    assert not (tmp_path / "a.fr.txt").exists()


# -- vLLM in a Ray worker (CPU) ---------------------------------------------------------------
@pytest.mark.vllm
def test_vllm_in_a_ray_worker_answers_like_the_local_engine(
    ray_cluster: RayCluster, vllm_engine, tiny_engine_options, tiny_tokenizer
) -> None:
    requests = [
        GenerationRequest(f"s{i}", tiny_tokenizer.prompt_ids(f"Translate\n\nsegment number {i}"), 6)
        for i in range(8)
    ]
    setup = EngineSetup(tiny_engine_options, Sampling.deterministic())
    engine = RayEngine(
        ray_cluster,
        ENGINES["vllm"].build,
        setup,
        RayOptions(address="", workers=1, cpus_per_worker=0.5, chunk_requests=8),
        name="vllm",
    )
    try:
        remote = engine.generate(requests)
    finally:
        engine.close()
    assert remote == vllm_engine.generate(requests)
    assert all(
        g.output_tokens == 6 and g.finish_reason == "length" for g in remote
    )  # noise runs to the limit
