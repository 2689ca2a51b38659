"""ISO-2022-JP as browsers decode it (the WHATWG Encoding Standard's decoder), and written back.

Escape sequences switch between ASCII (ESC ( B), JIS X 0201 Roman (ESC ( J: 0x5C is ¥, 0x7E
is ‾), half-width katakana (ESC ( I, which Python's iso2022_jp refuses) and JIS X 0208 (ESC $ @
or ESC $ B: byte pairs, decoded by Python's codec with the standard's differences). As the
standard says, a byte out of its mode's range, an unknown escape, and an escape right after
another are errors.

The encoder switches mode only when a character needs it (ESC $ B for JIS X 0208) and ends in
ASCII, as common encoders do; a page written otherwise (ESC $ @, extra escapes) does not write
back byte for byte, and the HTML decoder refuses it.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

_ESCAPES = {b"\x1b(B": "ascii", b"\x1b(J": "roman", b"\x1b(I": "katakana", b"\x1b$@": "jis", b"\x1b$B": "jis"}
_SWITCH = {"ascii": b"\x1b(B", "roman": b"\x1b(J", "katakana": b"\x1b(I", "jis": b"\x1b$B"}
_ROMAN = {0x5C: "\u00a5", 0x7E: "\u203e"}


class Iso2022JpCodec:
    def __init__(self, name: str, base: str, pairs: Mapping[bytes, str]) -> None:
        self.name = name
        self._base = base
        self._pairs: dict[bytes, str | None] = {seq: text or None for seq, text in pairs.items()}
        self._encoded: dict[str, bytes | None] = {}
        for seq, text in pairs.items():
            if text:
                self._encoded.setdefault(text, seq)

    def decode(self, data: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
        raw = bytes(data)
        out: list[str] = []
        mode, pos, after_escape = "ascii", 0, False
        while pos < len(raw):
            byte = raw[pos]
            if byte == 0x1B:
                escape = raw[pos : pos + 3]
                if escape not in _ESCAPES:
                    out.append(self._error(raw, pos, pos + 1, errors, "an unknown escape sequence"))
                    pos, after_escape = pos + 1, False
                    continue
                if after_escape:
                    out.append(
                        self._error(raw, pos, pos + 3, errors, "an escape sequence right after another")
                    )
                mode, pos, after_escape = _ESCAPES[escape], pos + 3, True
                continue
            after_escape = False
            if mode == "jis":
                pair = raw[pos : pos + 2]
                text = self._pair(pair) if len(pair) == 2 and all(0x21 <= b <= 0x7E for b in pair) else None
                if text is None:
                    out.append(self._error(raw, pos, pos + len(pair), errors, "not a JIS X 0208 character"))
                else:
                    out.append(text)
                pos += 2
                continue
            if mode == "katakana":
                ok = 0x21 <= byte <= 0x5F
                out.append(
                    chr(0xFF61 - 0x21 + byte)
                    if ok
                    else self._error(raw, pos, pos + 1, errors, "not a half-width katakana byte")
                )
            elif byte < 0x80 and byte not in (0x0E, 0x0F):
                out.append(_ROMAN.get(byte, chr(byte)) if mode == "roman" else chr(byte))
            else:
                out.append(self._error(raw, pos, pos + 1, errors, "not a byte of this encoding"))
            pos += 1
        return "".join(out), len(raw)

    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        out: list[bytes] = []
        mode = "ascii"
        for index, char in enumerate(text):
            code = ord(char)
            if code < 0x80 and char not in "\x0e\x0f\x1b":
                wanted, seq = ("roman" if mode == "roman" and code not in _ROMAN else "ascii"), bytes([code])
            elif char in ("\u00a5", "\u203e"):
                wanted, seq = "roman", bytes([0x5C if char == "\u00a5" else 0x7E])
            elif 0xFF61 <= code <= 0xFF9F:
                wanted, seq = "katakana", bytes([code - 0xFF61 + 0x21])
            elif (pair := self._bytes(char)) is not None:
                wanted, seq = "jis", pair
            else:
                error = UnicodeEncodeError(self.name, text, index, index + 1, "not in ISO-2022-JP")
                replacement, _ = codecs.lookup_error(errors)(error)
                wanted = "ascii"
                seq = replacement if isinstance(replacement, bytes) else replacement.encode("ascii")
            if wanted != mode:
                out.append(_SWITCH[wanted])
                mode = wanted
            out.append(seq)
        if mode != "ascii":
            out.append(_SWITCH["ascii"])
        return b"".join(out), len(text)

    def _pair(self, pair: bytes) -> str | None:
        if pair not in self._pairs:
            try:
                text: str | None = (b"\x1b$B" + pair + b"\x1b(B").decode(self._base)
            except UnicodeDecodeError:
                text = None
            self._pairs[pair] = text if text is not None and len(text) == 1 else None
        return self._pairs[pair]

    def _bytes(self, char: str) -> bytes | None:
        if char not in self._encoded:
            try:
                whole = char.encode(self._base)
            except UnicodeEncodeError:
                whole = b""
            pair = whole[3:5] if whole.startswith(b"\x1b$B") and len(whole) == 8 else None
            self._encoded[char] = pair if pair is not None and self._pair(pair) == char else None
        return self._encoded[char]

    def _error(self, raw: bytes, start: int, end: int, errors: str, reason: str) -> str:
        error = UnicodeDecodeError(self.name, raw, start, end, reason)
        replacement, _ = codecs.lookup_error(errors)(error)
        return replacement if isinstance(replacement, str) else replacement.decode("latin-1")
