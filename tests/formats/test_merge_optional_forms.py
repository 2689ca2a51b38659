"""Plural forms a target needs, forms a person may add, and what hymt copies (issue 34, item 3).

- A plural new to a target goes in as a new file writes it: every form translated (Rails' `zero:`,
  zh-TW's `one:`), never copied in the source's words and then counted as a person's value.
- `zero` is a form every language may have where the runtime takes it for a count of 0 (Ruby
  I18n, i18next, Apple): the source's goes into every target; a person's stays where the source
  has none (Android keeps a person's `zero` the same way).
- What hymt copies is recorded as hymt's: the next run sends nothing and counts no such value kept.

On a real Rails app (diaspora: en, ru and zh-TW catalogs written by people)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from merge_helpers import CORPUS, forget_hymt, remove_member, strings_format, translate

from hymt_cli.formats.strings.outline import Container, Leaf

PLURAL = ("admins", "weekly_user_stats", "amount_of")  # zero/one/other in English
ENGLISH = {
    "zero": "Number of new users this week: none",
    "one": "Number of new users this week: %{count}",
    "other": "Number of new users this week: %{count}",
}


def _diaspora(tmp_path: Path) -> Path:
    files = {lang: CORPUS / f"yaml/diaspora-{lang}.yml" for lang in ("en", "ru", "zh-TW")}
    if not all(f.is_file() for f in files.values()):
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    folder = tmp_path / "config/locales"
    folder.mkdir(parents=True)
    for lang, real in files.items():
        shutil.copyfile(real, folder / f"{lang}.yml")
    return folder / "en.yml"


def _drop(path: Path, keys: tuple[str, ...]) -> None:
    """A key the person's catalog does not have yet (the source gained it)."""
    fmt = strings_format("yaml")
    outline = fmt.outline(fmt.decode(path.read_bytes()).text)
    assert outline is not None
    member = next(m for m in outline.members if m.path == keys)
    assert isinstance(member, Container)
    remove_member(path, "yaml", member)  # type: ignore[arg-type]


def _forms(path: Path, keys: tuple[str, ...]) -> dict[str, str]:
    fmt = strings_format("yaml")
    outline = fmt.outline(fmt.decode(path.read_bytes()).text)
    assert outline is not None
    return {str(leaf.path[-1]): leaf.text for leaf in outline.leaves() if leaf.path[:-1] == keys}


def _leaves(path: Path) -> list[Leaf]:
    fmt = strings_format("yaml")
    outline = fmt.outline(fmt.decode(path.read_bytes()).text)
    assert outline is not None
    return list(outline.leaves())


def _entries(folder: Path, name: str) -> dict[str, str]:
    data = json.loads((folder / ".hymt-manifest.json").read_text())
    entries: dict[str, str] = data["files"][name]["entries"]
    return entries


@pytest.mark.parametrize(
    ("lang", "needed"),
    [("ru", {"zero", "one", "few", "many", "other"}), ("zh-TW", {"zero", "one", "other"})],
)
def test_a_new_plural_goes_in_translated_and_is_hymts(tmp_path: Path, lang: str, needed: set[str]) -> None:
    source = _diaspora(tmp_path)
    target = source.with_name(f"{lang}.yml")
    _drop(target, PLURAL)
    forget_hymt(target.parent)

    first = translate(source, lang, pseudo=True)

    forms = _forms(target, PLURAL)
    assert set(forms) == needed
    for category, text in forms.items():  # each one translated: none in English
        assert "⟦" in text and text != ENGLISH.get(category), (category, text)
    entries = _entries(target.parent, f"{lang}.yml")
    for category in needed:
        assert not entries[f"/admins/weekly_user_stats/amount_of/{category}"].endswith("person")

    second = translate(source, lang, pseudo=True)
    assert second.requested == []
    assert second.report.keys is not None and first.report.keys is not None
    assert second.report.keys["kept"] == first.report.keys["kept"]  # nothing of hymt's became a person's
    assert second.report.keys["added"] == 0 and second.report.keys["updated"] == 0


def test_a_persons_zero_stays_where_the_source_has_none(tmp_path: Path) -> None:
    source = _diaspora(tmp_path)
    target = source.with_name("ru.yml")
    plurals = {leaf.path[:-1] for leaf in _leaves(source) if leaf.category}
    persons = {leaf.path: leaf.text for leaf in _leaves(target) if leaf.path[:-1] in plurals}
    zeros = [path for path in persons if path[-1] == "zero" and path not in {x.path for x in _leaves(source)}]
    assert len(zeros) == 3  # notifications.mentioned ...: zero in Russian, none in English

    run = translate(source, "ru", pseudo=True)

    after = {leaf.path: leaf.text for leaf in _leaves(target)}
    assert all(after.get(path) == text for path, text in persons.items())  # every form kept as it was
    keys_gone = {leaf.path for leaf in _leaves(target)} - {leaf.path for leaf in _leaves(source)}
    assert run.report.keys is not None and set(zeros) <= keys_gone


def test_the_sources_zero_goes_into_a_plural_a_person_wrote_without_it(tmp_path: Path) -> None:
    source = _diaspora(tmp_path)
    target = source.with_name("zh-TW.yml")
    text = target.read_text(encoding="utf-8")
    # the person's plural has only `other:` (zh-TW's one category); English has zero/one/other
    forms = _forms(target, PLURAL)
    assert set(forms) == {"zero", "other"}
    zero_line = next(line for line in text.splitlines() if forms["zero"] in line and "zero:" in line)
    target.write_text(text.replace(zero_line + "\n", "", 1), encoding="utf-8")

    translate(source, "zh-TW", pseudo=True)

    after = _forms(target, PLURAL)
    assert set(after) == {"zero", "other"}  # zero is back, translated; no `one` (zh-TW has none)
    assert "⟦" in after["zero"] and after["other"] == forms["other"]


def test_i18next_zero_and_copied_plurals(tmp_path: Path) -> None:
    """The same rules for i18next JSON (`key_zero` is looked up for 0 in every language)."""
    en = tmp_path / "locales/en/app.json"
    en.parent.mkdir(parents=True)
    en.write_text(
        json.dumps(
            {
                "items_zero": "No items",
                "items_one": "One item",
                "items_other": "{{count}} items",
                "msg": {"count_one": "One message", "count_other": "{{count}} messages"},
            },
            indent=2,
        )
    )
    ja = tmp_path / "locales/ja/app.json"
    ja.parent.mkdir(parents=True)
    ja.write_text('{\n  "items_other": "{{count}} 件"\n}\n')
    ru = tmp_path / "locales/ru/app.json"
    ru.parent.mkdir(parents=True)
    persons = {
        "count_zero": "Нет сообщений",
        "count_one": "{{count}} сообщение",
        "count_few": "{{count}} сообщения",
        "count_many": "{{count}} сообщений",
        "count_other": "{{count}} сообщения",
    }
    ru.write_text(json.dumps({"msg": persons}, ensure_ascii=False, indent=2))

    translate(en, "ja", pseudo=True)
    translate(en, "ru", pseudo=True)

    japanese = json.loads(ja.read_text())
    assert "items_one" not in japanese and "⟦" in japanese["items_zero"]
    assert all("⟦" in text for text in japanese["msg"].values())  # copied whole, translated
    assert json.loads(ru.read_text())["msg"] == persons  # the person's zero stays
    again = translate(en, "ja", pseudo=True)
    assert again.requested == [] and again.report.keys is not None and again.report.keys["kept"] == 1
