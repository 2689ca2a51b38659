"""Output paths obey one set of rules for every format: an input is never overwritten, two
inputs never write one output. Run as users run it, through the CLI."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clirun import hymt

from hymt_cli.errors import ExitCode


def _write(path: Path, fmt: str, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        pq.write_table(pa.table({"title": [text, text + " two"]}), path)
    elif fmt == "html":
        path.write_text(f"<p>{text}</p>\n", encoding="utf-8")
    else:
        path.write_text(f"{text}\n", encoding="utf-8")
    return path


def _run(*args: str, cwd: Path):
    return hymt(
        "translate", *args, "--engine", "pseudo", "--no-cache", "--columns", "title", cwd=cwd, text=True
    )


FORMATS = ["txt", "md", "html", "parquet"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_inputs_never_write_one_output(fmt: str, tmp_path: Path) -> None:
    first = _write(tmp_path / "a" / f"cat.{fmt}", fmt, "First catalog")
    second = _write(tmp_path / "b" / f"cat.{fmt}", fmt, "Second catalog")
    out = tmp_path / "out"
    result = _run(str(first), str(second), "--to", "fr", "-o", str(out), cwd=tmp_path)
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(second) in errors[0] and "is already written from" in errors[0]
    written = out / "fr" / f"cat.{fmt}"
    text = (
        pq.read_table(written).column("title").to_pylist()[0]
        if fmt == "parquet"
        else written.read_text(encoding="utf-8")
    )
    assert "Ƒíŕšţ" in text and "Šéçóñđ" not in text  # the first input's translation, whole


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_output_that_is_another_input_is_refused(fmt: str, tmp_path: Path) -> None:
    source = _write(tmp_path / f"cat.{fmt}", fmt, "Source catalog")
    human = _write(tmp_path / f"cat.fr.{fmt}", fmt, "Catalogue traduit à la main")
    before = human.read_bytes()
    result = _run(str(source), str(human), "--to", "fr", cwd=tmp_path)
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    assert "is an input of this run; refusing to overwrite it" in result.stderr
    assert human.read_bytes() == before
    assert not list(tmp_path.glob(".*hymt-tmp"))


def test_a_parquet_output_never_replaces_its_own_input(tmp_path: Path) -> None:
    # -o pointing at the folder's parent with the input under <lang>/: the output is the input.
    src = _write(tmp_path / "fr" / "cat.parquet", "parquet", "Same path")
    before = src.read_bytes()
    result = _run(str(src), "--to", "fr", "-o", str(tmp_path), cwd=tmp_path)
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED
    assert "refusing to overwrite it" in result.stderr
    assert src.read_bytes() == before


def test_parquet_from_standard_input_to_standard_output(tmp_path: Path) -> None:
    src = _write(tmp_path / "cat.parquet", "parquet", "Piped catalog")
    result = hymt(
        "translate",
        "-",
        "--format",
        "parquet",
        "--columns",
        "title",
        "--to",
        "fr",
        "--engine",
        "identity",
        "--no-cache",
        stdin=src.read_bytes(),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    piped = tmp_path / "piped.parquet"
    piped.write_bytes(result.stdout)
    assert pq.read_table(piped).equals(pq.read_table(src))
