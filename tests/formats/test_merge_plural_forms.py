"""A target whose language needs plural forms that the source lacks (Russian `few`, `many`)
gains each of them once, where the forms are: beside a person's `one` and `other`, and with a
plural that the target lacks whole. Several new forms share one point of the source (after its
last form); each must be written as itself (JSON i18next keys, YAML Rails mappings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engines import CountingEngine
from pipelines import make_pipeline, sources_of, write
from ruamel.yaml import YAML

from hymt_cli.engine.identity import IdentityEngine


def run(source: Path, lang: str) -> None:
    report = make_pipeline(CountingEngine(IdentityEngine()), to=lang).run(sources_of([source]))
    assert [f.status for f in report.files] == ["ok"], report.files[0].error


def test_json_i18next_keys(tmp_path: Path) -> None:
    source = write(
        tmp_path,
        "locales/en/app.json",
        json.dumps(
            {
                "files_one": "one file",
                "files_other": "{{count}} files",
                "pages_one": "one page",
                "pages_other": "{{count}} pages",
                "title": "Title",
            },
            indent=2,
        ),
    )
    target = write(
        tmp_path,
        "locales/ru/app.json",
        json.dumps(
            {"files_one": "один файл", "files_other": "{{count}} файла", "title": "Заголовок"}, indent=2
        ),
    )
    run(source, "ru")
    pairs = json.loads(target.read_text(), object_pairs_hook=lambda items: items)
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys  # no key twice
    assert set(keys) >= {f"{s}_{c}" for s in ("files", "pages") for c in ("one", "few", "many", "other")}
    assert dict(pairs)["files_one"] == "один файл"


def test_yaml_rails_mappings(tmp_path: Path) -> None:
    source = write(
        tmp_path,
        "locales/en.yml",
        "en:\n  files:\n    one: one file\n    other: '%{count} files'\n"
        "  pages:\n    one: one page\n    other: '%{count} pages'\n  title: Title\n",
    )
    target = write(
        tmp_path, "locales/ru.yml", "ru:\n  files:\n    one: один файл\n    other: '%{count} файла'\n"
    )
    run(source, "ru")
    text = target.read_text()
    ru = YAML(typ="safe", pure=True).load(text)["ru"]
    assert list(ru["files"]) == ["one", "other", "few", "many"]
    assert ru["files"]["one"] == "один файл"
    assert list(ru["pages"]) == ["one", "other", "few", "many"]  # the missing one comes whole
    assert text.count("few:") == 2 and text.count("many:") == 2


@pytest.mark.parametrize("locale", ["pt-BR", "pt_BR"])
def test_a_locales_own_plural_forms_stay_when_its_target_is_merged_into(tmp_path: Path, locale: str) -> None:
    """pt-BR follows Portuguese rules (CLDR `many`: a million files): the form a new file gains
    is hymt's, recorded by the locale's plural rules, and a second run keeps it, sends nothing."""
    source = write(
        tmp_path,
        "locales/en/app.json",
        json.dumps({"files_one": "one file", "files_other": "{{count}} files"}),
    )
    first = CountingEngine(IdentityEngine())
    report = make_pipeline(first, to=locale).run(sources_of([source]))
    assert [f.status for f in report.files] == ["ok"], report.files[0].error
    target = tmp_path / "locales/pt-BR/app.json"
    written = json.loads(target.read_text())
    assert set(written) == {"files_one", "files_other", "files_many"}
    again = CountingEngine(IdentityEngine())
    report = make_pipeline(again, to=locale).run(sources_of([source]))
    assert report.files[0].keys is not None and report.files[0].keys["removed"] == 0
    assert again.requested == [] and json.loads(target.read_text()) == written
