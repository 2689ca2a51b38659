"""Inputs in an encoding they do not declare (`--encoding`), and the encoding outputs are written in.

An input that declares its encoding (a byte order mark; an HTML page's `<meta charset>`) is read
as it says. One that declares nothing is UTF-8 unless `--encoding NAME` names another: a Python
codec (`gbk`, `cp1252`, `shift_jis`), or for HTML a WHATWG label, decoded as browsers do
(`big5` with its Hong Kong additions, `gb2312` meaning GBK). Such an input is refused where its
bytes do not decode, or would not encode back as they are.

The output keeps the input's encoding (`--output-encoding source`). What a translation holds that
the encoding lacks reaches the writer as its conventional substitute, or not at all (the segment
keeps its source: pipeline/_output_encoding.py); a character that still cannot be written here is
an error naming it and suggesting UTF-8 (never a `?`). An HTML page writes any character the
encoding lacks as a character reference instead, which HTML reads as the character.
`--output-encoding utf-8` writes UTF-8: CSV and TSV with a byte order mark (the one thing that
tells Excel a file is UTF-8), an HTML page with its `<meta charset>` saying so.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Literal

import webencodings  # type: ignore[import-untyped]

from ..errors import UsageError
from ..options import Options, Panel, option
from .base import Decoded, DocumentDecodeError, FormatError

OutputEncoding = Literal["source", "utf-8"]
UTF8 = "utf-8"
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


@dataclass(frozen=True, slots=True)
class EncodingOptions(Options):
    """The encodings of documents and delimited tables (formats whose files may be in a legacy
    encoding without saying so)."""

    encoding: str | None = option(
        None,
        "--encoding",
        metavar="NAME",
        panel=Panel.FORMATS,
        default_text="UTF-8",
        common=True,
        help="Encoding of inputs that declare none: gbk, cp1252 ... (HTML: a WHATWG label).",
    )
    output_encoding: OutputEncoding = option(
        "source",
        "--output-encoding",
        panel=Panel.FORMATS,
        help="source: the input's; utf-8: UTF-8 (CSV/TSV with a BOM, for Excel).",
    )

    def validate(self) -> None:
        if self.encoding is not None and python_codec(self.encoding) is None:
            raise UsageError(
                f"--encoding: unknown encoding {self.encoding!r}",
                hint="a Python codec name (gbk, cp1252, shift_jis, big5) or, for HTML, a WHATWG label",
            )

    def output_codec(self, source_codec: str) -> str:
        """The codec an output is written in."""
        return UTF8 if self.output_encoding == UTF8 else source_codec


def python_codec(name: str) -> str | None:
    """The Python codec of an encoding name (None: neither Python nor the WHATWG knows it)."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        label = webencodings.lookup(name)
        return None if label is None else str(label.codec_info.name)


def bom_codec(data: bytes) -> str | None:
    """The encoding a byte order mark declares (None: no BOM)."""
    return next((codec for bom, codec in _BOMS if data.startswith(bom)), None)


def decode_as(data: bytes, name: str) -> Decoded:
    """`data` in the encoding `name` (a BOM, if any, wins): strictly, and only where encoding the
    text again gives `data` back."""
    codec = bom_codec(data) or python_codec(name) or name
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {codec} (--encoding {name}): {exc.reason}", exc.start) from None
    if text.encode(codec) != data:
        raise DocumentDecodeError(f"{codec} (--encoding {name}) would not write these bytes back as they are")
    return Decoded(text, codec)


def encoded(text: str, codec: str, target: str) -> bytes:
    """`text` in `codec`; FormatError naming the first character the codec lacks."""
    try:
        return text.encode(codec)
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        raise FormatError(
            f"the {target} translation has characters {codec} cannot hold (first: {char!r}, "
            f"U+{ord(char):04X}); --output-encoding utf-8 writes UTF-8 instead"
        ) from None
