"""`--to pt-BR,zh-TW,es-419`: every ecosystem names the locale its own way (samples/app and real
projects' files from tests/corpus, laid out where their projects keep them), the file says which
locale it is in, a rerun finds nothing to do, and a locale the model cannot write exits 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.errors import ExitCode

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "shared" / "corpus"
LOCALES = ("pt-BR", "zh-TW", "es-419")

# Real files where their projects keep them (English the source): corpus name -> (its place,
# where each locale's translation goes; None: a translation already, Sphinx's Russian catalog,
# which shows the template's catalogs are kept as locale/<code>/LC_MESSAGES/sphinx.po).
CORPUS_LAYOUT = {
    "android/calculator-strings.xml": (
        "calculator/res/values/strings.xml",
        "calculator/res/{android}/strings.xml",
    ),
    "arb/gallery-intl_en.arb": ("gallery/lib/l10n/intl_en.arb", "gallery/lib/l10n/intl_{posix}.arb"),
    "json/chrome-download-manager-messages.json": (
        "chrome/_locales/en/messages.json",
        "chrome/_locales/{posix}/messages.json",
    ),
    "json/excalidraw-en.json": ("excalidraw/src/locales/en.json", "excalidraw/src/locales/{dash}.json"),
    "po/sphinx.pot": ("sphinx/locale/sphinx.pot", "sphinx/locale/{posix}/LC_MESSAGES/sphinx.po"),
    "po/sphinx-ru.po": ("sphinx/locale/ru/LC_MESSAGES/sphinx.po", None),
    "properties/petclinic-messages.properties": (
        "petclinic/src/main/resources/messages/messages.properties",
        "petclinic/src/main/resources/messages/messages_{posix}.properties",
    ),
    "strings/onionbrowser-Localizable.strings": (
        "onionbrowser/en.lproj/Localizable.strings",
        "onionbrowser/{dash}.lproj/Localizable.strings",
    ),
    "stringsdict/onionbrowser-en.stringsdict": (
        "onionbrowser/en.lproj/Localizable.stringsdict",
        "onionbrowser/{dash}.lproj/Localizable.stringsdict",
    ),
    "toml/ananke-en.toml": ("ananke/i18n/en.toml", "ananke/i18n/{dash}.toml"),
}

# Per ecosystem: the output of each locale (`{}` takes its spelling).
SAMPLE_NAMES = {
    "locales/{dash}/common.json": "i18next folder",
    "config/locales/{dash}.yml": "Rails",
    "src/main/resources/com/example/Messages_{posix}.properties": "Java bundle",
    "lib/l10n/app_{posix}.arb": "Flutter ARB",
    "extension/_locales/{posix}/messages.json": "WebExtension",
    "site/i18n/{dash}.toml": "Hugo",
    "src/lang/{dash}.json": "file per locale",
    "locale/{posix}.po": "gettext beside its template",
    "android/res/{android}/strings.xml": "Android",
    "ios/{dash}.lproj/Localizable.strings": "Apple",
    "ios/{dash}.lproj/Localizable.stringsdict": "Apple",
    "xliff/harbor-web.{dash}.xlf": "XLIFF",
    "README.{dash}.md": "document",
}
ANDROID = {"pt-BR": "values-pt-rBR", "zh-TW": "values-zh-rTW", "es-419": "values-b+es+419"}


def _spelled(name: str, locale: str) -> str:
    return name.format(dash=locale, posix=locale.replace("-", "_"), android=ANDROID[locale])


def _project(tmp_path: Path) -> Path:
    app = tmp_path / "app"
    shutil.copytree(ROOT / "samples" / "app", app)
    for name, (place, _) in CORPUS_LAYOUT.items():
        if (CORPUS / name).is_file():
            (app / place).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CORPUS / name, app / place)
    return app


def _run(app: Path, *more: str) -> tuple[int, str, dict[str, object]]:
    report = app.parent / "report.json"
    result = hymt(
        "translate",
        str(app),
        "--to",
        ",".join(LOCALES),
        "--engine",
        "pseudo",
        "--cache",
        str(app.parent / "memory.sqlite"),
        "--report",
        str(report),
        *more,
        text=True,
        cwd=app.parent,
    )
    return result.returncode, result.stderr, json.loads(report.read_text(encoding="utf-8"))


def test_every_ecosystem_names_the_locales_its_own_way(tmp_path: Path) -> None:
    app = _project(tmp_path)
    code, stderr, report = _run(app)
    assert code == 0, stderr
    corpus = [
        out for name, (_, out) in CORPUS_LAYOUT.items() if out is not None and (CORPUS / name).is_file()
    ]
    for locale in LOCALES:
        for name in [*SAMPLE_NAMES, *corpus]:
            assert (app / _spelled(name, locale)).is_file(), (locale, name, sorted(_written(app)))
    assert {f["lang"] for f in report["files"]} == set(LOCALES)  # type: ignore[index]
    # nothing under the model's own codes, nothing parallel
    assert not list(app.rglob("pt/*")) and not list(app.rglob("*zh-Hant*")) and not list(app.rglob("*_pt.*"))
    # each file says which locale it is in, the way its format does
    arb = json.loads((app / "lib/l10n/app_pt_BR.arb").read_text(encoding="utf-8"))
    assert arb["@@locale"] == "pt_BR"
    assert (app / "config/locales/es-419.yml").read_text(encoding="utf-8").count("\nes-419:\n") == 1
    assert "Language: zh_TW\\n" in (app / "locale/zh_TW.po").read_text(encoding="utf-8")
    assert 'target-language="pt-BR"' in (app / "xliff/harbor-web.pt-BR.xlf").read_text(encoding="utf-8")
    # a rerun: nothing is stale, no output is taken for a source, every answer is remembered
    check_code, check_err, _ = _run(app, "--check")
    assert check_code == 0, check_err
    again_code, again_err, again = _run(app)
    assert again_code == 0, again_err
    assert again["engine_requests"] == 0
    assert {f["input"] for f in again["files"]} == {f["input"] for f in report["files"]}  # type: ignore[index]


def _written(app: Path) -> list[str]:
    return [str(p.relative_to(app)) for p in app.rglob("*") if p.is_file()]


@pytest.mark.parametrize("locale", ["sr-Latn", "sr_Latn"])
def test_a_locale_the_model_cannot_write_exits_2_naming_it(tmp_path: Path, locale: str) -> None:
    source = tmp_path / "a.txt"
    source.write_text("Hello\n", encoding="utf-8")
    result = hymt(
        "translate", str(source), "--to", f"de,{locale}", "--engine", "pseudo", "--no-cache", text=True
    )
    assert result.returncode == ExitCode.USAGE
    assert "sr-Latn" in result.stderr and "Serbian" in result.stderr
    assert not list(tmp_path.glob("a.*.txt"))  # nothing written, not even German


def test_the_locales_table_chooses_the_model_language(tmp_path: Path) -> None:
    (tmp_path / "hymt.toml").write_text(
        'to = "zh-HK,zh-TW"\n\n[locales]\n"zh_hk" = "yue"\n', encoding="utf-8"
    )
    (tmp_path / "a.txt").write_text("Open the file.\n", encoding="utf-8")
    prompts = tmp_path / "prompts.jsonl"
    result = hymt(
        "translate",
        "a.txt",
        "--engine",
        "pseudo",
        "--no-cache",
        "--prompts-out",
        str(prompts),
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    asked = {
        line["lang"]: line["prompt"]
        for line in map(json.loads, prompts.read_text(encoding="utf-8").splitlines())
    }
    assert asked["zh-HK"].startswith("将以下文本翻译为粤语") and asked["zh-TW"].startswith(
        "将以下文本翻译为繁体中文"
    )
    assert (tmp_path / "a.zh-HK.txt").is_file() and (tmp_path / "a.zh-TW.txt").is_file()
    shown = hymt("config", text=True, cwd=tmp_path)
    assert 'locales = ["zh-HK=yue"]' in shown.stdout and "hymt.toml" in shown.stdout
    flag = hymt("config", "--locales", "zh-MO=yue", text=True, cwd=tmp_path)
    assert 'locales = ["zh-MO=yue"]' in flag.stdout
    wrong = hymt(
        "translate", "a.txt", "--engine", "pseudo", "--locales", "zh-HK=hakka", text=True, cwd=tmp_path
    )
    assert wrong.returncode == ExitCode.USAGE and "'hakka' is not a HY-MT language" in wrong.stderr
