"""The served engine's socket messages: length-prefixed JSON, read whole and checked; anything
else (too long, cut, not JSON, the wrong shape) is a WireError, never another exception."""

from __future__ import annotations

import socket
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.serve.wire import (
    MAX_MESSAGE,
    WireError,
    answer_row,
    answers_of,
    receive,
    request_rows,
    requests_of,
    send,
)


@pytest.fixture
def pair():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    yield a, b
    a.close()
    b.close()


def test_messages_go_through_whole_and_a_closed_end_is_none(pair) -> None:
    a, b = pair
    send(a, {"op": "hello", "text": "Grüße ✓", "n": [1, 2, 3]})
    send(a, {"op": "bye"})
    assert receive(b) == {"op": "hello", "text": "Grüße ✓", "n": [1, 2, 3]}
    assert receive(b) == {"op": "bye"}
    a.close()
    assert receive(b) is None


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (struct.pack(">I", MAX_MESSAGE + 1), "over the limit"),
        (struct.pack(">I", 10) + b'{"op"', "ended inside a message"),
        (struct.pack(">I", 3) + b"\xff\xfe\xfd", "not JSON"),
        (struct.pack(">I", 7) + b"[1,2,3]", "not a JSON object"),
        (b"\x00\x00", "ended inside a message"),
    ],
)
def test_a_bad_message_is_a_wire_error(pair, raw: bytes, problem: str) -> None:
    a, b = pair
    a.sendall(raw)
    a.close()
    with pytest.raises(WireError, match=problem):
        receive(b)


def test_requests_and_answers_survive_the_trip() -> None:
    requests = [GenerationRequest("Hello", (1, 2, 3), 16), GenerationRequest("", (), 1, deterministic=True)]
    assert requests_of({"requests": request_rows(requests)}, room=2) == requests
    answers = [(1, Generation("Hallo", "stop", 2)), (0, Generation("", "length", 1))]
    assert answers_of({"answers": [answer_row(i, g) for i, g in answers]}, count=2) == answers


@pytest.mark.parametrize(
    "rows",
    [
        [["x", [1, -1], 4, False]],  # a negative id
        [["x", [1, True], 4, False]],  # a boolean is no id
        [["x", [1.5], 4, False]],
        [["x", [2**31], 4, False]],
        [["x", [1], 0, False]],  # max tokens below 1
        [["x", [1], 4, "no"]],
        [[None, [1], 4, False]],
        [["x", "123", 4, False]],
        [["x", [1], 4]],
        [],
        "x",
    ],
)
def test_a_malformed_request_is_refused(rows: object) -> None:
    with pytest.raises(WireError):
        requests_of({"requests": rows}, room=10)


def test_more_requests_than_announced_are_refused() -> None:
    rows = request_rows([GenerationRequest("x", (1,), 4)] * 3)
    with pytest.raises(WireError):
        requests_of({"requests": rows}, room=2)


@pytest.mark.parametrize(
    "rows",
    [
        [[2, "a", "stop", 1]],  # an index past the requests
        [[-1, "a", "stop", 1]],
        [[False, "a", "stop", 1]],
        [[0, "a", "", 1]],
        [[0, "a", "stop", -1]],
        [[0, 5, "stop", 1]],
        [[0, "a", "stop"]],
    ],
)
def test_a_malformed_answer_is_refused(rows: object) -> None:
    with pytest.raises(WireError):
        answers_of({"answers": rows}, count=2)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=20,
)


@given(_JSON)
def test_any_json_is_read_as_requests_or_refused(value: object) -> None:
    try:
        found = requests_of({"requests": value}, room=100)
    except WireError:
        return
    assert all(isinstance(r, GenerationRequest) and r.max_tokens >= 1 for r in found)


@given(_JSON)
def test_any_json_is_read_as_answers_or_refused(value: object) -> None:
    try:
        found = answers_of({"answers": value}, count=3)
    except WireError:
        return
    assert all(0 <= i < 3 and isinstance(g, Generation) for i, g in found)
