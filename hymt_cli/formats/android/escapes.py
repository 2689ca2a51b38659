"""Android string resources' own escaping, on top of XML's (aapt2's rules).

Read: `\\'` `\\"` `\\\\` `\\@` `\\?` are the character, `\\n` `\\t` a line break and a tab,
`\\uXXXX` a character; an unescaped `"` only starts or ends a quoted stretch (where spaces
and apostrophes are kept as they are); outside quotes a run of white space is one space.
Written: every character that would be read otherwise is escaped, and a value that starts
with `@` or `?` (a resource reference) gets a backslash before it.
"""

from __future__ import annotations

import re

from ...text.segments import join_surrogates
from ..escaped import EscapedRun, refine

# A UTF-16 surrogate pair written as two `\u` escapes is one token: the character it stands for.
_TOKEN = re.compile(
    r"\\u[dD][89abAB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\.|\\$|\"|[ \t\r\n]+",
    re.DOTALL,
)
_SIMPLE = {"n": "\n", "t": "\t"}
_WRITE = {"\\": "\\\\", '"': '\\"', "'": "\\'", "\n": "\\n", "\t": "\\t"}
_SPECIAL = re.compile(r"""[\\"'\n\t]""")


def decoded(run: EscapedRun) -> EscapedRun:
    """An XML text run as Android reads it."""
    quoted = False

    def read(match: re.Match[str]) -> str:
        nonlocal quoted
        token = match.group(0)
        if token == '"':
            quoted = not quoted
            return ""
        if token.startswith("\\u"):
            return join_surrogates("".join(chr(int(u, 16)) for u in token.split("\\u")[1:]))
        if token.startswith("\\"):
            return _SIMPLE.get(token[1:], token[1:])
        return token if quoted else " "

    return refine(run, _TOKEN, read)


def escape(text: str) -> str:
    """Translated text as Android string resource text (before XML escaping)."""
    return _SPECIAL.sub(lambda m: _WRITE[m.group(0)], text)


def guard_reference(text: str) -> str:
    """A value's first text: `@` or `?` there would make it a resource reference."""
    return "\\" + text if text[:1] in ("@", "?") else text
