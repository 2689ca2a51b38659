"""Context for catalog cells (`--context-columns`, HY-MT's context prompt): in every table format,
one cell text in rows with different context values is one request per context, and each row
gets its own translation back; the identity engine still writes the input back; a context column
that is not there (or holds no text) is one line naming the file; `--context off` ignores the
columns; the translation memory keeps the two apart on a rerun."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clirun import hymt
from engines import CountingEngine
from pipelines import run_pipeline
from table_helpers import csv_rows, json_lines

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import DelimitedOptions, TableOptions
from hymt_cli.memory import PipelineMemory, TranslationMemory, build_fingerprint
from hymt_cli.model.prompts import TEMPLATE_VERSION
from hymt_cli.model.tokenizer import ChatTemplateTokenizer
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import RunReport
from samples import samples_of, unchanged

FORMATS = ("parquet", "csv", "tsv", "jsonl")
# (id, title, description): one description in three contexts (two titles and none), twice in one
ROWS = [
    (1, "Red mug", "Holds 350 ml"),
    (2, "Blue mug", "Holds 350 ml"),
    (3, "Red mug", "Holds 350 ml"),
    (4, "", "Holds 350 ml"),
    (5, "Blue mug", "42"),
]
CONTEXT_NOTE = "\n参考上面的信息"  # what follows the context in HY-MT's context prompt


class ContextTagger(BatchEngine):
    """Answers each request with its text and the context it was told (read back from the prompt
    that the real chat template made): `Holds 350 ml (for Red mug)`, `(alone)` without one."""

    name = "tagger"

    def __init__(self, tokenizer: ChatTemplateTokenizer) -> None:
        self.tokenizer = tokenizer
        self.contexts: list[str] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for request in requests:
            prompt = self.tokenizer.hf_tokenizer.decode(request.prompt_token_ids, skip_special_tokens=True)
            context = prompt.split(CONTEXT_NOTE)[0] if CONTEXT_NOTE in prompt else ""
            self.contexts.append(context)
            told = ", ".join(line.split(": ", 1)[1] for line in context.splitlines())
            out.append(Generation(f"{request.source_text} ({f'for {told}' if told else 'alone'})", "stop", 5))
        return out


def _table(fmt: str, title: str = "title") -> bytes:
    """ROWS as a file of the format (Parquet: the description dictionary-encoded, a null title)."""
    if fmt == "parquet":
        table = pa.table(
            {
                "id": [r[0] for r in ROWS],
                title: [r[1] or None for r in ROWS],
                "description": pa.array([r[2] for r in ROWS]).dictionary_encode(),
                "price": [9.5] * len(ROWS),
            }
        )
        sink = io.BytesIO()
        pq.write_table(table, sink)
        return sink.getvalue()
    if fmt == "jsonl":
        lines = [
            json.dumps({"id": i, **({title: t} if t else {}), "description": d, "price": 9.5})
            for i, t, d in ROWS
        ]
        return ("\n".join(lines) + "\n").encode()
    sep = "\t" if fmt == "tsv" else ","
    lines = [sep.join(["id", title, "description", "price"])]
    lines += [sep.join([str(i), t, d, "9.5"]) for i, t, d in ROWS]
    return ("\r\n".join(lines) + "\r\n").encode()


def _column(fmt: str, data: bytes, name: str) -> list[str | None]:
    """A column of an output as its format's reader reads it."""
    if fmt == "parquet":
        return pq.read_table(io.BytesIO(data)).column(name).to_pylist()
    if fmt == "jsonl":
        return [line.get(name) for line in json_lines(data)]  # type: ignore[attr-defined]
    rows = csv_rows(data, "\t" if fmt == "tsv" else ",")
    at = rows[0].index(name)
    return [row[at] for row in rows[1:]]


def _run(
    src: Path,
    engine: BatchEngine,
    tokenizer: ChatTemplateTokenizer | None,
    *,
    context: str = "auto",
    memory: PipelineMemory | None = None,
    dry_run: bool = False,
    **table: object,
) -> RunReport:
    table.setdefault("columns", ("title", "description"))
    options = OptionSet([TableOptions(rows_per_batch=2, **table), DelimitedOptions()])  # type: ignore[arg-type]
    return run_pipeline(
        [src],
        engine,
        options=options,
        to="de",
        out_dir=src.parent / "out",
        context=context,
        tokenizer=tokenizer,
        memory=memory,
        dry_run=dry_run,
    )


@pytest.mark.parametrize("add_columns", [False, True], ids=["replace", "add"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_one_text_in_two_rows_contexts_is_two_requests_and_each_row_gets_its_own(
    fmt: str, add_columns: bool, tmp_path: Path, tiny_tokenizer: ChatTemplateTokenizer
) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt))
    engine = ContextTagger(tiny_tokenizer)
    report = _run(src, engine, tiny_tokenizer, context_columns=("title",), add_columns=add_columns)
    assert report.files_failed == 0, [f.error for f in report.files]
    # Red mug, Blue mug (a context column is never told its own value), and the description in
    # the context of each title and of none; rows 1 and 3 share one request.
    assert sorted(engine.contexts) == ["", "", "", "title: Blue mug", "title: Red mug"]
    assert report.unique_segments == 5
    out = (tmp_path / "out" / "de" / src.name).read_bytes()
    suffix = "_de" if add_columns else ""
    assert _column(fmt, out, "description" + suffix) == [
        "Holds 350 ml (for Red mug)",
        "Holds 350 ml (for Blue mug)",
        "Holds 350 ml (for Red mug)",
        "Holds 350 ml (alone)",
        "42",
    ]
    titles = _column(fmt, out, "title" + suffix)
    assert [t for t in titles if t] == [
        "Red mug (alone)",
        "Blue mug (alone)",
        "Red mug (alone)",
        "Blue mug (alone)",
    ]
    if add_columns:
        assert _column(fmt, out, "description") == [r[2] for r in ROWS]
    if fmt == "parquet":  # the description stays dictionary-encoded, each row with its own entry
        schema = pq.read_table(src).schema
        if add_columns:
            for name in ("title", "description"):
                schema = schema.append(schema.field(name).with_name(f"{name}_de"))
        assert pq.read_table(io.BytesIO(out)).schema.equals(schema)


@pytest.mark.parametrize("fmt", FORMATS)
def test_context_on_tells_the_title_column_to_the_others(
    fmt: str, tmp_path: Path, tiny_tokenizer: ChatTemplateTokenizer
) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt, title="Title"))  # any case
    engine = ContextTagger(tiny_tokenizer)
    for mode, requests in (("auto", 3), ("on", 5)):
        engine.contexts.clear()
        report = _run(src, engine, tiny_tokenizer, context=mode, columns=("Title", "description"))
        assert report.files_failed == 0 and report.unique_segments == requests, mode
    assert sorted(engine.contexts) == ["", "", "", "Title: Blue mug", "Title: Red mug"]
    out = (tmp_path / "out" / "de" / src.name).read_bytes()
    assert _column(fmt, out, "description")[:2] == [
        "Holds 350 ml (for Red mug)",
        "Holds 350 ml (for Blue mug)",
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_context_off_ignores_the_context_columns(
    fmt: str, tmp_path: Path, tiny_tokenizer: ChatTemplateTokenizer
) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt))
    engine = ContextTagger(tiny_tokenizer)
    report = _run(src, engine, tiny_tokenizer, context="off", context_columns=("title", "no such column"))
    assert report.files_failed == 0, [f.error for f in report.files]
    assert engine.contexts == ["", "", ""] and report.unique_segments == 3
    out = (tmp_path / "out" / "de" / src.name).read_bytes()
    assert set(_column(fmt, out, "description")) == {"Holds 350 ml (alone)", "42"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_identity_writes_the_input_back_with_context(fmt: str, tmp_path: Path) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt))
    for mode, named in (("auto", ("title", "price" if fmt in ("csv", "tsv") else "title")), ("on", ())):
        report = _run(src, IdentityEngine(), None, context=mode, context_columns=named)
        assert report.files_failed == 0, [f.error for f in report.files]
        out = tmp_path / "out" / "de" / src.name
        if fmt == "parquet":
            before, after = pq.read_table(src), pq.read_table(out)
            assert after.schema.equals(before.schema, check_metadata=True) and after.equals(before)
        else:
            assert out.read_bytes() == src.read_bytes()


@pytest.mark.parametrize("sample", [s for f in FORMATS for s in samples_of(f)], ids=lambda s: s.name)
def test_every_table_sample_comes_back_unchanged_with_context_on(sample, tmp_path: Path) -> None:
    report = run_pipeline(
        [sample.path], IdentityEngine(), options=sample.options, to="en", out_dir=tmp_path, context="on"
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    assert unchanged(sample, Path(report.files[0].output))  # (Magento's i18n/en_US.csv: en.csv)


MISSING = {
    "parquet": "no context column 'vendor' (--context-columns); string columns: title, description",
    "csv": "no context column 'vendor' (--context-columns); columns: id, title, description, price",
    "tsv": "no context column 'vendor' (--context-columns); columns: id, title, description, price",
    "jsonl": "no line has the context field 'vendor' (--context-columns); fields of the first line: id, "
    "title, description, price",
}
NOT_TEXT = {
    "parquet": ("price", "context column 'price' is double, not text (--context-columns)"),
    "jsonl": ("id", "line 1, column 8: context field 'id' holds a number, not a string (--context-columns)"),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_context_column_that_is_not_there_or_holds_no_text_is_one_line_naming_the_file(
    fmt: str, tmp_path: Path
) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt))
    cases = [("vendor", MISSING[fmt])] + ([NOT_TEXT[fmt]] if fmt in NOT_TEXT else [])
    for column, message in cases:
        report = _run(src, IdentityEngine(), None, context_columns=("title", column))
        (failed,) = report.files
        assert failed.status == "failed" and failed.error is not None
        assert failed.error.startswith(f"{src}: ") and message in failed.error, failed.error
        assert "\n" not in failed.error
        assert not (tmp_path / "out" / "de" / src.name).exists()


def test_the_cli_says_which_context_column_is_missing_in_one_line(tmp_path: Path) -> None:
    src = tmp_path / "mugs.csv"
    src.write_bytes(_table("csv"))
    args = (
        "translate",
        str(src),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--no-cache",
        "-o",
        str(tmp_path / "o"),
    )
    result = hymt(*args, "--columns", "description", "--context-columns", "title,Vendor", text=True)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if "Vendor" in line]
    assert len(lines) == 1 and str(src) in lines[0] and "no context column 'Vendor'" in lines[0], (
        result.stderr
    )
    ignored = hymt(
        *args, "--columns", "description", "--context-columns", "Vendor", "--context", "off", text=True
    )
    assert ignored.returncode == 0, ignored.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_memory_keeps_one_text_in_two_contexts_apart(
    fmt: str, tmp_path: Path, tiny_tokenizer: ChatTemplateTokenizer
) -> None:
    src = tmp_path / f"mugs.{fmt}"
    src.write_bytes(_table(fmt))
    key = build_fingerprint(
        engine="tagger",
        model=None,
        revision=None,
        sampling=None,
        template_version=TEMPLATE_VERSION,
        model_free=True,
    )
    outputs = []
    for engine in (ContextTagger(tiny_tokenizer), CountingEngine(IdentityEngine())):
        memory = PipelineMemory(TranslationMemory.open(tmp_path / "tm.sqlite3"), key, None)
        try:
            report = _run(src, engine, tiny_tokenizer, memory=memory, context_columns=("title",))
        finally:
            memory.close()
        assert report.files_failed == 0
        outputs.append((tmp_path / "out" / "de" / src.name).read_bytes())
    assert engine.requested == [] and report.engine_requests == 0 and report.cache_hits == 5
    assert outputs[1] == outputs[0]
    assert _column(fmt, outputs[1], "description")[:2] == [
        "Holds 350 ml (for Red mug)",
        "Holds 350 ml (for Blue mug)",
    ]
