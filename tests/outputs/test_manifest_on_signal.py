"""A signal that arrives while an output is committed never separates the file from its entry in
the folder's manifest: an output on disk that the manifest does not list is a person's file to
the next run, which then skips it for good ("exists and hymt did not write it"). The signal
used to be raised as the commit's `deferred()` block ended, before the manifest was updated."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import hymt_cli as hymt
from hymt_cli.outputs.manifest import written_by_hymt
from hymt_cli.outputs.paths import PendingOutput


def test_a_signal_during_an_output_commit_leaves_the_output_in_the_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"page-{i}.md").write_text(f"# Page {i}\n\nSome text for page {i}.\n", encoding="utf-8")
    commit = PendingOutput.commit

    def commit_then_signal(self: PendingOutput) -> None:
        commit(self)
        if self.path is not None and self.path.name == "page-1.md":
            os.kill(os.getpid(), signal.SIGTERM)  # arrives inside the commit's deferred() block

    monkeypatch.setattr(PendingOutput, "commit", commit_then_signal)
    out = tmp_path / "out"
    translator = hymt.Translator(engine="pseudo", to="de", out=str(out), no_cache=True)
    with pytest.raises(hymt.Interrupted):
        translator.files([str(docs)])
    written = sorted(out.rglob("page-*.md"))
    assert out / "de" / "page-1.md" in written
    assert all(written_by_hymt(path) for path in written), "an output was left out of its manifest"
    monkeypatch.setattr(PendingOutput, "commit", commit)
    report = translator.files([str(docs)])
    assert [f.status for f in report.files] == ["ok", "ok", "ok"]  # none taken for a person's
