"""A field's value from its raw text, and a value written as a field, in each escaping."""

from __future__ import annotations

import re

from .dialect import QUOTE, QUOTED, Dialect

# What an unquoted field says when a database export means NULL: never sent for translation.
NULL_MARKERS = frozenset({"\\N", "NULL", "null"})
_BACKSLASHED = re.compile(r"\\([\s\S])")
_UNESCAPE = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "Z": "\x1a"}


def is_quoted(raw: str, dialect: Dialect) -> bool:
    return dialect.escaping == "quotes" and raw.startswith(QUOTE)


def field_value(raw: str, dialect: Dialect) -> str | None:
    """The value a reader sees in a raw field (None: NULL, as a database export writes it)."""
    if dialect.escaping == "quotes":
        if not raw.startswith(QUOTE):
            return None if raw in NULL_MARKERS else raw
        match = QUOTED.match(raw)
        assert match is not None, "the scanner only makes quoted fields that close"
        return raw[1 : match.end() - 1].replace('""', '"') + raw[match.end() :]
    if dialect.escaping == "backslash":
        if raw == "\\N":
            return None
        return _BACKSLASHED.sub(lambda m: _UNESCAPE.get(m.group(1), m.group(1)), raw) if "\\" in raw else raw
    return raw


def render_field(value: str, dialect: Dialect, quoted: bool) -> str:
    """`value` as a field that every reader of the dialect reads back as `value`: quoted (and
    its quotes doubled) where the source field was, or where the value needs it (a translation
    that reads `NULL` is text, not a database's null); escaped; or, without escapes, with what a
    field cannot hold turned into spaces."""
    delimiter = dialect.delimiter
    if dialect.escaping == "quotes":
        if (
            quoted
            or QUOTE in value
            or delimiter in value
            or "\n" in value
            or "\r" in value
            or value in NULL_MARKERS
        ):
            return QUOTE + value.replace(QUOTE, QUOTE + QUOTE) + QUOTE
        return value
    if dialect.escaping == "backslash":
        escaped = value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
        return escaped.replace(delimiter, "\\" + delimiter) if delimiter != "\t" else escaped
    return re.sub(f"[{re.escape(delimiter)}\r\n]", " ", value)
