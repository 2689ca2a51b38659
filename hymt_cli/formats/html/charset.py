"""Bytes to text for HTML pages, as a browser decides (WHATWG Encoding and HTML standards).

Order: a byte order mark; else the charset a `<meta>` declares in the first 1024 bytes
(found by the standard's prescan, over the whole head); else the label `--encoding` gives (a page
that declares nothing, as a browser set to that encoding reads it); else UTF-8 (a page that is
not valid UTF-8 and declares nothing is an error that says so). Labels resolve through
`webencodings`, the standard's
label table: `iso-8859-1`, `latin1` and `ascii` mean windows-1252, `gb2312` means gbk,
`x-sjis` and `windows-31j` mean Shift_JIS; a `utf-16` declaration in an ASCII-compatible
page means UTF-8. Each encoding decodes by the standard's index, as browsers do, where
Python's codec differs (whatwg_codecs.py): Big5's euro sign 0xA3E1, windows-1252's 0x81 and
0x8D (U+0081, U+008D), EUC-JP's NEC and IBM rows, ISO-2022-JP's half-width katakana ...

Every accepted page writes back byte for byte (`decoded.encode(decoded.text) == data`): a
page whose bytes would not (a charset with two spellings of one character) is refused with
the offset, as are bytes the charset cannot decode. NUL bytes are text; only data that is
clearly not a page (an image, an archive ...) is refused as binary.
"""

from __future__ import annotations

import codecs

import webencodings  # type: ignore[import-untyped]

from ..base import Decoded, DocumentDecodeError
from .meta_prescan import prescan
from .whatwg_codecs import codec_name

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_BINARY = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"\x7fELF", "an executable"),
    (b"\x00asm", "WebAssembly"),
    (b"wOFF", "a font"),
    (b"wOF2", "a font"),
    (b"OggS", "Ogg media"),
    (b"\x1aE\xdf\xa3", "Matroska media"),
)


def python_codec(encoding: webencodings.Encoding) -> str:
    """The Python codec that decodes a WHATWG encoding as browsers do."""
    return codec_name(encoding.name, encoding.codec_info.name)


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in a `<meta>` in its head, as a Python codec name (None
    when it declares none, or none this standard knows)."""
    encoding = prescan(data)
    return python_codec(encoding) if encoding is not None else None


def decode_html(data: bytes, fallback: str | None = None) -> Decoded:
    """A page's text; `fallback`: the WHATWG label of an undeclared page's encoding."""
    for signature, what in _BINARY:
        if data.startswith(signature):
            raise DocumentDecodeError(f"binary data ({what}), not an HTML page", 0)
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _decode(data, codec, "byte order mark")
    encoding = prescan(data)
    if encoding is not None:
        if encoding.name == "replacement":
            raise DocumentDecodeError(
                f"the page declares a charset browsers refuse to decode ({encoding.name})", None
            )
        return _decode(data, python_codec(encoding), f"declared charset {encoding.name}")
    if fallback is not None:
        given = webencodings.lookup(fallback)
        if given is None:
            raise DocumentDecodeError(f"--encoding {fallback}: not an encoding label browsers know", None)
        return _decode(data, python_codec(given), f"--encoding {fallback}")
    try:
        return Decoded(data.decode("utf-8"), "utf-8", "xmlcharrefreplace")
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(
            f"not valid UTF-8 and no charset declared (add <meta charset=...>, or name it with "
            f"--encoding): {exc.reason}",
            exc.start,
        ) from None


def _decode(data: bytes, codec: str, why: str) -> Decoded:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {codec} ({why}): {exc.reason}", exc.start) from None
    # A BOM stays in the text (U+FEFF): encoding writes it back. Characters the page's charset
    # lacks become character references (valid in text and attribute values, the only places
    # translations go).
    decoded = Decoded(text, codec, "xmlcharrefreplace")
    again = decoded.encode(text)
    if again != data:
        at = next((i for i, (a, b) in enumerate(zip(again, data)) if a != b), min(len(again), len(data)))
        raise DocumentDecodeError(
            f"{codec} ({why}) would not write these bytes back as they are "
            f"(a character with two spellings in this charset)",
            at,
        )
    return decoded
