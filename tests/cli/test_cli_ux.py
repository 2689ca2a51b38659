"""Issue 11, as a newcomer and a CI job meet hymt: one error style, quiet that never hides the
reason for a failure, fast failures, no silent skips, a helpful --help. Real processes."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from clirun import ROOT, hymt

from hymt_cli.errors import ExitCode
from hymt_cli.model.files import hub_reachable


def _one_error(stderr: str) -> None:
    """hymt's error style: `error: ...`, at most a `  hint: ...` after it, nothing else."""
    lines = stderr.splitlines()
    assert lines and lines[0].startswith("error: "), stderr
    assert len(lines) <= 2 and all(line.startswith("  hint: ") for line in lines[1:]), stderr
    assert "Traceback" not in stderr and "Usage:" not in stderr and "╭" not in stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["a.txt"], "no target language"),
        (["a.txt", "--to", "en", "--bogus"], "no such option: --bogus"),
        (["a.txt", "--to", "en", "--top-k", "abc"], "invalid value for '--top-k'"),
        (["a.txt", "--to", "en", "--temperature", "-1"], "--temperature must be at least 0"),
        (["a.txt", "--to", "en", "--top-p", "2"], "--top-p must be in (0, 1]"),
        (["a.txt", "--to", "en", "--top-k", "0"], "--top-k must be -1 (off) or at least 1"),
        (
            ["a.txt", "--to", "en", "--gpu-memory-utilization", "1.5"],
            "--gpu-memory-utilization must be in (0, 1]",
        ),
        (["a.txt", "--to", "en", "--max-model-len", "0"], "--max-model-len must be at least 1"),
        (["a.txt", "--to", "en", "--dtype", "fp7"], "--dtype must be one of"),
        (["a.txt", "--to", "en", "--progress", "fancy"], "--progress must be one of"),
        (["-", "--format", "txt", "--to", "en", "-o", "out"], "-o/--out does not apply"),
        (["a.txt", "--to", "en", "--engine", "magic"], "unknown engine 'magic'"),
        (["a.txt", "--to", "en", "--check", "--dry-run"], "--check and --dry-run do not go together"),
    ],
)
def test_every_usage_error_is_one_line_and_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    (tmp_path / "a.txt").write_text("Hello.\n")
    result = hymt("translate", *args, "--no-config", cwd=tmp_path, text=True)
    assert result.returncode == ExitCode.USAGE, result.stderr
    _one_error(result.stderr)
    assert words in result.stderr.splitlines()[0]
    assert result.stdout == "" and not list(tmp_path.glob("a.*.txt"))


def test_quiet_keeps_the_line_that_explains_exit_4(tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    doc.write_text("Open the Dashboard to begin.\n")
    terms = tmp_path / "terms.tsv"
    terms.write_text("source\ttarget\nDashboard\tTableau de bord\n")
    result = hymt(
        "translate",
        str(doc),
        "--to",
        "fr",
        "--from",
        "en",
        "--engine",
        "identity",
        "--glossary",
        str(terms),
        "--strict",
        "-q",
        "--no-cache",
        text=True,
    )
    assert result.returncode == ExitCode.QUALITY_CHECK_FAILED
    assert result.stderr == "error: --strict: 1 glossary term(s) were missed\n"


def test_the_summary_always_counts_untranslated_segments(tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    doc.write_text("First.\n\nSecond.\n")
    result = hymt("translate", str(doc), "--to", "fr", "--engine", "pseudo", "--no-cache", text=True)
    assert result.returncode == 0
    assert "2 segments: 2 translated, 0 untranslated" in result.stderr


@pytest.mark.parametrize(
    "flag, where",
    [
        ("--report", "blocker/r.json"),
        ("--prompts-out", "blocker/p.jsonl"),
        ("-o", "blocker"),
        ("--cache", "blocker/m.sqlite3"),
        ("--log-file", "blocker/e.log"),
    ],
)
def test_unwritable_output_locations_fail_in_seconds_before_any_model(
    tmp_path: Path, flag: str, where: str
) -> None:
    (tmp_path / "a.txt").write_text("Hello.\n")
    (tmp_path / "blocker").write_text("a file where a folder should be")
    started = time.monotonic()
    # the default engine and model: nothing of them may be touched before the check
    result = hymt(
        "translate",
        "a.txt",
        "--to",
        "fr",
        flag,
        where,
        cwd=tmp_path,
        text=True,
        env={"HF_HUB_OFFLINE": None, "HF_HOME": str(tmp_path / "hf")},
    )
    assert time.monotonic() - started < 30
    assert result.returncode == ExitCode.USAGE, result.stderr
    _one_error(result.stderr)
    assert "is a file, not a folder" in result.stderr or "cannot create folder blocker" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "blocker"]


def _no_network() -> None:
    if hub_reachable(3):  # a machine with network would download the model here
        pytest.skip("the Hugging Face hub is reachable from here")


def test_an_unreachable_hub_model_fails_in_seconds_with_a_hint(tmp_path: Path) -> None:
    _no_network()
    (tmp_path / "a.txt").write_text("Hello.\n")
    started = time.monotonic()
    # HF_HUB_OFFLINE unset: this machine has no network, and hymt must find out in seconds
    result = hymt(
        "translate",
        "a.txt",
        "--to",
        "fr",
        cwd=tmp_path,
        text=True,
        env={"HF_HUB_OFFLINE": None, "HF_HOME": str(tmp_path / "hf")},
    )
    assert time.monotonic() - started < 30
    assert result.returncode == ExitCode.ENGINE_UNAVAILABLE
    _one_error(result.stderr)
    assert "cannot be reached" in result.stderr and "hf download tencent/HY-MT1.5-1.8B" in result.stderr
    assert "HF_HUB_OFFLINE" in result.stderr and "huggingface-cli" not in result.stderr
    offline = hymt(
        "translate", "a.txt", "--to", "fr", cwd=tmp_path, text=True, env={"HF_HOME": str(tmp_path / "hf")}
    )
    assert offline.returncode == ExitCode.ENGINE_UNAVAILABLE
    assert "not in the local Hugging Face cache, and HF_HUB_OFFLINE is set" in offline.stderr


def test_a_dry_run_does_not_wait_for_the_hub(tmp_path: Path) -> None:
    _no_network()
    (tmp_path / "a.txt").write_text("Hello.\n")
    started = time.monotonic()
    result = hymt(
        "translate",
        "a.txt",
        "--to",
        "fr",
        "--dry-run",
        cwd=tmp_path,
        text=True,
        env={"HF_HUB_OFFLINE": None, "HF_HOME": str(tmp_path / "hf")},
    )
    assert time.monotonic() - started < 30
    assert result.returncode == 0, result.stderr
    assert "token counts are estimates" in result.stderr and "plan: 1 file(s)" in result.stderr


def test_a_local_model_path_that_does_not_exist_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Hello.\n")
    result = hymt("translate", "a.txt", "--to", "fr", "--model", "./models/hy-mt", cwd=tmp_path, text=True)
    assert result.returncode == ExitCode.ENGINE_UNAVAILABLE
    assert result.stderr.startswith("error: model folder './models/hy-mt' does not exist\n")
    assert "huggingface-cli" not in result.stderr


def test_mkdocs_i18n_sources_are_not_skipped_silently(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.en.md").write_text("# Welcome\n\nHello.\n")
    (docs / "logo.png").write_bytes(b"\x89PNG")
    silent = hymt(
        "translate", "docs", "--to", "de", "--engine", "pseudo", "--no-cache", cwd=tmp_path, text=True
    )
    assert silent.returncode == ExitCode.SOME_INPUTS_FAILED
    assert "docs: folder has no files to translate: 2 skipped" in silent.stderr
    assert "hint: if index.en.md is a source (mkdocs-i18n naming), pass --source-suffix en" in silent.stderr
    for flags in (["--source-suffix", "en"], ["--from", "en"]):
        result = hymt(
            "translate",
            "docs",
            "--to",
            "de",
            "--engine",
            "pseudo",
            "--no-cache",
            *flags,
            cwd=tmp_path,
            text=True,
        )
        assert result.returncode == 0, result.stderr
        assert (docs / "index.de.md").read_text().startswith("# ⟦")
        assert "skipped 1 file(s): 1 not a supported format (docs/logo.png) (-v lists them)" in result.stderr
        (docs / "index.de.md").unlink()
    out = hymt(
        "translate",
        "docs",
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--no-cache",
        "--from",
        "en",
        "-o",
        "out",
        "-v",
        cwd=tmp_path,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "out" / "de" / "index.md").is_file()
    assert f"skipped {Path('docs') / 'logo.png'}: not a supported format" in out.stderr


def test_skipped_files_are_in_the_report(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Hello.\n")
    (tmp_path / "a.fr.txt").write_text("Bonjour.\n")
    result = hymt(
        "translate",
        ".",
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--no-cache",
        "--report",
        "r.json",
        cwd=tmp_path,
        text=True,
    )
    assert result.returncode == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["files_skipped"] == 1
    assert data["skipped"] == [
        {"path": "a.fr.txt", "reason": "a translation (fr): its name ends in a language code"}
    ]


def test_help_lists_choices_groups_and_examples() -> None:
    result = hymt("translate", "--help-all", text=True, env={"COLUMNS": "320"})
    assert result.returncode == 0
    text = result.stdout
    from hymt_cli.engine import ENGINES
    from hymt_cli.formats import described, text_format_names
    from hymt_cli.options import Panel

    flat = " ".join(text.split())  # (the formats' list is longer than a line, even 320 wide)
    for choice in (
        ", ".join(ENGINES),
        described(),  # every format, with the suffixes it reads besides its name: `ass (.ssa)`
        "[" + "|".join(text_format_names()) + "]",
        "[auto|bar|plain|json|none]",
        "[auto|on|off]",
    ):
        assert choice in flat
    for panel in (*Panel.ORDER, "Examples"):
        assert f"{panel}:" in text or panel == "Examples" and panel in text
    assert "hymt translate docs/ --to de,ja" in text
    options = text[text.index("Input and output") :]
    assert not re.search(r"<(str|int|float|path|bool|list\[str\])>", options), (
        "internal type names in the options"
    )


def _help(*args: str, columns: int) -> str:
    result = hymt(*args, text=True, env={"COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("command", ["translate", "config"])
def test_help_fits_80_columns_and_breaks_no_word(command: str) -> None:
    """`--help` at 80 columns is short (the common options; the others named, by panel), and no
    width cuts a word: every word of the help at 80 or 120 columns is a word of the unwrapped help."""
    words = {w for flag in ("--help", "--help-all") for w in _help(command, flag, columns=1000).split()}
    short = _help(command, "--help", columns=80)
    assert len(short.splitlines()) < 120, len(short.splitlines())
    for columns in (80, 120):
        for flag in ("--help", "--help-all"):
            text = _help(command, flag, columns=columns)
            assert max(len(line) for line in text.splitlines()) <= columns
            assert set(text.split()) <= words, set(text.split()) - words
    assert "--to LANGS" in short and "--exclude GLOB" in short and "--encoding NAME" in short
    assert "--temperature" in short and "--temperature T" not in short  # named, with its panel
    full = _help(command, "--help-all", columns=80)
    assert "--temperature T" in full and len(full.splitlines()) > len(short.splitlines())


def test_readme_exit_codes_match_the_code() -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| exit | meaning |") :].split("\n\n")[0]
    documented = {int(m.group(1)) for m in re.finditer(r"^\| (\d+) \|", table, re.MULTILINE)}
    assert documented == {int(code) for code in ExitCode}
