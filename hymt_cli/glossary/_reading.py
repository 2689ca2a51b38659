"""Reading a glossary file: its bytes (XML decodes itself) or its text.

Text glossaries (TSV, CSV, JSON) are UTF-8, with or without a BOM, or UTF-16 with a BOM
(what spreadsheet programs write as "Unicode text"). A NUL byte is refused: it is what
UTF-16 without a BOM looks like, and no glossary holds one.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from .entries import GlossaryError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def read_bytes(path: Path) -> bytes:
    """The file's bytes; an unreadable file is a GlossaryError."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise GlossaryError(f"{path}: cannot read glossary: {exc.strerror or exc}") from None


def decode(path: Path, data: bytes) -> str:
    """`data` as text (see the module's docstring); errors name the line."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-8":
            raise GlossaryError(
                f"{path}: not valid UTF-16 text (it starts with a UTF-16 byte-order mark)"
            ) from None
        line = data[: exc.start].count(b"\n") + 1
        raise GlossaryError(f"{path}:{line}: not UTF-8 text (save the glossary as UTF-8)") from None
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise GlossaryError(
            f"{path}:{line}: NUL byte: not a text glossary (UTF-16 without a byte-order "
            "mark? save it as UTF-8)"
        )
    return text


def read_text(path: Path) -> str:
    """The file decoded as `decode` says."""
    return decode(path, read_bytes(path))
