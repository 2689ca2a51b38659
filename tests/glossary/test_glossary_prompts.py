"""Prompt goldens: HY-MT's terminology template (HYMT-NOTES.md), alone and with the formatted one."""

from __future__ import annotations

import pytest

from hymt_cli.glossary import Entry, Glossary
from hymt_cli.model.prompts import build_prompt
from hymt_cli.text.languages import language

GLOSSARY = Glossary(
    [
        Entry("Cloud Storage", "Cloud-Speicher", "de"),
        Entry("access key", "Zugriffsschlüssel", "de"),
        Entry("对象存储", "Object Storage", "en"),
        Entry("存储桶", "bucket", "en"),
        Entry("Acme", ""),
    ]
)
EN_DE_TAIL = (
    "Translate the following text into German. Note that you must ONLY output the translated "
    "result without any additional explanation:\n\n"
)
ZH_TAIL = "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n"
FORMATTED = (
    "将以下<source></source>之间的文本翻译为{lang}，注意只需要输出翻译后的结果，不要额外解释，"
    "原文中的<sn></sn>标签表示标签内文本包含格式信息，需要在译文中相应的位置尽量保留该标签。"
    "输出格式为：<target>str</target>\n\n<source>{text}</source>"
)

GOLDENS = [
    (
        "en-de one term",
        "Create an access key.",
        "de",
        False,
        "Reference the following translations:\naccess key translates to Zugriffsschlüssel\n\n"
        + EN_DE_TAIL
        + "Create an access key.",
    ),
    (
        "en-de several terms",
        "Cloud Storage needs an access key.",
        "de",
        False,
        "Reference the following translations:\nCloud Storage translates to Cloud-Speicher\n"
        "access key translates to Zugriffsschlüssel\n\n" + EN_DE_TAIL + "Cloud Storage needs an access key.",
    ),
    (
        "en-de no term",
        "Nothing to see here.",
        "de",
        False,
        "Translate the following segment into German, without additional explanation.\n\nNothing to see "
        "here.",
    ),
    (
        "zh-en one term",
        "打开对象存储。",
        "en",
        True,
        "参考下面的翻译：\n对象存储 翻译成 Object Storage\n\n" + ZH_TAIL + "打开对象存储。",
    ),
    (
        "zh-en several terms",
        "每个存储桶都属于对象存储。",
        "en",
        True,
        "参考下面的翻译：\n存储桶 翻译成 bucket\n对象存储 翻译成 Object Storage\n\n"
        + ZH_TAIL
        + "每个存储桶都属于对象存储。",
    ),
    (
        "zh-en no term",
        "今天天气很好。",
        "en",
        True,
        "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n\n今天天气很好。",
    ),
    (
        "en-de tags + terms",
        "Open <s1>Cloud Storage</s1> with an access key.",
        "de",
        False,
        "参考下面的翻译：\nCloud Storage 翻译成 Cloud-Speicher\naccess key 翻译成 Zugriffsschlüssel\n\n"
        + FORMATTED.format(lang="德语", text="Open <s1>Cloud Storage</s1> with an access key."),
    ),
    (
        "en-de tags, no term",
        "Open <s1>the file</s1>.",
        "de",
        False,
        FORMATTED.format(lang="德语", text="Open <s1>the file</s1>."),
    ),
    (
        "zh-en tags + term + dnt",
        "<s1>对象存储</s1>由Acme提供",
        "en",
        True,
        "参考下面的翻译：\n对象存储 翻译成 Object Storage\n\n"
        + FORMATTED.format(lang="英语", text="<s1>对象存储</s1>由<s2/>提供"),
    ),
    ("en-de dnt only", "Acme rocks.", "de", False, FORMATTED.format(lang="德语", text="<s1/> rocks.")),
]


@pytest.mark.parametrize(
    ("text", "lang", "chinese", "expected"), [g[1:] for g in GOLDENS], ids=[g[0] for g in GOLDENS]
)
def test_prompt_golden(text, lang, chinese, expected):
    target = language(lang)
    use = GLOSSARY.use(text, target)
    if use is None:
        prompt = build_prompt(text, target, chinese_source=chinese, formatted="<s1>" in text)
    else:
        prompt = build_prompt(
            use.text, target, chinese_source=chinese, terms=use.terms, formatted=use.formatted
        )
    assert prompt == expected
