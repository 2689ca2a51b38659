"""jsontext: the JSON scanner with offsets agrees with Python's json module on real files and
on generated documents, refuses what json refuses with a line and column, and writes strings
that json reads back as the value."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strings_helpers import CORPUS

from hymt_cli.formats.jsontext import JsonStyle, JsonSyntaxError, decode_string, encode_string, tokens


def _strings(text: str) -> list[tuple[tuple[Any, ...], str]]:
    return [
        (t.path, decode_string(text[t.start + 1 : t.end - 1])) for t in tokens(text) if t.kind == "string"
    ]


def _json_strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _json_strings(v, (*path, k))]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _json_strings(v, (*path, i))]
    return []


@pytest.mark.parametrize(
    "path", sorted([*CORPUS.glob("json/*.json"), *CORPUS.glob("arb/*.arb")]), ids=lambda p: p.name
)
def test_every_string_of_real_files_with_its_path(path) -> None:  # type: ignore[no-untyped-def]
    text = path.read_text(encoding="utf-8")
    found = _strings(text)
    if "gallery" not in path.name:  # (that ARB file repeats a key: json keeps the last)
        assert found == _json_strings(json.loads(text))
    for token in tokens(text):
        raw = text[token.start : token.end]
        if token.kind in ("string", "key"):
            assert raw[0] == raw[-1] == '"'
        elif token.kind in ("number", "true", "false", "null"):
            assert json.loads(raw) == json.loads(raw)  # a whole scalar


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(JSON, st.sampled_from([None, 2, "\t"]), st.booleans())
def test_generated_documents(value: Any, indent: Any, ensure_ascii: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    assert _strings(text) == _json_strings(json.loads(text))


@settings(max_examples=300, deadline=None)
@given(st.text(), st.booleans(), st.booleans())
def test_written_strings_read_back(value: str, ascii_only: bool, slash: bool) -> None:
    raw = encode_string(value, JsonStyle(ascii_only, slash, False))
    assert json.loads(f'"{raw}"') == value
    assert "\u2028" not in raw and (not ascii_only or raw.isascii())


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1,}', "line 1, column 9"),
        ('{\n  "a" 1\n}', "line 2, column 7"),
        ('["x\ny"]', "line 1, column 4"),
        ("[1] 2", "line 1, column 5"),
        ('{"a": tru}', "line 1, column 7"),
        ("", "line 1, column 1"),
        ('{"a": "\\x"}', "line 1, column 8"),
    ],
)
def test_what_json_refuses_is_refused_with_its_place(text: str, where: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(JsonSyntaxError, match=where):
        list(tokens(text))


def test_what_is_no_json_by_the_rfc_is_refused_too() -> None:
    for text in ("[NaN]", "[Infinity]", "{'a': 1}", "[1,]", "// c\n[]"):
        with pytest.raises(JsonSyntaxError):
            list(tokens(text))


def test_one_document_inside_a_larger_text() -> None:
    text = '{"a": "x"}\n{"b": ["y", 2]}\n'
    [a_start, b_start] = [0, text.index("{", 1)]
    assert [t.path for t in tokens(text, a_start, text.index("\n")) if t.kind == "string"] == [("a",)]
    assert [t.path for t in tokens(text, b_start, len(text) - 1) if t.kind == "string"] == [("b", 0)]


def test_deep_nesting_needs_no_recursion() -> None:
    text = "[" * 100_000 + "]" * 100_000
    assert sum(1 for _ in tokens(text)) == 200_000
