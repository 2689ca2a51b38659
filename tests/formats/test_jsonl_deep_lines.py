"""A JSON Lines line nested thousands deep, or holding thousands of selected members, is valid
JSON: it is translated (or refused with the usual one line) in time linear in its length, never
an internal error. Python's json parser recurses, so the first line is not read with it (for the
`--context on` title field, and for the fields an error lists); and a token's whole path (as long
as its depth) is never built per token."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from table_helpers import BytesSource, run_files

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import format_named
from hymt_cli.formats.base import FormatError
from hymt_cli.formats.jsonlines.fields import line_fields
from hymt_cli.formats.jsontext import Token
from hymt_cli.formats.row_context import ContextOptions
from hymt_cli.formats.table_cells import TableOptions
from hymt_cli.options import OptionSet

DEPTH = 5000  # past Python's recursion limit (1000), well inside what the token walk reads
DEEP_ARRAY = ("[" * DEPTH + "]" * DEPTH).encode()


def test_a_deep_first_line_is_translated_and_a_missing_field_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_bytes(b'{"x": ' + DEEP_ARRAY + b', "title": "Red shirt"}\n{"title": "Blue hat"}\n')
    report = run_files([deep], PseudoEngine, out=tmp_path / "out", columns=("title",))
    assert report.files[0].status == "ok", report.files[0].error
    assert report.files[0].translated == 2
    report = run_files([deep], PseudoEngine, out=tmp_path / "out2", columns=("name",))
    error = report.files[0].error or ""
    assert report.files[0].status == "failed"
    assert "no line has the field 'name'; fields of the first line: x, title" in error, error


def test_a_deep_object_is_named_to_a_bounded_depth_in_the_error() -> None:
    line = b'{"title": "Red", "a": ' + b'{"a": ' * 900 + b"1" + b"}" * 900 + b"}\n"
    reader = format_named("jsonl", OptionSet([TableOptions(columns=("name",))])).open(BytesSource(line))
    with pytest.raises(FormatError) as refused:
        list(reader.units())  # type: ignore[attr-defined]
    assert "fields of the first line: title, a.a.a" in str(refused.value)
    assert len(str(refused.value)) < 200


def test_context_on_reads_the_title_field_of_a_deep_first_line() -> None:
    data = b'{"x": ' + DEEP_ARRAY + b', "title": "Red shirt", "body": "Soft cotton"}\n'
    options = OptionSet([TableOptions(columns=("body",)), ContextOptions("on")])
    reader = format_named("jsonl", options).open(BytesSource(data))
    units = list(reader.units())  # type: ignore[attr-defined]
    [segment] = units[0].segments
    assert segment.text == "Soft cotton" and segment.context == "title: Red shirt"
    out = io.BytesIO()
    writer = reader.writer("de", out)  # type: ignore[attr-defined]
    writer.write(units[0], {segment.id: "Weiche Baumwolle"})
    assert out.getvalue() == data.replace(b"Soft cotton", b"Weiche Baumwolle")


def test_reading_a_line_never_builds_each_token_s_whole_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building every token's path costs its depth: 5 s for a line nested 8,000 deep, hours at
    100,000; and the siblings of each added member, looked for among all the line's keys, cost
    4 minutes for 20,000 `items.name` with --add-columns. Counted, not timed."""
    built = 0
    path = Token.path

    def counted(token: Token) -> object:
        nonlocal built
        built += 1
        return path.fget(token)  # type: ignore[attr-defined]

    monkeypatch.setattr(Token, "path", property(counted))
    depth = 20_000
    deep = '{"x": ' + "[" * depth + "]" * depth + ', "seo": {"title": "Red"}, "title": "Hat"}'
    found = line_fields(deep, 0, len(deep), {"title", "seo.title"}, True, ("x",))
    assert [f.value for f in found.found] == ["Red", "Hat"] and len(found.members) == 2
    items = ", ".join(f'{{"name": "Item {i}", "n": {i}}}' for i in range(5000))
    wide = f'{{"items": [{items}], "items_de": 1}}'
    found = line_fields(wide, 0, len(wide), {"items.name"}, True)
    assert len(found.found) == 5000 and len(found.members) == 5000
    assert found.members[-1].siblings == {"name", "n"} and found.members[-1].separator == ", "
    assert built == 0


def test_two_objects_under_one_duplicated_key_each_have_their_own_members() -> None:
    line = '{"a": {"title": "x", "n": 1}, "a": {"title": "y", "title_de": "z"}}'
    found = line_fields(line, 0, len(line), {"a.title"}, True)
    assert [m.siblings for m in found.members] == [{"title", "n"}, {"title", "title_de"}]
