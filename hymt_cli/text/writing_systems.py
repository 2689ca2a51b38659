"""Unicode ranges of the scripts hymt tells apart, in one place.

Used to detect a Chinese source (`prompts`), to match glossary terms as substrings in
scripts written without spaces (`glossary`), and to judge an output's language by its
script (`language_check`). Each range is a regex character-class body.
"""

from __future__ import annotations

import re

RANGES: dict[str, str] = {
    "han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff",
    "han_supplementary": "\U00020000-\U0003134f",
    "kana": "\u3040-\u30ff\u31f0-\u31ff",
    "hangul": "\uac00-\ud7af\u1100-\u11ff",
    "hangul_compatibility": "\u3130-\u318f",
    "latin": "A-Za-z\u00c0-\u024f\u1e00-\u1eff",
    "cyrillic": "\u0400-\u04ff\u0500-\u052f",
    "arabic": "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff",
    "hebrew": "\u0590-\u05ff",
    "thai": "\u0e00-\u0e7f",
    "lao": "\u0e80-\u0eff",
    "devanagari": "\u0900-\u097f",
    "bengali": "\u0980-\u09ff",
    "gujarati": "\u0a80-\u0aff",
    "tamil": "\u0b80-\u0bff",
    "telugu": "\u0c00-\u0c7f",
    "khmer": "\u1780-\u17ff",
    "myanmar": "\u1000-\u109f",
    "tibetan": "\u0f00-\u0fff",
}


def char_class(*scripts: str) -> re.Pattern[str]:
    """A pattern matching one character of any of the named scripts."""
    return re.compile("[" + "".join(RANGES[name] for name in scripts) + "]")


# HY-MT's languages written right to left (by primary subtag: `ar-EG` is Arabic).
RIGHT_TO_LEFT = frozenset({"ar", "he", "fa", "ur", "ug"})


def right_to_left(tag: str | None) -> bool:
    """Is the language `tag` (a BCP 47 tag or a HY-MT code) written right to left?"""
    return tag is not None and tag.replace("_", "-").split("-")[0].lower() in RIGHT_TO_LEFT
