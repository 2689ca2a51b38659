"""A person's value whose source text changed since: what a reviewer is told of it.

The value is kept (it is a person's), and named: its key, the source text it was written for
(where known: the manifest keeps the source text a person's value was first seen with, a
bilingual file its own `<source>`), the source text now, the value, and whether the two now
disagree on their placeholders (`%@` in the new source, `%.2f` still in the translation: a
format change, which can make the program fail, not only read wrong).
"""

from __future__ import annotations

import re
from collections import Counter

from ...reporting.report import OutdatedValue
from .conventions import Convention, active, looks_like_printf
from .values import placeholders

# The conventions looked for in a source text (ICU and MessageFormat are parsed only where a
# format says so: here a `{` is a brace placeholder at most).
_CANDIDATES = (
    Convention.PRINTF,
    Convention.PYTHON_PERCENT,
    Convention.PYTHON_BRACE,
    Convention.RUBY,
    Convention.I18NEXT,
    Convention.TEMPLATE,
    Convention.WEBEXT,
    Convention.BRACE,
    Convention.HTML,
)
_POSITION = re.compile(r"^%\d+\$")  # `%1$@` is `%@` in another order: no format change


def placeholder_change(source: str, value: str) -> str | None:
    """How the placeholders of `value` differ from those of `source` (None: they agree), read
    with the conventions the source uses."""
    conventions = active(source, _CANDIDATES) | active(value, _CANDIDATES)
    if looks_like_printf(source) or looks_like_printf(value):  # `%@x`: a directive a letter follows
        conventions |= {Convention.PRINTF}
    if not conventions:
        return None
    wanted, found = (
        _normalized(placeholders(source, conventions)),
        _normalized(placeholders(value, conventions)),
    )
    if wanted == found:
        return None
    missing = sorted((wanted - found).elements())
    extra = sorted((found - wanted).elements())
    parts = []
    if missing:
        parts.append(f"the source has {', '.join(missing)}")
    if extra:
        parts.append(f"the translation has {', '.join(extra)}")
    return "placeholders differ: " + "; ".join(parts)


def _normalized(found: Counter[str]) -> Counter[str]:
    out: Counter[str] = Counter()
    for text, n in found.items():
        out[_POSITION.sub("%", text)] += n
    return out


def outdated_value(key: str, old_source: str | None, source: str, value: str) -> OutdatedValue:
    return OutdatedValue(key, old_source, source, value, placeholder_change(source, value))
