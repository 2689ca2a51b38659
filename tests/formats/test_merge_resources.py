"""Merging into an Android `strings.xml`, an Apple `.strings` and a `.stringsdict` that exist:
what each format's file keeps (comments, its XML declaration, UTF-16 and its byte order mark,
CRLF), where a new member goes (after the member before it in the source, indented as the
target indents), what is never added (`translatable="false"`), plural forms (a missing plural
copied whole, a missing form inside the target's own), and targets that do not parse.

The real pipeline runs with the pseudo engine (every translated value visibly changed, every
request counted); the files are checked with ElementTree, plistlib and a `.strings` reader of
the tests' own (strings_helpers.read_pairs)."""

from __future__ import annotations

import codecs
from pathlib import Path

from engines import CountingEngine
from pipelines import make_pipeline, sources_of
from strings_helpers import read_pairs

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.reporting.report import FileReport


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


def _run(source: Path, lang: str) -> tuple[FileReport, list[str]]:
    engine = CountingEngine(PseudoEngine())
    report = make_pipeline(engine, to=lang).run(sources_of([source]))
    assert len(report.files) == 1
    return report.files[0], engine.requested


def _pairs(fmt: str, path: Path) -> dict[str, object]:
    return dict(read_pairs(fmt, path.read_bytes()))


# -- Android -----------------------------------------------------------------------------------
ANDROID_SOURCE = """<?xml version="1.0" encoding="utf-8"?>
<!-- Copyright: the app's authors -->
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Files</string>
    <!-- The title of the main screen -->
    <string name="title">My files</string>
    <string name="open">Open</string>
    <string name="share">Share <xliff:g id="name">%1$s</xliff:g></string>
    <color name="accent">#ff0000</color>
    <string name="delete">Delete</string>
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <string-array name="sorts">
        <item>By name</item>
        <item>By date</item>
        <item>By size</item>
    </string-array>
    <plurals name="folders">
        <item quantity="one">%d folder</item>
        <item quantity="other">%d folders</item>
    </plurals>
</resources>
"""

ANDROID_RU = """<?xml version="1.0" encoding="utf-8"?>
<!-- Copyright: the app's authors -->
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
  <!-- Переведено людьми -->
  <string name="title">Мои файлы</string>
  <string name="share">Поделиться <xliff:g id="name">%1$s</xliff:g></string>
  <string name="old_key">Устаревшее</string>
  <string name="delete">Удалить</string>
  <plurals name="files">
    <item quantity="zero">Нет файлов</item>
    <item quantity="one">%d файл</item>
    <item quantity="other">%d файла</item>
  </plurals>
  <string-array name="sorts">
    <item>По имени</item>
    <item>По дате</item>
  </string-array>
</resources>
"""


def _android(tmp_path: Path, target: str, lang: str = "ru") -> tuple[Path, Path]:
    source = _write(tmp_path / "res/values/strings.xml", ANDROID_SOURCE)
    return source, _write(tmp_path / f"res/values-{lang}/strings.xml", target)


def test_android_new_keys_go_after_their_sibling_and_the_rest_keeps_its_bytes(tmp_path: Path) -> None:
    source, target = _android(tmp_path, ANDROID_RU)
    file, requested = _run(source, "ru")
    assert file.status == "ok", file.error
    text = target.read_text(encoding="utf-8")
    # new keys after the key before them in the source, indented as this file indents
    assert '  <string name="title">Мои файлы</string>\n  <string name="open">⟦' in text
    assert text.index('name="sorts"') < text.index('name="folders"')
    assert (
        '  <string-array name="sorts">\n    <item>По имени</item>\n    <item>По дате</item>\n    <item>⟦'
        in text
    )
    # a missing plural comes whole; Russian's few and many go into the person's own plural
    assert '  <plurals name="folders">\n    <item quantity="one">⟦%d ƒóĺđéŕ' in text
    assert '<item quantity="other">%d файла</item>\n    <item quantity="few">⟦%d ƒíĺéš' in text
    # what no change touches: the declaration, comments, a person's values, the removed key gone
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n<!-- Copyright: the app\'s authors -->\n')
    assert "<!-- Переведено людьми -->" in text
    assert "old_key" not in text and "\n\n" not in text
    assert "<color" not in text and "app_name" not in text  # never added: no string, or untranslatable
    pairs = _pairs("android", target)
    assert pairs["files[zero]"] == "Нет файлов"  # a form only the person wrote stays
    assert str(pairs["share"]).startswith("Поделиться <") and str(pairs["share"]).endswith(">%1$s</ns0:g>")
    assert set(pairs) == {
        "title", "open", "share", "delete", "files[zero]", "files[one]", "files[other]", "files[few]",
        "files[many]", "sorts[0]", "sorts[1]", "sorts[2]", "folders[one]", "folders[other]",
        "folders[few]", "folders[many]",
    }  # fmt: skip
    assert sorted(r.replace("<s1/>", "%d") for r in requested) == sorted(
        ["Open", "By size", "%d folder", "%d folders", "%d folders", "%d folders", "%d files", "%d files"]
    )
    assert file.keys is not None
    assert (file.keys["added"], file.keys["removed"]) == (8, 1)
    again, requested = _run(source, "ru")
    assert requested == [] and again.keys is not None and again.keys["added"] == 0


def test_android_a_translatable_false_string_is_never_added_and_stays_where_a_person_put_it(
    tmp_path: Path,
) -> None:
    with_it = ANDROID_RU.replace(
        "  <!-- Переведено", '  <string name="app_name">Файлы</string>\n  <!-- Переведено'
    )
    source, target = _android(tmp_path, with_it)
    file, _ = _run(source, "ru")
    assert file.status == "ok", file.error
    assert '<string name="app_name">Файлы</string>' in target.read_text(encoding="utf-8")
    fresh, other = _android(tmp_path / "two", ANDROID_RU)
    _run(fresh, "ru")
    assert "app_name" not in other.read_text(encoding="utf-8")


def test_android_a_japanese_target_gets_a_new_plural_without_one(tmp_path: Path) -> None:
    ja = (
        '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n'
        '    <string name="title">マイファイル</string>\n</resources>\n'
    )
    source, target = _android(tmp_path, ja, "ja")
    file, _ = _run(source, "ja")
    assert file.status == "ok", file.error
    pairs = _pairs("android", target)
    assert "files[other]" in pairs and "files[one]" not in pairs and "folders[one]" not in pairs
    assert pairs["title"] == "マイファイル"


def test_android_crlf_and_an_empty_resources_element(tmp_path: Path) -> None:
    crlf = ANDROID_RU.replace("\n", "\r\n")
    source, target = _android(tmp_path, crlf)
    _run(source, "ru")
    data = target.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and b'<string name="open">' in data
    empty, into = _android(tmp_path / "empty", '<?xml version="1.0" encoding="utf-8"?>\n<resources/>\n')
    file, _ = _run(empty, "ru")
    assert file.status == "ok", file.error
    assert set(_pairs("android", into)) >= {"title", "open", "files[few]", "sorts[2]"}
    assert "app_name" not in into.read_text(encoding="utf-8")


def test_android_a_target_that_does_not_parse_is_an_error_naming_it_and_is_left_alone(tmp_path: Path) -> None:
    broken = ANDROID_RU.replace("</string-array>", "")
    source, target = _android(tmp_path, broken)
    file, requested = _run(source, "ru")
    assert file.status == "failed" and str(target) in (file.error or "")
    assert "cannot be merged into" in (file.error or "") and "line" in (file.error or "")
    assert target.read_text(encoding="utf-8") == broken and requested == []


# -- Apple .strings ----------------------------------------------------------------------------
STRINGS_SOURCE = """/* The title of the window */
"Title" = "Downloads";

/* A button */
"Cancel" = "Cancel";

/* Shown when the download ends; %@ is its name */
"Done %@" = "%@ is ready";

/* A quote: \\"fast\\" */
"Speed" = "Speed \\"fast\\"";
"""

STRINGS_DE = """\ufeff/* Deutsch, von Hand */

/* The title of the window */
"Title" = "Downloads";

/* Gone from the source */
"Old" = "Alt";

/* A quote: \\"fast\\" */
"Speed" = "Tempo \\"schnell\\"";
"""


def test_strings_utf16_target_keeps_its_bom_comments_and_gets_new_pairs_with_theirs(tmp_path: Path) -> None:
    source = _write(tmp_path / "en.lproj/Localizable.strings", STRINGS_SOURCE)
    target = _write(tmp_path / "de.lproj/Localizable.strings", STRINGS_DE, "utf-16-le")
    file, requested = _run(source, "de")
    assert file.status == "ok", file.error
    data = target.read_bytes()
    assert data.startswith(codecs.BOM_UTF16_LE)
    text = data.decode("utf-16-le")
    assert text.startswith("\ufeff/* Deutsch, von Hand */\n\n/* The title of the window */\n")
    assert '"Title" = "Downloads";\n\n/* A button */\n"Cancel" = "⟦' in text
    assert '"Done %@" = "⟦%@ íš ŕéáđý' in text and "/* Shown when the download ends" in text
    assert "Old" not in text and "Gone from the source" not in text
    assert text.endswith('/* A quote: \\"fast\\" */\n"Speed" = "Tempo \\"schnell\\"";\n')
    assert _pairs("strings", target)["Speed"] == 'Tempo "schnell"'
    assert sorted(requested) == ["<s1/> is ready", "Cancel"]
    assert file.keys is not None and (file.keys["added"], file.keys["removed"], file.keys["kept"]) == (
        2,
        1,
        2,
    )


def test_strings_a_target_that_does_not_parse_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    source = _write(tmp_path / "en.lproj/Localizable.strings", STRINGS_SOURCE)
    broken = STRINGS_DE.replace('"Alt";', '"Alt"')
    target = _write(tmp_path / "de.lproj/Localizable.strings", broken, "utf-16-le")
    file, _ = _run(source, "de")
    assert file.status == "failed" and str(target) in (file.error or "")
    assert "expected ';'" in (file.error or "")
    assert target.read_bytes() == broken.encode("utf-16-le")


# -- .stringsdict --------------------------------------------------------------------------------
def _dict_entry(key: str, variable: str, forms: dict[str, str], indent: str = "\t") -> str:
    rule = "".join(
        f"{indent * 3}<key>{k}</key>\n{indent * 3}<string>{v}</string>\n" for k, v in forms.items()
    )
    return (
        f"{indent}<key>{key}</key>\n{indent}<dict>\n"
        f"{indent * 2}<key>NSStringLocalizedFormatKey</key>\n{indent * 2}<string>%#@{variable}@</string>\n"
        f"{indent * 2}<key>{variable}</key>\n{indent * 2}<dict>\n"
        f"{indent * 3}<key>NSStringFormatSpecTypeKey</key>\n"
        f"{indent * 3}<string>NSStringPluralRuleType</string>\n"
        f"{indent * 3}<key>NSStringFormatValueTypeKey</key>\n{indent * 3}<string>d</string>\n"
        f"{rule}{indent * 2}</dict>\n{indent}</dict>\n"
    )


def _plist(*entries: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n<dict>\n' + "".join(entries) + "</dict>\n</plist>\n"
    )


def test_stringsdict_a_missing_key_comes_whole_and_a_missing_form_goes_into_its_rule(tmp_path: Path) -> None:
    source = _write(
        tmp_path / "Base.lproj/Localizable.stringsdict",
        _plist(
            _dict_entry("%d files", "files", {"one": "%d file", "other": "%d files"}),
            _dict_entry("%d folders", "folders", {"one": "%d folder", "other": "%d folders"}),
        ),
    )
    person = _plist(
        _dict_entry(
            "%d files", "files", {"zero": "Keine Datei", "one": "%d Datei", "other": "%d Dateien"}, "  "
        )
    )
    target = _write(tmp_path / "ru.lproj/Localizable.stringsdict", person)
    file, requested = _run(source, "ru")
    assert file.status == "ok", file.error
    text = target.read_text(encoding="utf-8")
    assert text.startswith(person.split("</dict>\n</plist>")[0][: person.index("<string>%d Dateien")])
    pairs = _pairs("stringsdict", target)
    assert pairs["%d files.files.zero"] == "Keine Datei"  # a form only the person wrote stays
    assert pairs["%d files.files.few"] == "⟦%d ƒíĺéš ·⟧" and "%d files.files.many" in pairs
    assert pairs["%d folders.NSStringLocalizedFormatKey"] == "%#@folders@"
    assert pairs["%d folders.folders.one"].startswith("⟦%d ƒóĺđéŕ ")  # type: ignore[union-attr]
    for category in ("few", "many", "other"):
        assert pairs[f"%d folders.folders.{category}"].startswith("⟦%d ƒóĺđéŕš ")  # type: ignore[union-attr]
    assert "\n  <key>%d folders</key>\n  <dict>\n    <key>NSStringLocalizedFormatKey</key>" in text
    assert sorted(r.replace("<s1/>", "%d") for r in requested) == sorted(
        ["%d files", "%d files", "%d folder", "%d folders", "%d folders", "%d folders"]
    )
    assert file.keys is not None and (file.keys["added"], file.keys["kept"]) == (7, 3)
