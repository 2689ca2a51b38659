"""Ruby symbols in Rails locale files: Psych reads a plain `:year` as a symbol, so Rails'
`date.order: [:year, :month, :day]` is data, never text to translate (a translated `:jahr`
breaks date_select). A quoted `":year"` is a string and is text like any other."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipelines import segment_texts, translate_files, write
from strings_helpers import CORPUS

from hymt_cli.engine.pseudo import PseudoEngine

RAILS_RU = CORPUS / "yaml" / "rails-i18n-ru.yml"


def test_plain_symbols_are_never_sent_in_block_or_flow_sequences(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "config/locales/en.yml",
        "en:\n  date:\n    order:\n    - :year\n    - :month\n    - :day\n"
        "    short_order: [:day, :month]\n    quoted: \":year\"\n    default: :'errors.blank'\n",
    )
    assert segment_texts(path) == [":year"]  # the quoted one: a string
    report, outputs = translate_files([path], PseudoEngine, tmp_path / "out", lang="de")
    assert report.files_failed == 0
    text = outputs[path].read_text(encoding="utf-8")
    assert "- :year\n    - :month\n    - :day\n    short_order: [:day, :month]\n" in text
    assert "default: :'errors.blank'\n" in text


@pytest.mark.skipif(not RAILS_RU.is_file(), reason="run scripts/gather_corpus.py")
def test_rails_i18n_date_order_stays_symbols(tmp_path: Path) -> None:
    sent = segment_texts(RAILS_RU)
    assert sent and not [text for text in sent if text.startswith(":")]
    report, outputs = translate_files([RAILS_RU], PseudoEngine, tmp_path / "out", lang="ru")
    assert report.files_failed == 0
    assert "    order:\n    - :day\n    - :month\n    - :year\n" in outputs[RAILS_RU].read_text(
        encoding="utf-8"
    )
