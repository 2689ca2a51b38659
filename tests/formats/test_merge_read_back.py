"""A merged target is read back before it is written (strings/_writers.MergeWriter._checked): a
merge whose text would not parse, or would change a value it does not mean to change, writes
nothing and fails that file in one line. The faults are injected into the JSON syntax that
inserts new members (a test double: a real merge makes neither)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pipelines import make_pipeline, sources_of

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats.json_strings.outline import JsonSyntax
from hymt_cli.formats.strings.outline import Leaf, Splice


def _project(tmp_path: Path) -> tuple[Path, Path, bytes]:
    """A catalog translated once into German (hymt's), then given one key more."""
    source = tmp_path / "locales/en/app.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"a": {"save": "Save", "quit": "Quit"}}, indent=2) + "\n")
    make_pipeline(PseudoEngine(), to="de").run(sources_of([source]))
    target = tmp_path / "locales/de/app.json"
    source.write_text(json.dumps({"a": {"save": "Save", "quit": "Quit", "open": "Open"}}, indent=2) + "\n")
    return source, target, target.read_bytes()


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        # the new member without its value: the merged text is no JSON
        (lambda text, sibling: Splice(sibling.end, sibling.end, ', "open": '), "an unreadable file"),
        # the new member written over its sibling's value: a value the merge keeps changes
        (
            lambda text, sibling: Splice(sibling.value_start, sibling.value_end, 'x", "open": "y'),
            "would change the value at /a/quit",
        ),
    ],
)
def test_a_corrupt_merge_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: Callable[[str, Leaf], Splice], says: str
) -> None:
    source, target, before = _project(tmp_path)
    monkeypatch.setattr(JsonSyntax, "insert_after", lambda self, text, sibling, members: fault(text, sibling))
    report = make_pipeline(PseudoEngine(), to="de").run(sources_of([source]))
    file = report.files[0]
    error = file.error or ""
    assert file.status == "failed"
    assert str(target) in error and says in error and "nothing written" in error
    assert target.read_bytes() == before
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".hymt-tmp")]


def test_the_same_merge_without_the_fault_is_written(tmp_path: Path) -> None:
    source, target, _ = _project(tmp_path)
    report = make_pipeline(PseudoEngine(), to="de").run(sources_of([source]))
    assert report.files[0].status == "ok"
    assert list(json.loads(target.read_text())["a"]) == ["save", "quit", "open"]
