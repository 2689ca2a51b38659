"""The placeholder grammar of software strings: every convention in one place.

A format chooses which conventions apply to a value (by format, by PO flags such as
`c-format`, by what the value contains: `active`), then:
- `literal_parts(text, start, end, conventions)` cuts a literal run of the value into spans.Span
  values: placeholders (`%1$s`, `{{count}}`, `%{name}`, `$USER$`, `&nbsp;`) become `self` parts,
  HTML tags `open`/`close` parts (paired by name), line breaks `break` parts, and escapes
  (`%%`, `{{` in Python brace formats, `$$`, `&amp;`) text parts *shown* as the character
  they stand for. The model sees the placeholders as HY-MT tags (`<s1/>`) and may move them
  but not change them; splicing maps each tag back to the exact source text.
- `escaper(conventions)` makes a translation's text literal again: a `%` from the model becomes
  `%%` in a printf format, `{` becomes `'{'` in an ICU message, `<b` becomes `&lt;b` in an HTML
  value, so that nothing the model writes becomes live syntax that the source did not have. In
  an HTML value, `&`, `<` and `>` are escaped only where they would read as markup (`&name;`,
  `<b`), unless the source writes that character only as an entity (`html_escaped`): a bare
  `Save & close` or `5 > 3` stays bare, a source's `Tom &amp; Jerry` style is followed.
  i18next has no escape for `{{` and `$t(`, nor a plain `{name}` convention for `{`: a zero-width
  space (U+200B) is put inside what would read as a placeholder.

ICU MessageFormat and Java MessageFormat are parsed by icu.py (they nest); their literal runs
come back here for the other conventions (HTML tags inside ICU messages).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import lru_cache

from ..spans import TEMPLATING, Span
from .html_text import HTML_MARKUP, escape_html


class Convention(StrEnum):
    PRINTF = "printf"  # %s %1$s %d %5.2f %lu %@ %1$@ %#@var@ (C, Objective-C, Java, PHP, Android); %% literal
    PYTHON_PERCENT = "python-percent"  # %(name)s and %s (Python's % operator); %% literal
    PYTHON_BRACE = "python-brace"  # {name} {0} {} {0:>8} {a.b} (Python str.format, .NET); {{ }} literal
    ICU = "icu"  # ICU MessageFormat: {arg}, plural/select/selectordinal, '' quoting (icu.py)
    JAVA_MESSAGE = "java-message"  # java.text.MessageFormat: {0}, {0,choice,...}, '' quoting (icu.py)
    I18NEXT = "i18next"  # {{name}} {{- html}} {{val, number}}, nesting $t(key); __name__ (legacy, node-red)
    RUBY = "ruby"  # %{name} %<name>s (Ruby, Rails I18n); %% literal
    WEBEXT = "webext"  # $NAME$ and $1 (WebExtension messages.json); $$ literal
    TEMPLATE = "template"  # {{ x }} {% x %} {# x #} (Liquid, Jinja, Hugo, Handlebars, Angular)
    BRACE = "brace"  # {name} {0} with no escape for a literal brace (iD, vue-i18n, many YAML/TOML files)
    STRFTIME = "strftime"  # %Y-%m-%d %H:%M %B %-d (Rails date and time formats); %% literal
    HTML = "html"  # tags and entities inside a value
    REFERENCE = "reference"  # [%key:common::config_flow::data::host%] (Home Assistant strings.json)
    EL = "el"  # ${days == 0 ? '' : days} (Jakarta Expression Language: Bean Validation messages)
    MAGENTO = "magento"  # %1 %customer_name (Magento 2), %s %1$s (Magento 1), %value% (Zend_Validate)


Conventions = frozenset[Convention]
STRUCTURED = frozenset({Convention.ICU, Convention.JAVA_MESSAGE})  # parsed by icu.py

# gettext's ISO C99 <inttypes.h> directives in c-format messages: `%<PRIu32>`, `%5<PRId64>`.
_PRINTF_INTTYPES = r"%(?:\d+\$)?[-+0#' ]*\d*(?:\.\d+)?<PRI[A-Za-z0-9_]+>"
_PRINTF_BODY = (
    r"(?:\d+\$)?[-+0#',]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?"
    r"(?:hh|h|ll|l|L|q|j|z|t|I64|I32|I)?(?:[diouxXeEfFgGaAcCsSp@bBhH]|[tT][a-zA-Z])"
)


def _balanced(depth: int) -> str:
    """What may stand between braces, braces nested `depth` deep: quoted strings (EL's, with
    backslash escapes) may hold any brace."""
    atom = r"[^{}'\"]|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
    body = f"(?:{atom})*"
    for _ in range(depth):
        body = rf"(?:{atom}|\{{{body}\}})*"
    return body


# A Jakarta EL expression, nested braces and quotes included; `${0}` is MessageFormat's `$` and {0}.
_EL = r"\$\{(?!\d+\})" + _balanced(3) + r"\}"
# Magento's phrases: Zend_Validate's `%value%` (two letters at least: `%s%%` is `%s` and `%%`),
# sprintf's `%1$s` and `%s` (Magento 1), then Magento 2's `%1` and `%name` (its Phrase renderer
# replaces `%` and an argument's key).
_MAGENTO = (
    r"%[A-Za-z_]\w+%|%\d+\$[-+0#']*\d*(?:\.\d+)?[bcdeEfFgGosuxX]|%\d+"
    r"|%[-+0#']*\d*(?:\.\d+)?[bcdeEfFgGosuxX](?![A-Za-z0-9_])|%[A-Za-z_]\w*"
)
# i18next's interpolation with the `__` prefix and suffix (its first default; node-red's): `__count__`.
_DUNDER = r"__[A-Za-z0-9$][A-Za-z0-9_.$-]*?__"
# Python's optparse replaces `%prog` in usage and version texts, `%default` in option help:
# in a printf or Python message they are one placeholder each, not `%p` + `rog`, `%d` + `efault`.
_OPTPARSE = r"%(?:prog|default)(?![A-Za-z0-9_])"
# Home Assistant's build replaces a reference with the string it names: no escape exists.
_REFERENCE = r"\[%key:[A-Za-z0-9_:.@-]+%\]"
_PATTERNS: dict[Convention, str] = {
    Convention.PRINTF: r"(?P<printf_lit>%%)|"
    + _OPTPARSE
    + r"|%(?:\d+\$)?#@[A-Za-z_]\w*@|"
    + _PRINTF_INTTYPES
    + "|%"
    + _PRINTF_BODY,
    Convention.PYTHON_PERCENT: (
        r"(?P<py_lit>%%)|" + _OPTPARSE + r"|%\([^()\n]*\)[-+ 0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?"
        r"[diouxXeEfFgGcrsa]|%[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?[diouxXeEfFgGcrsa]"
    ),
    Convention.PYTHON_BRACE: (
        r"(?P<brace_lit>\{\{|\}\})"
        r"|\{[A-Za-z0-9_]*(?:[.\[][^{}:!\n]*)?(?:![rsa])?(?::(?:[^{}\n]|\{[^{}\n]*\})*)?\}"
    ),
    Convention.I18NEXT: r"\{\{(?:[^{}]|\{(?!\{)|\}(?!\}))*\}\}|\$t\((?:[^()\"']|\"[^\"]*\"|'[^']*')*\)|"
    + _DUNDER,
    Convention.TEMPLATE: TEMPLATING,
    Convention.RUBY: (
        r"(?P<ruby_lit>%%)|%\{[^{}\n]*\}"
        r"|%<[A-Za-z_]\w*>[-+ 0#]*\d*(?:\.\d+)?[bBdiouxXeEfgGaAcps]"
    ),
    Convention.WEBEXT: r"(?P<webext_lit>\$\$)|\$[A-Za-z0-9_@]+\$|\$[1-9]\d*",
    Convention.BRACE: r"\{[A-Za-z0-9_.$@:-]+\}",
    Convention.STRFTIME: r"(?P<strftime_lit>%%)|%[-_0^#]?[aAbBcCdDeFgGhHIjklLmMnNpPrRsStTuUVwWxXyYzZ+]",
    Convention.REFERENCE: _REFERENCE,
    Convention.EL: _EL,
    Convention.MAGENTO: _MAGENTO,
    Convention.HTML: HTML_MARKUP,
}
# The order placeholders are tried in where several conventions apply: the longest first.
_ORDER = (
    Convention.REFERENCE,
    Convention.HTML,
    Convention.EL,
    Convention.I18NEXT,
    Convention.TEMPLATE,
    Convention.RUBY,
    Convention.STRFTIME,
    Convention.MAGENTO,
    Convention.PYTHON_PERCENT,
    Convention.PRINTF,
    Convention.PYTHON_BRACE,
    Convention.BRACE,
    Convention.WEBEXT,
)
_LITERALS = {"printf_lit": "%", "py_lit": "%", "ruby_lit": "%", "webext_lit": "$", "strftime_lit": "%"}
_SHOWN_ENTITIES = {
    "&amp;": "&",
    "&lt;": "<",
    "&gt;": ">",
    "&quot;": '"',
    "&apos;": "'",
    "&#39;": "'",
    "&#34;": '"',
    "&#x27;": "'",
}
_VOID = frozenset(
    {
        "br",
        "hr",
        "img",
        "input",
        "wbr",
        "meta",
        "link",
        "area",
        "col",
        "embed",
        "source",
        "track",
        "param",
        "base",
    }
)
# Detecting a convention from a value's content (a format that does not declare it): stricter
# than parsing, so that "100% sure" or "20%off" is not taken for a printf format.
_DETECT: dict[Convention, str] = {
    Convention.PRINTF: r"%%|%(?:\d+\$)?#@[A-Za-z_]\w*@|"
    + _PRINTF_INTTYPES
    + r"|%\d+\$"
    + _PRINTF_BODY[len(r"(?:\d+\$)?") :]
    + "|%"
    + _PRINTF_BODY
    + r"(?![A-Za-z])",
    Convention.PYTHON_PERCENT: r"%\([A-Za-z_]\w*\)[-+ 0#]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]",
    Convention.PYTHON_BRACE: r"\{[A-Za-z0-9_]*(?:![rsa])?(?::[^{}\n]*)?\}",
    Convention.I18NEXT: r"\{\{[^{}]+\}\}|\$t\(|" + _DUNDER,
    Convention.TEMPLATE: r"\{\{[^{}]+\}\}|\{%[^{}]*%\}",
    Convention.RUBY: r"%\{\w+\}|%<\w+>[-+ 0#]*\d*(?:\.\d+)?[bBdiouxXeEfgGaAcps]",
    Convention.WEBEXT: r"\$[A-Za-z0-9_@]+\$|\$[1-9]",
    Convention.BRACE: r"\{[A-Za-z0-9_.$@:-]+\}",
    Convention.STRFTIME: r"%[-_0^#]?[YmdHMSBbAaIpye](?:.*%[-_0^#]?[YmdHMSBbAaIpye])",
    Convention.HTML: r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z]\w*);",
    Convention.REFERENCE: _REFERENCE,
    Convention.EL: _EL,
    Convention.MAGENTO: r"%\d|%[A-Za-z_]",
}
_DETECT_RE = {c: re.compile(p, re.DOTALL) for c, p in _DETECT.items()}
_COMPILED: dict[Conventions, re.Pattern[str] | None] = {}
_BREAK = re.compile(r"\r\n|\r|\n")


_PRINTF_ANYWHERE = re.compile("%" + _PRINTF_BODY)


def looks_like_printf(text: str) -> bool:
    """A printf directive anywhere, a letter after it or not (`%0dm`, `%dh`): for values a format
    knows to be format strings when they have one (a PO message without flags, an Android string),
    where the strict detection of `active` would leave `%dh` to the model."""
    return _PRINTF_ANYWHERE.search(text.replace("%%", "")) is not None


def active(text: str, candidates: Iterable[Convention], always: Iterable[Convention] = ()) -> Conventions:
    """The conventions `text` uses among `candidates` (found in its content), plus `always` (what
    the format declares: an ARB value is ICU whatever it holds). HTML is found by a tag that
    reads as markup (`markup_tag`) or an entity, not by words in angle brackets (`<command>`)."""
    found = {
        c
        for c in candidates
        if c in STRUCTURED
        or (c is Convention.HTML and _holds_html(text))
        or (c is not Convention.HTML and c in _DETECT_RE and _DETECT_RE[c].search(text))
    }
    return frozenset(found) | frozenset(always)


# -- tags, and words in angle brackets ------------------------------------------------------------
# HTML elements that real strings write bare (no attribute) and alone (no end tag in the value:
# a fragment, an optional end tag, a void element): `<br>`, `<p>`, `Bold: <b>`. Any other name in
# angle brackets, bare and alone, is words: a usage's `<command>`, `<name>`, `<file>`, sphinx's
# `<<original entry>>`, a CLI's `<input>` (the void element always has attributes).
_BARE_ELEMENTS = frozenset(
    "a abbr b big blockquote br center cite dd del div dl dt em font h1 h2 h3 h4 h5 h6 hr i ins "
    "kbd li mark nobr ol p pre q s small span strike strong sub sup table td th tr tt u ul wbr".split()
)
_TAG = re.compile(HTML_MARKUP, re.DOTALL)
_ATTRIBUTE = re.compile(r"""[^\s=<>"'/]+\s*=""")


def markup_tag(match: re.Match[str], text: str) -> bool:
    """Whether a tag-shaped match of HTML_MARKUP in `text` (the whole value) is markup rather
    than words in angle brackets: it closes itself (`<x/>`), has an attribute with a value, is
    namespaced or a custom element (`<xliff:g>`, `<my-card>`), has its partner in the value
    (`<link>…</link>`, as FormatJS rich text writes any name), or is an HTML element that strings
    write bare (`_BARE_ELEMENTS`). A comment or an entity is always markup."""
    name = match.group("tag")
    if not name or match.group("comment"):
        return True
    lower = name.lower()
    if match.group("slash") or ":" in name or "-" in name or lower in _BARE_ELEMENTS:
        return True
    head = match.group(0)
    if _ATTRIBUTE.search(head, 1 + len(match.group("close")) + len(name)):
        return True
    return _partnered(text, lower, closing=bool(match.group("close")))


def _partnered(text: str, name: str, *, closing: bool) -> bool:
    """A start tag of `name` with an end tag in `text`, or the other way round."""
    starts, ends = _tag_names(text)
    return name in (starts if closing else ends)


@lru_cache(maxsize=256)
def _tag_names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names of the start tags and of the end tags in `text` (lower case), read once a value."""
    starts: set[str] = set()
    ends: set[str] = set()
    for match in _TAG.finditer(text):
        tag = match.group("tag")
        if tag and not match.group("comment"):
            (ends if match.group("close") else starts).add(tag.lower())
    return frozenset(starts), frozenset(ends)


def _holds_html(text: str) -> bool:
    """An entity, a comment or a tag that reads as markup (`markup_tag`) in `text`."""
    if "<" not in text and "&" not in text:
        return False
    return any(m.group("entity") or markup_tag(m, text) for m in _TAG.finditer(text))


def _pattern(conventions: Conventions) -> re.Pattern[str] | None:
    key = frozenset(c for c in conventions if c in _PATTERNS)
    if key not in _COMPILED:
        chosen = [c for c in _ORDER if c in key]
        # Several conventions may name the same group (%% in printf and Ruby): keep the first.
        seen: set[str] = set()
        alternatives = []
        for convention in chosen:
            pattern = _PATTERNS[convention]
            for name in re.findall(r"\(\?P<(\w+)>", pattern):
                if name in seen:
                    pattern = pattern.replace(f"(?P<{name}>", "(?:")
                seen.add(name)
            alternatives.append(f"(?:{pattern})")
        _COMPILED[key] = re.compile("|".join(alternatives), re.DOTALL) if alternatives else None
    return _COMPILED[key]


def literal_parts(text: str, start: int, end: int, conventions: Conventions) -> list[Span]:
    """`text[start:end]`, a literal run of a value, as parts (offsets into `text`)."""
    parts: list[Span] = []
    pattern = _pattern(conventions)
    pos = start
    if pattern is not None:
        for match in pattern.finditer(text, start, end):
            a, b = match.span()
            if a == b or (match.groupdict().get("tag") and not markup_tag(match, text)):
                continue  # (words in angle brackets: text)
            _text_parts(text, pos, a, parts)
            parts.append(_placeholder(match))
            pos = b
    _text_parts(text, pos, end, parts)
    return parts


def html_tags(text: str, start: int, end: int) -> list[Span]:
    """The HTML tags and comments of `text[start:end]` as parts (entities left out): a tag whose
    attribute holds a placeholder (`<a href="{0}">`) spans several nodes of an ICU message."""
    pattern = _pattern(frozenset({Convention.HTML}))
    assert pattern is not None
    return [
        _placeholder(m)
        for m in pattern.finditer(text, start, end)
        if not m.group("entity") and markup_tag(m, text)
    ]


def _placeholder(match: re.Match[str]) -> Span:
    a, b = match.span()
    groups = match.groupdict()
    for name, shown in _LITERALS.items():
        if groups.get(name):
            return Span(a, b, "text", shown=shown)
    if groups.get("brace_lit"):
        return Span(a, b, "text", shown=match.group(0)[0])
    entity = groups.get("entity")
    if entity:
        shown_entity = _SHOWN_ENTITIES.get(entity.lower())
        return Span(a, b, "text", shown=shown_entity) if shown_entity else Span(a, b, "self")
    tag = groups.get("tag")
    if tag and not groups.get("comment"):
        name = tag.lower()
        if groups.get("slash") or name in _VOID:
            return Span(a, b, "self")
        return Span(a, b, "close" if groups.get("close") else "open", f"html:{name}")
    return Span(a, b, "self")


def _text_parts(text: str, start: int, end: int, parts: list[Span]) -> None:
    """Plain text with its line breaks as `break` parts (the model sees "\\n")."""
    pos = start
    for match in _BREAK.finditer(text, start, end):
        if match.start() > pos:
            parts.append(Span(pos, match.start(), "text"))
        parts.append(Span(match.start(), match.end(), "break"))
        pos = match.end()
    if end > pos:
        parts.append(Span(pos, end, "text"))


# -- making a translation's text literal ---------------------------------------------------------
_ZWSP = "\u200b"
_BRACE_LIKE = re.compile(r"\{(?=[A-Za-z0-9_.$@:-]+\})")


def icu_escape(text: str, *, pound: bool, java: bool = False, choice: bool = False) -> str:
    """ICU (or Java MessageFormat) literal text: runs of `{`/`}` (`#` in a plural branch, `|` in a
    choice) quoted (`'{'`), with the apostrophes right after them inside the quotes (`''`); any
    other apostrophe doubled where it would start quoting (before syntax or another apostrophe,
    at the end: a placeholder may follow). Java MessageFormat doubles every apostrophe."""
    syntax = "{}" + ("#" if pound else "") + ("|" if choice else "")
    specials = syntax + "'<>|"
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in syntax:
            j = i
            while j < n and (text[j] in syntax or text[j] == "'"):
                j += 1
            out.append("'" + text[i:j].replace("'", "''") + "'")
            i = j
            continue
        if ch == "'":
            out.append("''" if java or i + 1 == n or text[i + 1] in specials else "'")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _escape_steps(conventions: Conventions, html: frozenset[str]) -> list[Callable[[str], str]]:
    steps: list[Callable[[str], str]] = []
    if Convention.HTML in conventions:
        steps.append(lambda t: escape_html(t, html))
    if conventions & {Convention.PRINTF, Convention.PYTHON_PERCENT, Convention.RUBY, Convention.STRFTIME}:
        steps.append(lambda t: t.replace("%", "%%"))
    if Convention.PYTHON_BRACE in conventions:
        steps.append(lambda t: t.replace("{", "{{").replace("}", "}}"))
    if Convention.WEBEXT in conventions:
        steps.append(lambda t: t.replace("$", "$$"))
    if conventions & {Convention.I18NEXT, Convention.TEMPLATE}:
        steps.append(_break_templating)
    if Convention.I18NEXT in conventions:
        steps.append(lambda t: _DUNDER_START.sub("_" + _ZWSP + "_", t))
    if Convention.MAGENTO in conventions and Convention.PRINTF not in conventions:
        steps.append(lambda t: _MAGENTO_START.sub("%" + _ZWSP, t))  # Magento 2: no escape
    if Convention.EL in conventions:
        steps.append(lambda t: t.replace("${", "$" + _ZWSP + "{"))
    if Convention.BRACE in conventions:
        steps.append(lambda t: _BRACE_LIKE.sub("{" + _ZWSP, t))
    if Convention.REFERENCE in conventions:
        steps.append(lambda t: t.replace("[%key:", "[%" + _ZWSP + "key:"))
    return steps


_MAGENTO_START = re.compile(r"%(?=[A-Za-z0-9_])")
_DUNDER_START = re.compile(r"__(?=[A-Za-z0-9$])")


def _break_templating(text: str) -> str:
    """`{{`, `{%` and `$t(` from the model made inert: no escape exists for them."""
    text = re.sub(r"\{(?=[{%#])", "{" + _ZWSP, text)
    return text.replace("$t(", "$" + _ZWSP + "t(")


def escaper(
    conventions: Conventions, *, pound: bool = False, choice: bool = False, html: frozenset[str] = frozenset()
) -> Callable[[str], str] | None:
    """The function that makes translated text literal under `conventions` (None: nothing to do).
    `pound`: the text is inside an ICU plural branch, where `#` is the number; `choice`: inside
    a choice branch, where `|` ends it; `html`: the characters the source writes only as
    entities (html_escaped of the value)."""
    steps = _escape_steps(conventions, html)
    if Convention.JAVA_MESSAGE in conventions:
        steps.append(lambda t: icu_escape(t, pound=False, java=True, choice=choice))
    elif Convention.ICU in conventions:
        steps.append(lambda t: icu_escape(t, pound=pound, choice=choice))
    if not steps:
        return None

    def escape(text: str) -> str:
        for step in steps:
            text = step(text)
        return text

    return escape
