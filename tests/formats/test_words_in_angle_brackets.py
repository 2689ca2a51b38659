"""Words in angle brackets are text, tags are markup (issue 34, item 10): sphinx's msgid
`"<<original entry>>"` and `"<command>"`, a usage's `<name>`, are translated in every format that
reads HTML inside values (one rule: formats/strings/conventions.py), while real tags (`<b>…</b>`,
`<br/>`, `<a href=…>`, `<xliff:g>`, FormatJS's `<link>…</link>`) stay tags the model never changes."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from engines import CountingEngine
from merge_helpers import CORPUS
from pipelines import run_pipeline, write

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats.strings import Convention, active, parse_value

WORDS = ("<<original entry>>", "<command>", "<name>", "Usage: hymt <command> [<options>]", "<file name>")
TAGS = ("<b>Bold</b> text", "Line<br/>break", 'See <a href="/x">the docs</a>', "<link>Open</link> it")


@pytest.mark.parametrize("text", WORDS)
def test_words_in_angle_brackets_are_text_not_tags(text: str) -> None:
    conventions = active(text, (Convention.HTML, Convention.PRINTF))
    assert Convention.HTML not in conventions  # nothing in it reads as markup
    forced = parse_value(text, frozenset({Convention.HTML}))  # a format that says HTML always
    assert [s.text for s in forced.segments] == [text]  # one text segment, no tag


@pytest.mark.parametrize("text", TAGS)
def test_real_tags_stay_tags(text: str) -> None:
    conventions = active(text, (Convention.HTML,))
    assert Convention.HTML in conventions
    segments = parse_value(text, conventions).segments
    assert all("<s1" in s.text for s in segments), [s.text for s in segments]


def test_a_value_with_tags_and_words_keeps_the_tags_and_sends_the_words() -> None:
    text = "<b>Usage:</b> hymt <command>"
    segments = parse_value(text, active(text, (Convention.HTML,))).segments
    assert [s.text for s in segments] == ["<s1>Usage:</s1> hymt <command>"]


def test_sphinx_template_sends_its_bracketed_words(tmp_path: Path) -> None:
    real = CORPUS / "po/sphinx.pot"
    if not real.is_file():
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    source = write(tmp_path, "sphinx.pot", real.read_bytes())
    engine = CountingEngine(PseudoEngine())
    report = run_pipeline([source], engine, to="de", out_dir=tmp_path / "out")
    assert report.files[0].status == "ok", report.files[0].error
    assert "<<original entry>>" in engine.requested and "<command>" in engine.requested
    written = polib.pofile(str(next((tmp_path / "out").rglob("*.po"))))
    by_id = {e.msgid: e.msgstr for e in written}
    for msgid in ("<<original entry>>", "<command>"):
        assert by_id[msgid].startswith("⟦") and msgid in by_id[msgid]  # translated (pseudo marks it)
    assert by_id["<h1>Source code for %s</h1>"].startswith("<h1>⟦")  # a real tag stays outside


FILES = {
    "locales/en/app.json": json.dumps({"usage": "<command>", "bold": "<b>Bold</b>"}),
    "config/locales/en.yml": 'en:\n  usage: "<command>"\n  bold: "<b>Bold</b>"\n',
    "res/values/strings.xml": (
        '<resources>\n  <string name="usage">&lt;command&gt;</string>\n'
        '  <string name="bold"><b>Bold</b></string>\n</resources>\n'
    ),
    "en.lproj/Localizable.strings": '"usage" = "<command>";\n"bold" = "<b>Bold</b>";\n',
    "i18n/Messages.properties": "usage=<command>\nbold=<b>Bold</b>\n",
    "i18n/en_US.csv": '"<command>","<command>"\n"<b>Bold</b>","<b>Bold</b>"\n',
}


@pytest.mark.parametrize("name", list(FILES))
def test_every_format_that_reads_html_sends_the_words(tmp_path: Path, name: str) -> None:
    source = write(tmp_path, name, FILES[name])
    engine = CountingEngine(PseudoEngine())
    report = run_pipeline([source], engine, to="de", out_dir=tmp_path / "out")
    assert report.files[0].status == "ok", report.files[0].error
    assert "<command>" in engine.requested, engine.requested
    assert "Bold" in engine.requested  # (a tag around the whole value is kept out of the request)
    assert not any("<b>" in text for text in engine.requested)
