"""A PO file in the charset its header declares (ISO-8859-1, Windows-1251 ...) is read in it and
written back in it (identity: byte for byte); a UTF-8 byte order mark is kept. A translation the
charset cannot hold fails that output in one line naming the character; a charset with no codec,
or a mark that contradicts the header, is refused in one line naming it."""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from pathlib import Path

import pytest
from pipelines import translate_files, write
from resource_checks import po_entries

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import FormatError
from hymt_cli.formats.base import DocumentDecodeError
from hymt_cli.formats.po.format import PoFormat

# How a German catalog of an older GNU project looks: Latin-1, a person's translations, gaps.
GERMAN = """# German translation for the demo package.
# Copyright (C) 2009 Free Software Foundation, Inc.
# José Müller <jm@example.org>, 2009.
#
msgid ""
msgstr ""
"Project-Id-Version: demo 1.2\\n"
"Report-Msgid-Bugs-To: bugs@example.org\\n"
"PO-Revision-Date: 2009-03-01 12:00+0100\\n"
"Last-Translator: José Müller <jm@example.org>\\n"
"Language-Team: German <translation-team-de@lists.sourceforge.net>\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=ISO-8859-1\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#: src/main.c:41
msgid "Size"
msgstr "Größe"

#: src/main.c:57
#, c-format
msgid "Cannot open file %s"
msgstr ""

#: src/main.c:80
#, c-format
msgid "%d file removed"
msgid_plural "%d files removed"
msgstr[0] ""
msgstr[1] ""

#: src/menu.c:12
msgctxt "menu"
msgid "Close"
msgstr "Schließen"
"""
ANSWERS = {
    "Cannot open file <s1/>": "Datei <s1/> kann nicht geöffnet werden",
    "<s1/> file removed": "<s1/> Datei gelöscht",
    "<s1/> files removed": "<s1/> Dateien gelöscht",
}


class German(BatchEngine):
    """Answers in German, with umlauts (Latin-1 holds them)."""

    name = "german"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [Generation(ANSWERS.get(r.source_text, r.source_text), "stop", 3) for r in requests]


def test_a_latin1_catalog_is_read_and_written_in_latin1(tmp_path: Path) -> None:
    data = GERMAN.encode("iso-8859-1")
    source = write(tmp_path / "po", "de.po", data)
    report, outputs = translate_files([source], IdentityEngine, tmp_path / "same", lang="de")
    assert report.files_failed == 0, [f.error for f in report.files]
    assert outputs[source].read_bytes() == data  # byte for byte
    report, outputs = translate_files([source], German, tmp_path / "out", lang="de")
    assert report.files_failed == 0, [f.error for f in report.files]
    written = outputs[source].read_bytes()
    assert "Datei %s kann nicht geöffnet werden".encode("iso-8859-1") in written
    text = written.decode("iso-8859-1")
    assert text == GERMAN.replace(
        'msgid "Cannot open file %s"\nmsgstr ""',
        'msgid "Cannot open file %s"\nmsgstr "Datei %s kann nicht geöffnet werden"',
    ).replace('msgstr[0] ""\nmsgstr[1] ""', 'msgstr[0] "%d Datei gelöscht"\nmsgstr[1] "%d Dateien gelöscht"')
    po = po_entries(outputs[source])  # polib (and msgfmt -c, where installed) read it in its charset
    assert [e.msgstr or e.msgstr_plural for e in po] == [
        "Größe",
        "Datei %s kann nicht geöffnet werden",
        {0: "%d Datei gelöscht", 1: "%d Dateien gelöscht"},
        "Schließen",
    ]


def test_a_translation_the_charset_cannot_hold_fails_that_output_in_one_line(tmp_path: Path) -> None:
    source = write(tmp_path / "po", "de.po", GERMAN.encode("iso-8859-1"))
    other = write(tmp_path, "notes.txt", "Open the file.\n")
    report, outputs = translate_files([source, other], PseudoEngine, tmp_path / "out", lang="ru")
    failed = {f.input: f.error for f in report.files if f.status == "failed"}
    assert list(failed) == [str(source)], failed
    message = failed[str(source)]
    assert message is not None and "\n" not in message
    # known before any request (issue 34): ISO-8859-1 has no Cyrillic letter
    assert message.startswith(f"{source}: ISO-8859-1 cannot write Russian (ru): it lacks ")
    assert not outputs[source].exists()  # nothing half-written
    assert outputs[other].exists()  # the other file is done


def test_what_the_model_writes_outside_the_charset_keeps_those_sources(tmp_path: Path) -> None:
    source = write(tmp_path / "po", "de.po", GERMAN.encode("iso-8859-1"))
    report, outputs = translate_files([source], PseudoEngine, tmp_path / "out", lang="it")
    file = report.files[0]  # Italian fits ISO-8859-1, the pseudo engine's ⟦ does not (no substitute)
    assert file.status == "ok" and file.error is None and file.translated == 0
    assert file.untranslated == file.segments > 0
    assert all("holds '⟦' (U+27E6), which ISO-8859-1" in p.problem for p in file.problems)
    outputs[source].read_bytes().decode("iso-8859-1")  # written, in its charset


def test_a_cyrillic_catalog_in_windows_1251_stays_byte_for_byte(tmp_path: Path) -> None:
    text = (
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Content-Type: text/plain; charset=CP1251\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
        '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "Save"\nmsgstr "Сохранить"\n\nmsgid "Open"\nmsgstr ""\n'
    )
    source = write(tmp_path / "po", "ru.po", text.encode("cp1251"))
    report, outputs = translate_files([source], IdentityEngine, tmp_path / "out", lang="ru")
    assert report.files_failed == 0, [f.error for f in report.files]
    assert outputs[source].read_bytes() == text.encode("cp1251")
    assert [s.text for s in PoFormat().parse(PoFormat().decode(text.encode("cp1251")).text).segments] == [
        "Open"
    ]


def test_a_utf8_byte_order_mark_is_kept(tmp_path: Path) -> None:
    utf8 = GERMAN.replace("charset=ISO-8859-1", "charset=UTF-8")
    data = codecs.BOM_UTF8 + utf8.encode("utf-8")
    source = write(tmp_path / "po", "de.po", data)
    report, outputs = translate_files([source], IdentityEngine, tmp_path / "same", lang="de")
    assert report.files_failed == 0, [f.error for f in report.files]
    assert outputs[source].read_bytes() == data
    report, outputs = translate_files([source], German, tmp_path / "out", lang="de")
    written = outputs[source].read_bytes()
    assert written.startswith(codecs.BOM_UTF8) and written.count(codecs.BOM_UTF8) == 1
    assert "Datei %s kann nicht geöffnet werden".encode() in written
    # Without a header: the new header goes after the mark, which stays first.
    bare = write(tmp_path / "pot", "x.pot", codecs.BOM_UTF8 + b'msgid "Open the file"\nmsgstr ""\n')
    report, outputs = translate_files([bare], PseudoEngine, tmp_path / "new", lang="fr")
    assert report.files_failed == 0, [f.error for f in report.files]
    written = outputs[bare].read_bytes()
    assert written.startswith(codecs.BOM_UTF8 + b'msgid ""\n') and written.count(codecs.BOM_UTF8) == 1


def test_charsets_that_cannot_be_honoured_are_refused_in_one_line() -> None:
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={}\\n"\n\nmsgid "a"\nmsgstr ""\n'
    with pytest.raises(FormatError, match=r"^declares charset X-KLINGON, which hymt has no codec for"):
        PoFormat().decode(header.format("X-KLINGON").encode("ascii"))
    with pytest.raises(FormatError, match=r"^declares charset UTF-16, which a PO file cannot be written in$"):
        PoFormat().decode(header.format("UTF-16").encode("ascii"))
    with pytest.raises(FormatError, match=r"^starts with a UTF-8 byte order mark but its header declares"):
        PoFormat().decode(codecs.BOM_UTF8 + header.format("ISO-8859-1").encode("ascii"))
    bad = header.format("EUC-JP").encode("ascii") + b'\nmsgid "\xff\xfe"\nmsgstr ""\n'
    with pytest.raises(
        DocumentDecodeError, match=r"^not valid EUC-JP, the charset its header declares .* at byte"
    ):
        PoFormat().decode(bad)
    # The header's own text in Latin-1 (a translator's name) does not stop it being read.
    latin = header.format("ISO-8859-1").replace('"\n\n', '"\n"Last-Translator: Jos\xe9\\n"\n\n', 1)
    assert "Jos\xe9" in PoFormat().decode(latin.encode("iso-8859-1")).text
