"""Plural forms a target language needs that its existing catalog lacks (Russian `few` and
`many` beside English `one`/`other`): each goes in once, after the forms it has, written from
its own translation; a form only the target has is the target's."""

from __future__ import annotations

import json
from pathlib import Path

from merge_helpers import translate


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_two_new_json_forms_at_one_point_each_go_in_once(tmp_path: Path) -> None:
    source = _write(
        tmp_path / "locales/en/app.json",
        '{\n  "a": "Apple",\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items"\n}\n',
    )
    target = _write(
        tmp_path / "locales/ru/app.json",
        '{\n  "a": "Яблоко",\n  "items_one": "{{count}} штука",\n  "items_other": "{{count}} штук"\n}\n',
    )
    run = translate(source, "ru")
    pairs = json.loads(target.read_text(encoding="utf-8"), object_pairs_hook=list)
    assert [k for k, _ in pairs] == ["a", "items_one", "items_other", "items_few", "items_many"]
    assert run.report.keys is not None and run.report.keys["added"] == 2
    assert target.read_text(encoding="utf-8").startswith(
        '{\n  "a": "Яблоко",\n  "items_one": "{{count}} штука",\n  "items_other": "{{count}} штук",\n'
    )
