"""The Python API: results as values, errors as exceptions, nothing printed, one engine kept
across a translator's calls (rebuilt only when a call changes what the engine is)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest
from clirun import environment

import hymt_cli as hymt
from hymt_cli.engine import ENGINES, EngineSpec
from hymt_cli.engine.identity import IdentityEngine


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[IdentityEngine]]:
    """An engine `counted` that records every engine built and closed."""
    built: list[IdentityEngine] = []

    class Closing(IdentityEngine):
        closed = False

        def close(self) -> None:
            self.closed = True

    def build(setup: object) -> IdentityEngine:
        built.append(Closing())
        return built[-1]

    monkeypatch.setitem(
        ENGINES,
        "counted",
        EngineSpec(
            "counted",
            "identity, counted",
            build,
            needs_model=False,
            translates=False,
            takes_engine_args=False,
        ),
    )
    yield built


def test_a_translator_builds_its_engine_once_and_closes_it(
    counted, capsys: pytest.CaptureFixture[str]
) -> None:
    with hymt.Translator(engine="counted", no_cache=True) as translator:
        assert translator.text("Hello there.", to="de") == "Hello there."
        assert translator.text("<p>Bye</p>", to="fr", format="html") == "<p>Bye</p>"
        assert len(counted) == 1 and not counted[0].closed
        translator.text("Again.", to="ja", deterministic=True)  # other sampling: another engine
        assert len(counted) == 2 and counted[0].closed
    assert counted[1].closed
    assert capsys.readouterr() == ("", "")  # a library prints nothing


def test_files_report_every_file_and_never_raise_for_one(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("One.\n", encoding="utf-8")
    (tmp_path / "b.html").write_text("<p>Bye</p>", encoding="utf-8")
    (tmp_path / "c.md").write_bytes(b"# \xff\n")  # not UTF-8: this file fails, the others are written
    report = hymt.translate_files([str(tmp_path)], to="fr", engine="identity", no_cache=True)
    statuses = {Path(f.input).name: f.status for f in report.files}
    assert statuses == {"a.txt": "ok", "b.html": "ok", "c.md": "failed"}
    assert report.exit_code == hymt.ExitCode.SOME_INPUTS_FAILED
    assert (tmp_path / "a.fr.txt").read_text(encoding="utf-8") == "One.\n" and not (
        tmp_path / "c.fr.md"
    ).exists()


def test_errors_are_domain_exceptions() -> None:
    with pytest.raises(hymt.UsageError, match="unknown setting 'colums'") as caught:
        hymt.translate_text("Hi", to="de", engine="pseudo", colums="x")
    assert caught.value.hint == "did you mean 'columns'?"
    with pytest.raises(hymt.UsageError, match=r"^top_p= must be in \(0, 1\], not 3$"):
        hymt.Translator(top_p=3)
    with pytest.raises(hymt.InputError, match="not valid Unicode"):
        hymt.translate_text("\udcff", to="de", engine="pseudo", no_cache=True)
    with pytest.raises(hymt.UsageError, match="several languages needs add_columns"):
        hymt.translate_table(pa.table({"t": ["a"]}), columns="t", to="de,fr", engine="identity")


def test_progress_events_reach_a_listener() -> None:
    events: list[str] = []

    class Listener(hymt.ProgressEvents):
        def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None:
            events.append(f"planned {files} {requests}")

        def file_done(self, output: str | None = None) -> None:
            events.append(f"written {output}")

        def finished(self, **summary: object) -> None:
            events.append(f"finished {summary['status']}")

    hymt.translate_text("One.\n\nTwo.\n", to="ko", engine="pseudo", no_cache=True, progress=Listener())
    assert events == ["planned 1 2", "written <stdout>", "finished ok"]


def test_a_table_keeps_its_other_columns_and_rows() -> None:
    table = pa.table({"id": [1, 2, 3], "title": ["Red mug", None, "Red mug"], "note": ["a", "b", "c"]})
    out = hymt.translate_table(table, columns=["title"], to="de", engine="pseudo", no_cache=True)
    assert out.column_names == table.column_names and out.num_rows == 3
    assert out.column("id").equals(table.column("id")) and out.column("note").equals(table.column("note"))
    first, missing, again = out.column("title").to_pylist()
    assert first == again != "Red mug" and missing is None


def test_inputs_may_be_paths_one_or_many(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("One.\n", encoding="utf-8")
    single = hymt.translate_files(
        tmp_path / "docs", to="fr", engine="identity", out=tmp_path / "o1", no_cache=True
    )
    several = hymt.translate_files(
        (p for p in [tmp_path / "docs"]), to="de", engine="identity", out=tmp_path / "o2", no_cache=True
    )
    assert (single.files_ok, several.files_ok) == (1, 1)
    assert (tmp_path / "o1" / "fr" / "a.txt").read_text(encoding="utf-8") == "One.\n"
    assert (
        hymt.Translator(engine="identity").check(tmp_path / "docs", to="fr", out=tmp_path / "o1").checked == 1
    )


def test_a_table_or_text_error_names_what_was_given() -> None:
    with pytest.raises(hymt.InputError, match=r"^<table>: no column 'sku'"):
        hymt.translate_table(pa.table({"t": ["a"]}), columns="sku", to="de", engine="identity", no_cache=True)


def test_a_settings_record_stands_for_keywords_in_every_call(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("One.\n", encoding="utf-8")
    settings = hymt.Settings.build(engine="identity", no_cache=True)
    assert hymt.translate_text("Hi.", to="de", settings=settings) == "Hi."
    report = hymt.translate_files(tmp_path / "a.txt", to="fr", settings=settings)
    assert report.engine == "identity" and report.files_ok == 1
    table = pa.table({"t": ["Hi."]})
    assert hymt.translate_table(table, columns="t", to="de", settings=settings).equals(table)
    assert hymt.translate_text("Hi.", to="de", settings=settings, engine="pseudo") != "Hi."  # keywords win


@pytest.mark.vllm
def test_a_translator_on_vllm_prints_nothing_not_even_as_it_closes(
    answering_model_dir: Path, tmp_path: Path
) -> None:
    """vLLM's engine processes log as they shut down; a translator closes its kept engine after its
    run, and those lines went to the caller's stderr. They go to the engine's log like the rest.
    (A script of its own: vLLM's logger writes to sys.stderr, which pytest's capture replaces.)"""
    pytest.importorskip("vllm")
    script = tmp_path / "use.py"
    script.write_text(
        "import sys\nimport hymt_cli as hymt\n\n"
        "if __name__ == '__main__':\n"
        "    with hymt.Translator(engine='vllm', model=sys.argv[1], no_cache=True, dtype='float32',\n"
        "                         enforce_eager=True, max_model_len=512) as translator:\n"
        "        assert translator.text('Hello world.', to='de')\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(script), str(answering_model_dir)],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
