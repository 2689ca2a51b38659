"""What travels over a served engine's socket: length-prefixed JSON messages, each read whole and
checked before it is used (the other end is untrusted, even when it is the same user).

A message is a 4-byte big-endian length, then that many bytes of UTF-8 JSON holding one object.
A length over `MAX_MESSAGE`, bytes that are not JSON, or an object that does not have the shape
its kind needs is a `WireError`, and the connection is dropped: nothing half-read is acted on.

    client -> server   {"op": "hello", "protocol": 1, "token": ..., "settings": ..., "run": true}
                       (`run`: a run's connection; the server is not idle while one is open)
    server -> client   {"ok": true, "engine": "vllm", "ready": true, "limits": [tokens, requests]}
    client -> server   {"op": "generate", "count": N}, then {"requests": [[text, ids, max, greedy], ...]}
                       frames until N requests were sent
    server -> client   {"answers": [[index, text, finish_reason, output_tokens], ...]} frames, then
                       {"end": true} (or {"error": "..."})
    client -> server   {"op": "status"} -> {"ok": true, ...}; {"op": "stop"} -> {"ok": true}
"""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Sequence
from typing import Any

from ..engine.base import Generation, GenerationRequest

PROTOCOL = 1
MAX_MESSAGE = 32 * 1024 * 1024  # bytes of one message
REQUESTS_PER_MESSAGE = 1024
MAX_REQUESTS = 10_000_000  # in one generate
_MAX_TOKEN_ID = 2**31 - 1
_MAX_TOKENS = 1_000_000  # prompt ids of one request, and its max_tokens
_MAX_TEXT = 4_000_000  # characters of one source text or answer
_MAX_WORD = 200  # an op, a finish reason
_HEADER = struct.Struct(">I")


class WireError(Exception):
    """A message that cannot be read or does not have the shape it must have."""


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    if len(data) > MAX_MESSAGE:
        raise WireError(f"a message of {len(data)} bytes is over the limit of {MAX_MESSAGE}")
    sock.sendall(_HEADER.pack(len(data)) + data)


def receive(sock: socket.socket) -> dict[str, Any] | None:
    """The next message; None when the other end closed the connection between messages."""
    header = _read(sock, _HEADER.size, allow_end=True)
    if header is None:
        return None
    (length,) = _HEADER.unpack(header)
    if length > MAX_MESSAGE:
        raise WireError(f"a message of {length} bytes is over the limit of {MAX_MESSAGE}")
    data = _read(sock, length, allow_end=False)
    assert data is not None
    try:
        message = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError) as exc:
        raise WireError(f"a message that is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise WireError("a message that is not a JSON object")
    return message


def _read(sock: socket.socket, size: int, *, allow_end: bool) -> bytes | None:
    parts, got = [], 0
    while got < size:
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            if allow_end and got == 0:
                return None
            raise WireError("the connection ended inside a message")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


# -- shapes ------------------------------------------------------------------------------------
def word(message: dict[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str) or len(value) > _MAX_WORD:
        raise WireError(f"{key!r} must be a short text")
    return value


def whole(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise WireError(f"{what} must be a whole number in [{low}, {high}]")
    return value


def text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise WireError(f"{what} must be a text of at most {_MAX_TEXT} characters")
    return value


def request_rows(requests: Sequence[GenerationRequest]) -> list[list[Any]]:
    return [[r.source_text, list(r.prompt_token_ids), r.max_tokens, r.deterministic] for r in requests]


def requests_of(message: dict[str, Any], room: int) -> list[GenerationRequest]:
    """The requests of one `requests` message, at most `room` of them."""
    rows = message.get("requests")
    if not isinstance(rows, list) or not rows or len(rows) > min(room, REQUESTS_PER_MESSAGE):
        raise WireError(f"'requests' must be a list of 1 to {min(room, REQUESTS_PER_MESSAGE)} requests")
    found = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 4:
            raise WireError("a request is [source text, prompt token ids, max tokens, greedy]")
        source, ids, max_tokens, greedy = row
        if not isinstance(ids, list) or len(ids) > _MAX_TOKENS:  # (none: an engine without a model)
            raise WireError(f"prompt token ids must be a list of at most {_MAX_TOKENS} ids")
        if not isinstance(greedy, bool):
            raise WireError("greedy must be true or false")
        found.append(
            GenerationRequest(
                text(source, "a source text"),
                tuple(whole(i, "a token id", 0, _MAX_TOKEN_ID) for i in ids),
                whole(max_tokens, "max tokens", 1, _MAX_TOKENS),
                greedy,
            )
        )
    return found


def answer_row(index: int, generation: Generation) -> list[Any]:
    return [index, generation.text, generation.finish_reason, generation.output_tokens]


def answers_of(message: dict[str, Any], count: int) -> list[tuple[int, Generation]]:
    """The answers of one `answers` message, each for one of `count` requests."""
    rows = message.get("answers")
    if not isinstance(rows, list) or not rows:
        raise WireError("'answers' must be a list of answers")
    found = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 4:
            raise WireError("an answer is [index, text, finish reason, output tokens]")
        index, answer, finish, tokens = row
        if not isinstance(finish, str) or not finish or len(finish) > _MAX_WORD:
            raise WireError("a finish reason must be a short text")
        found.append(
            (
                whole(index, "an answer's index", 0, count - 1),
                Generation(text(answer, "an answer"), finish, whole(tokens, "output tokens", 0, 10**9)),
            )
        )
    return found
