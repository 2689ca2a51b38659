"""YAML scalars: which are strings, and writing a new string value in a scalar's style.

`is_string_scalar` says whether a scalar is text: quoted and block scalars are; a plain one is
unless YAML 1.1 or 1.2 reads it as something else (`yes`, `on`, `~`, `12`, `1_000`, `0x1F`,
`.inf`, `2024-01-02`): Rails (Psych) reads 1.1, other tools 1.2, so both count. Psych also reads
a plain `:year` (or `:"a b"`) as a Ruby symbol (Rails' `date.order: [:year, :month, :day]`).

`write_scalar(value, raw, ...)` gives the raw text of a new value in the style of the source
scalar `raw`: plain stays plain where a plain scalar can hold the value (no `: ` or ` #`, no
leading indicator, no value that would read as a number or boolean ...); single quotes stay
single quotes (`''`) where the value has no line break; a block scalar (`|`, `>`, with its
chomping and indentation) stays a block. Whatever would not read back as exactly the value (a
mini document with the scalar is parsed to check) becomes a double-quoted scalar, which holds
any text (`\\n`, `\\"`, `\\\\`, `\\uXXXX` for what is not printable).
"""

from __future__ import annotations

import re
from functools import cache

_NOT_STRING = re.compile(
    r"""\A(?:
      ~|null|Null|NULL
    | y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    | [-+]?(?:0|[1-9][0-9_]*)                              # int
    | [-+]?0b[01_]+|[-+]?0o?[0-7_]+|[-+]?0x[0-9a-fA-F_]+    # binary, octal, hex
    | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?      # sexagesimal (1.1)
    | [-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?    # float
    | [-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+
    | [-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)
    | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?
        (?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?     # timestamp
    | =|<<
    | :\S[\s\S]*                                           # a Ruby symbol (Psych)
    )\Z""",
    re.VERBOSE,
)
_STR_TAGS = (None, "!", "tag:yaml.org,2002:str")
_NON_PRINTABLE = re.compile("[^\x09\x0a\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|\ufeff")
_PLAIN_BAD_START = frozenset("-?:,[]{}#&*!|>'\"%@` \t")
_DQ_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\x00": "\\0",
    "\x07": "\\a",
    "\x08": "\\b",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\x1b": "\\e",
    "\x85": "\\N",
    "\xa0": "\\_",
    "\u2028": "\\L",
    "\u2029": "\\P",
}


def is_string_scalar(value: str, style: str | None, tag: str | None) -> bool:
    if tag not in _STR_TAGS:
        return False
    if style is not None or tag is not None:
        return True
    return _NOT_STRING.match(value) is None


def plain_holds(value: str, *, flow: bool) -> bool:
    """Can a plain scalar hold `value` (one line, read back as the same string)?"""
    if not value or value != value.strip(" \t") or "\n" in value or "\r" in value:
        return False
    if value[0] in _PLAIN_BAD_START or ": " in value or " #" in value or value.endswith(":"):
        return False
    if "\t" in value or _NON_PRINTABLE.search(value) or value.startswith(("---", "...")):
        return False
    if flow and any(ch in value for ch in ",[]{}"):
        return False
    return _NOT_STRING.match(value) is None


def double_quoted(value: str, *, ascii_only: bool = False) -> str:
    def one(match: re.Match[str]) -> str:
        ch = match.group(0)
        if ch in _DQ_ESCAPES:
            return _DQ_ESCAPES[ch]
        code = ord(ch)
        if code <= 0xFF:
            return f"\\x{code:02X}"
        if code <= 0xFFFF:
            return f"\\u{code:04X}"
        return f"\\U{code:08X}"

    pattern = _ASCII_DQ if ascii_only else _DQ
    return '"' + pattern.sub(one, value) + '"'


_DQ = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]')
_ASCII_DQ = re.compile('[\\\\"\x00-\x1f\x7f-\U0010ffff]')


def single_quoted(value: str) -> str | None:
    if "\n" in value or "\r" in value or _NON_PRINTABLE.search(value):
        return None
    return "'" + value.replace("'", "''") + "'"


_BLOCK_HEADER = re.compile(r"([|>])([-+]?)([1-9]?)([-+]?)([^\n]*)\n")


def block(value: str, raw: str, column: int) -> str | None:
    """`value` as a block scalar with `raw`'s header (indicator, chomping, comment), its lines
    indented like `raw`'s content; None when that cannot hold the value."""
    header = _BLOCK_HEADER.match(raw)
    if header is None:
        return None
    indicator, chomp = header.group(1), header.group(2) or header.group(4)
    lines = raw[header.end() :].split("\n")
    content = [line for line in lines if line.strip()]
    indent = (len(content[0]) - len(content[0].lstrip(" "))) if content else column + 2
    body = value
    if chomp == "+" or not body.endswith("\n") and chomp != "-":
        return None  # keeps trailing lines exactly, or clips a value without a final newline: rare
    if chomp != "-":
        body = body[:-1]
    if "\r" in body or _NON_PRINTABLE.search(body.replace("\t", " ")):
        return None
    rows = body.split("\n")
    if rows and rows[0][:1] in (" ", "\t") and not header.group(3):
        return None  # the first line's spaces would change the indentation
    if indicator == ">":
        if any(r[:1] in (" ", "\t") for r in rows):
            return None
        text = ("\n\n").join(" " * indent + r if r else "" for r in rows)
    else:
        text = "\n".join(" " * indent + r if r else "" for r in rows)
    trailing = raw[len(raw.rstrip("\n")) :]  # the blank lines after the content stay
    return raw[: header.end()] + text + (trailing if trailing else "\n")


@cache
def _parser():  # type: ignore[no-untyped-def]
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True)


def reads_back(raw: str, value: str, *, flow: bool) -> bool:
    """Does the scalar `raw`, as a mapping value, read as exactly the string `value`?"""
    from ruamel.yaml.error import YAMLError

    doc = ("x: [" + raw + "]\n") if flow else ("x: " + raw + ("" if raw.endswith("\n") else "\n"))
    try:
        loaded = _parser().load(doc)
    except (YAMLError, ValueError, RecursionError):
        return False
    got = loaded.get("x") if isinstance(loaded, dict) else None
    if flow:
        got = got[0] if isinstance(got, list) and len(got) == 1 else None
    return isinstance(got, str) and got == value


def write_scalar(
    value: str, raw: str, *, style: str | None, flow: bool, column: int, ascii_only: bool = False
) -> str:
    """The raw text of `value` in `raw`'s style where that style holds it, else double-quoted.
    A block scalar's line breaks are written as `raw` writes them (CRLF, CR)."""
    newline = "\r\n" if "\r\n" in raw else "\r" if "\r" in raw else "\n"
    if newline != "\n" and style in ("|", ">"):
        lf_raw = raw.replace(newline, "\n")
        written = write_scalar(value, lf_raw, style=style, flow=flow, column=column, ascii_only=ascii_only)
        return written.replace("\n", newline)  # real breaks only: a quoted value writes `\n`
    candidate: str | None = None
    if style is None:
        candidate = value if plain_holds(value, flow=flow) else None
    elif style == "'":
        candidate = single_quoted(value)
    elif style == '"':
        candidate = double_quoted(value, ascii_only=ascii_only)
    elif style in ("|", ">") and not flow:
        candidate = block(value, raw, column)
    if candidate is not None and reads_back(candidate, value, flow=flow):
        return candidate
    # A block scalar's span ends after its line breaks: a quoted scalar in its place keeps them.
    breaks = re.search(r"\n\s*\Z", raw) if style in ("|", ">") else None
    return double_quoted(value, ascii_only=ascii_only) + (breaks.group(0) if breaks else "")
