"""A target merged into while someone else writes it (issue 26: "two runs on the same folder at
once must not lose an entry"; "a merge interrupted leaves the old or the new file").

The engine is where a run waits, so the faults are injected there: a person saves the target
while the run translates; two runs translate at once into one folder; a run dies while writing.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

from engines import CountingEngine
from pipelines import make_pipeline, sources_of, write

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.outputs.manifest import read_manifest, settle


class _Meanwhile(BatchEngine):
    """Answers as pseudo does, after running `meanwhile` (once) as the run waits for it."""

    name = "meanwhile"

    def __init__(self, meanwhile) -> None:  # type: ignore[no-untyped-def]
        self.meanwhile = meanwhile
        self.inner = PseudoEngine()

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        if self.meanwhile is not None:
            self.meanwhile, act = None, self.meanwhile
            act()
        return self.inner.generate(requests)


def _catalog(folder: Path, values: dict[str, str]) -> Path:
    return write(folder, "locales/en/app.json", json.dumps(values, indent=2) + "\n")


def test_a_person_s_save_during_the_run_is_merged_with_not_written_over(tmp_path: Path) -> None:
    source = _catalog(tmp_path, {"title": "Welcome", "save": "Save the file"})
    target = tmp_path / "locales/de/app.json"
    make_pipeline(PseudoEngine(), to="de").run(sources_of([source]))
    _catalog(tmp_path, {"title": "Welcome", "save": "Save the file", "open": "Open a file"})

    def person_saves() -> None:  # the target as a person saves it while the run translates `open`
        data = json.loads(target.read_text())
        data["title"] = "Willkommen, von Hand"
        data["extra"] = "Ein Schlüssel der Person"
        target.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    report = make_pipeline(_Meanwhile(person_saves), to="de", keep_removed=True).run(sources_of([source]))
    assert report.files[0].status == "ok"
    result = json.loads(target.read_text())
    assert result["title"] == "Willkommen, von Hand"  # the person's edit, made during the run
    assert result["extra"] == "Ein Schlüssel der Person"
    assert result["open"] != "Open a file" and result["open"]  # the run's new key
    assert list(result) == ["title", "save", "open", "extra"]


def test_two_runs_at_once_into_one_folder_lose_no_entry(tmp_path: Path) -> None:
    sources = [
        write(tmp_path, f"locales/en/{name}.json", json.dumps({f"{name}_key": f"Text of {name}"}) + "\n")
        for name in ("alpha", "beta")
    ]
    both_translating = threading.Barrier(2, timeout=30)
    reports = []

    def run(source: Path) -> None:
        engine = _Meanwhile(both_translating.wait)
        reports.append(make_pipeline(engine, to="de").run(sources_of([source])))

    threads = [threading.Thread(target=run, args=(s,)) for s in sources]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [r.files[0].status for r in reports] == ["ok", "ok"]
    folder = tmp_path / "locales/de"
    settle(folder)
    written = read_manifest(folder)
    assert set(written) == {"alpha.json", "beta.json"}
    assert all(w.entries for w in written.values())  # each with its keys' records
    rerun = CountingEngine(IdentityEngine())
    make_pipeline(rerun, to="de").run(sources_of(sources))
    assert rerun.requested == []  # every value known as hymt's: nothing sent again


def test_a_merge_that_fails_while_writing_leaves_the_old_target(tmp_path: Path) -> None:
    source = _catalog(tmp_path, {"title": "Welcome"})
    target = tmp_path / "locales/de/app.json"
    make_pipeline(PseudoEngine(), to="de").run(sources_of([source]))
    before = target.read_bytes()
    _catalog(tmp_path, {"title": "Welcome", "open": "Open a file"})

    def unreadable() -> None:  # the target turns into something the merge cannot read
        target.write_text('{"title": ')

    report = make_pipeline(_Meanwhile(unreadable), to="de").run(sources_of([source]))
    assert report.files[0].status == "failed"
    assert str(target) in (report.files[0].error or "")
    assert target.read_text() == '{"title": '  # nothing written over it
    assert not list(target.parent.glob("*.tmp*")) and before
