"""Android's non-translatables, as lint reads them: `donottranslate*.xml`, a `<resources
translatable="false">`, the services plugin's keys (`google_api_key`), a file whose header says
it is not translated, and a file with nothing to translate (`arrays.xml` of `@string/`
references, `fonts.xml`) are never sent nor copied into `values-de/`; `tools:ignore=
"MissingTranslation"` (lint's leave to lack a translation) is no such mark. Issue 34, item 7."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clirun import pseudo_run
from pipelines import write

TREES = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "trees"
HEAD = '<?xml version="1.0" encoding="utf-8"?>\n'


def _app(root: Path) -> Path:
    res = root / "res"
    write(
        res,
        "values/strings.xml",
        HEAD + '<resources>\n    <string name="title">Title</string>\n</resources>\n',
    )
    write(
        res,
        "values/keys.xml",
        HEAD + "<!-- These keys should not be translated -->\n<resources>\n"
        '    <string name="pref_theme">theme</string>\n'
        '    <string name="api_key">a1b2c3</string>\n</resources>\n',
    )
    write(
        res,
        "values/donottranslate_events.xml",
        HEAD + '<resources>\n    <string name="ev">open</string>\n</resources>\n',
    )
    write(
        res,
        "values/arrays.xml",
        HEAD + '<resources>\n    <string-array name="themes">\n        <item>@string/title</item>\n'
        "    </string-array>\n</resources>\n",
    )
    write(
        res,
        "values/fonts.xml",
        HEAD
        + '<resources>\n    <string-array name="com_google_android_gms_fonts_certs" translatable="false">\n'
        "        <item>MIIEqDCCA5CgAwIBAgIJANWFuGx9</item>\n    </string-array>\n</resources>\n",
    )
    write(
        res,
        "values/config.xml",
        HEAD
        + '<resources translatable="false">\n    <string name="host">example.org</string>\n</resources>\n',
    )
    write(
        res,
        "values/services.xml",
        HEAD
        + '<resources xmlns:tools="http://schemas.android.com/tools" tools:ignore="MissingTranslation">\n'
        '    <string name="google_api_key">AIzaSy-secret</string>\n'
        '    <string name="welcome">Welcome</string>\n</resources>\n',
    )
    return res


def test_only_what_lint_translates_is_sent_and_copied(tmp_path: Path) -> None:
    res = _app(tmp_path)
    code, stderr, report = pseudo_run(tmp_path, "res", "--to", "de", "-v")
    assert code == 0, stderr
    assert sorted(f["input"] for f in report["files"]) == [
        "res/values/services.xml",
        "res/values/strings.xml",
    ]  # type: ignore[index]
    assert sorted(p.name for p in (res / "values-de").glob("*.xml")) == ["services.xml", "strings.xml"]
    services = (res / "values-de/services.xml").read_text()
    assert "AIzaSy-secret" in services and "Welcome" not in services  # the key as it is, the text translated
    for name, said in (
        ("keys.xml", "its header says it is not translated"),
        ("donottranslate_events.xml", "donottranslate"),
        ("arrays.xml", "nothing to translate"),
        ("fonts.xml", "nothing to translate"),
        ("config.xml", 'translatable="false"'),
    ):
        assert f"skipped res/values/{name}: " in stderr and said in stderr, name


def test_a_shell_glob_names_no_file_lint_never_translates(tmp_path: Path) -> None:
    res = _app(tmp_path)
    names = sorted(str(p.relative_to(tmp_path)) for p in (res / "values").glob("*.xml"))
    code, stderr, report = pseudo_run(tmp_path, *names, "--to", "de")
    assert code == 0, stderr
    assert not (res / "values-de/donottranslate_events.xml").exists()
    assert "res/values/donottranslate_events.xml" not in {f["input"] for f in report["files"]}  # type: ignore[index]


def test_a_service_key_is_never_sent_from_a_merged_catalog(tmp_path: Path) -> None:
    res = _app(tmp_path)
    write(
        res,
        "values-de/services.xml",
        HEAD + '<resources>\n    <string name="welcome">Willkommen</string>\n</resources>\n',
    )
    code, stderr, report = pseudo_run(tmp_path, "res/values/services.xml", "--to", "de")
    assert code == 0, stderr
    assert report["files"][0]["keys"]["added"] == 0 and report["engine_requests"] == 0  # type: ignore[index]


def test_clock_donottranslate_xml_stays_untranslated(tmp_path: Path) -> None:
    if not (TREES / "android-clock").is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    shutil.copytree(TREES / "android-clock", tmp_path / "clock")
    res = tmp_path / "clock/app/src/main/res"
    assert 'tools:ignore="MissingTranslation"' in (res / "values/strings.xml").read_text()
    code, stderr, report = pseudo_run(res, ".", "--to", "ja")
    assert code == 0, stderr
    assert not (res / "values-ja/donottranslate.xml").exists()
    assert {f["input"] for f in report["files"]} == {"values/strings.xml", "values/cities.xml"}  # type: ignore[index]
