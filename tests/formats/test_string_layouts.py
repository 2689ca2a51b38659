"""Output names follow each ecosystem's layout, discovery tells sources from translations by the
same layouts, a shared suffix is only taken where the path shows strings, and a folder mixing
string files with Markdown is one run whose --check and rerun send no request."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.errors import ExitCode
from hymt_cli.formats import format_for_path
from hymt_cli.formats.layout import android_values, apple_lproj, gettext_catalog
from hymt_cli.inputs.discovery import DiscoveryRules, find_inputs
from hymt_cli.inputs.sources import SourceFile
from hymt_cli.outputs.paths import output_path
from hymt_cli.text.languages import language

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("source", "lang", "expected"),
    [
        ("app/locales/en/common.json", "de", "app/locales/de/common.json"),
        ("public/locales/en-US/common.json", "zh-Hant", "public/locales/zh-Hant/common.json"),
        ("config/locales/en.yml", "de", "config/locales/de.yml"),
        ("site/i18n/en.toml", "ja", "site/i18n/ja.toml"),
        ("lang/pt_BR.json", "zh-Hant", "lang/zh_Hant.json"),
        ("src/Messages.properties", "de", "src/Messages_de.properties"),
        ("src/Messages_en.properties", "zh-Hant", "src/Messages_zh_Hant.properties"),
        ("lib/l10n/app_en.arb", "de", "lib/l10n/app_de.arb"),
        ("ext/_locales/en/messages.json", "zh-Hant", "ext/_locales/zh_TW/messages.json"),
        ("data/strings.json", "de", "data/strings.de.json"),
        ("docs/guide.md", "de", "docs/guide.de.md"),
    ],
)
def test_output_names_follow_the_layout(source: str, lang: str, expected: str) -> None:
    path = Path("/proj") / source
    fmt = format_for_path(path)
    assert fmt is not None
    src = SourceFile(path, Path(source), fmt)
    assert output_path(src, language(lang), None) == Path("/proj") / expected
    out = output_path(src, language(lang), Path("/out"))
    marked = Path(expected).name != Path(source).name.replace(
        Path(source).suffix, f".{lang}{Path(source).suffix}"
    )
    assert out == (Path("/out") / expected if marked else Path("/out") / lang / source)


@pytest.mark.parametrize(
    ("layout", "source", "code", "target"),
    [
        (android_values, "res/values/strings.xml", None, "res/values-b+zh+Hant/strings.xml"),
        (android_values, "res/values-pt-rBR/strings.xml", "pt-BR", "res/values-b+zh+Hant/strings.xml"),
        (android_values, "res/values-night/strings.xml", None, "res/values-b+zh+Hant-night/strings.xml"),
        (apple_lproj, "App/en.lproj/Localizable.strings", "en", "App/zh-Hant.lproj/Localizable.strings"),
        (apple_lproj, "App/Base.lproj/Main.strings", None, "App/zh-Hant.lproj/Main.strings"),
        (gettext_catalog, "po/de.po", "de", "po/zh_Hant.po"),
        (gettext_catalog, "locale/de/LC_MESSAGES/app.po", "de", "locale/zh_Hant/LC_MESSAGES/app.po"),
    ],
)
def test_layouts_for_po_android_and_apple(layout, source: str, code: str | None, target: str) -> None:  # type: ignore[no-untyped-def]
    found = layout(Path(source))
    if code == "-":
        assert found is None
        return
    assert found is not None and found.code == code and found.rewrite("zh-Hant") == Path(target)


def test_a_template_goes_where_the_folder_keeps_its_catalogs(tmp_path: Path) -> None:
    pot = tmp_path / "po" / "app.pot"
    pot.parent.mkdir()
    pot.write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    found = gettext_catalog(pot)
    assert found is not None and found.code is None and found.rewrite("de") == tmp_path / "po" / "de.po"
    (tmp_path / "po" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    assert found.rewrite("de") == tmp_path / "po" / "de" / "LC_MESSAGES" / "app.po"


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_discovery_tells_sources_from_translations(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "locales/en/a.json": '{"a": "A"}',
            "locales/de/a.json": '{"a": "B"}',
            "config/locales/en.yml": "en:\n  a: A\n",
            "config/locales/fr.yml": "fr:\n  a: B\n",
            "res/Messages.properties": "a=A\n",
            "res/Messages_de.properties": "a=B\n",
            "package.json": '{"name": "x", "description": "A tool"}',
            "tsconfig.json": "{}",
            "application.properties": "server.port=8080\n",
            "pyproject.toml": "[project]\nname = 'x'\n",
        },
    )
    found = find_inputs([str(tmp_path)], DiscoveryRules())
    names = sorted(str(s.relative) for s in found.sources)
    assert names == ["config/locales/en.yml", "locales/en/a.json", "res/Messages.properties"]
    reasons = {Path(s.path).name: s.reason for s in found.skipped}
    assert reasons["Messages_de.properties"].startswith("a translation (de)")
    assert "outside a strings folder" in reasons["package.json"]
    assert "no resource bundle" in reasons["application.properties"]
    german = find_inputs([str(tmp_path / "locales")], DiscoveryRules(source_suffix="de"))
    assert [str(s.relative) for s in german.sources] == ["de/a.json"]


def test_a_folder_of_string_files_and_markdown_is_one_run(tmp_path: Path) -> None:
    app = tmp_path / "app"
    shutil.copytree(ROOT / "samples" / "app", app)
    memory = tmp_path / "memory.sqlite"
    first = hymt(
        "translate",
        str(app),
        "--to",
        "de,ja",
        "--engine",
        "pseudo",
        "--cache",
        str(memory),
        "--report",
        str(tmp_path / "r1.json"),
        text=True,
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    for expected in (
        "locales/de/common.json",
        "locales/ja/common.json",
        "config/locales/ja.yml",
        "src/main/resources/com/example/Messages_de.properties",
        "lib/l10n/app_ja.arb",
        "extension/_locales/de/messages.json",
        "site/i18n/de.toml",
        "src/lang/ja.json",
        "README.de.md",
    ):
        assert (app / expected).is_file(), expected
    assert json.loads((app / "lib/l10n/app_ja.arb").read_text(encoding="utf-8"))["@@locale"] == "ja"
    check = hymt(
        "translate",
        str(app),
        "--to",
        "de,ja",
        "--engine",
        "pseudo",
        "--cache",
        str(memory),
        "--check",
        text=True,
        cwd=tmp_path,
    )
    assert check.returncode == 0, check.stderr
    again = hymt(
        "translate",
        str(app),
        "--to",
        "de,ja",
        "--engine",
        "pseudo",
        "--cache",
        str(memory),
        "--report",
        str(tmp_path / "r2.json"),
        text=True,
        cwd=tmp_path,
    )
    assert again.returncode == 0, again.stderr
    report = json.loads((tmp_path / "r2.json").read_text(encoding="utf-8"))
    assert report["engine_requests"] == 0


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("locales/en/bad.json", '{\n  "a": "x",\n}\n', "line 3, column 1"),
        ("config/locales/en.yml", "en:\n  a: [x\n  b: y\n", "line 3, column"),
        ("i18n/en.toml", 'a = "x"\nb = \n', "line 2, column"),
        ("res/Messages.properties", "a=caf\\u00zz\n", "line 1"),
    ],
)
def test_a_malformed_file_fails_alone_with_its_place(
    name: str, text: str, where: str, tmp_path: Path
) -> None:
    _tree(tmp_path, {name: text, "locales/en/good.json": '{"a": "Good morning"}'})
    result = hymt(
        "translate", str(tmp_path), "--to", "de", "--engine", "pseudo", "--no-cache", text=True, cwd=tmp_path
    )
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and name in errors[0] and where in errors[0], errors
    assert (tmp_path / "locales/de/good.json").is_file()
    bad_out = [
        p
        for p in tmp_path.rglob("*")
        if p.is_file()
        and p.name != ".hymt-manifest.json"
        and p.stat().st_mtime
        and "de" in p.parts
        and "bad" in p.name
    ]
    assert not bad_out
