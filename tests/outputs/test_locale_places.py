"""Existing layout wins: a target goes where the project keeps its locale in another spelling
(`locales/de_DE/` for --to de, `values-de-rDE/`, a template's catalogs in `translations/`), never
into a parallel new folder; never into another locale's (`pt_PT/` for pt-BR); two candidates
write the plain name with a warning; `--locale-paths exact` writes the plain name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.formats import format_for_path
from hymt_cli.formats.table_cells import TableOptions
from hymt_cli.inputs.discovery import DiscoveryRules, find_inputs
from hymt_cli.inputs.sources import SourceFile
from hymt_cli.options import OptionSet
from hymt_cli.outputs.paths import OutputRules, output_path
from hymt_cli.text.languages import language


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text or _EMPTY.get(Path(name).suffix, ""), encoding="utf-8")


# (an .xml file is Android's by its root element holding strings)
_EMPTY = {".xml": '<resources><string name="a">A</string></resources>\n'}


def _out(root: Path, source: str, lang: str, out_dir: Path | None = None, **how: bool) -> str:
    path = root / source
    fmt = format_for_path(path)
    assert fmt is not None
    found = output_path(SourceFile(path, Path(source), fmt), language(lang), out_dir, **how)
    assert found is not None
    return found.relative_to(out_dir or root).as_posix()


@pytest.mark.parametrize(
    ("files", "source", "lang", "expected"),
    [
        # a folder per locale: another spelling of the target, the same locale by likely subtags
        (["locales/de_DE/a.json"], "locales/en/b.json", "de", "locales/de_DE/b.json"),
        (["locales/pt_BR/a.json"], "locales/en/b.json", "pt", "locales/pt_BR/b.json"),
        (["locales/zh_TW/a.json"], "locales/en/b.json", "zh-Hant", "locales/zh_TW/b.json"),
        (["locales/zh-Hant/a.json"], "locales/en/b.json", "zh-TW", "locales/zh-Hant/b.json"),
        (["locales/pt-br/a.json"], "locales/en/b.json", "pt-BR", "locales/pt-br/b.json"),
        # never another locale; a new one in the separator the project uses
        (["locales/pt_PT/a.json"], "locales/en/b.json", "pt-BR", "locales/pt_BR/b.json"),
        (["locales/de_AT/a.json"], "locales/en/b.json", "de", "locales/de/b.json"),
        (["locales/zh-CN/a.json"], "locales/en/b.json", "es-419", "locales/es-419/b.json"),
        # a file per locale, Java's and Flutter's suffixes, Android's and Apple's folders
        (["config/locales/de-DE.yml"], "config/locales/en.yml", "de", "config/locales/de-DE.yml"),
        (["src/Messages_de_DE.properties"], "src/Messages.properties", "de", "src/Messages_de_DE.properties"),
        (["l10n/app_pt_BR.arb"], "l10n/app_en.arb", "pt", "l10n/app_pt_BR.arb"),
        (["res/values-de-rDE/strings.xml"], "res/values/strings.xml", "de", "res/values-de-rDE/strings.xml"),
        (["res/values-iw/strings.xml"], "res/values/strings.xml", "he", "res/values-iw/strings.xml"),
        (
            ["res/values-pt-rPT/strings.xml"],
            "res/values/strings.xml",
            "pt-BR",
            "res/values-pt-rBR/strings.xml",
        ),
        (
            ["App/pt_PT.lproj/Localizable.strings"],
            "App/en.lproj/Localizable.strings",
            "pt-PT",
            "App/pt_PT.lproj/Localizable.strings",
        ),
        (
            ["App/zh-Hant.lproj/Localizable.strings"],
            "App/en.lproj/Localizable.strings",
            "zh-TW",
            "App/zh-Hant.lproj/Localizable.strings",
        ),
        # Magento's dictionaries (a CSV named by its locale in i18n/)
        (["app/i18n/de_DE.csv"], "app/i18n/en_US.csv", "de", "app/i18n/de_DE.csv"),
        (["app/i18n/de_DE.csv"], "app/i18n/en_US.csv", "fr_FR", "app/i18n/fr_FR.csv"),
        # a template's catalogs: beside it, or in the folder the project keeps them in
        (["po/de_DE.po"], "po/app.pot", "de", "po/de_DE.po"),
        (["po/pt_BR.po"], "po/app.pot", "fr", "po/fr.po"),
        (
            ["translations/de/LC_MESSAGES/messages.po"],
            "messages.pot",
            "fr",
            "translations/fr/LC_MESSAGES/messages.po",
        ),
        (["po/de.po"], "app.pot", "pt-BR", "po/pt_BR.po"),
        (["locale/ru/LC_MESSAGES/django.po"], "locale/django.pot", "de", "locale/de/LC_MESSAGES/django.po"),
    ],
)
def test_an_existing_place_of_the_locale_wins(
    tmp_path: Path, files: list[str], source: str, lang: str, expected: str
) -> None:
    _tree(tmp_path, {name: "" for name in files} | {source: ""})
    assert _out(tmp_path, source, lang) == expected


def test_magentos_dictionaries_are_sources_and_translations_by_their_names(tmp_path: Path) -> None:
    _tree(tmp_path, {"i18n/en_US.csv": '"Save","Save"\n', "i18n/de_DE.csv": '"Save","Speichern"\n'})
    magento = OptionSet([TableOptions(columns=("2",))])  # (a table is walked with its columns)
    found = find_inputs([str(tmp_path)], DiscoveryRules(options=magento))
    assert [s.relative.as_posix() for s in found.sources] == ["i18n/en_US.csv"]
    assert [Path(s.path).name for s in found.skipped] == ["de_DE.csv"]


def test_the_source_is_never_its_own_target(tmp_path: Path) -> None:
    _tree(tmp_path, {"locales/en/a.json": "", "locales/de/a.json": ""})
    assert _out(tmp_path, "locales/en/a.json", "en-US") == "locales/en-US/a.json"


def test_exact_locale_paths_and_the_output_folder(tmp_path: Path) -> None:
    _tree(tmp_path, {"locales/en/a.json": "", "locales/de_DE/a.json": ""})
    assert _out(tmp_path, "locales/en/a.json", "de", exact_locales=True) == "locales/de/a.json"
    out = tmp_path / "out"
    assert _out(tmp_path, "locales/en/a.json", "de", out) == "locales/de/a.json"  # out/ has none yet
    (out / "locales" / "de_DE").mkdir(parents=True)
    assert _out(tmp_path, "locales/en/a.json", "de", out) == "locales/de_DE/a.json"


def test_two_places_of_one_locale_write_the_plain_name_and_say_why(tmp_path: Path) -> None:
    _tree(tmp_path, {"locales/en/a.json": "", "locales/zh_CN/a.json": "", "locales/zh-Hans/a.json": ""})
    path = tmp_path / "locales/en/a.json"
    fmt = format_for_path(path)
    assert fmt is not None
    source = SourceFile(path, Path("locales/en/a.json"), fmt)
    claim = OutputRules([source], None).claim(source, language("zh"))
    assert claim.path == tmp_path / "locales/zh/a.json"
    assert claim.note is not None and "zh-Hans, zh_CN all name zh" in claim.note


def test_a_run_writes_into_the_projects_folder_and_says_its_locale(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "config/locales/en/devise.yml": "en:\n  devise:\n    confirm: Confirm your account\n",
            "config/locales/de-DE/users.yml": "de-DE:\n  users:\n    title: Benutzer\n",
            "po/app.pot": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgid "Save"\nmsgstr ""\n',
            "po/pt_BR.po": 'msgid ""\nmsgstr ""\n"Language: pt_BR\\n"\n\nmsgid "Save"\nmsgstr "Salvar"\n',
        },
    )
    report = tmp_path / "report.json"
    result = hymt(
        "translate", ".", "--to", "de,pt,fr", "--engine", "pseudo", "--no-cache", "--report", str(report),
        text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "config/locales/de-DE/devise.yml").read_text(encoding="utf-8")
    assert written.startswith("de-DE:\n  devise:\n")  # the folder's locale, not --to's spelling
    assert not (tmp_path / "config/locales/de").exists() and not (tmp_path / "po/pt.po").exists()
    assert (tmp_path / "po/pt_BR.po").read_text(encoding="utf-8").endswith('msgstr "Salvar"\n')  # a person's
    files = {
        (f["lang"], Path(f["output"]).name): f["status"] for f in json.loads(report.read_text())["files"]
    }
    assert files[("pt", "pt_BR.po")] == "ok" and files[("fr", "fr.po")] == "ok"  # merged into
    assert "Language: fr\\n" in (tmp_path / "po/fr.po").read_text(encoding="utf-8")
    exact = hymt(
        "translate", "config", "--to", "de", "--engine", "pseudo", "--no-cache", "--locale-paths", "exact",
        text=True, cwd=tmp_path,
    )  # fmt: skip
    assert exact.returncode == 0, exact.stderr
    assert (tmp_path / "config/locales/de/devise.yml").read_text(encoding="utf-8").startswith("de:\n")


def test_two_targets_of_one_run_never_share_a_file(tmp_path: Path) -> None:
    _tree(tmp_path, {"locales/en/a.json": "", "locales/pt_BR/a.json": ""})
    path = tmp_path / "locales/en/a.json"
    fmt = format_for_path(path)
    assert fmt is not None
    source = SourceFile(path, Path("locales/en/a.json"), fmt)
    rules = OutputRules([source], None, overwrite=True)
    first, second = rules.claim(source, language("pt")), rules.claim(source, language("pt-BR"))
    assert first.path == second.path == tmp_path / "locales/pt_BR/a.json"
    assert first.refusal is None and second.refusal is not None and "pt translation" in second.refusal
