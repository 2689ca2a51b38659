"""Bytes to text for HTML pages: BOM, declared charset, or UTF-8."""
from __future__ import annotations

import codecs
import re

from ..base import Decoded, DocumentDecodeError

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in a `<meta>` near its start, as a Python codec name."""
    match = _META_CHARSET.search(data[:4096])
    if not match:
        return None
    label = match.group(1).decode("ascii", "replace").lower()
    aliases = {"gb2312": "gbk", "x-gbk": "gbk", "iso-8859-1": "cp1252", "latin1": "cp1252",
               "us-ascii": "cp1252", "ascii": "cp1252", "x-sjis": "shift_jis"}
    label = aliases.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def decode_html(data: bytes) -> Decoded:
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _decode(data, codec, "byte order mark")
    declared = declared_charset(data)
    if declared is not None:
        return _decode(data, declared, "declared charset")
    if b"\x00" in data[:1024]:
        raise DocumentDecodeError("binary data, not an HTML page (NUL bytes)", data.index(b"\x00"))
    try:
        return Decoded(data.decode("utf-8"), "utf-8", "xmlcharrefreplace")
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(
            f"not valid UTF-8 and no charset declared (add <meta charset=...>): {exc.reason}",
            exc.start) from None


def _decode(data: bytes, codec: str, why: str) -> Decoded:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {codec} ({why}): {exc.reason}", exc.start) from None
    # A BOM stays in the text (U+FEFF): encoding writes it back. Characters the page's charset
    # lacks become character references (valid in text and attribute values, the only places
    # translations go).
    return Decoded(text, codec, "xmlcharrefreplace")
