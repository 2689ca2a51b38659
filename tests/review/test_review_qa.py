"""The QA checks' findings in the review records: an error on the segment whose source was kept
(each check that rejected the answer, on its own), a warning on the translation kept, the reasons
of a retry, and the run's inconsistent translations, added to records already spooled; and what
the model was told besides the text (a segment's context)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from engines import QA_EXPECTED, QA_PRODUCT, Drifting, QaFaultEngine
from pipelines import run_pipeline

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.pipeline import PlannedRequest
from hymt_cli.qa import QaSuite
from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import Flag, RecordSpool, Retry, SegmentRecord

ROOT = Path(__file__).resolve().parents[2]


def records_of(spool: RecordSpool, report: RunReport) -> list[list[dict[str, object]]]:
    return [[json.loads(line) for line in spool.lines(file)] for file in report.files]


def product_run(
    tmp_path: Path, engine: QaFaultEngine, spool: RecordSpool, text: str = QA_PRODUCT
) -> RunReport:
    path = tmp_path / "product.txt"
    path.write_text(text, encoding="utf-8")
    return run_pipeline([path], engine, to="de", out_dir=tmp_path / "out", qa=QaSuite(), review=spool)


def test_each_qa_finding_is_on_its_segment_with_its_check_severity_and_message(tmp_path: Path) -> None:
    with RecordSpool() as spool:
        report = product_run(tmp_path, QaFaultEngine(PseudoEngine()), spool)
        ((file,), (records,)) = report.files, records_of(spool, report)
        counts = spool.counts(file)
        severities = spool.check_severity
    reported = {flag.segment: (flag.check, flag.severity, flag.message) for flag in file.flags}
    assert {segment: found[:2] for segment, found in reported.items()} == QA_EXPECTED
    for record in records:
        segment = record["segment"]
        check, severity, message = reported[segment]
        # the page says what the report says, on the same segment
        assert record["flags"] == [{"check": check, "severity": severity, "message": message}]
        if severity == "error":  # rejected twice: the source kept, the first answer's reason once
            assert record["status"] == "untranslated" and record["translation"] == record["source"]
            assert record["retry"] == [{"check": check, "message": message}]
        else:  # kept and flagged, never retried
            assert record["status"] == "translated" and record["translation"] != record["source"]
            assert "retry" not in record
    assert dict(counts.checks) == {"number": 2, "url": 1, "email": 1, "sku": 1, "brackets": 1}
    assert (counts.errors, counts.warnings, counts.attention, counts.segments) == (4, 2, 6, 6)
    assert severities == {
        "brackets": "warning",
        "email": "error",
        "number": "error",
        "sku": "warning",
        "url": "error",
    }


def test_an_answer_that_fails_several_checks_names_each(tmp_path: Path) -> None:
    text = "Support: 24 hours a day at https://shop.example.com/help for you.\n"
    with RecordSpool() as spool:
        report = product_run(tmp_path, QaFaultEngine(PseudoEngine(), ["number", "url"]), spool, text)
        ((failed,),) = records_of(spool, report)
    assert [(f["check"], f["severity"]) for f in failed["flags"]] == [("number", "error"), ("url", "error")]
    assert [reason["check"] for reason in failed["retry"]] == ["number", "url"]
    fixed_engine = QaFaultEngine(PseudoEngine(), ["number", "url"], fix_on_retry=True)
    with RecordSpool() as spool:
        report = product_run(tmp_path, fixed_engine, spool, text)
        ((fixed,),) = records_of(spool, report)
        counts, severities = spool.counts(report.files[0]), spool.check_severity
    assert fixed["status"] == "retried" and "flags" not in fixed
    assert fixed["retry"] == [
        {"check": "number", "message": "number changed: 24 → 12"},
        {
            "check": "url",
            "message": "URL changed: https://shop.example.com/help → https://shop.example.org/help",
        },
    ]
    # a filter by either check finds it; neither is more than the reason of a retry that worked
    assert dict(counts.checks) == {"number": 1, "url": 1} and (counts.errors, counts.warnings) == (0, 0)
    assert severities == {"number": "info", "url": "info"}


def test_inconsistent_translations_reach_records_spooled_before_the_run_ended(tmp_path: Path) -> None:
    paths = []
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("Add to cart.\n\nIn stock.\n\nShipped today.\n", encoding="utf-8")
        paths.append(tmp_path / name)
    with RecordSpool() as spool:
        # one window per document: b.txt's texts are asked again, and answered another way
        report = run_pipeline(
            paths, Drifting, out_dir=tmp_path / "out", window_segments=1, qa=QaSuite(), review=spool
        )
        a, b = records_of(spool, report)
        counts = [spool.counts(file) for file in report.files]
        severities = spool.check_severity
        assert [spool.spooled_units(file) for file in report.files] == [1, 1]  # a unit each
    assert not any("flags" in record for record in a)
    messages = [flag.message for flag in report.files[1].flags]
    assert len(messages) == 3 and messages[0].startswith("translated differently elsewhere in this run")
    assert [record["flags"] for record in b] == [
        [{"check": "inconsistent", "severity": "warning", "message": message}] for message in messages
    ]
    assert [record["segment"] for record in b] == [0, 1, 2] and all(r["status"] == "translated" for r in b)
    assert (counts[0].attention, dict(counts[0].checks)) == (0, {})
    assert (counts[1].attention, dict(counts[1].checks), counts[1].warnings) == (3, {"inconsistent": 3}, 3)
    assert severities == {"inconsistent": "warning"}


def test_a_late_flag_rewrites_its_record_only_and_counts_once() -> None:
    output, other = FileReport("in.txt", "out.txt", "fr"), FileReport("x.txt", "y.txt", "fr")
    records = [
        SegmentRecord(0, 0, "One.", "Un.", "translated"),
        SegmentRecord(0, 1, "Two.", "Deux.", "retried", retry=(Retry("inconsistent", "odd"),)),
        SegmentRecord(0, 2, "Three.", "Trois.", "translated", flags=(Flag("sku", "warning", "changed"),)),
    ]
    late = Flag("inconsistent", "warning", "translated differently elsewhere in this run")
    with RecordSpool() as spool:
        spool.add(output, 0, records)
        spool.add(output, 1, [SegmentRecord(1, 3, "Four.", "Quatre.", "translated")])
        before = list(spool.lines(output))
        for segment in (0, 1, 2):
            spool.flag_later(output, 0, segment, late)
        spool.flag_later(output, 0, 2, late)  # the same flag twice: once
        spool.flag_later(output, 7, 0, late)  # a unit never spooled, an output never seen: left alone
        spool.flag_later(other, 0, 0, late)
        after = list(spool.lines(output))
        counts = spool.counts(output)
        assert spool.counts(other).segments == 0
    assert after[3] == before[3]  # another unit: untouched
    got = [json.loads(line) for line in after[:3]]
    assert [r["flags"][-1] for r in got] == [late.to_json()] * 3 and len(got[2]["flags"]) == 2
    assert [SegmentRecord.from_json(r) for r in got] == [
        SegmentRecord(0, 0, "One.", "Un.", "translated", flags=(late,)),
        SegmentRecord(0, 1, "Two.", "Deux.", "retried", flags=(late,), retry=(Retry("inconsistent", "odd"),)),
        SegmentRecord(
            0, 2, "Three.", "Trois.", "translated", flags=(Flag("sku", "warning", "changed"), late)
        ),
    ]
    # every segment needed a look once, each check counted once per segment, three more warnings
    assert counts.to_json() == {
        "segments": 4,
        "attention": 3,
        "statuses": {"retried": 1, "translated": 3},
        "checks": {"inconsistent": 3, "sku": 1},
        "errors": 0,
        "warnings": 4,
    }


def test_taking_a_record_back_leaves_no_empty_count() -> None:
    output = FileReport("in.txt", "out.txt", "fr")
    with RecordSpool() as spool:
        spool.add(output, 0, [SegmentRecord(0, 0, "One.", "One.", "memory")])
        spool.flag_later(output, 0, 0, Flag("untranslated", "warning", "the answer is the source"))
        counts = spool.counts(output).to_json()
    assert counts["statuses"] == {"memory": 1} and counts["checks"] == {"untranslated": 1}


def told(
    tmp_path: Path, paths: Sequence[Path], **options: object
) -> tuple[list[dict[str, object]], dict[str, set[str]]]:
    """The records of a run, and by text what its requests told the model besides it (one text
    may be asked in several contexts: the plural forms of a message)."""
    contexts: dict[str, set[str]] = defaultdict(set)

    def planned(requests: Sequence[PlannedRequest]) -> None:
        for r in requests:
            contexts[r.core].add(r.context)

    with RecordSpool() as spool:
        report = run_pipeline(
            paths, PseudoEngine(), out_dir=tmp_path / "out", review=spool, on_planned=planned, **options
        )
        records = [record for output in records_of(spool, report) for record in output]
    return records, contexts


def test_a_record_shows_what_the_model_was_told_besides_the_text(tmp_path: Path) -> None:
    records, contexts = told(tmp_path, [ROOT / "samples/app/lib/l10n/app_en.arb"])
    title = next(r for r in records if r["source"] == "Acme Notes")
    assert title["context"] == "Key: appTitle\nThe application name shown in the title bar"
    for record in records:  # exactly what its request said, where it said something
        if record["status"] == "as-is":  # nothing asked (no letters; a plural form French lacks)
            assert "context" not in record
        else:
            assert record.get("context", "") in contexts.get(str(record["source"]), {""})
    assert sum("context" in r for r in records) > 5

    doc = tmp_path / "page.md"
    doc.write_text("# Orbit Desk\n\n## Sync\n\nYour notes stay on the train.\n\n42\n", encoding="utf-8")
    on, contexts = told(tmp_path, [doc], context="on")
    assert [(r["source"], r.get("context")) for r in on] == [
        ("Orbit Desk", None),
        ("Sync", "Orbit Desk"),
        ("Your notes stay on the train.", "Orbit Desk\nSync"),
        ("42", None),  # nothing asked, nothing told
    ]
    assert contexts["Your notes stay on the train."] == {"Orbit Desk\nSync"}
    off, _ = told(tmp_path, [doc])  # a document's context is told only with --context on
    assert not any("context" in r for r in off)
