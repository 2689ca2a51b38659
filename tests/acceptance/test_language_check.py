"""Wrong-language output is caught by script where the script tells, and only there."""

from __future__ import annotations

from pathlib import Path

from engines import Faulty
from pipelines import run_pipeline

from hymt_cli.acceptance.scripts import target_script_share, wrong_script
from hymt_cli.engine.base import Generation
from hymt_cli.text.languages import language

ZH = "同步速度很慢怎么办？请检查网络连接，并在设置中关闭仅在充电时同步选项。"
EN = "If the app does not start, restart your device and check that the latest version is installed."


class Req:
    def __init__(self, core: str, lang: str) -> None:
        self.core, self.lang = core, language(lang)


def test_share_of_target_script() -> None:
    assert target_script_share("これは日本語です", "ja") == 1.0
    assert target_script_share("Hello <s1>world</s1>", "en") == 1.0
    assert target_script_share("Hello", "ja") == 0.0
    assert target_script_share("12345", "en") is None


def test_zh_to_en_answer_still_in_chinese_is_caught() -> None:
    problem = wrong_script(Req(ZH, "en"), ZH)
    assert problem is not None and "not in English" in problem.message and problem.retryable
    assert wrong_script(Req(ZH, "en"), "Sync is slow? Check the network connection.") is None


def test_en_to_ja_answer_left_in_english_is_caught() -> None:
    assert wrong_script(Req(EN, "ja"), EN) is not None
    assert wrong_script(Req(EN, "ja"), "アプリが起動しない場合は、デバイスを再起動してください。") is None


def test_same_script_pairs_and_short_names_are_never_judged() -> None:
    assert wrong_script(Req(EN, "de"), EN) is None  # en -> de: Latin both ways, cannot tell
    assert wrong_script(Req("Orbit Desk 4.2", "ja"), "Orbit Desk 4.2") is None  # a brand stays as it is


def test_in_the_pipeline_a_wrong_language_output_is_retried_then_kept_as_source(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text(ZH + "\n", encoding="utf-8")

    engine = Faulty(lambda r: Generation(r.source_text, "stop", 10))  # "answers" in the source language
    report = run_pipeline([doc], engine, to="en", validators=(wrong_script,))
    assert [r.deterministic for r in engine.requests] == [False, True]
    assert report.untranslated == 1 and "not in English" in report.files[0].problems[0].problem
