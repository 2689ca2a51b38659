"""Each catalog's one source (formats/catalogs.py), in folder runs and in shell globs: a variant of
the source language (Android `values-en-rGB/`, Xcode `en-GB.lproj/` and an empty `Base.lproj`
file, Flutter `app_en_GB.arb` beside `l10n.yaml`'s template, gettext `en_GB.po`, Rails custom
locales by their root key, Django's `locale/en_GB/`) is a target or left alone, never a second
source; `--check` says what `translate` does. Issue 34, items 1, 2, 4, 5 and 6 (the trees of
tests/corpus/SOURCES, and small projects built here for what they lack)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import hymt, pseudo_run
from pipelines import write
from strings_helpers import read_pairs

TREES = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "trees"


def _tree(name: str, tmp_path: Path) -> Path:
    origin = TREES / name
    if not origin.is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    shutil.copytree(origin, tmp_path / name)
    return tmp_path / name


def _pairs(kind: str, path: Path) -> dict[str, object]:
    return dict(read_pairs(kind, path.read_bytes()))


# -- item 1: a variant of the source language is no second source ---------------------------------
def test_a_shell_glob_of_android_values_folders_keeps_the_german_translation(tmp_path: Path) -> None:
    """`values*/strings.xml` names values-en-rGB/ and values-en-rAU/ too: they are targets of
    values/, so the German file keeps all its values and `--check` ends at 0."""
    res = _tree("android-clock", tmp_path) / "app/src/main/res"
    german = _pairs("android", res / "values-de/strings.xml")
    names = sorted(str(p.relative_to(res)) for p in res.glob("values*/strings.xml"))
    assert "values-en-rGB/strings.xml" in names and "values-en-rAU/strings.xml" in names
    code, stderr, report = pseudo_run(res, *names, "--to", "de")
    assert code == 0, stderr
    assert "separate --out folders" not in stderr
    after = _pairs("android", res / "values-de/strings.xml")
    assert {k: v for k, v in after.items() if k in german} == german
    assert [f["input"] for f in report["files"]] == ["values/strings.xml"]  # type: ignore[index]
    check = hymt("translate", *names, "--to", "de", "--engine", "pseudo", "--check", cwd=res, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_folder_run_takes_the_default_resources_only(tmp_path: Path) -> None:
    res = _tree("android-clock", tmp_path) / "app/src/main/res"
    code, stderr, report = pseudo_run(res, ".", "--to", "de", "-v")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {"values/strings.xml", "values/cities.xml"}  # type: ignore[index]
    assert "skipped values-en-rGB/strings.xml: a variant of the source language (en-GB)" in stderr
    assert "--to en-GB" in stderr


def test_android_values_en_beside_values_is_a_target(tmp_path: Path) -> None:
    """The issue's app: `values-en/` (a plain language code) beside `values/`."""
    res = tmp_path / "res"
    write(res, "values/strings.xml", _android({f"k{i}": f"Text {i}" for i in range(6)}))
    write(res, "values-en/strings.xml", _android({"k1": "Text 1 (en)"}))
    write(res, "values-de/strings.xml", _android({f"k{i}": f"Text {i} (de)" for i in range(6)}))
    code, stderr, report = pseudo_run(
        tmp_path, "res/values/strings.xml", "res/values-en/strings.xml", "--to", "de"
    )
    assert code == 0, stderr
    assert _pairs("android", res / "values-de/strings.xml") == {f"k{i}": f"Text {i} (de)" for i in range(6)}
    assert [f["input"] for f in report["files"]] == ["res/values/strings.xml"]  # type: ignore[index]
    code, stderr, report = pseudo_run(tmp_path, "res/values/strings.xml", "--to", "en")
    assert code == 0, stderr  # --to en: values-en/ is where English goes, merged into
    assert _pairs("android", res / "values-en/strings.xml")["k1"] == "Text 1 (en)"


def _android(values: dict[str, str]) -> str:
    rows = "".join(f'    <string name="{k}">{v}</string>\n' for k, v in values.items())
    return f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n{rows}</resources>\n'


def test_xcode_the_development_region_is_the_source_and_base_with_nothing_is_left_alone(
    tmp_path: Path,
) -> None:
    """IINA: `Base.lproj/InfoPlist.strings` is empty, `en.lproj`'s has the copyright: the German
    one keeps its value (item 2's folder run), and the new Japanese one gets the English key."""
    root = _tree("xcode-iina", tmp_path)
    iina = root / "iina"
    assert (iina / "Base.lproj/InfoPlist.strings").read_bytes().strip() == b""
    german = (iina / "de.lproj/InfoPlist.strings").read_bytes()
    code, stderr, report = pseudo_run(root, "iina", "--to", "de,ja", "-v")
    assert code == 0, stderr
    assert (iina / "de.lproj/InfoPlist.strings").read_bytes() == german
    assert b"NSHumanReadableCopyright" in (iina / "ja.lproj/InfoPlist.strings").read_bytes()
    inputs = {f["input"] for f in report["files"]}  # type: ignore[index]
    assert inputs == {
        f"iina/en.lproj/{n}.strings" for n in ("InfoPlist", "Localizable", "FilterPresets", "KeyBinding")
    }
    assert "iina/en.lproj/Localizable.strings is (its ecosystem's)" in stderr  # Base.lproj's, left alone


def test_xcode_a_project_developed_in_german_has_german_sources(tmp_path: Path) -> None:
    """`developmentRegion = de`: de.lproj's file is its catalog's source without --from, and
    Base.lproj's where de.lproj has none."""
    project = tmp_path / "App"
    write(
        project,
        "App.xcodeproj/project.pbxproj",
        "{\n\tdevelopmentRegion = de;\n\tknownRegions = (de, Base, fr);\n}\n",
    )
    write(project, "App/Base.lproj/Main.strings", '"title" = "Titel";\n"ok" = "OK";\n')
    write(project, "App/de.lproj/Localizable.strings", '"hello" = "Hallo";\n')
    write(project, "App/fr.lproj/Localizable.strings", '"hello" = "Bonjour";\n')
    code, stderr, report = pseudo_run(project, "App", "--to", "fr")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {
        "App/Base.lproj/Main.strings",
        "App/de.lproj/Localizable.strings",
    }  # type: ignore[index]
    assert _pairs("strings", project / "App/fr.lproj/Localizable.strings") == {"hello": "Bonjour"}


def test_flutter_the_template_of_l10n_yaml_is_the_source(tmp_path: Path) -> None:
    root = _tree("flutter-every-door", tmp_path)
    german = (root / "lib/l10n/app_de.arb").read_bytes()
    code, stderr, report = pseudo_run(root, "lib/l10n", "--to", "de,ja")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {"lib/l10n/app_en.arb"}  # type: ignore[index]
    assert (root / "lib/l10n/app_de.arb").read_bytes() == german


def test_flutter_app_en_us_is_a_translation_of_the_template_l10n_yaml_names(tmp_path: Path) -> None:
    """The issue's app: `template-arb-file: app_en.arb`, `app_en_US.arb` beside it, in an
    `arb-dir` of its own."""
    root = tmp_path / "app"
    write(root, "pubspec.yaml", "name: app\n")
    write(root, "l10n.yaml", "arb-dir: assets/l10n\ntemplate-arb-file: app_en.arb\n")
    keys = {f"k{i}": f"Text {i}" for i in range(5)}
    write(root, "assets/l10n/app_en.arb", json.dumps(keys))
    write(root, "assets/l10n/app_en_US.arb", json.dumps({"k1": "Text 1 (US)"}))
    write(root, "assets/l10n/app_de.arb", json.dumps({k: f"{v} (de)" for k, v in keys.items()}))
    code, stderr, report = pseudo_run(
        root, "assets/l10n/app_en.arb", "assets/l10n/app_en_US.arb", "--to", "de"
    )
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["assets/l10n/app_en.arb"]  # type: ignore[index]
    assert json.loads((root / "assets/l10n/app_de.arb").read_text()) == {
        k: f"{v} (de)" for k, v in keys.items()
    }


def test_gettext_en_gb_po_is_a_target_of_the_template(tmp_path: Path) -> None:
    po = tmp_path / "po"
    write(po, "app.pot", _po({"Open": "", "Save": "", "Close": ""}))
    write(po, "en_GB.po", _po({"Open": "Open", "Save": "Save", "Close": "Close"}, lang="en_GB"))
    write(po, "de.po", _po({"Open": "Öffnen", "Save": "Speichern", "Close": "Schließen"}, lang="de"))
    code, stderr, report = pseudo_run(tmp_path, "po", "--to", "de")
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["po/app.pot"]  # type: ignore[index]
    assert _pairs("po", po / "de.po") == {"Open": "Öffnen", "Save": "Speichern", "Close": "Schließen"}


def _po(messages: dict[str, str], lang: str | None = None) -> str:
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' + (
        f'"Language: {lang}\\n"\n' if lang else ""
    )
    return header + "".join(f'\nmsgid "{k}"\nmsgstr "{v}"\n' for k, v in messages.items())


def test_django_en_us_is_the_source_and_en_gb_a_variant(tmp_path: Path) -> None:
    """paperless-ngx: `src/locale/en_US/LC_MESSAGES/django.po` (Crowdin's source) beside
    `en_GB/`: a folder run reads en_US's alone."""
    root = _tree("django-angular-paperless", tmp_path)
    german = (root / "src/locale/de_DE/LC_MESSAGES/django.po").read_bytes()
    code, stderr, report = pseudo_run(root, "src/locale", "--to", "de")
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["src/locale/en_US/LC_MESSAGES/django.po"]  # type: ignore[index]
    before = {k: v for k, v in read_pairs("po", german) if v}
    after = _pairs("po", root / "src/locale/de_DE/LC_MESSAGES/django.po")
    assert {k: after.get(k) for k in before} == before


def test_several_files_in_the_source_language_and_none_the_source_are_named_not_guessed(
    tmp_path: Path,
) -> None:
    write(tmp_path, "locales/en-GB/app.json", '{"a": "Colour"}')
    write(tmp_path, "locales/en-AU/app.json", '{"a": "Colour"}')
    code, stderr, _ = pseudo_run(tmp_path, "locales", "--to", "de", "-v")
    assert code == 1 and "2 files hold this catalog in the source language" in stderr
    assert not (tmp_path / "locales/de").exists()


def test_two_sources_of_one_output_are_told_how_to_choose_not_to_use_out_folders(tmp_path: Path) -> None:
    write(tmp_path, "guide.md", "# Guide\n")
    write(tmp_path, "guide.en.md", "# Guide\n")
    code, stderr, _ = pseudo_run(tmp_path, "guide.md", "guide.en.md", "--to", "de", "--source-suffix", "en")
    assert code == 1 and "both are sources of it" in stderr and "separate --out folders" not in stderr


# -- item 4: Rails custom locales are read by their root key -------------------------------------
def test_rails_custom_locales_are_no_sources(tmp_path: Path) -> None:
    """diaspora: `devise.en_pirate.yml`, `devise.en_1337.yml` and `devise.de_formal.yml` hold
    the locales their root keys name; none gives `devise.*.de.yml` files, `devise.de.yml` keeps
    all its values, and the English file is the source without --from."""
    root = _tree("rails-diaspora", tmp_path)
    locales = root / "config/locales/devise"
    before = {p.name for p in locales.iterdir()}
    german = {k: v for k, v in _pairs("yaml", locales / "devise.de.yml").items() if v}  # ("" is missing)
    code, stderr, report = pseudo_run(root, "config/locales", "--to", "de,ja")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {"config/locales/devise/devise.en.yml"}  # type: ignore[index]
    assert {p.name for p in locales.iterdir()} - before == {"devise.ja.yml", ".hymt-manifest.json"}
    after = _pairs("yaml", locales / "devise.de.yml")
    assert {k: after.get(k) for k in german} == german
    assert next(iter(_pairs("yaml", locales / "devise.ja.yml"))).startswith("ja.")


def test_rails_a_shell_glob_of_one_folder_takes_the_source_locale_s_file(tmp_path: Path) -> None:
    root = _tree("rails-diaspora", tmp_path)
    names = sorted(str(p.relative_to(root)) for p in (root / "config/locales/devise").glob("devise.*.yml"))
    code, stderr, report = pseudo_run(root, *names, "--to", "de")
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["config/locales/devise/devise.en.yml"]  # type: ignore[index]
    assert not list((root / "config/locales/devise").glob("devise.*.*.yml"))


# -- item 5: gettext's @modifier locales and LINGUAS ----------------------------------------------
def test_gettext_sr_at_latin_is_a_translation_and_a_new_catalog_joins_linguas(tmp_path: Path) -> None:
    root = _tree("meson-protonplus", tmp_path)
    linguas = (root / "po/LINGUAS").read_text()
    assert "sr@latin" in linguas.split()
    code, stderr, report = pseudo_run(root, "po", "--to", "de,ja")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {"po/com.vysp3r.ProtonPlus.pot"}  # type: ignore[index]
    assert not list((root / "po").glob("sr@latin.*.po"))
    assert (root / "po/LINGUAS").read_text() == linguas + "ja\n"  # (its order is the project's: last)
    code, stderr, _ = pseudo_run(root, "po", "--to", "ja")
    assert code == 0 and (root / "po/LINGUAS").read_text() == linguas + "ja\n"


def test_a_new_catalog_goes_in_its_sorted_place_in_a_sorted_linguas(tmp_path: Path) -> None:
    po = tmp_path / "po"
    write(po, "app.pot", _po({"Open": ""}))
    write(po, "LINGUAS", "# Please keep this list sorted\nca@valencia\nde\nsr@latin\nzh_TW\n")
    for code in ("ca@valencia", "de", "sr@latin", "zh_TW"):
        write(po, f"{code}.po", _po({"Open": "x"}, lang=code))
    code, stderr, report = pseudo_run(tmp_path, "po", "--to", "ja,pt-BR")
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["po/app.pot", "po/app.pot"]  # type: ignore[index]
    assert (
        po / "LINGUAS"
    ).read_text() == "# Please keep this list sorted\nca@valencia\nde\nja\npt_BR\nsr@latin\nzh_TW\n"


def test_a_linguas_that_is_an_input_of_the_run_is_never_written(tmp_path: Path) -> None:
    """`--format po po/app.pot po/LINGUAS`: LINGUAS is an input (unreadable as PO), so the new
    `ja.po` leaves it as it is, and says what to add (outputs/listings.py)."""
    po = tmp_path / "po"
    write(po, "app.pot", _po({"Open": ""}))
    write(po, "LINGUAS", "de\n")
    code, stderr, _ = pseudo_run(tmp_path, "po/app.pot", "po/LINGUAS", "--format", "po", "--to", "ja")
    assert code == 1 and (po / "ja.po").is_file()  # (LINGUAS failed as PO; the catalog is written)
    assert (po / "LINGUAS").read_text() == "de\n"
    assert "po/LINGUAS: cannot be written (an input of this run): add ja to it yourself" in stderr


def test_gettext_ca_at_valencia_is_the_target_of_ca_valencia(tmp_path: Path) -> None:
    po = tmp_path / "po"
    write(po, "app.pot", _po({"Open": "", "Close": ""}))
    write(po, "ca@valencia.po", _po({"Open": "Obri"}, lang="ca@valencia"))
    # (HY-MT writes no Catalan: a project maps the locale to a model language)
    code, stderr, report = pseudo_run(tmp_path, "po", "--to", "ca-valencia", "--locales", "ca-valencia=es")
    assert code == 0, stderr
    assert [f["output"] for f in report["files"]] == ["po/ca@valencia.po"]  # type: ignore[index]
    assert _pairs("po", po / "ca@valencia.po")["Open"] == "Obri"


# -- item 6: XLIFF translations as the project spells and places them ------------------------------
def test_angular_translations_are_found_where_angular_json_keeps_them(tmp_path: Path) -> None:
    """paperless-ngx: `messages.xlf` at the workspace root, `src/locale/messages.pt_BR.xlf` and
    `messages.de_DE.xlf` listed in angular.json: --to pt-BR,de merges into them; a new locale
    goes beside them, spelled as they are."""
    ui = _tree("django-angular-paperless", tmp_path) / "src-ui"
    locale = ui / "src/locale"
    german = {k: v for k, v in read_pairs("xliff", (locale / "messages.de_DE.xlf").read_bytes()) if v}
    code, stderr, report = pseudo_run(ui, "messages.xlf", "--to", "pt-BR,de,ja")
    assert code == 0, stderr
    outputs = sorted(f["output"] for f in report["files"])  # type: ignore[index]
    assert outputs == [
        "src/locale/messages.de_DE.xlf",
        "src/locale/messages.ja.xlf",
        "src/locale/messages.pt_BR.xlf",
    ]
    assert not (ui / "messages.de.xlf").exists() and not (locale / "messages.pt-BR.xlf").exists()
    assert 'add "ja": "src/locale/messages.ja.xlf" to the i18n locales of angular.json' in stderr
    after = _pairs("xliff", locale / "messages.de_DE.xlf")
    assert {k: after.get(k) for k in german} == german


def test_xliff_existing_spelling_wins_beside_the_source(tmp_path: Path) -> None:
    unit = '<trans-unit id="a"><source>Open</source>{}</trans-unit>'
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        '<file source-language="en" {} datatype="plaintext" original="x"><body>{}</body></file></xliff>\n'
    )
    write(tmp_path, "messages.xlf", doc.format("", unit.format("")))
    write(
        tmp_path,
        "messages.pt_BR.xlf",
        doc.format('target-language="pt-BR"', unit.format("<target>Abrir</target>")),
    )
    write(
        tmp_path,
        "messages.de_DE.xlf",
        doc.format('target-language="de-DE"', unit.format("<target>Öffnen</target>")),
    )
    for to in ("pt-BR,de", "pt_BR,de_DE"):
        code, stderr, report = pseudo_run(tmp_path, "messages.xlf", "--to", to)
        assert code == 0, stderr
        assert sorted(f["output"] for f in report["files"]) == ["messages.de_DE.xlf", "messages.pt_BR.xlf"]  # type: ignore[index]
    assert sorted(p.name for p in tmp_path.glob("*.xlf")) == [
        "messages.de_DE.xlf",
        "messages.pt_BR.xlf",
        "messages.xlf",
    ]


def test_check_says_what_translate_says_of_a_translation_named_alone(tmp_path: Path) -> None:
    ui = _tree("django-angular-paperless", tmp_path) / "src-ui"
    name = "src/locale/messages.de_DE.xlf"
    done = hymt("translate", name, "--to", "de-DE", "--engine", "pseudo", "--no-cache", cwd=ui, text=True)
    check = hymt("translate", name, "--to", "de-DE", "--engine", "pseudo", "--check", cwd=ui, text=True)
    assert done.returncode != 0 and check.returncode == done.returncode
    said = "is itself the de-DE translation"
    assert said in done.stderr and said in check.stderr
    assert "missing" not in check.stdout + check.stderr


def test_a_catalog_linguas_lists_is_a_translation_whatever_its_code(tmp_path: Path) -> None:
    """GNOME's `crh` (Crimean Tatar) and `frp` (Arpitan) are no codes CLDR knows: LINGUAS says
    they are catalogs, so they are translations, not sources of `crh.de.po`."""
    po = tmp_path / "po"
    write(po, "app.pot", _po({"Open": ""}))
    write(po, "LINGUAS", "crh\nde\nfrp\n")
    for code in ("crh", "de", "frp"):
        write(po, f"{code}.po", _po({"Open": "x"}, lang=code))
    code, stderr, report = pseudo_run(tmp_path, "po", "--to", "de")
    assert code == 0, stderr
    assert [f["input"] for f in report["files"]] == ["po/app.pot"]  # type: ignore[index]
    assert sorted(p.name for p in po.glob("*.po")) == ["crh.po", "de.po", "frp.po"]


def test_rails_an_en_us_root_is_the_source_where_no_file_has_en(tmp_path: Path) -> None:
    """`I18n.default_locale = :"en-US"`: `en-US.yml` is its catalog's source (the same locale as en
    once CLDR's likely subtags are added), not a variant of a missing `en.yml`."""
    write(tmp_path, "config/locales/en-US.yml", "en-US:\n  hello: Hello\n")
    write(tmp_path, "config/locales/de.yml", "de:\n  hello: Hallo\n")
    code, stderr, report = pseudo_run(tmp_path, "config/locales", "--to", "de,ja")
    assert code == 0, stderr
    assert {f["input"] for f in report["files"]} == {"config/locales/en-US.yml"}  # type: ignore[index]
    assert _pairs("yaml", tmp_path / "config/locales/de.yml") == {"de.hello": "Hallo"}
