"""Python codecs that decode legacy encodings as browsers do (the WHATWG Encoding Standard).

Python's codecs follow other tables than the standard's indexes: big5hkscs refuses the euro
sign 0xA3E1 and a few hundred other pairs browsers show, cp1250 ... cp1258 refuse the bytes the
standard maps to C1 controls, euc_jp lacks the NEC and IBM rows of JIS X 0208, gb18030 maps 21
pairs otherwise. whatwg_differences.json holds only those differences (generated from the standard's
index files by scripts/whatwg_encodings.py); each codec here is the Python codec with them
applied. Registered as `hymt-<whatwg name>` (`codec_name`).

Encoding writes each character as the byte sequence that decodes to it (the standard's table
first), so a page that decodes writes back byte for byte, except where one character has two
spellings in the page: the HTML decoder checks that and refuses such a page with the offset.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from ._iso2022jp import Iso2022JpCodec
from .whatwg_tables import DIFFERENCES

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

PREFIX = "hymt-"
# Browsers decode a page labelled gbk (or gb2312) with gb18030's decoder; a GBK writer spells
# the euro sign 0x80 (gb18030 spells it A2E3), so that spelling is the one written back.
_ALIASES = {"gbk": "gb18030"}
_PREFERRED = {"gbk": {"\u20ac": b"\x80"}}
# How each multi-byte encoding cuts bytes into characters (the standard's decoders); a byte
# that starts no character is one token of its own (an error).
_TOKENS = {
    "big5": rb"[\x81-\xfe][\x40-\x7e\xa1-\xfe]|[\x00-\x7f]|[\s\S]",
    "euc-jp": rb"\x8e[\xa1-\xdf]|\x8f[\xa1-\xfe][\xa1-\xfe]|[\xa1-\xfe][\xa1-\xfe]|[\x00-\x7f]|[\s\S]",
    "gb18030": (
        rb"[\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39]|[\x81-\xfe][\x40-\x7e\x80-\xfe]"
        rb"|[\x00-\x80]|[\s\S]"
    ),
}
# Big5 pairs that decode to two code points (a letter and a combining mark)
_BIG5_PAIRS = re.compile("\u00ca[\u0304\u030c]|\u00ea[\u0304\u030c]|[\\s\\S]")
_ONE = re.compile(r"[\s\S]")
_BIG5_LAST = frozenset("\u2550\u255e\u2561\u256a\u5341\u5345")


def codec_name(whatwg_name: str, python_codec: str) -> str:
    """The codec that decodes a WHATWG encoding as browsers do: ours where Python's differs."""
    if whatwg_name in DIFFERENCES or whatwg_name in _ALIASES:
        return PREFIX + whatwg_name
    return python_codec


def _differences(name: str) -> tuple[str, dict[bytes, str]]:
    base, table = DIFFERENCES[_ALIASES.get(name, name)]
    return base, {bytes.fromhex(key): value for key, value in table.items()}


class SingleByteCodec:
    """A charmap: the base codec's 256 bytes with the standard's differences."""

    def __init__(self, name: str) -> None:
        base, table = _differences(name)
        chars = []
        for byte in range(256):
            seq = bytes([byte])
            if seq in table:
                chars.append(table[seq] or "\ufffe")  # U+FFFE: undefined (an error)
                continue
            try:
                chars.append(seq.decode(base))
            except UnicodeDecodeError:
                chars.append("\ufffe")
        self.name = PREFIX + name
        self._decoding = "".join(chars)
        self._encoding = codecs.charmap_build(self._decoding)

    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, self._encoding)

    def decode(self, data: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, self._decoding)


class MultiByteCodec:
    """The base codec character by character (as the standard's decoder cuts the bytes), with the
    standard's differences; each distinct character is looked up once."""

    def __init__(self, name: str) -> None:
        self.name = PREFIX + name
        family = _ALIASES.get(name, name)
        self._base, table = _differences(name)
        self._tokens = re.compile(_TOKENS[family])
        self._decoded: dict[bytes, str | None] = {seq: text or None for seq, text in table.items()}
        self._encoded: dict[str, bytes | None] = dict(_PREFERRED.get(name, {}))
        self._chars = _BIG5_PAIRS if family == "big5" else _ONE
        # GBK writes no four-byte sequences (as the standard's GBK encoder): what it lacks is a
        # character reference in a page, which every reader of GBK reads
        self._longest = 2 if name == "gbk" else 4
        # The standard's Big5 encoder leaves the HKSCS rows (leads below 0xA1) to the last; its
        # gb18030 encoder writes the euro sign A2E3, never 0x80 (GBK's spelling: _PREFERRED)
        self._leads = {
            "big5": [*range(0xA1, 0x100), *range(0x80, 0xA1)],
            "gb18030": list(range(0x81, 0x100)),
        }.get(family, list(range(0x80, 0x100)))

    def decode(self, data: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
        raw = bytes(data)
        tokens = self._tokens.findall(raw)
        out: list[str] = []
        position = 0
        for token in tokens:
            text = self._char(token)
            if text is None:
                error = UnicodeDecodeError(
                    self.name,
                    raw,
                    position,
                    position + len(token),
                    "not a character in this encoding (as browsers decode it)",
                )
                replacement, _ = codecs.lookup_error(errors)(error)
                text = replacement if isinstance(replacement, str) else replacement.decode("latin-1")
            out.append(text)
            position += len(token)
        return "".join(out), len(raw)

    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        out: list[bytes] = []
        handler: Callable[[UnicodeEncodeError], tuple[str | bytes, int]] | None = None
        for match in self._chars.finditer(text):
            seq = self._bytes(match.group())
            if seq is None:
                handler = handler or codecs.lookup_error(errors)
                error = UnicodeEncodeError(
                    self.name,
                    text,
                    match.start(),
                    match.end(),
                    "not in this encoding (as browsers decode it)",
                )
                replacement, _ = handler(error)
                seq = replacement if isinstance(replacement, bytes) else replacement.encode("ascii")
            out.append(seq)
        return b"".join(out), len(text)

    def _char(self, token: bytes) -> str | None:
        if token in self._decoded:
            return self._decoded[token]
        try:
            text: str | None = token.decode(self._base)
        except UnicodeDecodeError:
            text = None
        self._decoded[token] = text
        return text

    def _bytes(self, char: str) -> bytes | None:
        """The bytes that decode to `char` (None: the encoding has no such character): the
        standard's encoder's spelling, else the base codec's where browsers read it so."""
        if char in self._encoded:
            return self._encoded[char]
        seq = self._reverse().get(char)
        if seq is None:
            try:
                seq = char.encode(self._base)
            except UnicodeEncodeError:
                seq = None
            if seq is not None and self._decode_whole(seq) != char:
                seq = None
        if seq is not None and len(seq) > self._longest:
            seq = None
        self._encoded[char] = seq
        return seq

    @cache  # noqa: B019  (one per codec, and codecs live as long as the process)
    def _reverse(self) -> dict[str, bytes]:
        """The standard's encoder: every one- and two-byte character of the encoding, first
        spelling in index order (Big5: HKSCS rows last, and the last spelling for the six
        characters the standard names), then the table's longer sequences."""
        out: dict[str, bytes] = {}
        for lead in self._leads:
            for seq in (bytes([lead]), *(bytes([lead, trail]) for trail in range(0x40, 0x100))):
                if self._tokens.fullmatch(seq) and (text := self._char(seq)) is not None:
                    if text in _BIG5_LAST and self._leads[0] == 0xA1:
                        out[text] = seq
                    else:
                        out.setdefault(text, seq)
        for seq, text in list(self._decoded.items()):
            if text is not None and len(seq) > 2:
                out.setdefault(text, seq)
        return out

    def _decode_whole(self, seq: bytes) -> str | None:
        try:
            return self.decode(seq)[0]
        except UnicodeDecodeError:
            return None


@cache
def _codec(name: str) -> SingleByteCodec | MultiByteCodec | Iso2022JpCodec:
    if name == "iso-2022-jp":
        base, table = _differences(name)
        return Iso2022JpCodec(PREFIX + name, base, table)
    if _ALIASES.get(name, name) in _TOKENS:
        return MultiByteCodec(name)
    return SingleByteCodec(name)


def _search(name: str) -> codecs.CodecInfo | None:
    name = name.lower().replace("_", "-")
    if not name.startswith(PREFIX):
        return None
    whatwg = name[len(PREFIX) :]
    if whatwg not in DIFFERENCES and whatwg not in _ALIASES:
        return None
    codec = _codec(whatwg)
    return codecs.CodecInfo(codec.encode, codec.decode, name=codec.name)


codecs.register(_search)
