"""Addresses against the words of scripts written without spaces: Chinese, Japanese, Korean
and Thai writers put a URL, an email, a handle or a path right against their words, and a
correct translation that does so must pass (the URL and email checks are errors: a false
alarm there throws the translation away). A changed address is still caught."""

from __future__ import annotations

import pytest

from hymt_cli.qa import check_answer, find_addresses

SOURCE = (
    "See https://example.com/docs, write to info@example.com, follow @acme and #BlackFriday, "
    "edit /etc/hosts and run setup.exe."
)
GOOD = {
    "zh": "详情请访问https://example.com/docs，发邮件至info@example.com，关注@acme和#BlackFriday，"
    "编辑/etc/hosts并运行setup.exe。",
    "ja": "https://example.com/docsをご覧いただき、info@example.comまでご連絡ください。@acmeと#BlackFriday"
    "をフォローし、/etc/hostsを編集してsetup.exeを実行します。",
    "ko": "https://example.com/docs를 참조하고 info@example.com으로 연락하고 @acme와 #BlackFriday를 "
    "팔로우하고 /etc/hosts를 편집하고 setup.exe를 실행하세요.",
    "th": "ดูที่https://example.com/docsเขียนถึงinfo@example.comติดตาม@acmeและ#BlackFridayแก้ไข/etc/hosts"
    "และเรียกใช้setup.exe.",
    "ar": "راجع https://example.com/docs واكتب إلىinfo@example.com وتابع @acme و#BlackFriday وحرر "
    "/etc/hosts وشغّل setup.exe.",
}


@pytest.mark.parametrize("target", sorted(GOOD))
def test_addresses_against_unspaced_words_pass(target: str) -> None:
    assert check_answer(SOURCE, GOOD[target], target) == ()


@pytest.mark.parametrize("target", sorted(GOOD))
def test_changed_addresses_against_unspaced_words_are_caught(target: str) -> None:
    answer = (
        GOOD[target]
        .replace("example.com/docs", "example.org/docs")
        .replace("info@", "sales@")
        .replace("@acme", "@acme2")
    )
    flags = {f.check: f.severity for f in check_answer(SOURCE, answer, target)}
    assert flags == {"url": "error", "email": "error", "handle": "warning"}


def test_what_is_found_is_the_address_alone() -> None:
    found = [(a.kind, a.text) for a in find_addresses(GOOD["zh"])]
    assert found == [
        ("url", "https://example.com/docs"),
        ("email", "info@example.com"),
        ("handle", "@acme"),
        ("hashtag", "#BlackFriday"),
        ("path", "/etc/hosts"),
        ("path", "setup.exe"),
    ]
    # in another script, a handle or hashtag runs through that script's word characters
    assert [a.text for a in find_addresses("关注@张三 和 #双十一 活动")] == ["@张三", "#双十一"]
