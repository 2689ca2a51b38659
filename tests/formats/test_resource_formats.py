"""What each resource format sends, never sends and writes: PO (header, plurals, fuzzy, a person's
translations), XLIFF 1.2/2.0 (targets, state, target language, inline codes), Android (escapes,
plurals, references), Apple (.strings encodings, stringsdict plural keys); their layouts, the
`.xml` choice by content, and untrusted input refused with one line naming line and column."""

from __future__ import annotations

import re
import time
from pathlib import Path

import polib
import pytest
from engines import STRING_ATTACKS, StringAttack
from resource_checks import CORPUS, po_entries, translate

from hymt_cli.formats import FormatError, PoOptions, XliffOptions, format_for_path, format_named
from hymt_cli.formats.android import AndroidFormat
from hymt_cli.formats.apple import AppleStringsFormat, StringsDictFormat
from hymt_cli.formats.base import DocumentDecodeError
from hymt_cli.formats.layout import android_values, apple_lproj, gettext_catalog
from hymt_cli.formats.po.format import PoFormat
from hymt_cli.formats.xliff.format import XliffFormat, dotted_language
from hymt_cli.formats.xml_kind import xml_kind

POT = """# Header comment
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: demo\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Content-Type: text/plain; charset=CHARSET\\n"

#. Button label
msgctxt "button"
msgid "Save"
msgstr ""

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

#, python-format
msgid "Hello %(name)s"
msgstr "Bonjour %(name)s"

#~ msgid "Old"
#~ msgstr ""
"""


def _po(text: str, translations: dict[str, str], lang: str, options: PoOptions | None = None) -> str:
    doc = PoFormat(options).parse(text)
    return doc.reassemble(
        {s.id: translations.get(s.text, s.text) for s in doc.segments if s.is_for(lang)}, target_language=lang
    )


def _parsed(text: str, tmp_path: Path) -> polib.POFile:
    path = tmp_path / "x.po"
    path.write_text(text, encoding="utf-8")
    return po_entries(path)


def test_po_sends_empty_msgids_with_context_and_never_a_translation_or_obsolete_entry():
    doc = PoFormat().parse(POT)
    texts = {s.text: s for s in doc.segments}
    assert "Save" in texts and texts["Save"].context == "Context: button\nButton label"
    assert "Hello <s1/>" not in texts and "Old" not in texts  # a person's work, an obsolete entry
    assert "<s1/> file" in texts and "<s1/> files" in texts


def test_po_header_plurals_and_msgstr_order_for_the_target(tmp_path: Path):
    out = _po(POT, {"Save": "Speichern", "<s1/> file": "<s1/> файл", "<s1/> files": "<s1/> файлов"}, "ru")
    po = _parsed(out, tmp_path)
    assert po.metadata["Language"] == "ru" and po.metadata["Plural-Forms"].startswith("nplurals=3;")
    assert po.metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert "fuzzy" not in po.metadata_is_fuzzy and not po.metadata_is_fuzzy  # msginit drops it
    plural = next(e for e in po if e.msgid_plural)
    assert sorted(plural.msgstr_plural) == [0, 1, 2] and plural.msgstr_plural[0] == "%d файл"
    assert next(e for e in po if e.msgid.startswith("Hello")).msgstr == "Bonjour %(name)s"
    assert '#~ msgid "Old"' in out
    assert _po(POT, {}, "ja").count("msgstr[0]") == 1  # Japanese: one form


def test_po_identity_only_edits_the_header():
    out = _po(POT, {}, "de")
    changed = {line for line in out.splitlines() if line not in POT.splitlines()}
    removed = {line for line in POT.splitlines() if line not in out.splitlines()}
    assert changed == {
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Language: de\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
    }
    assert removed == {"#, fuzzy", '"Content-Type: text/plain; charset=CHARSET\\n"'}


def test_po_fuzzy_option_flags_machine_translations(tmp_path: Path):
    out = _po(
        POT,
        {"Save": "Speichern", "<s1/> file": "<s1/> Datei", "<s1/> files": "<s1/> Dateien"},
        "de",
        PoOptions(fuzzy=True),
    )
    po = _parsed(out, tmp_path)
    assert "fuzzy" in next(e for e in po if e.msgid == "Save").flags
    plural = next(e for e in po if e.msgid_plural)
    assert plural.flags[0] == "fuzzy" and "c-format" in plural.flags
    assert "fuzzy" not in next(e for e in po if e.msgid.startswith("Hello")).flags


def test_po_escapes_and_long_lines(tmp_path: Path):
    text = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Say"\nmsgstr ""\n'
    hostile = 'He said "hi" \\ back\tand\nnew line ' + "word " * 30
    out = _po(text, {"Say": hostile}, "de")
    assert _parsed(out, tmp_path)[0].msgstr == hostile.replace("\n", " ")  # one line stays one line
    assert max(len(line) for line in out.splitlines()) <= 79


def test_po_keeps_a_translated_file_language_and_fills_its_gaps(tmp_path: Path):
    text = (
        'msgid ""\nmsgstr ""\n"Language: pt_BR\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "Done"\nmsgstr "Feito"\n\nmsgid "New"\nmsgstr ""\n'
    )
    out = _po(text, {"New": "Novo"}, "pt")
    po = _parsed(out, tmp_path)
    assert po.metadata["Language"] == "pt_BR" and po.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    assert [e.msgstr for e in po] == ["Feito", "Novo"]
    other = _parsed(_po(text, {"New": "Neu"}, "de"), tmp_path)  # Portuguese is not German: emptied
    assert [e.msgstr for e in other] == ["", "Neu"]


def test_po_refuses_malformed_files_with_line_and_column():
    for bad, where in [
        ('msgid "a\nmsgstr ""\n', "line 1"),
        ('msgid "a"\n', "line 1"),
        ('msgid "a"\nmsgstr "b" junk\n', "line 2, column 12"),
        ("nonsense\n", "line 1"),
    ]:
        with pytest.raises(FormatError, match=where):
            PoFormat().parse(bad)
    with pytest.raises(DocumentDecodeError):
        PoFormat().decode(b'msgid "\xe9"\nmsgstr ""\n')
    with pytest.raises(FormatError, match="declares charset X-NONE, which hymt has no codec for"):
        PoFormat().decode(b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=X-NONE\\n"\n')


XLIFF12 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de-CH" datatype="plaintext" original="a">
    <body>
      <trans-unit id="a"><source>Open <g id="1">file</g> <x id="2"/></source><note>menu</note></trans-unit>
      <trans-unit id="b"><source>Done</source><target>Fertig</target></trans-unit>
      <trans-unit id="c"><source>Later</source><target state="new">Later</target></trans-unit>
      <trans-unit id="d" translate="no"><source>Brand</source></trans-unit>
      <trans-unit id="e"><source>Close</source>
        <alt-trans><source>Close</source><target>Zu</target></alt-trans></trans-unit>
    </body>
  </file>
</xliff>
"""


def test_xliff12_targets_state_and_language():
    doc = XliffFormat().parse(XLIFF12)
    assert [s.text for s in doc.segments] == ["Open <s1>file</s1> <s2/>", "Later", "Close"]
    assert doc.segments[0].context == "Key: a\nmenu"
    out = doc.reassemble(
        {0: "<s1>Datei</s1> <s2/> öffnen", 1: "Später", 2: "Schliessen"}, target_language="de_CH"
    )
    assert 'target-language="de-CH"' in out  # the file's own tag names the target: kept
    assert (
        '<target state="translated" state-qualifier="mt-suggestion"><g id="1">Datei</g> <x id="2"/> öffnen'
        "</target>"
    ) in out
    assert '<target state="translated" state-qualifier="mt-suggestion">Später</target>' in out
    assert (
        "<target>Fertig</target>" in out and "<target>Zu</target>" in out and "Brand</source></trans" in out
    )
    review = (
        XliffFormat(XliffOptions(xliff_review=True))
        .parse(XLIFF12)
        .reassemble({1: "Später"}, target_language="de-CH")
    )
    assert 'state="needs-review-translation">Später' in review
    german = doc.reassemble({}, target_language="de")  # Swiss German is not German (Germany): another locale
    assert 'target-language="de"' in german and "<target>Fertig</target>" not in german
    french = doc.reassemble({}, target_language="fr")
    assert 'target-language="fr"' in french and '<target state="needs-translation"></target>' in french


def test_xliff20_segment_state_and_trglang():
    text = (
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">'
        '<file id="f"><unit id="u"><segment><source>Hi <ph id="1"/></source></segment></unit></file></xliff>'
    )
    out = XliffFormat().parse(text).reassemble({0: "Hallo <s1/>"}, target_language="de")
    assert 'srcLang="en" trgLang="de"' in out
    assert (
        '<segment state="translated"><source>Hi <ph id="1"/></source><target>Hallo <ph id="1"/></target>'
        in out
    )


def test_xliff_text_is_escaped_and_stays_text():
    doc = XliffFormat().parse(XLIFF12)
    out = doc.reassemble({1: 'a < b & "c" ]]> <script>x</script>'}, target_language="de")
    assert 'a &lt; b &amp; "c" ]]&gt; &lt;script&gt;x&lt;/script&gt;' in out


ANDROID = """<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Shown on the home screen -->
    <string name="hello">Hello <xliff:g id="n">%1$s</xliff:g>!</string>
    <string name="ref">@string/hello</string>
    <string name="fixed" translatable="false">Harbor</string>
    <string name="apos">Don\\'t <b>stop</b></string>
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
</resources>
"""


def test_android_sends_values_with_comments_and_escapes_what_it_writes():
    doc = AndroidFormat().parse(ANDROID)
    ru = [s for s in doc.segments if s.is_for("ru")]
    assert [s.text for s in ru][:2] == ["Hello <s1/>!", "Don't <s1>stop</s1>"]
    assert ru[0].context == "Key: hello\nShown on the home screen"
    translations = {0: '@<s1/> l\'a "dit" 100% & <ok>\nfin', 1: "N'<s1>arrête</s1>"}
    out = doc.reassemble(translations, target_language="fr")
    assert (
        '<string name="hello">\\@<xliff:g id="n">%1$s</xliff:g> l\\\'a \\"dit\\" 100%% &amp; &lt;ok&gt; fin'
        "</string>"
    ) in out
    assert "N\\'<b>arrête</b>" in out and "@string/hello" in out and ">Harbor<" in out


def test_android_plurals_follow_the_target():
    doc = AndroidFormat().parse(ANDROID)
    ru = doc.reassemble({s.id: s.text for s in doc.segments if s.is_for("ru")}, target_language="ru")
    assert [q for q in ("one", "few", "many", "other") if f'quantity="{q}"' in ru] == [
        "one",
        "few",
        "many",
        "other",
    ]
    ja = doc.reassemble({s.id: s.text for s in doc.segments if s.is_for("ja")}, target_language="ja")
    assert 'quantity="one"' not in ja and 'quantity="other">%d files<' in ja


def test_apple_strings_keep_encoding_bom_keys_and_comments():
    source = '/* Greeting */\n"hello" = "Hello %@";\n"bye" = "Bye";\n'
    for encoding, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-8", b"")):
        data = bom + source.encode(encoding)
        fmt = AppleStringsFormat()
        decoded = fmt.decode(data)
        doc = fmt.parse(decoded.text)
        assert doc.segments[0].context == "Key: hello\nGreeting"
        out = decoded.encode(doc.reassemble({0: 'Hallo <s1/> "\\', 1: "Tschüss"}, target_language="de"))
        assert out.startswith(
            bom + '/* Greeting */\n"hello" = "Hallo %@ \\"\\\\";'.encode(encoding)[len(bom) * 0 :]
        )
        assert "Tschüss".encode(encoding) in out


def test_stringsdict_keeps_variables_and_adds_the_target_categories():
    text = (
        '<plist version="1.0"><dict><key>n</key><dict>'
        "<key>NSStringLocalizedFormatKey</key><string>%#@v@ left</string>"
        "<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
        "<key>NSStringFormatValueTypeKey</key><string>d</string>"
        "<key>one</key><string>%d day</string><key>other</key><string>%d days</string></dict>"
        "</dict></dict></plist>"
    )
    doc = StringsDictFormat().parse(text)
    assert [s.text for s in doc.segments if s.is_for("de")] == ["<s1/> left", "<s1/> day", "<s1/> days"]
    out = doc.reassemble({s.id: s.text for s in doc.segments if s.is_for("ru")}, target_language="ru")
    assert "<key>few</key><string>%d days</string><key>many</key><string>%d days</string>" in out
    assert "%#@v@" in out and "NSStringPluralRuleType" in out


# -- layouts, the choice of `.xml` by content ------------------------------------------------
def test_layouts_name_the_target_the_ecosystem_way(tmp_path: Path):
    assert android_values(Path("res/values/strings.xml")).rewrite("de") == Path("res/values-de/strings.xml")
    assert android_values(Path("res/values-night/strings.xml")).rewrite("zh-Hant") == Path(
        "res/values-b+zh+Hant-night/strings.xml"
    )  # never a second file in values-night/
    assert android_values(Path("res/values-pt-rBR/strings.xml")).code == "pt-BR"
    assert apple_lproj(Path("App/en.lproj/Localizable.strings")).rewrite("zh") == Path(
        "App/zh-Hans.lproj/Localizable.strings"
    )
    assert apple_lproj(Path("App/Base.lproj/Main.strings")).code is None
    assert apple_lproj(Path("Old/English.lproj/Main.strings")).rewrite("tl") == Path(
        "Old/fil.lproj/Main.strings"
    )
    pot = tmp_path / "locale" / "app.pot"
    pot.parent.mkdir()
    assert gettext_catalog(pot).rewrite("de") == tmp_path / "locale" / "de.po"
    (tmp_path / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    assert gettext_catalog(pot).rewrite("de") == tmp_path / "locale" / "de" / "LC_MESSAGES" / "app.po"
    assert gettext_catalog(Path("locale/fr/LC_MESSAGES/app.po")).rewrite("de") == Path(
        "locale/de/LC_MESSAGES/app.po"
    )
    assert dotted_language(Path("translations/validators.en.xlf")).rewrite("de") == Path(
        "translations/validators.de.xlf"
    )


def test_xml_is_chosen_by_content(tmp_path: Path):
    assert (
        xml_kind(b'<?xml version="1.0"?>\n<!-- c -->\n<resources><string name="a">A</string></resources>')
        == "android"
    )
    assert xml_kind(b'<resources><color name="a">#fff</color></resources>') is None
    assert xml_kind(b'<xliff version="1.2"></xliff>') == "xliff"
    assert xml_kind(b"<manifest/>") is None
    path = tmp_path / "strings.xml"
    path.write_text(ANDROID, encoding="utf-8")
    fmt = format_for_path(path)
    assert fmt is not None and fmt.name == "android"
    assert format_named("xliff").name == "xliff"


# -- untrusted XML ---------------------------------------------------------------------------
LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
    + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    + ']><resources><string name="x">&j;</string></resources>'
)


@pytest.mark.parametrize("fmt", [AndroidFormat(), XliffFormat(), StringsDictFormat()], ids=lambda f: f.name)
def test_nested_external_and_parameter_entities_are_refused_at_once(fmt):
    start = time.monotonic()
    with pytest.raises(FormatError, match=r"line 1, column \d+: the XML entity 'b' refers to another entity"):
        fmt.parse(LAUGHS)
    external = '<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><r>&e;</r>'
    with pytest.raises(FormatError, match="external XML entities are not allowed"):
        fmt.parse(external)
    parameter = '<!DOCTYPE r [<!ENTITY % p "x">]><r/>'
    with pytest.raises(FormatError, match="XML parameter entities are not allowed"):
        fmt.parse(parameter)
    unparsed = '<!DOCTYPE r [<!NOTATION n SYSTEM "n"><!ENTITY u SYSTEM "u.bin" NDATA n>]><r/>'
    with pytest.raises(FormatError, match="external XML entities are not allowed"):
        fmt.parse(unparsed)
    # one long value referenced in many attributes: expat expands those (quadratic growth)
    wide = '<!DOCTYPE r [<!ENTITY w "' + "w" * 1025 + '">]><r>' + '<x a="&w;"/>' * 10000 + "</r>"
    with pytest.raises(FormatError, match="longer than 1024 characters"):
        fmt.parse(wide)
    assert time.monotonic() - start < 1


TERMUX = (
    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE resources [\n'
    '    <!ENTITY TERMUX_APP_NAME "Termux">\n    <!ENTITY COPY "&#169; Smith &amp; Sons, 100&#37;">\n'
    '    <!ENTITY BOLD "<b>Termux</b>">\n]>\n<resources>\n'
    '    <string name="application_name">&TERMUX_APP_NAME;</string>\n'
    '    <string name="error">&TERMUX_APP_NAME; was unable to install &amp; run %1$s.</string>\n'
    '    <string name="about">&COPY; 2024</string>\n</resources>\n'
)


def test_internal_entities_stay_literal_as_placeholders():
    """Termux declares its app's name as an entity (`&TERMUX_APP_NAME;`): the file is read, the
    references are placeholders (never expanded, never sent), the declarations are kept."""
    doc = AndroidFormat().parse(TERMUX)
    assert [s.text for s in doc.segments] == ["<s1/> was unable to install & run <s2/>.", "<s1/> 2024"]
    out = doc.reassemble({s.id: s.text.replace("install", "installieren") for s in doc.segments})
    assert out == TERMUX.replace("install &amp;", "installieren &amp;")


def test_malformed_xml_names_line_and_column():
    with pytest.raises(FormatError, match=r"line 3, column 23: mismatched tag"):
        AndroidFormat().parse(
            '<resources>\n  <string name="a">A</string>\n  <string name="b">B</strin>\n</resources>'
        )
    with pytest.raises(FormatError, match="no <resources> root"):
        AndroidFormat().parse("<manifest/>")
    with pytest.raises(FormatError, match="not an XLIFF"):
        XliffFormat().parse("<resources/>")


def test_malformed_strings_name_line_and_column():
    for bad, where in [
        ('"a" = "b"\n"c" = "d";', "line 2, column 1: expected ';'"),
        ('"a" = "b;', "line 1, column 7"),
        ('"a" = ;', "line 1, column 7: expected a value"),
    ]:
        with pytest.raises(FormatError, match=where):
            AppleStringsFormat().parse(bad)


def test_outputs_follow_the_layout_under_out(tmp_path: Path):
    """`locale/x.pot` -> `<out>/locale/de/LC_MESSAGES/x.po` where the folder keeps its catalogs so:
    the layout's own path, mirrored under -o even where it is deeper than the source's (and the
    suffix changes)."""
    from hymt_cli.inputs.discovery import discover
    from hymt_cli.outputs.paths import output_path
    from hymt_cli.text.languages import language

    app = tmp_path / "app"
    (app / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (app / "locale" / "x.pot").write_text(POT, encoding="utf-8")
    (app / "res" / "values").mkdir(parents=True)
    (app / "res" / "values" / "strings.xml").write_text(ANDROID, encoding="utf-8")
    sources, problems = discover([str(app)], format_name=None)
    assert not problems
    out = {s.relative.as_posix(): output_path(s, language("de"), tmp_path / "out") for s in sources}
    assert out == {
        "locale/x.pot": tmp_path / "out" / "locale" / "de" / "LC_MESSAGES" / "x.po",
        "res/values/strings.xml": tmp_path / "out" / "res" / "values-de" / "strings.xml",
    }
    [pot] = [s for s in sources if s.relative.name == "x.pot"]
    assert output_path(pot, language("de"), None) == app / "locale" / "de" / "LC_MESSAGES" / "x.po"


@pytest.mark.skipif(
    not (CORPUS / "android/termux-strings.xml").is_file(), reason="run scripts/gather_corpus.py"
)
def test_termux_strings_with_entities_translate_and_keep_every_reference(tmp_path):
    path = CORPUS / "android/termux-strings.xml"
    report, outputs = translate([path], StringAttack(STRING_ATTACKS["letters"]), tmp_path, "de")
    assert report.files_failed == 0, [f.error for f in report.files]
    source, output = path.read_text(encoding="utf-8"), outputs[path].read_text(encoding="utf-8")
    references = re.compile(r"&[A-Z_]+;")
    assert references.findall(output) == references.findall(source) and len(references.findall(source)) > 20
    assert output.split("<resources>")[0] == source.split("<resources>")[0]  # the declarations
    assert "Vafgnyyvat obbgfgenc cnpxntrf" in output  # translated: "Installing bootstrap packages"
