"""Merging a PO template into a translation that exists, as msgmerge merges (issue 26): messages
keyed by msgctxt and msgid, new ones in the template's order, obsolete `#~` entries for the
messages the template lost (revived when they come back), fuzzy translations translated
again, msgstr[n] as the target's Plural-Forms has them, the header and every kept message
byte for byte. GNU msgmerge itself is the judge where it is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from clirun import hymt
from engines import CountingEngine
from merge_helpers import CORPUS, Catalog, translate
from pipelines import make_pipeline, sources_of
from resource_checks import po_entries
from strings_helpers import read_pairs

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import PoOptions
from hymt_cli.options import OptionSet

MSGMERGE = shutil.which("msgmerge")

TEMPLATE = r"""# Template.
msgid ""
msgstr ""
"Project-Id-Version: app 2.0\n"
"Report-Msgid-Bugs-To: bugs@example.org\n"
"POT-Creation-Date: 2026-02-01 10:00+0000\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"

#. Button label.
#: src/app.c:10
msgid "Open"
msgstr ""

#: src/app.c:12
msgid "Save all"
msgstr ""

#: src/app.c:20
msgctxt "menu"
msgid "Open"
msgstr ""

#: src/app.c:30
#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

#: src/app.c:40
msgid "Close"
msgstr ""

#: src/app.c:50
msgid "Back"
msgstr ""
"""

HEADER = r"""# Russian translation.
# Ivan <ivan@example.org>, 2025.
msgid ""
msgstr ""
"Project-Id-Version: app 1.0\n"
"Report-Msgid-Bugs-To: old@example.org\n"
"POT-Creation-Date: 2025-01-01 10:00+0000\n"
"PO-Revision-Date: 2025-01-05 10:00+0000\n"
"Last-Translator: Ivan <ivan@example.org>\n"
"Language: ru\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
"(n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && "
"n%100<=14)? 2 : 3);\n"
"""

KEPT = """# Checked by Ivan.
#. Old note.
#: src/app.c:9
msgid "Open"
msgstr "Открыть"
"""

PERSON = (
    HEADER
    + "\n"
    + KEPT
    + """
#: src/app.c:40
#, fuzzy
#| msgid "Clos"
msgid "Close"
msgstr "Закрыт"

# Translator note on a gone message.
#. Gone note.
#: src/old.c:1
msgid "Gone"
msgstr "Ушло"

msgid "Untranslated gone"
msgstr ""

#~ msgid "Back"
#~ msgstr "Назад"

#~ msgid "Older"
#~ msgstr "Старше"
"""
)


def _project(
    tmp_path: Path, template: str = TEMPLATE, target: str | None = PERSON, lang: str = "ru"
) -> tuple[Path, Path]:
    folder = tmp_path / "po"
    folder.mkdir(parents=True)
    pot = folder / "app.pot"
    pot.write_text(template, encoding="utf-8")
    po = folder / f"{lang}.po"
    if target is not None:
        po.write_text(target, encoding="utf-8")
    return pot, po


def _active(po: polib.POFile) -> list[str]:
    return [e.msgid if e.msgctxt is None else f"{e.msgctxt}|{e.msgid}" for e in po if not e.obsolete]


def _obsolete(po: polib.POFile) -> list[str]:
    return [e.msgid for e in po if e.obsolete]


def test_a_template_merges_into_a_person_s_catalog_as_msgmerge_merges(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    run = translate(pot, "ru", pseudo=True)
    text = po.read_text(encoding="utf-8")
    merged = po_entries(po)  # polib, and msgfmt -c where it is installed
    # the template's order; the message that came back is revived; the lost one is obsolete
    assert _active(merged) == ["Open", "Save all", "menu|Open", "%d file", "Close", "Back"]
    assert _obsolete(merged) == ["Gone", "Older"]
    assert text.startswith(HEADER + "\n" + KEPT)  # the header and a kept message, byte for byte
    by_id = {(e.msgctxt, e.msgid): e for e in merged if not e.obsolete}
    assert by_id[(None, "Back")].msgstr == "Назад"  # a person's translation, back with its msgid
    close = by_id[(None, "Close")]  # a fuzzy guess is no translation: translated again
    assert close.msgstr not in ("", "Закрыт") and "fuzzy" not in close.flags and close.previous_msgid is None
    plural = by_id[(None, "%d file")]
    assert sorted(plural.msgstr_plural) == [0, 1, 2, 3] and all(plural.msgstr_plural.values())
    assert by_id[(None, "Save all")].occurrences == [("src/app.c", "12")]  # the template's entry
    gone = next(e for e in merged if e.msgid == "Gone")
    assert gone.msgstr == "Ушло" and gone.tcomment == "Translator note on a gone message."
    assert gone.comment == "" and gone.occurrences == []  # msgmerge drops #. and #: of obsolete ones
    assert "Untranslated gone" not in text  # msgmerge keeps no untranslated obsolete entry
    assert text.count('msgid "Back"') == 1
    assert set(run.requested) >= {"Save all", "Open", "Close"} and "Back" not in run.requested
    assert run.report.keys is not None
    assert {k: run.report.keys[k] for k in ("added", "kept", "removed")} == {
        "added": 4,
        "kept": 2,
        "removed": 2,
    }
    again = translate(pot, "ru", pseudo=True)  # nothing left to do
    assert again.requested == [] and po.read_text(encoding="utf-8") == text


@pytest.mark.skipif(MSGMERGE is None, reason="GNU msgmerge is not installed")
def test_the_same_messages_as_msgmerge_on_the_small_catalog(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    expected = tmp_path / "msgmerge.po"
    assert MSGMERGE is not None
    subprocess.run([MSGMERGE, "-N", "-q", "-o", str(expected), str(po), str(pot)], check=True)
    translate(pot, "ru", pseudo=True)
    ours, theirs = polib.pofile(str(po)), polib.pofile(str(expected))
    assert _active(ours) == _active(theirs) and _obsolete(ours) == _obsolete(theirs)


@pytest.mark.skipif(MSGMERGE is None, reason="GNU msgmerge is not installed")
def test_a_real_catalog_behind_its_template_merges_as_msgmerge_merges(tmp_path: Path) -> None:
    """xz's Czech catalog (fuzzy, untranslated and obsolete messages) and a template made from
    its Polish one, which is complete: the same messages as msgmerge -N, in the same order;
    every translation msgmerge keeps as final, kept; every fuzzy or empty one, translated."""
    catalog = Catalog("po", "po/xz-pl.po", "po/xz.pot", "po/cs.po", "cs", "po/xz-cs.po", template=True)
    if not catalog.available():
        pytest.skip("corpus file missing (python scripts/gather_corpus.py)")
    pot, po = catalog.lay_out(tmp_path)
    expected = tmp_path / "msgmerge.po"
    assert MSGMERGE is not None
    subprocess.run([MSGMERGE, "-N", "-q", "-o", str(expected), str(po), str(pot)], check=True)
    before = po.read_text(encoding="utf-8")
    translate(pot, "cs", pseudo=True)
    ours, theirs = po_entries(po), polib.pofile(str(expected))
    assert _active(ours) == _active(theirs) and _obsolete(ours) == _obsolete(theirs)
    theirs_by_key = {(e.msgctxt, e.msgid): e for e in theirs if not e.obsolete}
    final = 0
    for entry in (e for e in ours if not e.obsolete):
        them = theirs_by_key[(entry.msgctxt, entry.msgid)]
        if them.translated():  # msgmerge's final translations are the person's: kept
            assert (entry.msgstr, entry.msgstr_plural) == (them.msgstr, them.msgstr_plural)
            final += 1
        elif re.search(r"[^\W\d_]", re.sub(r"%[-+ #0-9.]*[a-zA-Z]", "", entry.msgid)):
            assert entry.translated(), entry.msgid  # untranslated or fuzzy there: translated here
        else:  # nothing to translate (`%s: %s`): gettext shows the msgid
            assert entry.msgstr == "" and "fuzzy" not in entry.flags
    assert final > 50
    header = before[: before.index("\n\n")]
    assert po.read_text(encoding="utf-8").startswith(header)  # the header as the person left it


def test_plural_messages_get_the_forms_of_the_target_s_plural_forms(tmp_path: Path) -> None:
    japanese = (
        'msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=0;\\n"\n\nmsgid "Open"\nmsgstr "開く"\n'
    )
    pot, po = _project(tmp_path, target=japanese, lang="ja")
    translate(pot, "ja", pseudo=True)
    plural = next(e for e in po_entries(po) if e.msgid_plural)
    assert sorted(plural.msgstr_plural) == [0] and plural.msgstr_plural[0]


def test_identical_translations_and_hymt_s_fuzzy_flags_are_hymt_s_on_the_next_run(tmp_path: Path) -> None:
    """A translation identical to its msgid stays empty (gettext shows the msgid) and is not
    missing on the next run; with --po-fuzzy, hymt's flagged translations are not a person's
    drafts: neither is translated again."""
    pot, po = _project(tmp_path, target=HEADER + "\n" + KEPT)
    first = translate(pot, "ru")  # identity: every translation is its msgid
    assert first.requested and all(e.msgstr == "" for e in po_entries(po) if e.msgid != "Open")
    assert translate(pot, "ru").requested == []
    fuzzy = OptionSet([PoOptions(fuzzy=True)])
    other, po2 = _project(tmp_path / "fuzzy", target=HEADER + "\n" + KEPT)
    translate(other, "ru", pseudo=True, options=fuzzy)
    flagged = {(e.msgctxt, e.msgid): e for e in po_entries(po2) if "fuzzy" in e.flags}
    assert set(flagged) == {
        (None, "Save all"),
        ("menu", "Open"),
        (None, "%d file"),
        (None, "Close"),
        (None, "Back"),
    }
    assert all(e.msgstr or all(e.msgstr_plural.values()) for e in flagged.values())
    text = po2.read_text(encoding="utf-8")
    again = translate(other, "ru", pseudo=True, options=fuzzy)
    assert again.requested == [] and po2.read_text(encoding="utf-8") == text


def test_a_changed_msgid_plural_updates_hymt_s_message_in_place(tmp_path: Path) -> None:
    pot, po = _project(tmp_path, target=HEADER)
    translate(pot, "ru", pseudo=True)
    old = next(e for e in po_entries(po) if e.msgid_plural).msgstr_plural
    pot.write_text(
        TEMPLATE.replace('msgid_plural "%d files"', 'msgid_plural "%d documents"'), encoding="utf-8"
    )
    run = translate(pot, "ru", pseudo=True)
    assert run.report.keys is not None and (run.report.keys["updated"], run.report.keys["unchanged"]) == (
        1,
        5,
    )
    assert set(run.requested) == {"<s1/> file", "<s1/> documents"}
    plural = next(e for e in po_entries(po) if e.msgid_plural)
    assert plural.msgid_plural == "%d documents" and plural.msgstr_plural[0] == old[0]
    assert all(plural.msgstr_plural[i] != old[i] for i in (1, 2, 3))


def test_keep_removed_leaves_a_lost_message_active(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    translate(pot, "ru", pseudo=True, keep_removed=True)
    merged = po_entries(po)
    assert {"Gone", "Untranslated gone"} <= set(_active(merged)) and _obsolete(merged) == ["Older"]


def test_crlf_catalog_gets_crlf_messages(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    po.write_bytes(PERSON.replace("\n", "\r\n").encode("utf-8"))
    translate(pot, "ru", pseudo=True)
    data = po.read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"") and b'msgid "Save all"\r\n' in data
    assert [e.msgid for e in po_entries(po) if not e.obsolete][:2] == ["Open", "Save all"]


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        (HEADER + '\nmsgid "Open\nmsgstr ""\n', "line 18"),
        (HEADER + '\nmsgid "Open"\nmsgstr "A"\n\nmsgid "Open"\nmsgstr "B"\n', "a second message"),
    ],
    ids=["unclosed string", "duplicate msgid"],
)
def test_a_target_that_does_not_read_is_named_and_left_as_it_is(
    tmp_path: Path, target: str, reason: str
) -> None:
    pot, po = _project(tmp_path, target=target)
    engine = CountingEngine(PseudoEngine())
    report = make_pipeline(engine, to="ru").run(sources_of([pot]))
    [file] = report.files
    assert file.status == "failed" and file.error is not None
    assert str(po) in file.error and reason in file.error
    assert po.read_text(encoding="utf-8") == target and engine.requested == []


def test_a_translation_named_alone_is_refused_with_how_to_fill_it(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    done = hymt("translate", "po/ru.po", "--to", "ru", "--engine", "pseudo", cwd=tmp_path, text=True)
    assert done.returncode != 0 and po.read_text(encoding="utf-8") == PERSON
    assert "po/ru.po is itself the ru translation" in done.stderr
    assert ".pot template" in done.stderr and "-o DIR" in done.stderr


def test_a_template_named_with_its_translation_merges_into_it(tmp_path: Path) -> None:
    pot, po = _project(tmp_path)
    done = hymt(
        "translate", "po/app.pot", "po/ru.po", "--to", "ru", "--engine", "pseudo", cwd=tmp_path, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "the ru translation that po/app.pot is merged into" in done.stderr and "po/ru.po" in done.stderr
    assert dict(read_pairs("po", po.read_bytes()))["Back"] == "Назад"


def test_an_empty_target_file_is_written_as_a_new_one(tmp_path: Path) -> None:
    pot, po = _project(tmp_path, target="")
    translate(pot, "ru", pseudo=True)
    written = po_entries(po)
    assert written.metadata["Language"] == "ru" and "nplurals=3" in written.metadata["Plural-Forms"]
    assert _active(written) == ["Open", "Save all", "menu|Open", "%d file", "Close", "Back"]


def test_a_large_catalog_gets_its_gaps_filled_then_one_new_message(tmp_path: Path) -> None:
    """godot's editor template and its Japanese catalog (6,421 messages, 600 fuzzy, 132
    empty): those are the requests; then one new message in the template is the only one."""
    if not (CORPUS / "po/godot-editor.pot").is_file() or not (CORPUS / "po/godot-editor-ja.po").is_file():
        pytest.skip("corpus file missing (python scripts/gather_corpus.py)")
    folder = tmp_path / "editor"
    folder.mkdir()
    pot, po = folder / "editor.pot", folder / "ja.po"
    shutil.copyfile(CORPUS / "po/godot-editor.pot", pot)
    shutil.copyfile(CORPUS / "po/godot-editor-ja.po", po)
    person = dict(read_pairs("po", po.read_bytes()))
    gaps = [k for k, v in person.items() if v == ""]
    first = translate(pot, "ja")
    assert first.report.keys is not None and first.report.keys["kept"] == 6421 - len(gaps)
    assert first.report.keys["added"] + first.report.keys["unchanged"] == len(gaps)
    assert 0 < len(first.requested) <= 2 * len(gaps)
    filled = dict(read_pairs("po", po.read_bytes()))
    assert all(filled[k] == v for k, v in person.items() if v)
    template = pot.read_text(encoding="utf-8")
    at = template.index("\n\n#: editor/", template.index('msgid "OK"'))
    new = '\n\n#: editor/new.cpp\nmsgid "A brand new label"\nmsgstr ""'
    pot.write_text(template[:at] + new + template[at:], encoding="utf-8")
    before = po.read_text(encoding="utf-8")
    run = translate(pot, "ja")
    assert run.requested == ["A brand new label"]
    assert len(po.read_text(encoding="utf-8")) - len(before) == len(new)  # msgstr "": identity
