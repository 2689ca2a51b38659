"""A merge that needs a few values of a large catalog reads only the containers that hold them
(strings/_document.Wanted): the JSON scan passes over the others unread, unless a target lacks a
plural form, which every plural of the source is read for."""

from __future__ import annotations

import json
from pathlib import Path

from merge_helpers import translate

from hymt_cli.formats.json_strings.format import JsonStringsFormat
from hymt_cli.formats.jsontext import tokens
from hymt_cli.formats.strings import Entry, Wanted

SOURCE = {
    "a": {"items_one": "{{count}} item", "items_other": "{{count}} items", "open": "Open the file"},
    "b": {"save": "Save the file", "nested": {"close": "Close the window"}},
    "c": {"quit": "Quit the program"},
}


def _write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_a_skipped_container_reads_as_empty_and_the_rest_as_before() -> None:
    text = '{"a": {"x": [1, {"y": "z"}]}, "b": "c"}'
    inner, close = text.index("{", 1) + 1, text.index("]}") + 1  # the container of "a"
    full = [(t.kind, t.start, t.end, t.path) for t in tokens(text)]
    skipped = [(t.kind, t.start, t.end, t.path) for t in tokens(text, skip={inner: close})]
    assert skipped == [t for t in full if not inner <= t[1] < close]
    assert [kind for kind, *_ in skipped] == ["{", "key", "{", "}", "key", "string", "}"]


def test_only_the_containers_that_hold_a_wanted_value_are_read() -> None:
    fmt = JsonStringsFormat()
    text = json.dumps(SOURCE, indent=2)
    outline = fmt.outline(text)
    close = next(leaf for leaf in outline.leaves() if leaf.path == ("b", "nested", "close"))
    wanted = Wanted.of({(close.value_start, close.value_end)}, outline, new_forms=False)
    skipped = {m.path for m in outline.members if (getattr(m, "inner_start", None) in wanted.skippable)}
    assert skipped == {("a",), ("c",)}  # b and b/nested hold the wanted value
    entries = [item for item in fmt.scan_wanted(text, wanted) if isinstance(item, Entry)]
    assert [e.value.text for e in entries] == ["Close the window"]
    # a target lacking a plural form: nothing is skipped, every plural of the source is read
    every = Wanted.of({(close.value_start, close.value_end)}, outline, new_forms=True)
    assert not every.skippable
    read = [item.value.text for item in fmt.scan_wanted(text, every) if isinstance(item, Entry)]
    assert {"{{count}} item", "{{count}} items", "Close the window"} <= set(read)


def test_a_new_key_in_one_section_and_plural_forms_a_target_lacks_in_another(tmp_path: Path) -> None:
    """German lacks nothing: only the new key is sent. Russian lacks `few` and `many` in section
    `a`, which holds no new key: they are still added."""
    source = _write(tmp_path / "locales/en/app.json", SOURCE)
    for lang in ("de", "ru"):
        _write(tmp_path / f"locales/{lang}/app.json", SOURCE)
    grown = json.loads(json.dumps(SOURCE))
    grown["c"]["new"] = "A key added today"
    _write(source, grown)
    german = translate(source, "de")
    assert german.requested == ["A key added today"]
    assert json.loads((tmp_path / "locales/de/app.json").read_text(encoding="utf-8")) == grown
    russian = translate(source, "ru")
    ru = json.loads((tmp_path / "locales/ru/app.json").read_text(encoding="utf-8"))
    assert list(ru["a"]) == ["items_one", "items_other", "items_few", "items_many", "open"]
    assert ru["c"]["new"] == "A key added today"
    assert "A key added today" in russian.requested
