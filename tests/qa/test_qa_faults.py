"""QA through the pipeline: an engine that changes a number, a price, a URL, an email and a
SKU, and drops a bracket. Each is caught by the right check at the right severity (errors:
retried, then the source kept; warnings: the answer kept and flagged), and the report, its
schema and the summary count it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pyarrow as pa
import pyarrow.parquet as pq
from engines import QA_EXPECTED, QA_PRODUCT, Drifting, QaFaultEngine
from pipelines import run_pipeline
from rich.console import Console

from hymt_cli.cli.summary import summarize
from hymt_cli.engine.base import BatchEngine, Engine, Generation, GenerationRequest
from hymt_cli.engine.pseudo import PseudoEngine, pseudo_localize
from hymt_cli.formats.parquet import ParquetOptions
from hymt_cli.options import OptionSet
from hymt_cli.pipeline.flagging import MAX_FLAGS
from hymt_cli.qa import QaOptions, QaSuite
from hymt_cli.reporting.report import RunReport

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report-3.schema.json").read_text(encoding="utf-8"))
PRODUCT, EXPECTED = QA_PRODUCT, QA_EXPECTED


def run(
    tmp_path: Path,
    engine: Engine,
    text: str = PRODUCT,
    *,
    qa: QaOptions | None = None,
    name: str = "product.txt",
    targets: tuple[str, ...] = ("de",),
    **options: object,
) -> RunReport:
    path = tmp_path / name
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    formats = options.pop("formats", None)
    return run_pipeline(
        [path],
        engine,
        options=formats,
        to=targets,
        out_dir=tmp_path / "out",  # type: ignore[arg-type]
        qa=QaSuite(qa),
        **options,
    )


def summary_of(report: RunReport) -> str:
    out = io.StringIO()
    summarize(report, Console(file=out, width=400, color_system=None), dry_run=False, quiet=False)
    return out.getvalue()


def test_each_fault_is_caught_by_its_check_at_its_severity(tmp_path: Path) -> None:
    engine = QaFaultEngine(PseudoEngine())
    report = run(tmp_path, engine)
    (file,) = report.files
    found = {flag.segment: (flag.check, flag.severity) for flag in file.flags}
    assert found == EXPECTED
    assert len(file.flags) == len(EXPECTED)  # nothing else flagged
    # errors: retried once, deterministically, then the segment keeps its source
    assert sorted(r.source_text for r in engine.requests if r.deterministic) == sorted(
        PRODUCT.split("\n\n")[i].strip() for i, (_, severity) in EXPECTED.items() if severity == "error"
    )
    assert file.untranslated == 4 and file.translated == 2 and file.retried == 4
    out = (tmp_path / "out" / "de" / "product.txt").read_text(encoding="utf-8")
    paragraphs = out.split("\n\n")
    assert paragraphs[:4] == PRODUCT.split("\n\n")[:4]  # the sources, kept
    assert "XR-3000" in paragraphs[4] and paragraphs[4].startswith("⟦")  # warnings: the answer kept
    assert "(ƥĺáíñ" not in paragraphs[5] and "ĝĺóššý" in paragraphs[5] and ")" not in paragraphs[5]
    # each flag says what changed, and quotes the source and the answer judged
    by_check = {flag.check + str(flag.segment): flag for flag in file.flags}
    assert by_check["number0"].message == "number changed: 24 → 12"
    assert by_check["number1"].message == "number changed: 1,299.00 → 1,399.00"
    assert by_check["url2"].message == (
        "URL changed: https://shop.example.com/xr2000/manual → https://shop.example.org/xr2000/manual"
    )
    assert by_check["email3"].message == "email address changed: support@example.com → suport@example.com"
    assert by_check["sku4"].message == "model or SKU changed: XR-2000 → XR-3000"
    assert by_check["brackets5"].message == "round brackets unbalanced in the answer (1 ( not closed)"
    assert by_check["number0"].source == "Warranty: 24 months on every model."
    assert "12" in by_check["number0"].answer and by_check["number0"].answer.startswith("⟦")
    # the problems list still says why the four sources were kept
    assert [p.segment for p in file.problems] == [0, 1, 2, 3]
    assert file.problems[0].problem == "number changed: 24 → 12"


def test_the_report_and_the_summary_count_every_flag(tmp_path: Path) -> None:
    report = run(tmp_path, QaFaultEngine(PseudoEngine()))
    assert report.flag_counts == {"number": 2, "url": 1, "email": 1, "sku": 1, "brackets": 1}
    assert report.flagged("error") == 4 and report.flagged("warning") == 2
    data = report.to_json()
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["qa"]["errors"] == 4 and data["qa"]["warnings"] == 2
    assert data["qa"]["levels"]["number"] == "error" and data["qa"]["levels"]["sku"] == "warning"
    assert data["files"][0]["flag_counts"] == {"number": 2, "url": 1, "email": 1, "sku": 1, "brackets": 1}
    text = summary_of(report)
    assert (
        "qa: 4 error(s) (answer rejected, source kept): email 1, number 2, url 1; 2 warning(s) "
        "(answer kept): brackets 1, sku 1 (details: --report FILE)"
    ) in text
    assert "error: qa number:" in text and "segment 0 (de): number changed: 24 → 12" in text
    assert "  ... 1 more (details: --report FILE)" in text  # five shown, six flags


def test_a_retry_that_fixes_the_answer_leaves_no_flag(tmp_path: Path) -> None:
    report = run(tmp_path, QaFaultEngine(PseudoEngine(), fix_on_retry=True))
    (file,) = report.files
    assert file.untranslated == 0 and file.retried == 4
    assert {(f.segment, f.check) for f in file.flags} == {
        (4, "sku"),
        (5, "brackets"),
    }  # warnings: never retried


def test_options_choose_errors_warnings_and_off(tmp_path: Path) -> None:
    qa = QaOptions.parse("number=warning,sku=error,brackets=off")
    engine = QaFaultEngine(PseudoEngine())
    report = run(tmp_path, engine, qa=qa)
    (file,) = report.files
    found = {flag.segment: (flag.check, flag.severity) for flag in file.flags}
    assert found == {
        0: ("number", "warning"),
        1: ("number", "warning"),
        2: ("url", "error"),
        3: ("email", "error"),
        4: ("sku", "error"),
    }
    assert file.untranslated == 3  # url, email, sku: sources kept; the numbers' answers kept
    assert "12 Monate" not in (tmp_path / "out" / "de" / "product.txt").read_text()
    assert report.qa_levels is not None and report.qa_levels["brackets"] == "off"


def test_a_locale_format_is_not_a_change_but_the_wrong_locale_is(tmp_path: Path) -> None:
    class Localizing(BatchEngine):
        """Writes the price the German way, whatever the target (wrong for Japanese)."""

        name = "localizing"

        def generate(self, requests: list[GenerationRequest]) -> list[Generation]:  # type: ignore[override]
            return [
                Generation(pseudo_localize(r.source_text).replace("$1,299.00", "1.299,00 $"), "stop", 1)
                for r in requests
            ]

    report = run(tmp_path, Localizing(), "Price: $1,299.00 including shipping.\n", targets=("de", "ja"))
    de, ja = report.files
    assert de.lang == "de" and not de.flags and de.translated == 1
    assert ja.lang == "ja" and [(f.check, f.severity, f.message) for f in ja.flags] == [
        ("number", "error", "number changed: 1,299.00 → 1.299,00")
    ]


def test_a_table_cell_is_flagged_once_for_every_row_it_stands_for(tmp_path: Path) -> None:
    table = pa.table(
        {
            "sku": ["A-1", "A-2", "A-3", "B-1"],
            "title": ["Warranty: 24 months.", "Warranty: 24 months.", "Warranty: 24 months.", "Plain paper."],
        }
    )
    pq.write_table(table, tmp_path / "catalog.parquet")
    report = run(
        tmp_path,
        QaFaultEngine(PseudoEngine()),
        name="catalog.parquet",
        formats=OptionSet([ParquetOptions(columns=("title",))]),
    )
    (file,) = report.files
    (flag,) = file.flags
    assert (flag.check, flag.severity, flag.occurrences) == ("number", "error", 3)
    assert flag.label is not None and "title" in flag.label
    assert file.flag_counts == {"number": 3} and file.untranslated == 3
    jsonschema.Draft202012Validator(SCHEMA).validate(report.to_json())


def test_the_report_keeps_the_first_flags_of_a_file_and_counts_the_rest(tmp_path: Path) -> None:
    text = "".join(f"Item {i}: warranty 24 months.\n\n" for i in range(MAX_FLAGS + 30))
    report = run(tmp_path, QaFaultEngine(PseudoEngine(), ["number"]), text)
    (file,) = report.files
    assert len(file.flags) == MAX_FLAGS and file.flags_omitted == 30
    assert file.flag_counts == {"number": MAX_FLAGS + 30}
    assert [f.segment for f in file.flags] == list(range(MAX_FLAGS))
    jsonschema.Draft202012Validator(SCHEMA).validate(report.to_json())


def test_the_same_source_translated_two_ways_is_a_report_item(tmp_path: Path) -> None:
    # one window per document: the second document's "Add to cart." is asked again
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("Add to cart.\n\nIn stock.\n", encoding="utf-8")
    report = run_pipeline(
        [tmp_path / n for n in ("a.txt", "b.txt")],
        Drifting,
        out_dir=tmp_path / "out",
        window_segments=1,
        qa=QaSuite(),
    )
    a, b = report.files
    assert not a.flags  # the first translation, in document order, is the reference
    assert [(f.segment, f.check, f.severity) for f in b.flags] == [
        (0, "inconsistent", "warning"),
        (1, "inconsistent", "warning"),
    ]
    assert b.flags[0].message == "translated differently elsewhere in this run: first as '⟦Áđđ ţó çáŕţ ···.⟧'"
    assert b.flags[0].answer.startswith("⟦ÁĹŢ ") and b.translated == 2  # kept: a report item, not a retry
    assert report.flag_counts == {"inconsistent": 2}
    assert QaSuite(QaOptions.parse("inconsistent=off")).consistency is None
