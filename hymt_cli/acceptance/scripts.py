"""Catch output in the wrong language (a failure users report, Hy-MT#29) by its script.

Only where the script tells: the translation must change script (zh -> en, en -> ja ...)
and the output's letters are still mostly outside the target's script. Same-script pairs
(en -> de) and short segments (brand names stay as they are) are never judged.
"""

from __future__ import annotations

import re
from typing import Protocol

from ..text.languages import Language
from ..text.tags import LOOSE_TAG
from ..text.writing_systems import RANGES, char_class
from .answers import Problem

_TARGET_SCRIPTS = {
    **dict.fromkeys(["zh", "zh-Hant", "yue"], ("han",)),
    "ja": ("han", "kana"),
    "ko": ("hangul", "hangul_compatibility", "han"),
    **dict.fromkeys(["ru", "uk", "kk", "mn"], ("cyrillic",)),
    **dict.fromkeys(["ar", "fa", "ur", "ug"], ("arabic",)),
    "he": ("hebrew",),
    "th": ("thai",),
    "hi": ("devanagari",),
    "mr": ("devanagari",),
    "bn": ("bengali",),
    "gu": ("gujarati",),
    "ta": ("tamil",),
    "te": ("telugu",),
    "km": ("khmer",),
    "my": ("myanmar",),
    "bo": ("tibetan",),
    **dict.fromkeys(
        ["en", "fr", "pt", "es", "tr", "it", "de", "vi", "ms", "id", "tl", "pl", "cs", "nl"], ("latin",)
    ),
}
_IN_SCRIPT = {name: char_class(name) for name in RANGES}
_LETTER = re.compile(r"[^\W\d_]")
MIN_LETTERS = 20  # shorter texts are too often names, codes or brands that stay as they are


def target_script_share(text: str, lang_code: str) -> float | None:
    """Share of the letters of `text` written in the script(s) of the model language `lang_code`
    (`zh-Hant` for a zh-TW target)."""
    scripts = _TARGET_SCRIPTS.get(lang_code)
    letters = _LETTER.findall(LOOSE_TAG.sub("", text))
    if scripts is None or not letters:
        return None
    inside = sum(1 for ch in letters if any(_IN_SCRIPT[s].match(ch) for s in scripts))
    return inside / len(letters)


class CheckedRequest(Protocol):
    """What the check reads of a pipeline request: its source text and target language."""

    @property
    def core(self) -> str: ...

    @property
    def lang(self) -> Language: ...


def wrong_script(request: CheckedRequest, cleaned: str) -> Problem | None:
    """Pipeline validator (model engines only): the output is not in the target's script."""
    source_share = target_script_share(request.core, request.lang.model)
    if source_share is None or source_share > 0.5 or len(_LETTER.findall(request.core)) < MIN_LETTERS:
        return None  # same-script pair, unknown script, or too short to judge
    output_share = target_script_share(cleaned, request.lang.model)
    if output_share is not None and output_share < 0.2:
        return Problem(f"output is not in {request.lang.english} (wrong script)", check="script")
    return None
