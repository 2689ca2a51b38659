"""A served fleet that starts under load: `--engine openai` rides through a server that is not
listening yet, answers 503, rate-limits (429 with Retry-After) or drops the connection on the
very first request of every endpoint (the model check, `/tokenize`, the first completion), and
gives one line only once the server has answered nothing for `ServerOptions.wait` seconds."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from served_runs import decoder, run, same_tree, served_cli, write_docs
from servers import FaultServer, free_port

from hymt_cli.engine.base import Sampling, ServerOptions
from hymt_cli.engine.openai_engine import OpenAIEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.engine.served_model import connect
from hymt_cli.engine.server_tokenizer import ServerTokenizer
from hymt_cli.engine.server_wait import Patience
from hymt_cli.errors import EngineUnavailable


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_docs(tmp_path_factory.mktemp("wait") / "docs")


@pytest.fixture(scope="module")
def pseudo_out(docs: Path, tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What a healthy server writes: the fault server answers as the pseudo engine does."""
    out = tmp_path_factory.mktemp("pseudo-out")
    assert run(docs, out, PseudoEngine, tiny_tokenizer, name="pseudo").files_ok == 3
    return out


FIRST = {"models": ["503", "429"], "tokenize": ["500", "drop", "429"], "completions": ["503", "drop", "429"]}


def test_a_fleet_that_starts_under_load_is_ridden_through(
    docs: Path, pseudo_out: Path, tiny_tokenizer, tmp_path: Path
) -> None:
    """Nothing listens for the first second, then every endpoint fails its first requests: the
    run waits, honours Retry-After, and writes what a healthy server gives."""
    server = FaultServer(
        "hy-mt-served",
        decoder(tiny_tokenizer),
        root="/nowhere/hy-mt",
        first=FIRST,
        retry_after="1",
        listen_after=1.0,
        tokenize=lambda message: list(tiny_tokenizer.prompt_ids(message)),
    )
    report = tmp_path / "report.json"
    try:
        result = served_cli(docs, server.base_url, tmp_path / "out", report)
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    same_tree(tmp_path / "out", pseudo_out)
    ledger = server.ledger
    assert {e for e, _, _ in ledger.first_faults} == set(FIRST)  # every endpoint failed first
    for endpoint, faults in FIRST.items():
        assert [f for e, f, _ in ledger.first_faults if e == endpoint] == faults
        last_429 = max(t for e, f, t in ledger.first_faults if e == endpoint and f == "429")
        assert ledger.first_ok[endpoint] - last_429 >= 1.0  # Retry-After honoured
    waiting = [line for line in result.stderr.splitlines() if "is not answering yet" in line]
    assert waiting and all(server.base_url.rsplit("/v1", 1)[0] in line for line in waiting)
    assert "Traceback" not in result.stderr
    assert json.loads(report.read_text())["untranslated"] == 0


def test_a_server_that_stays_away_gives_one_line_after_the_wait(tiny_tokenizer) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}/v1"
    started = time.monotonic()
    with pytest.raises(EngineUnavailable) as refused:
        connect(ServerOptions(nowhere, wait=0))  # 0: at once
    assert time.monotonic() - started < 2
    assert refused.value.message.startswith(f"the server at {nowhere} did not answer (cannot reach it: ")
    assert "hymt serve-args" in (refused.value.hint or "") and "\n" not in refused.value.message

    started = time.monotonic()
    with pytest.raises(EngineUnavailable, match=r"did not answer for \d+ s \(cannot reach it"):
        connect(ServerOptions(nowhere, wait=1.5), backoff=0.05)
    assert 1.5 <= time.monotonic() - started < 6

    busy = FaultServer(
        "m",
        decoder(tiny_tokenizer),
        first={"completions": ["429"] * 50, "tokenize": ["503"] * 500},
        retry_after="1",
        tokenize=lambda message: [1, 2, 3],
    )
    try:
        started = time.monotonic()
        with pytest.raises(
            EngineUnavailable, match=r"did not answer for 2 s \(completions: HTTP 429; it asked for 1 s"
        ):
            OpenAIEngine(ServerOptions(busy.base_url, wait=2.5), "m", Sampling())
        assert 2 <= time.monotonic() - started < 5  # no sleeping past the deadline
        with pytest.raises(EngineUnavailable, match=r"/tokenize: HTTP 503"):
            ServerTokenizer(ServerOptions(busy.base_url, wait=1.0), "m")
    finally:
        busy.stop()

    later = FaultServer("m", decoder(tiny_tokenizer), first={"models": ["429"]}, retry_after="600")
    try:
        started = time.monotonic()
        with pytest.raises(EngineUnavailable, match="it asked for 600 s more"):
            connect(ServerOptions(later.base_url, wait=30))
        assert time.monotonic() - started < 3  # a Retry-After beyond the wait is not slept through
    finally:
        later.stop()


def test_the_deadline_belongs_to_the_streak_not_to_the_request() -> None:
    now = [0.0]
    lines: list[str] = []
    patience = Patience(
        "http://gpu:8000/v1", 10.0, hint="h", backoff=0.5, announce=lines.append, clock=lambda: now[0]
    )
    delays = []
    for attempt in range(1, 5):
        delays.append(patience.failed(attempt, "HTTP 503"))
        now[0] += delays[-1]
    assert all(0.25 * 2 ** (a - 1) <= d <= 0.5 * 2 ** (a - 1) for a, d in zip(range(1, 5), delays))  # backoff
    assert len(lines) == 1 and "trying again for up to 10 s" in lines[0]  # announced once per streak
    assert 2.0 <= patience.failed(1, "HTTP 429", after=2.0) <= 2.25  # Retry-After as the server says
    patience.answered()  # an answer ends the streak: a new one gets the whole wait, and a new notice
    now[0] += 100
    assert patience.failed(1, "HTTP 503") <= 0.5 and len(lines) == 2
    now[0] += 9.6
    with pytest.raises(
        EngineUnavailable, match=r"did not answer for 10 s \(HTTP 503; it asked for 5 s more\)"
    ):
        patience.failed(2, "HTTP 503", after=5.0)
    now[0] += 1
    with pytest.raises(EngineUnavailable, match=r"did not answer for 11 s \(HTTP 503\)$"):
        patience.failed(3, "HTTP 503")
