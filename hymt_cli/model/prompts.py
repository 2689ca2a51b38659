"""HY-MT's prompt templates (HY-MT1.5 model card), verbatim, and the choice between them.

Chinese instruction and Chinese language name when Chinese is on either side of the pair,
the English instruction otherwise. No system prompt: the message goes through the
tokenizer's chat template as the only user turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.languages import LANGUAGES, Language
from ..text.writing_systems import char_class

# Bump when any template text changes: translation-memory keys include it.
# HY-MT's budget per request, prompt plus output (maintainer answer, Hunyuan-MT#8): the default
# context of every engine and of the pipeline's output budgets.
CONTEXT_TOKENS = 8192
TEMPLATE_VERSION = "hy-mt1.5/2"  # 2: formatted + terms in Chinese throughout (context adds no change
# to prompts without context: their memory entries stay valid)

PLAIN_ZH = "将以下文本翻译为{target_language}，注意只需要输出翻译后的结果，不要额外解释：\n\n{source_text}"
PLAIN_EN = (
    "Translate the following segment into {target_language}, without additional explanation.\n\n{source_text}"
)
TERMS_ZH_HEAD = "参考下面的翻译：\n"
TERM_ZH = "{source_term} 翻译成 {target_term}\n"
TERMS_ZH_TAIL = (
    "\n将以下文本翻译为{target_language}，注意只需要输出翻译后的结果，不要额外解释：\n{source_text}"
)
TERMS_EN_HEAD = "Reference the following translations:\n"
TERM_EN = "{source_term} translates to {target_term}\n"
TERMS_EN_TAIL = (
    "\nTranslate the following text into {target_language}. Note that you must ONLY output "
    "the translated result without any additional explanation:\n\n{source_text}"
)
FORMATTED_ZH = (
    "将以下<source></source>之间的文本翻译为{target_language}，注意只需要输出翻译后的结果，不要额外解释，"
    "原文中的<sn></sn>标签表示标签内文本包含格式信息，需要在译文中相应的位置尽量保留该标签。"
    "输出格式为：<target>str</target>\n\n<source>{source_text}</source>"
)

# Contextual translation: what stands before the text, which the model reads but does not translate.
# HY-MT documents it in Chinese only; with tags, the formatted template follows the context.
CONTEXT_ZH = (
    "{context}\n参考上面的信息，把下面的文本翻译成{target_language}，"
    "注意不需要翻译上文，也不要额外解释：\n{source_text}"
)
CONTEXT_FORMATTED_ZH = "{context}\n参考上面的信息，注意不需要翻译上文。\n"

# Phrases of the instructions a broken output may echo back (validation looks for them).
INSTRUCTION_MARKERS: tuple[str, ...] = (
    "Translate the following segment into",
    "Translate the following text into",
    "without additional explanation",
    "Reference the following translations",
    "将以下文本翻译为",
    "注意只需要输出翻译后的结果",
    "参考下面的翻译",
    "将以下<source></source>之间的文本翻译为",
    "参考上面的信息",
    "注意不需要翻译上文",
)

_HAN = char_class("han")
_KANA_HANGUL = char_class("kana", "hangul")
_LETTER = re.compile(r"[^\W\d_]")


def looks_chinese(text: str) -> bool:
    """Used by `--from auto`: mostly Han characters and no kana or hangul. Asked of every unique
    text planned: the common case, a text without Han, is answered without counting letters."""
    if text.isascii() or not _HAN.search(text) or _KANA_HANGUL.search(text):
        return False
    return len(_HAN.findall(text)) * 2 >= len(_LETTER.findall(text))


@dataclass(frozen=True, slots=True)
class Term:
    """A glossary entry matched in a segment: how `source` must come out in the target language."""

    source: str
    target: str


def source_is_chinese(source: Language | None, text: str) -> bool:
    """The source side: as declared with --from, else detected from the text."""
    return source.is_chinese if source is not None else looks_chinese(text)


def build_prompt(
    text: str,
    target: Language,
    *,
    chinese_source: bool,
    terms: Sequence[Term] = (),
    formatted: bool = False,
    context: str = "",
) -> str:
    """The user message for one segment.

    `chinese_source` comes from `source_is_chinese`; `formatted` selects HY-MT's
    formatted-translation template (segment carries <sN> tags); `terms` selects the
    terminology-intervention template; `context` (what the text belongs to: a document's title
    and heading, a UI string's key and comment) HY-MT's contextual-translation template.
    """
    chinese_pair = target.is_chinese or chinese_source
    name = target.chinese if chinese_pair else target.english
    if context and not formatted:
        head = (
            (
                TERMS_ZH_HEAD
                + "".join(TERM_ZH.format(source_term=t.source, target_term=t.target) for t in terms)
                + "\n"
            )
            if terms
            else ""
        )
        return head + CONTEXT_ZH.format(context=context, target_language=target.chinese, source_text=text)
    if context:  # formatted: the context and its note come first, then the formatted template
        return CONTEXT_FORMATTED_ZH.format(context=context) + build_prompt(
            text, target, chinese_source=chinese_source, terms=terms, formatted=True
        )
    if formatted:
        # HY-MT documents the formatted template in Chinese only (Chinese language name, any
        # pair); its terminology block goes in front in the same language, as in the Chinese
        # terminology template, rather than an English block before a Chinese instruction.
        body = FORMATTED_ZH.format(target_language=target.chinese, source_text=text)
        if terms:
            body = (
                TERMS_ZH_HEAD
                + "".join(TERM_ZH.format(source_term=t.source, target_term=t.target) for t in terms)
                + "\n"
                + body
            )
        return body
    if terms:
        head, line, tail = (
            (TERMS_ZH_HEAD, TERM_ZH, TERMS_ZH_TAIL)
            if chinese_pair
            else (TERMS_EN_HEAD, TERM_EN, TERMS_EN_TAIL)
        )
        return (
            head
            + "".join(line.format(source_term=t.source, target_term=t.target) for t in terms)
            + tail.format(target_language=name, source_text=text)
        )
    template = PLAIN_ZH if chinese_pair else PLAIN_EN
    return template.format(target_language=name, source_text=text)


__all__ = [
    "TEMPLATE_VERSION",
    "INSTRUCTION_MARKERS",
    "LANGUAGES",
    "Term",
    "build_prompt",
    "looks_chinese",
    "source_is_chinese",
]
