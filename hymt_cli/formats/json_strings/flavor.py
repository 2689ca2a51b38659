"""Which kind of JSON string file a text is, and the placeholder conventions its values use.

- `arb`: Flutter ARB (`.arb`, or top-level `@@locale` / `@key` metadata): every message is ICU.
- `webextension`: `messages.json` of a browser extension (each member an object with a
  `message`): `$NAME$`/`$1` placeholders, `$$` for a dollar sign.
- `i18next`: `{{name}}` interpolation, `$t(key)` nesting, `_one`/`_other` (v4) or `_plural`
  (v3) keys, or `__name__` interpolation (i18next's `__` prefix and suffix: node-red) appear:
  single braces are literal there, so ICU does not apply.
- `plain`: nested or flat JSON (react-intl/FormatJS, vue-i18n, next-intl, ngx-translate ...): a
  value with braces is read as ICU when it parses as ICU, and printf, Ruby `%{x}`, `{{x}}`
  templating, HTML and Home Assistant's `[%key:...%]` references are recognised by what the
  value holds.
Detection looks at the text's start and a few patterns, never at the whole tree.
"""

from __future__ import annotations

import re

from ..strings import Convention
from . import Flavor

_HEAD = 4096
_ARB = re.compile(r'^\ufeff?\s*\{\s*"@@locale"\s*:|"@[A-Za-z_$][\w$]*"\s*:\s*\{')
_WEBEXT = re.compile(r'^\ufeff?\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{[^{}]*"message"\s*:\s*"')
_ICU_COMPLEX = re.compile(r"\{\s*[\w.-]+\s*,\s*(?:plural|select|selectordinal)\s*,")
_I18NEXT = re.compile(
    r'\{\{[^{}"]*\}\}|\$t\(|"[^"\\]*_(?:one|other|plural)"\s*:'
    # `__name__` in a value (a key such as "__comment__" says nothing)
    r'|:\s*"[^"\\\n]*__[A-Za-z0-9$][A-Za-z0-9_.$-]*?__(?![A-Za-z0-9])'
)


def detect(text: str) -> Flavor:
    head = text[:_HEAD]
    if _ARB.search(head):
        return "arb"
    if _WEBEXT.search(head):
        return "webextension"
    if _I18NEXT.search(text):
        return "i18next"
    return "plain"


def conventions_of(flavor: Flavor, value: str) -> tuple[frozenset[Convention], frozenset[Convention]]:
    """(candidates, always) for a value of this flavor: see conventions.active."""
    html = {Convention.HTML}
    if flavor == "arb":
        return frozenset(html), frozenset({Convention.ICU})
    if flavor == "webextension":
        return frozenset(html | {Convention.WEBEXT}), frozenset()
    if flavor == "i18next":
        # Single braces are literal in i18next, but an ICU plural or select (i18next-icu, or a
        # file of mixed origin) is read as ICU where it parses: its keywords are no text.
        icu = {Convention.ICU} if _ICU_COMPLEX.search(value) else set()
        named = {Convention.I18NEXT, Convention.PRINTF, Convention.REFERENCE}
        return frozenset(html | icu | named), frozenset()
    candidates = html | {Convention.PRINTF, Convention.RUBY, Convention.TEMPLATE, Convention.REFERENCE}
    if "{" in value:
        # ICU where it parses as ICU (`one {{count} file}` has `{{` too); `{{x}}` templating
        # never does, and is then read as templating.
        candidates.add(Convention.ICU)
    return frozenset(candidates), frozenset()
