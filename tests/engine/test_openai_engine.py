"""The served engine (`--engine openai`) against real HTTP servers: a fault-injecting aiohttp app
(429 with Retry-After, 500s, answers slower than the timeout, dropped connections, refused
prompts, servers that take no token ids, no local tokenizer) and vLLM's own OpenAI server on
the CPU (`vllm` marker): the same prompts, the same answers as the offline engine."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clirun import hymt
from served_runs import decoder, run, same_tree, served_cli, write_docs
from servers import FaultServer

from hymt_cli.engine.base import Generation, GenerationRequest, Sampling, ServerOptions
from hymt_cli.engine.openai_engine import OpenAIEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.engine.server_tokenizer import ServerTokenizer
from hymt_cli.errors import EngineUnavailable
from hymt_cli.memory import PipelineMemory, TranslationMemory, build_fingerprint
from hymt_cli.model.prompts import TEMPLATE_VERSION
from hymt_cli.model.tokenizer import ChatTemplateTokenizer


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_docs(tmp_path_factory.mktemp("served") / "docs")


@pytest.fixture(scope="module")
def pseudo_out(
    docs: Path, tiny_tokenizer: ChatTemplateTokenizer, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """What the pseudo engine writes: the fault server answers each segment the same way."""
    out = tmp_path_factory.mktemp("pseudo-out")
    report = run(docs, out, PseudoEngine, tiny_tokenizer, name="pseudo")
    assert report.files_ok == 3 and report.untranslated == 0
    return out


def served(
    server: FaultServer, *, timeout: float = 5.0, concurrency: int = 64, **kwargs: object
) -> OpenAIEngine:
    options = ServerOptions(
        server.base_url, model=server.model, concurrency=concurrency, request_timeout=timeout
    )
    return OpenAIEngine(options, server.model, Sampling.deterministic(), backoff=0.05, **kwargs)  # type: ignore[arg-type]


def test_faults_lose_nothing_and_ask_nothing_twice(
    docs: Path, pseudo_out: Path, tiny_tokenizer, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """429 (Retry-After 1 s), 500, answers slower than the 1 s timeout and dropped connections, in
    turn on the first requests: every segment arrives once, the documents are the pseudo engine's,
    and the report counts every prompt sent again."""
    plan = lambda n: ("429", "500", "slow", "drop", "ok")[n % 5] if n <= 25 else "ok"  # noqa: E731
    server = FaultServer(str(tiny_model_dir), decoder(tiny_tokenizer), plan=plan, slow_s=2.5)
    engines: list[OpenAIEngine] = []

    def factory() -> OpenAIEngine:
        engines.append(served(server, timeout=1.0, concurrency=16, prompts_per_request=2))
        return engines[-1]

    try:
        report = run(docs, tmp_path / "out", factory, tiny_tokenizer)
    finally:
        server.stop()
    ledger = server.ledger
    assert report.files_ok == 3 and report.untranslated == 0
    same_tree(tmp_path / "out", pseudo_out)
    assert set(ledger.faults) == {"429", "500", "slow", "drop"}
    # every prompt was delivered exactly once: nothing lost, nothing answered twice
    assert len(ledger.delivered) == report.unique_segments and set(ledger.delivered.values()) == {1}
    assert report.engine_retries == ledger.faulted_prompts == engines[0].retries > 0
    assert ledger.abandoned  # the slow answers came after the client had given up
    assert ledger.retry_gaps and min(ledger.retry_gaps) >= 1.0  # Retry-After honoured
    bodies = [b for b in ledger.bodies[1:] if isinstance(b["prompt"][0], list)]
    assert bodies, "several prompts per request where the server returns token ids"
    assert all(
        b["temperature"] == 0 and b["top_k"] == 0 and b["repetition_penalty"] == 1.05 for b in ledger.bodies
    )


def test_answers_stream_in_as_they_arrive(tiny_tokenizer) -> None:
    """A slow request does not hold back the others: they reach the pipeline first."""
    server = FaultServer("m", decoder(tiny_tokenizer), plan=lambda n: "slow" if n == 2 else "ok", slow_s=1.5)
    requests = [
        GenerationRequest(f"word{i}", tiny_tokenizer.prompt_ids(f"Translate\n\nword{i}"), 8 + i)
        for i in range(12)
    ]
    try:
        with served(server, timeout=30, concurrency=4, prompts_per_request=1) as engine:
            order = [index for index, _ in engine.generate_stream(requests)]
    finally:
        server.stop()
    assert sorted(order) == list(range(12))
    assert order[-1] == 0  # the first request was the slow one (n == 2: n == 1 is the probe)


def test_a_refused_prompt_costs_only_itself(docs: Path, tiny_tokenizer, tmp_path: Path) -> None:
    """HTTP 400 for a request of several prompts: each is asked alone; the one the server refuses
    is reported untranslated with the server's words, the others are translated."""
    refused = "lambda omicron"

    class Refusing(FaultServer):
        async def completions(self, request):  # type: ignore[no-untyped-def]
            from aiohttp import web

            body = await request.json()
            prompts = body["prompt"] if isinstance(body["prompt"][0], list) else [body["prompt"]]
            if any(refused in self.decode(p) for p in prompts):
                return web.json_response(
                    {"error": {"message": "prompt refused by policy", "code": 400}}, status=400
                )
            return await super().completions(request)

    server = Refusing("m", decoder(tiny_tokenizer))  # the body is read twice: aiohttp keeps it
    try:
        report = run(docs, tmp_path / "out", lambda: served(server, prompts_per_request=4), tiny_tokenizer)
    finally:
        server.stop()
    problems = [p.problem for f in report.files for p in f.problems]
    assert report.untranslated > 0 and report.files_ok == 3
    assert problems and all("HTTP 400: prompt refused by policy" in p for p in problems)
    for doc in (tmp_path / "out").rglob("*.txt"):
        for line in filter(None, doc.read_text().splitlines()):
            assert (refused in line) != line.startswith("⟦"), line  # refused: the source; else pseudo


def test_text_prompts_when_the_server_takes_no_token_ids(
    docs: Path, pseudo_out: Path, tiny_tokenizer, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """The server refuses token ids (HTTP 400): the same prompts go as the rendered chat template."""
    model = str(tiny_model_dir)
    server = FaultServer(model, decoder(tiny_tokenizer), takes_ids=False)
    try:
        report = run(docs, tmp_path / "out", lambda: served(server), tiny_tokenizer)
    finally:
        server.stop()
    same_tree(tmp_path / "out", pseudo_out)
    bodies = server.ledger.bodies[2:]  # after the probe with ids (refused) and with text
    assert bodies and all(b["add_special_tokens"] is False for b in bodies)
    texts = [p for b in bodies for p in (b["prompt"] if isinstance(b["prompt"], list) else [b["prompt"]])]
    assert len(texts) == report.unique_segments and all(isinstance(t, str) for t in texts)
    hf = tiny_tokenizer.hf_tokenizer
    for text in texts:  # exactly the chat template's rendering of the prompt
        assert text == hf.decode(
            list(tiny_tokenizer.prompt_ids(_user_message(hf, text))), skip_special_tokens=False
        )
    assert report.engine_requests == report.unique_segments


def _user_message(hf, rendered: str) -> str:
    """The user message inside a rendered prompt (round trip through the chat template)."""
    start = hf.apply_chat_template(
        [{"role": "user", "content": "\x00"}], add_generation_prompt=True, tokenize=False
    )
    head, tail = start.split("\x00")
    assert rendered.startswith(head) and rendered.endswith(tail)
    return rendered[len(head) : len(rendered) - len(tail)]


def test_a_server_gone_for_good_fails_the_run_and_the_rerun_resumes(
    docs: Path, pseudo_out: Path, tiny_tokenizer, tiny_model_dir: Path, tmp_path: Path
) -> None:
    """After a few answers the server only says 503: the run fails (EngineUnavailable, exit 3);
    what came back is in the memory; the rerun asks only for the rest."""
    model = str(tiny_model_dir)
    down = FaultServer(model, decoder(tiny_tokenizer), plan=lambda n: "ok" if n <= 6 else "500")
    cache = tmp_path / "tm.sqlite3"
    context = build_fingerprint(
        engine="openai",
        model=model,
        revision=None,
        sampling=Sampling.deterministic(),
        template_version=TEMPLATE_VERSION,
    )

    def memory() -> PipelineMemory:
        return PipelineMemory(TranslationMemory.open(cache), context, None)

    first = memory()
    try:
        with pytest.raises(EngineUnavailable, match="failed 3 times in a row"):
            run(
                docs,
                tmp_path / "out",
                lambda: served(down, concurrency=1, prompts_per_request=1, max_attempts=3),
                tiny_tokenizer,
                memory=first,
            )
    finally:
        first.close()
        down.stop()
    answered = len(down.ledger.delivered)
    assert answered == 5  # requests 2..6, one prompt each
    assert not list((tmp_path / "out").rglob("*.txt"))  # no document half-written

    up = FaultServer(model, decoder(tiny_tokenizer))
    second = memory()
    try:
        report = run(docs, tmp_path / "out", lambda: served(up), tiny_tokenizer, memory=second)
    finally:
        second.close()
        up.stop()
    assert report.cache_hits == answered and report.engine_requests == report.unique_segments - answered
    assert not set(up.ledger.delivered) & set(down.ledger.delivered)  # nothing asked twice
    same_tree(tmp_path / "out", pseudo_out)


def test_another_model_exits_3_fast(tmp_path: Path, tiny_tokenizer) -> None:
    """A server that answers, with another model: exit 3 at once. (One that does not answer is
    waited for, ServerOptions.wait: tests/engine/test_server_wait.py.)"""
    doc = tmp_path / "a.txt"
    doc.write_text("Hello world.\n")
    started = time.monotonic()
    result = hymt(
        "translate",
        str(doc),
        "--to",
        "de",
        "--engine",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--server-wait",
        "0",
        text=True,
    )
    assert result.returncode == 3
    assert "the server at http://127.0.0.1:9/v1 did not answer (cannot reach it:" in result.stderr
    assert "hint: start the server (`hymt serve-args" in result.stderr
    server = FaultServer("served-name", decoder(tiny_tokenizer))
    try:
        other = hymt(
            "translate",
            str(doc),
            "--to",
            "de",
            "--engine",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "another",
            text=True,
        )
    finally:
        server.stop()
    assert other.returncode == 3 and "serves served-name, not 'another'" in other.stderr
    assert time.monotonic() - started < 30  # no long connect timeouts, no engine loaded
    assert not list(tmp_path.glob("a.de.txt"))
    usage = hymt("translate", str(doc), "--to", "de", "--engine", "openai", text=True)
    assert usage.returncode == 2 and "--engine openai needs --base-url" in usage.stderr


def test_the_server_tokenizes_when_the_model_is_not_here(
    docs: Path, pseudo_out: Path, tiny_tokenizer, tmp_path: Path
) -> None:
    """The served model's tokenizer is nowhere on this machine: the CLI tokenizes through the
    server's /tokenize (same chat template), and the run is the same."""
    server = FaultServer(
        "hy-mt-served",
        decoder(tiny_tokenizer),
        root="/nowhere/hy-mt",
        tokenize=lambda message: list(tiny_tokenizer.prompt_ids(message)),
    )
    report = tmp_path / "report.json"
    try:
        result = served_cli(docs, server.base_url, tmp_path / "out", report)
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    assert "the server tokenizes the prompts" in result.stderr
    same_tree(tmp_path / "out", pseudo_out)
    data = json.loads(report.read_text())
    assert data["engine"] == "openai" and data["model"] == "hy-mt-served" and data["engine_retries"] == 0


# -- vLLM's own server (CPU) ------------------------------------------------------------------
@pytest.mark.vllm
def test_served_translation_equals_the_offline_engine(
    vllm_server, answering_model_dir: Path, tmp_path: Path
) -> None:
    """`hymt translate` through `vllm serve` writes byte for byte what the offline vLLM engine
    writes for the same greedy requests: same prompts (token ids), same sampling, same answers."""
    source = (Path(__file__).resolve().parents[2] / "samples" / "txt" / "release-notes.txt").read_bytes()
    common = (
        "translate",
        "-",
        "--format",
        "txt",
        "--to",
        "de",
        "--deterministic",
        "--max-model-len",
        "2048",
        "--no-cache",
        "--qa",
        "all=off",  # the random model's answers drop the numbers: both runs would keep the sources
    )
    offline = hymt(
        *common,
        "--model",
        str(answering_model_dir),
        "--enforce-eager",
        "--report",
        str(tmp_path / "offline.json"),
        stdin=source,
        timeout=600,
    )
    assert offline.returncode == 0, offline.stderr.decode()[-2000:]
    served_run = hymt(
        *common,
        "--engine",
        "openai",
        "--base-url",
        vllm_server.base_url,
        "--report",
        str(tmp_path / "served.json"),
        stdin=source,
        timeout=600,
    )
    assert served_run.returncode == 0, served_run.stderr.decode()[-2000:]
    assert served_run.stdout == offline.stdout and served_run.stdout != source
    a, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("offline", "served"))
    assert b["engine"] == "openai" and b["model"] == str(answering_model_dir)
    for key in (
        "segments",
        "unique_segments",
        "engine_requests",
        "prompt_tokens",
        "output_tokens",
        "untranslated",
    ):
        assert a[key] == b[key], key
    assert b["engine_retries"] == 0 and b["untranslated"] == 0


@pytest.mark.vllm
def test_vllm_tokenize_gives_the_local_ids(vllm_server, tiny_tokenizer) -> None:
    """The server's /tokenize (fallback without a local tokenizer) == the local chat template."""
    messages = [
        "Translate the following segment into German, without additional explanation.\n\nHello world.",
        "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n\n你好，世界",
        "text with <s1>tags</s1> and  spaces\tand tabs",
    ]
    remote = ServerTokenizer(ServerOptions(vllm_server.base_url), vllm_server.model)
    assert remote.prompt_ids_batch(messages) == tiny_tokenizer.prompt_ids_batch(messages)
    assert remote.count("Hello world") == tiny_tokenizer.count("Hello world")


@pytest.mark.vllm
def test_vllm_server_answers_several_prompts_per_request(vllm_server, tiny_tokenizer) -> None:
    """Requests of several prompts (grouped by max_tokens) come back whole, in their own order,
    with each answer's own token count."""
    requests = [
        GenerationRequest(f"w{i}", tiny_tokenizer.prompt_ids(f"Translate\n\nword number {i}"), 4 + i % 3)
        for i in range(30)
    ]
    options = ServerOptions(vllm_server.base_url, concurrency=8)
    with OpenAIEngine(options, vllm_server.model, Sampling.deterministic()) as engine:
        grouped = engine.generate(requests)
    with OpenAIEngine(options, vllm_server.model, Sampling.deterministic(), prompts_per_request=1) as engine:
        single = engine.generate(requests)
    assert grouped == single and len(grouped) == 30
    assert all(
        isinstance(g, Generation) and g.finish_reason in ("stop", "length") and g.output_tokens >= 1
        for g in grouped
    )


@pytest.mark.vllm
def test_serve_args_give_vllm_serve_the_offline_engines_settings(answering_model_dir: Path) -> None:
    """`hymt serve-args` parses with vLLM's own server parser into the engine arguments hymt's
    offline engine gives `vllm.LLM` (the same code makes both)."""
    import shlex

    pytest.importorskip("vllm")
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    try:
        from vllm.entrypoints.launchers.cli_args import make_arg_parser
    except ImportError:  # vLLM before 0.3x
        from vllm.entrypoints.openai.cli_args import make_arg_parser  # type: ignore[no-redef]

    from hymt_cli.engine.base import EngineOptions
    from hymt_cli.engine.vllm_arguments import llm_kwargs

    line = hymt(
        "serve-args",
        "--model",
        str(answering_model_dir),
        "--port",
        "8123",
        "--engine-arg",
        "max_num_seqs=2048",
        text=True,
    )
    assert line.returncode == 0, line.stderr
    argv = shlex.split(line.stdout)
    assert argv[:3] == ["vllm", "serve", str(answering_model_dir)]
    args = make_arg_parser(FlexibleArgumentParser()).parse_args(["--model", argv[2], *argv[3:]])
    served = AsyncEngineArgs.from_cli_args(args)
    offline = llm_kwargs(
        EngineOptions(model=str(answering_model_dir), extra={"max_num_seqs": 2048}), Sampling(), on_cpu=False
    )
    for key, value in offline.items():
        got = getattr(served, key)
        if key == "compilation_config":
            assert (int(got.mode), got.cudagraph_mode.name) == (value["mode"], value["cudagraph_mode"])
        else:
            assert got == value, key
    assert args.generation_config == "vllm" and args.port == 8123
