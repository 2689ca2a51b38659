"""The glossary entry, the error every loader raises, language codes as glossaries spell them,
and the rules every term obeys."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..errors import UsageError
from ..model.prompts import INSTRUCTION_MARKERS
from ..text.languages import LANGUAGES
from ..text.tags import looks_like_tag


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


# -- language codes -------------------------------------------------------------------------

_CODES = {code.lower(): code for code in LANGUAGES}
_TRADITIONAL = frozenset({"hant", "tw", "hk", "mo"})


def language_code(value: str) -> str | None:
    """`de`, `DE`, `de-DE`, `zh-TW`, `zh-Hant-HK` -> a hymt language code; None if HY-MT has no
    such language. Chinese: the Hant script or a TW/HK/MO region is `zh-Hant`, the rest `zh`."""
    key = value.strip().replace("_", "-").lower()
    if key in _CODES:
        return _CODES[key]
    primary, *subtags = key.split("-")
    if primary == "zh":
        return "zh-Hant" if "hans" not in subtags and _TRADITIONAL & set(subtags) else "zh"
    return _CODES.get(primary)


def code_or_error(value: str, where: str) -> str:
    """`language_code(value)`, or a GlossaryError at `where` listing the valid codes."""
    code = language_code(value)
    if code is None:
        raise GlossaryError(
            f"{where}: unknown language code {shown(value)}; valid codes: {', '.join(LANGUAGES)}"
        )
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
    raise GlossaryError(f"{where}: {column} must be true or false, not {shown(value)}")


# -- terms ----------------------------------------------------------------------------------

# A term is one line of text: it becomes one line of the prompt's reference list and is
# looked for in the output. Longer than this it is not a term (and would eat the ~8k budget).
MAX_TERM_CHARS = 1000
# C0 and C1 controls (tab, CR and LF included), line and paragraph separators, lone surrogates.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_CONTROL_KINDS = {"Zl": "line separator", "Zp": "paragraph separator", "Cs": "lone surrogate"}


def shown(text: str, limit: int = 40) -> str:
    """`text` for a one-line message: quoted with escapes, long ones cut."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def term_problem(text: str) -> str | None:
    """Why `text` (stripped, not empty) cannot be a glossary term, or None.

    Terms are untrusted: a target is written into the prompt and looked for in the output, so
    it may not hold what would break either: a line break or other control character, HY-MT's
    tags (`<s1>`, `<source>`, `<target>`), or HY-MT's instructions (an output carrying them is
    rejected as an echo of the prompt)."""
    if len(text) > MAX_TERM_CHARS:
        return f"is longer than {MAX_TERM_CHARS} characters"
    control = _CONTROL.search(text)
    if control:
        char = control.group()
        kind = _CONTROL_KINDS.get(unicodedata.category(char), "control character")
        return f"contains U+{ord(char):04X} (a {kind})"
    if looks_like_tag(text):
        return "looks like one of the tags of HY-MT's prompt (<sN>, </sN>, <sN/>, <source>, <target>)"
    for marker in INSTRUCTION_MARKERS:
        if marker in text:
            return f"contains HY-MT's instruction {marker!r}"
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in text):
        return "has no visible character"
    return None


def term(value: str, where: str, what: str = "source term") -> str:
    """A non-empty term, stripped; a GlossaryError at `where` when it is empty or unusable."""
    text = value.strip()
    if not text:
        raise GlossaryError(f"{where}: empty {what}")
    problem = term_problem(text)
    if problem:
        raise GlossaryError(f"{where}: {what} {shown(text)} {problem}")
    return text


def target(value: str, where: str) -> str:
    """A target term, stripped; empty means do-not-translate."""
    return term(value, where, "target") if value.strip() else ""
