"""Glossaries through the pipeline and the CLI: prompts, retries, reports, --strict, pseudo."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engines import Faulty
from pipelines import run_pipeline

from hymt_cli.cli.app import main
from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.errors import ExitCode
from hymt_cli.glossary import Entry, Glossary

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "glossary-demo" / "getting-started.txt"
GLOSSARIES = [ROOT / "glossaries" / n for n in ("product-terms.tsv", "ui-labels.csv", "brand.json")]
TERMS = {"Cloud Storage": "Cloud-Speicher", "access key": "Zugriffsschlüssel", "region": "Region"}


def glossary_ignoring(obey_on_retry: bool = False, fail_retry: bool = False) -> Faulty:
    """Fault injection: 'translates' by upper-casing, ignoring the glossary; with `obey_on_retry`
    the deterministic retry applies the terms (as a model given a second chance might)."""

    def answer(r: GenerationRequest) -> Generation:
        text = re.sub(
            r"<[^<>]*>|[a-z]+",
            lambda m: m.group(0) if m.group(0)[0] == "<" else m.group(0).upper(),
            r.source_text,
        )
        if r.deterministic and fail_retry:
            text = ""
        elif r.deterministic and obey_on_retry:
            text = r.source_text
            for source, target in TERMS.items():
                text = re.sub(re.escape(source), target, text, flags=re.I)
        return Generation(text, "stop", 5)

    return Faulty(answer)


def run(tmp_path: Path, text: str, engine, glossary: Glossary):
    src = tmp_path / "doc.txt"
    src.write_text(text, encoding="utf-8")
    report = run_pipeline([src], engine, to="de", out_dir=tmp_path / "out", glossary=glossary)
    return report, (tmp_path / "out" / "de" / "doc.txt").read_text(encoding="utf-8")


GLOSSARY = Glossary([Entry(s, t, "de") for s, t in TERMS.items()] + [Entry("Acme", "", case_sensitive=True)])
DOC = "Cloud Storage per region.\n\nAn access key for Acme.\n\nNo terms here.\n"


def test_misses_detected_retried_kept_and_reported(tmp_path):
    engine = glossary_ignoring()
    report, output = run(tmp_path, DOC, engine, GLOSSARY)
    file = report.files[0]
    # retried once, deterministically, only the two segments with terms
    calls = sorted((r.source_text, r.deterministic) for r in engine.requests)
    assert calls[:2] == [("An access key for <s1/>.", False), ("An access key for <s1/>.", True)]
    assert sum(d for _, d in calls) == 2 and report.retried == 2
    # the output is kept (not the source), DNT restored, misses recorded
    assert output == "CLOUD STORAGE PER REGION.\n\nAN ACCESS KEY FOR Acme.\n\nNO TERMS HERE.\n"
    assert file.untranslated == 0 and file.translated == 3
    stats = file.glossary
    assert (stats.expected, stats.found, stats.missed) == (
        4,
        2,
        2,
    )  # region (case-insensitive) and Acme found
    assert [(m.segment, m.term, m.expected) for m in stats.misses] == [
        (0, "Cloud Storage", "Cloud-Speicher"),
        (1, "access key", "Zugriffsschlüssel"),
    ]
    assert report.to_json()["glossary"] == {"expected": 4, "found": 2, "missed": 2}


def test_a_successful_retry_clears_the_miss(tmp_path):
    report, output = run(tmp_path, DOC, glossary_ignoring(obey_on_retry=True), GLOSSARY)
    assert output.startswith("Cloud-Speicher per Region.\n\nAn Zugriffsschlüssel for Acme.")
    assert report.files[0].glossary.missed == 0 and report.retried == 2


def test_a_broken_retry_keeps_the_first_output(tmp_path):
    report, output = run(tmp_path, DOC, glossary_ignoring(fail_retry=True), GLOSSARY)
    assert output.startswith("CLOUD STORAGE PER REGION.")
    assert report.files[0].untranslated == 0 and report.files[0].glossary.missed == 2


def test_dnt_terms_survive_pseudo_byte_for_byte(tmp_path):
    glossary = Glossary([Entry("Acme Cloud", ""), Entry("kubectl", "", case_sensitive=True)])
    # short lines: the pseudo engine's padding trips the loop check on long segments (see report)
    doc = "Use ACME cloud\nRun kubectl now\nkubectl on Acme Cloud\n"
    src = tmp_path / "doc.txt"
    src.write_text(doc, encoding="utf-8")
    code = main(
        [
            "translate",
            str(src),
            "--to",
            "fr",
            "--engine",
            "pseudo",
            "--segment-by",
            "line",
            "-q",
            "--glossary",
            str(_write(tmp_path, glossary)),
            "--out",
            str(tmp_path / "out"),
            "--strict",
        ]
    )
    output = (tmp_path / "out" / "fr" / "doc.txt").read_text(encoding="utf-8").splitlines()
    assert code == ExitCode.OK
    assert [line[: line.index(" ·")] for line in output] == [
        "⟦Úšé ACME cloud",
        "⟦Ŕúñ kubectl ñóŵ",
        "⟦kubectl óñ Acme Cloud",
    ]


def _write(tmp_path: Path, glossary: Glossary) -> Path:
    path = tmp_path / "dnt.json"
    path.write_text(
        json.dumps(
            {
                "do_not_translate": [
                    {"source": e.source, "case_sensitive": e.case_sensitive} for e in glossary.entries
                ]
            }
        ),
        encoding="utf-8",
    )
    return path


def test_dry_run_prompts_show_terms_exactly_where_they_occur(tmp_path):
    prompts = tmp_path / "prompts.jsonl"
    args = [
        "translate",
        str(SAMPLE),
        "--to",
        "de",
        "--engine",
        "identity",
        "--dry-run",
        "-q",
        "--prompts-out",
        str(prompts),
    ]
    for g in GLOSSARIES:
        args += ["--glossary", str(g)]
    assert main(args) == ExitCode.OK
    records = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    paragraphs = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    listed = {}
    for record in records:
        prompt = record["prompt"]
        lines = re.findall(r"^(.+) (?:translates to|翻译成) (.+)$", prompt, re.M)
        listed[record["segment"]] = [s for s, _ in lines]
        for source, _ in lines:  # every listed term occurs in this very segment
            assert source.lower() in paragraphs[record["segment"]].lower()
    assert listed == {
        0: [],
        1: ["Acme Console", "Sign in", "Dashboard", "storage bucket", "region"],
        2: ["Cloud Storage", "access key", "Settings"],
        3: ["free tier", "Cloud Storage", "Billing"],
        4: [],
    }
    plain = next(r["prompt"] for r in records if r["segment"] == 4)
    assert plain.startswith("Translate the following segment into German")
    dnt = next(r["prompt"] for r in records if r["segment"] == 2)
    assert "run <s1/> to connect <s2/> to <s3/>." in dnt and "kubectl" not in dnt


def test_strict_exits_4_on_glossary_misses_and_report_has_figures(tmp_path):
    report = tmp_path / "report.json"
    args = [
        "translate",
        str(SAMPLE),
        "--to",
        "de",
        "--engine",
        "identity",
        "-q",
        "--out",
        str(tmp_path / "o"),
        "--report",
        str(report),
    ]
    for g in GLOSSARIES:
        args += ["--glossary", str(g)]
    assert main(args) == ExitCode.OK
    assert main(args + ["--strict"]) == ExitCode.QUALITY_CHECK_FAILED
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["glossary"]["missed"] == 9 and data["glossary"]["expected"] == 15
    assert {"segment": 2, "lang": "de", "term": "Settings", "expected": "Einstellungen"} in data["files"][0][
        "glossary"
    ]["misses"]


def test_glossary_error_is_a_usage_error_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.tsv"
    bad.write_text("source\ttarget\nok\tgut\nbroken\n", encoding="utf-8")
    code = main(
        ["translate", str(SAMPLE), "--to", "de", "--engine", "identity", "--dry-run", "--glossary", str(bad)]
    )
    assert code == ExitCode.USAGE
    assert f"{bad}:3: malformed row" in capsys.readouterr().err
