"""A PO file's bytes as text: in the charset its header declares, a UTF-8 byte order mark kept.

gettext reads a PO file in the charset of its header (`Content-Type: text/plain;
charset=ISO-8859-1`), and msgmerge and msgfmt keep it. hymt does too: the file is decoded with
Python's codec for that charset, read and spliced as text, and written back in the same charset,
so the identity engine gives its bytes back. What a translation holds that the charset lacks is
written as its conventional substitute, or that entry keeps its source
(pipeline/_output_encoding.py); a character that still cannot be written fails that output in one
line naming it (strings/_writers.py: the file is never written with a wrong byte). A charset
Python has no text codec for, or one a PO file cannot be in (not ASCII-compatible: UTF-16), is
refused in one line naming it.

A UTF-8 byte order mark stays U+FEFF at the start of the text (entries.py reads after it), so
the output starts with it as the source does. A mark with a header declaring another charset
contradicts itself: refused.
"""

from __future__ import annotations

import codecs

from ..base import Decoded, DocumentDecodeError, FormatError, decode_utf8
from ._header import UTF8_NAMES, HeaderInfo
from .entries import read_entries

_SNIFF = 1 << 20  # bytes read for the header: it is the first entry
_ASCII = 'msgid msgstr msgctxt msgid_plural[0] "\\n" #,.:|~ \n\r\t'  # what the PO syntax is made of


def decode_po(data: bytes) -> Decoded:
    bom = data.startswith(codecs.BOM_UTF8)
    charset = declared_charset(data[len(codecs.BOM_UTF8) :] if bom else data)
    if charset.lower() in UTF8_NAMES:
        return decode_utf8(data)
    if bom:
        raise FormatError(f"starts with a UTF-8 byte order mark but its header declares charset {charset}")
    _check_codec(charset)
    try:
        return Decoded(data.decode(charset), charset)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(
            f"not valid {charset}, the charset its header declares ({exc.reason})", exc.start
        ) from None


def declared_charset(data: bytes) -> str:
    """The charset the header entry names ("" without one). Read from the bytes as Latin-1 (one
    character a byte): the header's syntax is ASCII in every charset a PO file can be in."""
    try:
        first = next(read_entries(data[:_SNIFF].decode("latin-1")), None)
    except FormatError:
        return ""  # not readable as PO: reading the decoded text says where
    if first is None or not first.is_header:
        return ""
    return HeaderInfo.read(first.msgstr[0].value).charset


def _check_codec(charset: str) -> None:
    try:
        fits = _ASCII.encode(charset) == _ASCII.encode("ascii") and b"".decode(charset) == ""
    except (LookupError, UnicodeError):
        fits = None
    if fits is None:
        raise FormatError(
            f"declares charset {charset}, which hymt has no codec for (convert it first: msgconv -t UTF-8)"
        )
    if not fits:
        raise FormatError(f"declares charset {charset}, which a PO file cannot be written in")
