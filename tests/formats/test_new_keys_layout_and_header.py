"""What a new key or a new catalog carries beside its values (issue 34, item 14).

- New `.strings` pairs keep the blank-line grouping the source gives them (iina's Localizable
  .strings: pairs of a group on consecutive lines, a blank line before each group), not a blank
  line before every pair.
- A new PO made from a catalog in another language (Crowdin's `en_US.po`, a Czech catalog) names
  the target in every header field that names a language, as msginit fills them in: Language,
  Language-Team, X-Crowdin-Language, X-Poedit-Language; X-Crowdin-File (the source file every
  translation shares) stays."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest
from merge_helpers import CORPUS, forget_hymt, strings_format, translate
from pipelines import run_pipeline, write

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine

DROPPED = ("general.login", "general.logout", "guide.highlights", "guide.basic_settings", "guide.faq")


def _blank_pattern(text: str) -> list[bool]:
    return [not line.strip() for line in text.splitlines()]


def test_new_strings_pairs_keep_the_sources_grouping(tmp_path: Path) -> None:
    base, de = (
        CORPUS / "strings/iina-Base-Localizable.strings",
        CORPUS / "strings/iina-de-Localizable.strings",
    )
    if not (base.is_file() and de.is_file()):
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    source = tmp_path / "iina/Base.lproj/Localizable.strings"
    target = tmp_path / "iina/de.lproj/Localizable.strings"
    source.parent.mkdir(parents=True)
    target.parent.mkdir(parents=True)
    shutil.copyfile(base, source)
    person = de.read_text(encoding="utf-8")
    # the person's catalog lacks two pairs inside a group and a whole group (its comment too)
    lines = person.splitlines(keepends=True)
    kept = [
        line
        for line in lines
        if not line.startswith(tuple(f'"{key}"' for key in DROPPED)) and line != "// Guide Window\n"
    ]
    at = kept.index("// Initial Window\n")
    assert kept[at - 1] == kept[at - 2] == "\n"  # the group's pairs gone: two blank lines met
    del kept[at - 1]
    target.write_text("".join(kept), encoding="utf-8")
    forget_hymt(target.parent)

    run = translate(source, "de", pseudo=True)

    assert run.report.keys is not None and run.report.keys["added"] == len(DROPPED)
    after = target.read_text(encoding="utf-8")
    assert _blank_pattern(after) == _blank_pattern(person)  # the groups as the person had them
    outline = strings_format("strings").outline(after)
    assert outline is not None
    order = [str(leaf.path[0]) for leaf in outline.leaves()]
    assert order[: order.index("guide.faq") + 1][-5:] == [
        "input.value_is_empty", "input.already_exists", *DROPPED[2:]
    ]  # fmt: skip
    assert "// Guide Window\n" in after


CROWDIN = """msgid ""
msgstr ""
"Project-Id-Version: tshock-chinese-plugin\\n"
"POT-Creation-Date: 2025-01-11 17:28:21+0000\\n"
"PO-Revision-Date: 2025-01-13 01:13\\n"
"Last-Translator: \\n"
"Language-Team: English\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"X-Crowdin-Project: tshock-chinese-plugin\\n"
"X-Crowdin-Project-ID: 751499\\n"
"X-Crowdin-Language: en\\n"
"X-Crowdin-File: /master/src/RecipesBrowser/i18n/template.pot\\n"
"X-Crowdin-File-ID: 1510\\n"
"Language: en_US\\n"

msgid "Item not found"
msgstr ""
"""


def test_a_new_po_from_a_crowdin_source_names_its_own_language(tmp_path: Path) -> None:
    source = write(tmp_path, "i18n/en_US.po", CROWDIN)
    report = run_pipeline([source], PseudoEngine(), to="pt-BR")
    assert report.files[0].status == "ok", report.files[0].error
    header = polib.pofile(report.files[0].output).metadata
    assert header["Language"] == "pt_BR"
    assert header["Language-Team"] == "Portuguese (Brazil)"
    assert header["X-Crowdin-Language"] == "pt-BR"
    assert header["X-Crowdin-File"] == "/master/src/RecipesBrowser/i18n/template.pot"
    assert header["X-Crowdin-Project"] == "tshock-chinese-plugin"


def test_a_catalog_in_another_language_made_into_a_new_one(tmp_path: Path) -> None:
    real = CORPUS / "po/xz-cs.po"
    if not real.is_file():
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    source = write(tmp_path, "po/cs.po", real.read_bytes())
    report = run_pipeline([source], PseudoEngine(), to="de")
    assert report.files[0].status == "ok", report.files[0].error
    header = polib.pofile(report.files[0].output).metadata
    assert header["Language"] == "de"
    assert header["Language-Team"] == "German"
    assert header["X-Poedit-Language"] == "German"
    assert header["Project-Id-Version"] == "xz-utils"  # what names no language stays


def test_a_templates_placeholder_team_stays_for_the_team(tmp_path: Path) -> None:
    real = CORPUS / "po/sphinx.pot"
    if not real.is_file():
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    source = write(tmp_path, "sphinx.pot", real.read_bytes())
    team = polib.pofile(str(source)).metadata["Language-Team"]
    report = run_pipeline([source], PseudoEngine(), to="de", out_dir=tmp_path / "out")
    assert polib.pofile(report.files[0].output).metadata["Language-Team"] == team


# A catalog older than gettext 0.18's `Language` field (GNU Wget's, 2001-2009): its team names it.
OLD_GERMAN = """# German messages for the demo package.
msgid ""
msgstr ""
"Project-Id-Version: demo 1.7\\n"
"Language-Team: German <de@li.org>\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Size"
msgstr "Größe"

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"

msgid "Close"
msgstr ""
"""


def test_a_catalog_without_language_is_known_by_its_team(tmp_path: Path) -> None:
    """Its translations are the person's German: into German they stay, with its Plural-Forms and
    team (identity: byte for byte); into French they are not carried over as French (before, the
    French catalog held `Größe`), and the French one names French."""
    source = write(tmp_path, "po/de.po", OLD_GERMAN)
    report = run_pipeline([source], IdentityEngine(), to="de", out_dir=tmp_path / "same")
    assert Path(report.files[0].output or "").read_text(encoding="utf-8") == OLD_GERMAN
    report = run_pipeline([source], PseudoEngine(), to="fr", out_dir=tmp_path / "fr")
    french = polib.pofile(report.files[0].output)
    assert french.metadata["Language"] == "fr" and french.metadata["Language-Team"] == "French"
    assert "Größe" not in Path(report.files[0].output or "").read_text(encoding="utf-8")
    assert all("Datei" not in form for e in french for form in e.msgstr_plural.values())
