"""The glossary entry, the error every loader raises, and language codes as glossaries spell them."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError
from ..languages import LANGUAGES


class GlossaryError(UsageError):
    """A glossary file cannot be used; the message starts with `file:line:` (or `file:`)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One glossary row: `source` must come out as `target` in `target_lang`.

    `target_lang` None: every target language. `target` "": do not translate (the term stays
    exactly as in the source). `source_lang` None: whatever the source language.
    """

    source: str
    target: str
    target_lang: str | None = None
    source_lang: str | None = None
    case_sensitive: bool = False
    origin: str = ""  # file:line

    @property
    def dnt(self) -> bool:
        return self.target == ""


_TBX_REGIONS = {"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "zh-hant": "zh-Hant",
                "zh-cn": "zh", "zh-sg": "zh", "zh-hans": "zh"}
_CODES = {code.lower(): code for code in LANGUAGES}


def language_code(value: str) -> str | None:
    """`de`, `DE`, `de-DE`, `zh-TW` -> a hymt language code; None if HY-MT has no such language."""
    key = value.strip().replace("_", "-").lower()
    if key in _CODES:
        return _CODES[key]
    if key in _TBX_REGIONS:
        return _TBX_REGIONS[key]
    primary = key.split("-", 1)[0]
    return _CODES.get(primary) if primary != "zh" else "zh"


def code_or_error(value: str, where: str) -> str:
    """`language_code(value)`, or a GlossaryError at `where` listing the valid codes."""
    code = language_code(value)
    if code is None:
        raise GlossaryError(f"{where}: unknown language code {value!r}; valid codes: {', '.join(LANGUAGES)}")
    return code


TRUE = frozenset({"1", "true", "yes", "y"})
FALSE = frozenset({"", "0", "false", "no", "n"})


def flag(value: str, where: str, column: str) -> bool:
    """A yes/no cell (`true`, `yes`, `1`, empty ...)."""
    key = value.strip().lower()
    if key in TRUE:
        return True
    if key in FALSE:
        return False
    raise GlossaryError(f"{where}: {column} must be true or false, not {value!r}")
