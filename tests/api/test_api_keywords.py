"""A Python caller's errors name the keyword it passed (`qa=`, `context_columns=`, `out=`), not
the command line's flag: the names come from the settings' declarations (settings/keywords.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hymt_cli as hymt
from hymt_cli.errors import UsageError
from hymt_cli.settings import all_settings
from hymt_cli.settings.keywords import as_keywords

FLAG = re.compile(r"(?<![\w-])--[a-z][\w-]*")


def test_a_bad_qa_level_names_the_qa_keyword(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Hello there.\n", encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        hymt.translate_files([str(tmp_path / "a.txt")], to="de", engine="pseudo", qa=["number=loud"])
    assert str(raised.value).startswith("qa= number=loud: the level is one of")
    assert raised.value.message == str(raised.value) and not FLAG.search(str(raised.value))


def test_a_bad_choice_and_a_bad_out_name_their_keywords(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Hello there.\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"^segment_by= must be one of paragraph, line, not 'word'$"):
        hymt.Translator(segment_by="word")
    with pytest.raises(UsageError, match=r"^out= .*a\.txt: is a file, not a folder$"):
        hymt.translate_files([str(tmp_path / "a.txt")], to="de", engine="pseudo", out=str(tmp_path / "a.txt"))


def test_a_files_error_in_the_report_names_the_keyword(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("title,body\nHello,World wide\n", encoding="utf-8")
    report = hymt.translate_files(
        [str(table)],
        to="de",
        engine="pseudo",
        out=str(tmp_path / "o"),
        columns=["body"],
        context_columns=["nope"],
    )
    [file] = report.files
    assert file.status == "failed" and file.error is not None
    assert "no context column 'nope' (context_columns=)" in file.error and not FLAG.search(file.error)


def test_every_declared_flag_has_its_keyword() -> None:
    """Derived from the declarations, for every setting: none is left as a flag."""
    for setting in all_settings():
        if setting.declared.argument:
            continue
        spelled = as_keywords(f"see {setting.flag}: and ({setting.flag})")
        assert not FLAG.search(spelled), spelled
        assert spelled.startswith(f"see {setting.name}=")
        if setting.declared.off_flag:
            assert as_keywords(setting.declared.off_flag) == f"{setting.name}=False"
    # Words that only look like flags stay: a path, a word with dashes, an unknown flag.
    assert as_keywords("docs/--qa my--qa --not-a-setting") == "docs/--qa my--qa --not-a-setting"
