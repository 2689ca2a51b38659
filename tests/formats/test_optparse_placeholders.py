"""Python's optparse placeholders in gettext catalogs: `%prog` (usage, version) and `%default`
(option help) are one placeholder each, whether xgettext flagged the message `c-format` (as it
does `%prog [options]`: `%p` is a C directive), `python-format`, or nothing; never `%p` + `rog`."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from engines import STRING_ATTACKS, StringAttack
from pipelines import segment_texts, translate_files, write

from hymt_cli.formats.strings import Convention, parse_value

VIRTAAL = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "po" / "virtaal.pot"
POT = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#, c-format
msgid "%prog [options] [translation_file]"
msgstr ""

msgid "%prog [options]"
msgstr ""

#, python-format
msgid "print %(what)s to stdout [default: %default]"
msgstr ""

#, python-format
msgid "%prog %s, 100%% free"
msgstr ""
"""


@pytest.mark.parametrize("convention", [Convention.PRINTF, Convention.PYTHON_PERCENT])
def test_prog_and_default_are_one_placeholder(convention: Convention) -> None:
    value = parse_value("%prog: %default, %progress %defaults", frozenset({convention}))
    assert value.segments[0].text.startswith("<s1/>: <s2/>, ")


def test_optparse_messages_keep_prog_and_default(tmp_path: Path) -> None:
    path = write(tmp_path, "po/app.pot", POT)
    assert segment_texts(path) == [
        "<s1/> [options] [translation_file]",
        "<s1/> [options]",
        "print <s1/> to stdout [default: <s2/>]",
        "<s1/> <s2/>, 100% free",
    ]
    report, outputs = translate_files(
        [path], lambda: StringAttack(STRING_ATTACKS["letters"]), tmp_path / "out", lang="de"
    )
    assert report.files_failed == 0
    translated = [e.msgstr for e in polib.pofile(str(outputs[path]))]
    assert translated == [
        "%prog [bcgvbaf] [genafyngvba_svyr]",
        "%prog [bcgvbaf]",
        "cevag %(what)s gb fgqbhg [qrsnhyg: %default]",
        "%prog %s, 100%% serr",
    ]


@pytest.mark.skipif(not VIRTAAL.is_file(), reason="run scripts/gather_corpus.py")
def test_virtaal_usage_messages_are_sent_without_prog() -> None:
    sent = segment_texts(VIRTAAL)
    assert "<s1/> [options] [translation_file]" in sent and "<s1/> [options]" in sent
    assert not [text for text in sent if "rog [" in text]
