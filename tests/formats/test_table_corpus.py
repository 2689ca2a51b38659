"""Real CSV, TSV and JSON Lines files (tests/corpus/SOURCES): identity is byte-exact; pseudo
changes the selected cells only (read back with Python's csv module, pyarrow's CSV reader and
json); --add-columns adds the same translations beside untouched source columns."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from table_helpers import (
    COLUMNS,
    CorpusFile,
    arrow_columns,
    corpus_bytes,
    csv_rows,
    json_lines,
    run_files,
    table_corpus,
    translate_bytes,
)

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine, pseudo_localize
from hymt_cli.text.segments import is_translatable

FILES = table_corpus()
DELIMITERS = {"csv": ",", "tsv": "\t"}


def pseudo(text: str) -> str | None:
    """The pseudo engine's answer, for what the pipeline would send (text with letters)."""
    return pseudo_localize(text) if is_translatable(text) else None


def test_the_corpus_has_three_files_per_format_several_over_100_kb() -> None:
    kinds = [item.kind for item in FILES]
    assert all(kinds.count(kind) >= 3 for kind in ("csv", "tsv", "jsonl")), kinds
    assert {item.name for item in FILES} == set(COLUMNS)
    big = [item for item in FILES if item.path.is_file() and item.path.stat().st_size > 100_000]
    assert len(big) >= 4 or not big  # (not gathered: the tests below skip)


def _options(item: CorpusFile) -> dict[str, object]:
    columns, header = COLUMNS[item.name]
    return {"columns": columns, "header": header} if item.kind != "jsonl" else {"columns": columns}


@pytest.mark.parametrize("item", FILES, ids=lambda item: item.name)
def test_identity_is_byte_exact_in_any_batch_size(item: CorpusFile) -> None:
    data = corpus_bytes(item)
    for rows in (1, 37, 8192):
        assert (
            translate_bytes(item.kind, data, lambda text: text, rows_per_batch=rows, **_options(item)) == data
        )
        assert (
            translate_bytes(item.kind, data, lambda text: None, rows_per_batch=rows, **_options(item)) == data
        )


def _expected(value: str) -> str | None:
    """What pseudo makes of a one-line cell (None: a cell the check does not predict)."""
    if not is_translatable(value):
        return value
    if "\n" in value or "\r" in value or value != value.strip():
        return None
    return pseudo_localize(value)


def _check_cell(before: str, after: str) -> None:
    expected = _expected(before)
    if expected is not None:
        assert after == expected, (before, after)
    else:
        assert after != before and after.count("\n") == before.count("\n"), (before, after)


@pytest.mark.parametrize("item", [f for f in FILES if f.kind != "jsonl"], ids=lambda item: item.name)
def test_pseudo_changes_only_the_selected_columns_of_delimited_files(
    item: CorpusFile, tmp_path: Path
) -> None:
    data = corpus_bytes(item)
    columns, header = COLUMNS[item.name]
    delimiter = DELIMITERS[item.kind]
    out = translate_bytes(item.kind, data, pseudo, rows_per_batch=50, **_options(item))
    before, after = csv_rows(data, delimiter), csv_rows(out, delimiter)
    assert len(after) == len(before)
    names = before[0] if header else [str(i) for i in range(1, len(before[0]) + 1)]
    picked = [names.index(c) for c in columns]
    for row_in, row_out in zip(before[1:] if header else before, after[1:] if header else after):
        assert len(row_out) == len(row_in)
        for i, (a, b) in enumerate(zip(row_in, row_out)):
            if i in picked and a:
                _check_cell(a, b)
            else:
                assert a == b
    if header:
        assert after[0] == before[0]
    # pyarrow reads the same table as the csv module: same columns, same cells
    arrow = arrow_columns(out, delimiter, header)
    assert list(arrow) == names
    body = after[1:] if header else after
    for i, name in enumerate(names):
        assert arrow[name] == [row[i] for row in body]

    # --add-columns: the source bytes' columns untouched, one column per selected column added
    added = translate_bytes(item.kind, data, pseudo, add_columns=True, lang="fr", **_options(item))
    rows = csv_rows(added, delimiter)
    width = len(before[0])
    assert [row[:width] for row in rows] == before
    if header:
        assert rows[0][width:] == [f"{c}_fr" for c in columns]
    assert [row[width:] for row in body_rows(rows, header)] == [[row[i] for i in picked] for row in body]


def body_rows(rows: list[list[str]], header: bool) -> list[list[str]]:
    return rows[1:] if header else rows


def _strings(node: object, path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(dotted field, value) of every string in a JSON value, arrays looked through."""
    if isinstance(node, dict):
        return [pair for key, item in node.items() for pair in _strings(item, (*path, key))]
    if isinstance(node, list):
        return [pair for item in node for pair in _strings(item, path)]
    return [(".".join(path), node)] if isinstance(node, str) else []


def _without(node: object, fields: tuple[str, ...], path: tuple[str, ...] = ()) -> object:
    """The value with the strings of `fields` blanked (the rest must come out equal)."""
    if isinstance(node, dict):
        return {key: _without(item, fields, (*path, key)) for key, item in node.items()}
    if isinstance(node, list):
        return [_without(item, fields, path) for item in node]
    return "" if isinstance(node, str) and ".".join(path) in fields else node


@pytest.mark.parametrize("item", [f for f in FILES if f.kind == "jsonl"], ids=lambda item: item.name)
def test_pseudo_changes_only_the_selected_fields_of_json_lines(item: CorpusFile) -> None:
    data = corpus_bytes(item)
    fields, _ = COLUMNS[item.name]
    out = translate_bytes("jsonl", data, pseudo, rows_per_batch=20, columns=fields)
    before, after = json_lines(data), json_lines(out)
    assert len(after) == len(before) and out.count(b"\n") == data.count(b"\n")
    changed = 0
    for a, b in zip(before, after):
        assert _without(a, fields) == _without(b, fields)
        if isinstance(a, dict) and isinstance(b, dict):
            assert list(a) == list(b)  # key order
        for (name, x), (_, y) in zip(_strings(a), _strings(b)):
            if name in fields and x:
                _check_cell(x, y)
                changed += 1
            else:
                assert x == y
    assert changed > 0

    added = translate_bytes("jsonl", data, pseudo, add_columns=True, lang="fr", columns=fields)
    count = 0
    for a, b, c in zip(before, json_lines(added), after):
        assert _split_added(b, c) == a
        count += json.dumps(b).count('_fr"')
    assert count >= len(before)


def _split_added(node: object, translated: object) -> object:
    """`node` without its `<key>_fr` members, each checked against the replace-mode output
    (`translated`, the same place): the same value as `<key>` there, and right after `<key>`."""
    if isinstance(node, list):
        assert isinstance(translated, list) and len(node) == len(translated)
        return [_split_added(item, other) for item, other in zip(node, translated)]
    if not isinstance(node, dict):
        return node
    assert isinstance(translated, dict)
    keys = list(node)
    kept = {}
    for i, key in enumerate(keys):
        if key.endswith("_fr") and key[:-3] in translated:
            assert keys[i - 1] == key[:-3] and node[key] == translated[key[:-3]]
            continue
        kept[key] = _split_added(node[key], translated.get(key))
    return kept


@pytest.mark.parametrize(
    "item", FILES[:1] + [f for f in FILES if f.kind == "jsonl"][:1], ids=lambda item: item.name
)
def test_the_pipeline_writes_the_same_bytes_as_the_format(item: CorpusFile, tmp_path: Path) -> None:
    data = corpus_bytes(item)
    src = tmp_path / Path(item.name).name
    shutil.copyfile(item.path, src)
    report = run_files([src], IdentityEngine, to="de,ja", out=tmp_path / "out", **_options(item))
    assert report.files_ok == 2 and report.untranslated == 0
    for lang in ("de", "ja"):
        assert (tmp_path / "out" / lang / src.name).read_bytes() == data
    report = run_files([src], PseudoEngine, out=tmp_path / "pseudo", **_options(item))
    assert report.files_ok == 1 and report.files[0].translated == report.files[0].segments > 0
    out = (tmp_path / "pseudo" / "de" / src.name).read_bytes()
    assert out != data
    if item.kind == "jsonl":
        assert len(json_lines(out)) == len(json_lines(data))
    else:
        before, after = csv_rows(data, DELIMITERS[item.kind]), csv_rows(out, DELIMITERS[item.kind])
        assert [len(row) for row in after] == [len(row) for row in before]
