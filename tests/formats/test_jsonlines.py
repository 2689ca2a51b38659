"""JSON Lines: the named fields translated in place, written the way each line writes its strings;
key order, spacing, other values, blank lines and line endings kept; `a.b` and arrays; new keys
with --add-columns; hostile answers still parse."""

from __future__ import annotations

import json

import pytest
from engines import ATTACKS
from table_helpers import json_lines, translate_bytes


def test_identity_and_untouched_bytes_around_the_fields() -> None:
    data = (
        '\ufeff{"id":1,"title":"Red shirt","n":2.50,"ok":true}\r\n'
        "\n"
        '  { "title" : "Blue\\u00a0hat" ,  "tags" : [ "a" , null , "b" ] }  \n'
        '{"title":null}\n{"other":"x"}'
    ).encode()
    assert translate_bytes("jsonl", data, lambda t: t, columns=("title", "tags")) == data
    out = translate_bytes("jsonl", data, str.upper, columns=("title", "tags"))
    assert (
        out
        == (
            '\ufeff{"id":1,"title":"RED SHIRT","n":2.50,"ok":true}\r\n'
            "\n"
            '  { "title" : "BLUE\\u00a0HAT" ,  "tags" : [ "A" , null , "B" ] }  \n'
            '{"title":null}\n{"other":"x"}'
        ).encode()
    )


def test_a_line_that_escapes_non_ascii_keeps_escaping_it_and_raw_lines_stay_raw() -> None:
    data = b'{"t": "Caf\\u00e9"}\n{"t": "Caf\xc3\xa9"}\n{"t": "plain"}\n'
    out = translate_bytes("jsonl", data, lambda t: t + " \u00fcber \U0001f600 \u2028", columns=("t",))
    lines = out.decode().split("\n")
    assert lines[0] == '{"t": "Caf\\u00e9 \\u00fcber \\ud83d\\ude00 \\u2028"}'
    assert lines[1] == '{"t": "Caf\u00e9 \u00fcber \U0001f600 \\u2028"}'
    assert [json.loads(line)["t"] for line in lines[:3]] == [
        f"{v} \u00fcber \U0001f600 \u2028" for v in ("Caf\u00e9", "Caf\u00e9", "plain")
    ]


def test_nested_fields_and_arrays_of_objects() -> None:
    data = (
        b'{"seo": {"title": "A", "meta.title": "no"}, "meta.title": "B", "items": [{"name": "C"}, '
        b'{"name": "D"}]}\n'
    )
    out = translate_bytes("jsonl", data, str.lower, columns=("seo.title", "meta.title", "items.name"))
    assert json.loads(out) == {
        "seo": {"title": "a", "meta.title": "no"},
        "meta.title": "b",
        "items": [{"name": "c"}, {"name": "d"}],
    }


def test_add_columns_puts_the_new_key_after_its_source_with_the_line_s_own_spacing() -> None:
    data = (
        b'{"id":1,"title":"Red","seo":{"d":"Soft"},"tags":["a","b"]}\n'
        b'{"id": 2, "title": "Blue", "seo": {"d": null}, "tags": []}\n'
        b'{"title" : "Green"}\n'
    )
    out = translate_bytes(
        "jsonl", data, str.upper, columns=("title", "seo.d", "tags"), add_columns=True, lang="fr"
    )
    assert out.decode().split("\n") == [
        '{"id":1,"title":"Red","title_fr":"RED","seo":{"d":"Soft","d_fr":"SOFT"},"tags":["a","b"],"tags_fr":["A","B"]}',
        '{"id": 2, "title": "Blue", "title_fr": "BLUE", "seo": {"d": null, "d_fr": null}, "tags": [], '
        '"tags_fr": []}',
        '{"title" : "Green", "title_fr" : "GREEN"}',
        "",
    ]


def test_the_same_value_is_one_segment_per_batch_weighted_by_its_lines() -> None:
    from table_helpers import BytesSource, settings

    from hymt_cli.formats import format_named

    data = b"".join(b'{"t": "Same text", "u": "Same text"}\n' for _ in range(10)) + b'{"t": "Other"}\n'
    reader = format_named("jsonl", settings(("t", "u"))).open(BytesSource(data))
    [unit] = list(reader.units())
    texts = [(s.text, unit.weight(s.id)) for s in unit.segments]
    assert texts == [("Same text", 10), ("Other", 1), ("Same text", 10)]  # per field: t, then u


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_hostile_answers_leave_every_line_valid_json_with_the_same_shape(attack: str) -> None:
    data = (
        b'{"id": 1, "title": "Red shirt", "body": "Soft cotton.\\nMachine wash.", "tags": ["summer"]}\n'
        b'{"id": 2, "title": "Blue \\"denim\\" hat", "body": "", "tags": []}\n'
    )
    before = json_lines(data)
    out = translate_bytes("jsonl", data, ATTACKS[attack], columns=("title", "body", "tags"))
    after = json_lines(out)
    assert out.count(b"\n") == data.count(b"\n") and len(after) == len(before)
    for a, b in zip(before, after):
        assert isinstance(a, dict) and isinstance(b, dict)
        assert list(a) == list(b) and a["id"] == b["id"] and len(a["tags"]) == len(b["tags"])
        assert all(isinstance(b[key], str) for key in ("title", "body"))


def test_crlf_lines_and_empty_objects() -> None:
    data = b'{"t": "Red"}\r\n{}\r\n[]  \r\n{"t": "Blue"}\r\n'
    assert translate_bytes("jsonl", data, lambda t: t, columns=("t",)) == data
    assert translate_bytes("jsonl", data, str.upper, columns=("t",)) == data.replace(b"Red", b"RED").replace(
        b"Blue", b"BLUE"
    )
