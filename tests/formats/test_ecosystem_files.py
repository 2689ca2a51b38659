"""The project files that say where a catalog's source is and which locales a project keeps
(formats/ecosystems): Xcode's development region, Flutter's `l10n.yaml`, Angular's
`angular.json`, gettext's `LINGUAS`; and Magento's dictionary names (`--to de` writes
`de_DE.csv`, as Magento loads it). Issue 34, items 5, 6 and 11."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import hymt
from pipelines import write

from hymt_cli.formats.ecosystems.angular import angular_i18n
from hymt_cli.formats.ecosystems.flutter import arb_template
from hymt_cli.formats.ecosystems.linguas import entries, with_entry
from hymt_cli.formats.ecosystems.xcode import development_region
from hymt_cli.formats.layout import magento_locale

TREES = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "trees"


def test_the_development_region_of_the_nearest_xcode_project(tmp_path: Path) -> None:
    write(tmp_path, "App.xcodeproj/project.pbxproj", '\t\tdevelopmentRegion = "zh-Hans";\n')
    lproj = tmp_path / "App/Resources/Base.lproj"
    lproj.mkdir(parents=True)
    assert development_region(lproj) == "zh-Hans"
    assert development_region(tmp_path.parent / "elsewhere.lproj") is None


def test_iina_is_developed_in_english() -> None:
    if not (TREES / "xcode-iina").is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    assert development_region(TREES / "xcode-iina/iina/Base.lproj") == "en"


def test_l10n_yaml_names_the_template_of_its_arb_dir(tmp_path: Path) -> None:
    write(tmp_path, "pubspec.yaml", "name: x\n")
    write(tmp_path, "l10n.yaml", "arb-dir: lib/i18n\ntemplate-arb-file: intl_en_US.arb\n")
    assert arb_template(tmp_path / "lib/i18n/intl_de.arb") == tmp_path / "lib/i18n/intl_en_US.arb"
    assert arb_template(tmp_path / "lib/other/app_de.arb") is None
    write(tmp_path, "l10n.yaml", "synthetic-package: false\n")  # gen-l10n's defaults
    assert arb_template(tmp_path / "lib/l10n/app_de.arb") == tmp_path / "lib/l10n/app_en.arb"
    write(tmp_path, "l10n.yaml", "- not a mapping\n")
    assert arb_template(tmp_path / "lib/l10n/app_de.arb") is None


def test_angular_json_lists_the_translations_of_the_extracted_source(tmp_path: Path) -> None:
    config = {
        "projects": {
            "ui": {
                "i18n": {
                    "sourceLocale": {"code": "en-US"},
                    "locales": {
                        "de": "src/locale/messages.de_DE.xlf",
                        "fr": {"translation": ["src/locale/messages.fr.xlf"]},
                    },
                },
                "architect": {"extract-i18n": {"options": {"outputPath": "i18n", "outFile": "source.xlf"}}},
            }
        }
    }
    write(tmp_path, "angular.json", json.dumps(config))
    found = angular_i18n(tmp_path / "src/locale/messages.de_DE.xlf")
    assert found is not None and found.source_locale == "en-US"
    assert found.source == tmp_path / "i18n/source.xlf"
    assert [code for code, _ in found.translations] == ["de", "fr"]
    assert angular_i18n(tmp_path / "elsewhere/messages.xlf") is None


def test_linguas_keeps_its_style() -> None:
    assert entries("# langs\nde fr # two\nsr@latin\n") == ["de", "fr", "sr@latin"]
    assert with_entry("de\nfr\n", "ja") == "de\nfr\nja\n"
    assert with_entry("de\nja\nzh_TW\n", "pt_BR") == "de\nja\npt_BR\nzh_TW\n"
    assert with_entry("ru\nde\n", "ja") == "ru\nde\nja\n"  # not sorted: last
    assert with_entry("de fr\n", "ja") == "de fr ja\n"  # several a line: on the last
    assert with_entry("de\r\nfr\r\n", "ja") == "de\r\nfr\r\nja\r\n"
    assert with_entry("de\nfr", "ja") == "de\nfr\nja\n"
    assert with_entry("de\nja\n", "ja") == "de\nja\n"


@pytest.mark.parametrize(
    ("tag", "name"),
    [
        ("de", "de_DE"),
        ("pt-BR", "pt_BR"),
        ("ja", "ja_JP"),
        ("zh", "zh_Hans_CN"),
        ("zh-TW", "zh_Hant_TW"),
        ("de-CH", "de_CH"),
    ],
)
def test_magento_names_a_dictionary_by_its_full_locale(tag: str, name: str) -> None:
    assert magento_locale(tag) == name


def test_a_magento_module_gets_de_de_csv_for_german(tmp_path: Path) -> None:
    write(tmp_path, "app/code/Acme/Blog/i18n/en_US.csv", '"Read more","Read more"\n"Back","Back"\n')
    done = hymt(
        "translate", "app/code/Acme/Blog", "--to", "de,zh", "--engine", "pseudo", "--no-cache", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in (tmp_path / "app/code/Acme/Blog/i18n").glob("*.csv"))
    assert made == ["de_DE.csv", "en_US.csv", "zh_Hans_CN.csv"]
