"""Per-segment records from the pipeline: status, retry reason, flags with check ids and
severities, glossary terms, roles and weights; the spool's order and bounds."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from engines import FaultEngine, Faulty
from pipelines import run_pipeline
from review_runs import DictMemory

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.engine.pseudo import PseudoEngine, pseudo_localize
from hymt_cli.formats import ParquetOptions
from hymt_cli.glossary import load_glossaries
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import Flag, RecordSpool, Retry, SegmentRecord


def records_of(spool: RecordSpool, report: RunReport) -> list[list[dict[str, object]]]:
    """What the page gets: per output, its records as JSON."""
    return [[json.loads(line) for line in spool.lines(file)] for file in report.files]


def run(
    paths: Sequence[Path],
    engine,
    spool: RecordSpool,
    *,
    targets=("fr",),
    settings=None,
    batch_requests: int | None = None,
    **kwargs,
) -> RunReport:
    return run_pipeline(
        paths, engine, options=settings, to=targets, batch_requests=batch_requests, review=spool, **kwargs
    )


def test_every_segment_has_its_status_flags_and_retry_reason(tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    doc.write_text(
        "Plain one.\n\nRecall me.\n\nRetry me.\n\nFail me.\n\n2024 – 2025\n\nDrag the progress bar.\n",
        encoding="utf-8",
    )
    glossary = tmp_path / "terms.tsv"
    glossary.write_text(
        "source\ttarget\ttarget_lang\nprogress bar\tbarre de progression\tfr\n", encoding="utf-8"
    )

    def fault(r: GenerationRequest) -> Generation | None:
        if r.source_text == "Fail me." or (r.source_text == "Retry me." and not r.deterministic):
            return Generation("", "stop", 0)
        return Generation("«" + r.source_text + "»", "stop", 3)

    with RecordSpool() as spool:
        report = run(
            [doc],
            Faulty(fault),
            spool,
            glossary=load_glossaries([glossary]),
            memory=DictMemory({("fr", "Recall me.", ""): "Rappelle-moi."}),
        )
        (records,) = records_of(spool, report)
        counts = spool.counts(report.files[0])
    by_source = {r["source"]: r for r in records}
    assert [r["segment"] for r in records] == list(range(6))
    assert by_source["Plain one."] == {
        "unit": 0,
        "segment": 0,
        "status": "translated",
        "role": "line 1",
        "source": "Plain one.",
        "translation": "«Plain one.»",
    }
    assert by_source["Recall me."]["status"] == "memory"
    assert by_source["Recall me."]["translation"] == "Rappelle-moi."
    retried = by_source["Retry me."]
    assert retried["status"] == "retried" and retried["retry"] == [
        {"check": "empty", "message": "empty output"}
    ]
    assert "flags" not in retried
    failed = by_source["Fail me."]
    assert failed["status"] == "untranslated" and failed["translation"] == "Fail me."
    assert failed["flags"] == [{"check": "empty", "severity": "error", "message": "empty output"}]
    assert by_source["2024 – 2025"]["status"] == "as-is"
    termed = by_source["Drag the progress bar."]
    assert termed["terms"] == [["progress bar", "barre de progression"]]
    (flag,) = termed["flags"]
    assert (
        flag["check"] == "glossary"
        and flag["severity"] == "warning"
        and "barre de progression" in flag["message"]
    )
    assert termed["status"] == "retried" and termed["translation"] == "«Drag the progress bar.»"
    assert counts.segments == 6 and counts.attention == 3
    assert dict(counts.statuses) == {
        "translated": 1,
        "memory": 1,
        "retried": 2,
        "untranslated": 1,
        "as-is": 1,
    }
    assert dict(counts.checks) == {"empty": 2, "glossary": 1} and (counts.errors, counts.warnings) == (1, 1)
    assert spool.check_severity == {"empty": "error", "glossary": "warning"}


def test_repaired_segments_and_markdown_roles(tmp_path: Path) -> None:
    doc = tmp_path / "page.md"
    doc.write_text(
        "# Title *here*\n\n- Fix **my** tags.\n\n| Name | Value |\n|---|---|\n| Speed | Fast |\n\n"
        "> Quoted.\n\n![An alt text](a.png)\n",
        encoding="utf-8",
    )
    with RecordSpool() as spool:
        report = run([doc], FaultEngine("drop"), spool)  # tags dropped every time: repaired
        (records,) = records_of(spool, report)
    roles = {r["source"]: r.get("role") for r in records}
    assert roles == {
        "Title <s1>here</s1>": "heading 1",
        "Fix <s1>my</s1> tags.": "list item",
        "Name": "table header",
        "Value": "table header",
        "Speed": "table cell",
        "Fast": "table cell",
        "Quoted.": "blockquote",
        "An alt text": "attribute alt",
    }
    repaired = next(r for r in records if r["source"] == "Fix <s1>my</s1> tags.")
    assert repaired["status"] == "repaired" and repaired["translation"] == "«Fix» <s1>«my»</s1> «tags.»"
    (reason,) = repaired["retry"]
    assert reason["check"] == "tags" and "missing" in reason["message"]


def test_table_records_carry_their_column_weight_and_label(tmp_path: Path) -> None:
    table = tmp_path / "catalog.parquet"
    pq.write_table(
        pa.table(
            {
                "title": ["Red shoe", "Red shoe", "Blue hat", None],
                "body": ["<p>Soft <b>felt</b>.</p>", "<h2>Care</h2><p>Wash cold.</p>", "", "x"],
            }
        ),
        table,
    )
    settings = OptionSet([ParquetOptions(columns=("title", "body"), cell_format="html", rows_per_batch=2)])
    with RecordSpool() as spool:
        report = run([table], PseudoEngine(), spool, settings=settings)
        (records,) = records_of(spool, report)
    assert [(r["unit"], r["source"], r.get("role"), r.get("weight", 1)) for r in records] == [
        (0, "Red shoe", "column title", 2),
        (0, "Soft <s1>felt</s1>.", "column body", 1),
        (0, "Care", "column body · heading 2", 1),
        (0, "Wash cold.", "column body", 1),
        (1, "Blue hat", "column title", 1),
        (1, "x", "column body", 1),
    ]
    assert records[0]["label"] == "column 'title', value 'Red shoe'"
    assert records[0]["translation"] == pseudo_localize("Red shoe")


class Backwards(PseudoEngine):
    """Answers each batch last request first: units finish in another order."""

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        yield from reversed(list(enumerate(self.generate(requests))))


def test_records_come_back_in_document_order_whatever_order_the_answers_come_in(tmp_path: Path) -> None:
    docs = []
    for i in range(4):
        doc = tmp_path / f"doc{i}.txt"
        doc.write_text(
            "\n\n".join(f"Paragraph {i}.{j} of the text." for j in range(5)) + "\n", encoding="utf-8"
        )
        docs.append(doc)
    got = []
    for engine in (PseudoEngine(), Backwards()):
        with RecordSpool() as spool:
            report = run(docs, engine, spool, targets=("fr", "de"), batch_requests=3)
            got.append(records_of(spool, report))
    assert got[0] == got[1]
    assert [[r["segment"] for r in output] for output in got[0]] == [list(range(5))] * 8
    assert [output[0]["source"] for output in got[0]] == [
        f"Paragraph {i}.0 of the text." for i in range(4) for _ in range(2)
    ]


def test_the_spool_keeps_one_entry_per_unit_and_reads_units_in_order() -> None:
    output = FileReport("in.parquet", "out.parquet", "fr")
    with RecordSpool() as spool:
        for unit in (2, 0, 1):
            spool.add(
                output, unit, [SegmentRecord(unit, s, f"u{unit}s{s}", "t", "translated") for s in range(3)]
            )
        assert spool.spooled_units(output) == 3  # an index entry per unit, never per segment
        lines = [json.loads(line) for line in spool.lines(output)]
    assert [(r["unit"], r["segment"]) for r in lines] == [(u, s) for u in range(3) for s in range(3)]


def test_record_lines_cannot_end_a_script_element() -> None:
    hostile = "</script><script>alert(1)</script> <!-- <img src=x onerror=alert(2)> & \u2028"
    record = SegmentRecord(
        0,
        0,
        hostile,
        hostile,
        "untranslated",
        role=hostile,
        flags=(Flag("loop", "error", hostile),),
        retry=(Retry("tags", hostile),),
        terms=((hostile, hostile),),
        label=hostile,
    )
    output = FileReport("x.txt", "y.txt", "fr")
    with RecordSpool() as spool:
        spool.add(output, 0, [record])
        (line,) = list(spool.lines(output))
    text = line.decode("utf-8")
    assert not re.search(r"[<>&]", text)
    assert json.loads(text)["source"] == hostile


def test_a_segment_split_into_pieces_takes_its_worst_piece(tmp_path: Path) -> None:
    sentences = [
        "The first sentence is long enough to stand alone here.",
        "The second sentence breaks every answer it is given.",
        "The third sentence closes the paragraph quietly today.",
    ]
    doc = tmp_path / "long.txt"
    doc.write_text(" ".join(sentences) + "\n\nShort one.\n", encoding="utf-8")

    def fault(r: GenerationRequest) -> Generation | None:
        return Generation("", "stop", 0) if "breaks" in r.source_text else None

    engine = Faulty(fault)
    with RecordSpool() as spool:
        report = run_pipeline([doc], engine, context_tokens=160, review=spool)  # pieces of ~16 tokens
        (records,) = records_of(spool, report)
    assert len({r.source_text for r in engine.requests}) > 3  # the paragraph went in pieces
    long, short = records
    assert long["status"] == "untranslated" and long["translation"] == long["source"] == " ".join(sentences)
    assert long["flags"] == [{"check": "empty", "severity": "error", "message": "empty output"}]
    assert long["retry"] == [{"check": "empty", "message": "empty output"}]
    assert short["status"] == "translated"


def test_a_value_with_a_lone_surrogate_is_shown_kept_with_its_reason(tmp_path: Path) -> None:
    """Never sent (no Unicode text), so never translated: the review says so, as an error."""
    source = tmp_path / "locales" / "en" / "app.json"
    source.parent.mkdir(parents=True)
    source.write_text('{"ok": "Good morning", "bad": "Caf\\ud800 open"}\n', encoding="utf-8")
    with RecordSpool() as spool:
        report = run([source], PseudoEngine(), spool)
        (records,) = records_of(spool, report)
        assert spool.check_severity == {"lone-surrogate": "error"}
    assert [(r["status"], r.get("flags")) for r in records] == [
        ("translated", None),
        (
            "untranslated",
            [
                {
                    "check": "lone-surrogate",
                    "severity": "error",
                    "message": "holds a lone surrogate U+D800 (no Unicode text): kept as in the source",
                }
            ],
        ),
    ]
    assert records[1]["translation"] == records[1]["source"]
