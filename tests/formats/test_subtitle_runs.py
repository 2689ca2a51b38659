"""Subtitles through the whole run: `<stem>.<lang>.<ext>` outputs in folder runs, the neighbouring
cues given to the model, the reading-speed and line-length findings in the report and on the
review page under the cue's name, the `--qa` switch for them, and bad files: one `error:` line
each, nothing of them written, the rest of the folder translated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from clirun import hymt
from pipelines import run_pipeline, write

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.model.prompts import build_prompt
from hymt_cli.pipeline import PlannedRequest
from hymt_cli.qa import QaOptions, QaSuite
from hymt_cli.review import RecordSpool

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "subtitles"
FAST = (
    "1\n00:00:01,000 --> 00:00:02,000\nThe ferry leaves at seven, so hurry up!\n\n"
    "2\n00:00:02,000 --> 00:00:06,000\nWe can walk.\n"
)


def test_a_folder_run_writes_each_subtitle_beside_it(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    shutil.copytree(SAMPLES, folder)
    done = hymt("translate", str(folder), "--to", "de", "--engine", "pseudo", "--no-config", "-q", text=True)
    assert done.returncode == 0, done.stderr
    for source in SAMPLES.iterdir():
        out = folder / f"{source.stem}.de{source.suffix}"
        assert out.is_file(), out.name
        assert out.read_bytes()[:3] == source.read_bytes()[:3]  # the BOM, or its absence, kept
    assert done.stdout == ""


def test_the_model_reads_the_neighbouring_cues(tmp_path: Path) -> None:
    """In the prompt, as HY-MT's context: by default for subtitles, never with `--context off`."""
    path = write(
        tmp_path, "a.srt", FAST + "\n3\n00:00:07,000 --> 00:00:08,000\n<i>Before it gets dark.</i>\n"
    )
    planned: list[PlannedRequest] = []
    run_pipeline([path], PseudoEngine(), to="de", out_dir=tmp_path / "out", on_planned=planned.extend)
    contexts = {r.core: r.context for r in planned}
    assert contexts == {
        "The ferry leaves at seven, so hurry up!": "We can walk.",
        "We can walk.": "The ferry leaves at seven, so hurry up!\nBefore it gets dark.",
        "Before it gets dark.": "The ferry leaves at seven, so hurry up!\nWe can walk.",
    }
    ask = planned[1]
    prompt = build_prompt(ask.core, ask.lang, chinese_source=False, context=ask.context)
    assert prompt.startswith(ask.context + "\n参考上面的信息") and prompt.endswith("\nWe can walk.")
    planned.clear()
    run_pipeline(
        [path], PseudoEngine(), to="de", out_dir=tmp_path / "off", on_planned=planned.extend, context="off"
    )
    assert {r.context for r in planned} == {""}


def test_findings_are_named_by_the_cue_in_the_report_and_on_the_review_page(tmp_path: Path) -> None:
    path = write(tmp_path, "fast.srt", FAST)
    with RecordSpool() as spool:
        report = run_pipeline(
            [path], PseudoEngine(), to="de", out_dir=tmp_path / "out", qa=QaSuite(), review=spool
        )
        ((file,),) = (report.files,)
        records = [json.loads(line) for line in spool.lines(file)]
        counts = spool.counts(file)
    [flag] = file.flags
    assert (flag.check, flag.severity, flag.label, flag.segment) == (
        "reading-speed",
        "warning",
        "cue 1 (line 2)",
        0,
    )
    assert flag.message.endswith("characters in 1.00 s") and "(17 at most)" in flag.message
    assert file.flag_counts == {"reading-speed": 1}
    first, second = records
    assert first["role"] == "cue 1" and first["label"] == "cue 1 (line 2)"
    assert first["flags"] == [{"check": "reading-speed", "severity": "warning", "message": flag.message}]
    assert "flags" not in second  # four seconds for a short line
    assert counts.checks == {"reading-speed": 1}


def test_qa_options_turn_the_findings_off_and_the_reading_speed_is_an_option(tmp_path: Path) -> None:
    path = write(tmp_path, "fast.srt", FAST)
    quiet = QaSuite(QaOptions.parse("reading-speed=off"))
    report = run_pipeline([path], PseudoEngine(), to="de", out_dir=tmp_path / "a", qa=quiet)
    assert report.files[0].flags == []
    done = hymt(
        "translate", str(path), "--to", "de", "--engine", "pseudo", "--no-config", "--reading-speed", "90",
        "-o", str(tmp_path / "b"), text=True,
    )  # fmt: skip
    assert done.returncode == 0 and "reading-speed" not in done.stderr, done.stderr
    done = hymt(
        "translate",
        str(path),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--no-config",
        "-o",
        str(tmp_path / "c"),
        text=True,
    )
    assert "qa reading-speed: " in done.stderr and "cue 1 (line 2)" in done.stderr


BAD = {
    "bad-time.srt": (b"1\n00:00:01,000 --> 00:00:0x,000\nHi\n", "line 2: bad timing line"),
    "cut.srt": (b"1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n", "line 5: cue 2 has no timing line"),
    "binary.srt": (b"\x00\x01\x02PK\x03\x04" * 40, "a NUL character"),
    "latin1.srt": ("1\n00:00:01,000 --> 00:00:02,000\nCafé\n".encode("cp1252"), "not valid UTF-8"),
    "nosig.vtt": (b"WEBVTX\n\n00:01.000 --> 00:02.000\nHi\n", "line 1: not a WebVTT file"),
    "short.ass": (b"[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default\n", "line 2: a Dialogue line with 4"),
}


def test_a_bad_file_fails_alone_with_one_line_and_nothing_written(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    shutil.copytree(SAMPLES, folder)
    for name, (data, _) in BAD.items():
        (folder / name).write_bytes(data)
    done = hymt("translate", str(folder), "--to", "fr", "--engine", "pseudo", "--no-config", text=True)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(BAD)
    for name, (_, message) in BAD.items():
        [line] = [e for e in errors if f"{name}:" in e]
        assert message in line, line
        assert not list(folder.glob(f"{Path(name).stem}.fr*")), name  # nothing half-written
    for source in SAMPLES.iterdir():
        assert (folder / f"{source.stem}.fr{source.suffix}").is_file()
    assert not [p for p in folder.iterdir() if ".tmp" in p.name or p.name.startswith(".hymt-tmp")]


def test_translate_help_names_the_subtitle_suffixes() -> None:
    done = hymt("translate", "--help", text=True, env={"COLUMNS": "200"})
    assert done.returncode == 0
    shown = " ".join(done.stdout.split())
    assert "srt, vtt, ass (.ssa)" in shown  # each format by name, and the suffixes it reads besides
    assert "--subtitle-line-length" in shown and "--reading-speed" in shown  # (listed; --help-all says more)
