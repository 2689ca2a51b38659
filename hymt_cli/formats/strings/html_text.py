"""HTML inside a string value, as text: which of `&`, `<` and `>` a value writes as entities,
and a translation's text written so that an HTML reader shows it as it is.

A bare `&`, `<` or `>` that would not read as markup stays bare (`Save & close`, `5 > 3`: an
app that shows the value as text would show `&amp;`); one that would (`&name;`, `<b`, `</`,
`<!`) is escaped; a character the source writes only as an entity (`Tom &amp; Jerry`) is
escaped everywhere, as the source does.
"""

from __future__ import annotations

import re
from functools import cache

# Tags, comments and character references: what an HTML reader takes for markup in a value.
HTML_MARKUP = (
    r"(?P<comment><!--.*?-->)"
    r"|<(?P<close>/?)(?P<tag>[A-Za-z][A-Za-z0-9:._-]*)"
    r"(?:\s(?:[^<>\"']|\"[^\"]*\"|'[^']*')*)?(?P<slash>/?)>"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
)
_MARKUP = re.compile(HTML_MARKUP, re.DOTALL)
_ENTITY_OF = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_CHARACTER_OF = {
    "&amp;": "&",
    "&#38;": "&",
    "&#x26;": "&",
    "&lt;": "<",
    "&#60;": "<",
    "&#x3c;": "<",
    "&gt;": ">",
    "&#62;": ">",
    "&#x3e;": ">",
}
# What a bare `&` or `<` would start in HTML: a character reference, a tag, an end tag, a
# comment, a declaration or a processing instruction.
_READS_AS_MARKUP = re.compile(r"&(?=#|[A-Za-z][A-Za-z0-9]*;)|<(?=[A-Za-z/!?])")


def html_escaped(text: str) -> frozenset[str]:
    """Which of `&`, `<` and `>` an HTML value writes only as an entity (`&amp;`, never a bare
    `&`): a translation writes them the same way. The others are escaped only where they would
    read as markup (`escape_html`)."""
    entities: set[str] = set()
    bare: list[str] = []
    pos = 0
    for match in _MARKUP.finditer(text):
        bare.append(text[pos : match.start()])
        entity = match.group("entity")
        if entity and entity.lower() in _CHARACTER_OF:
            entities.add(_CHARACTER_OF[entity.lower()])
        pos = match.end()
    bare.append(text[pos:])
    outside = "".join(bare)
    return frozenset(ch for ch in entities if ch not in outside)


def escape_html(text: str, always: frozenset[str] = frozenset()) -> str:
    """Text that an HTML reader shows as `text`: `&` and `<` escaped where they would start
    markup, and every character of `always` (html_escaped) as its entity."""
    return _html_escapes(always).sub(lambda m: _ENTITY_OF[m.group(0)], text)


@cache
def _html_escapes(always: frozenset[str]) -> re.Pattern[str]:
    if not always:
        return _READS_AS_MARKUP
    return re.compile(f"[{re.escape(''.join(sorted(always)))}]|{_READS_AS_MARKUP.pattern}")
