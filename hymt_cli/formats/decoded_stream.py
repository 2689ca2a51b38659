"""A text file read a block at a time, in bounded memory.

The encoding comes from the byte order mark: UTF-8 with or without one, UTF-16 (LE or BE,
as Excel's "Unicode text" writes it) with one; without one, `encoding` (--encoding) or UTF-8.
The BOM stays in the text (U+FEFF), so that encoding the text again gives the source bytes
back: these codecs round-trip strictly.
Bytes that do not decode are an error that says where (line, column, byte offset).
"""

from __future__ import annotations

import codecs
from typing import BinaryIO

from .base import FormatError
from .encodings import python_codec

BLOCK_BYTES = 1 << 20
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16 (little-endian)", "utf-16-be": "UTF-16 (big-endian)"}


class LineCounter:
    """Lines and columns of text read piece by piece (CR LF, LF and CR each end a line)."""

    __slots__ = ("after_cr", "column", "line")

    def __init__(self) -> None:
        self.line = 1
        self.column = 1
        self.after_cr = False

    def advance(self, text: str) -> None:
        if not text:
            return
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        if self.after_cr and text[0] == "\n":
            breaks -= 1  # the LF of a CR LF split between two pieces
        self.line += breaks
        last = max(text.rfind("\n"), text.rfind("\r"))
        self.column = self.column + len(text) if last < 0 else len(text) - last
        self.after_cr = text[-1] == "\r"


class TextStream:
    """The decoded text of a binary stream, a block at a time."""

    def __init__(
        self, binary: BinaryIO, *, block_bytes: int | None = None, encoding: str | None = None
    ) -> None:
        self._binary = binary
        self.block = block_bytes or BLOCK_BYTES
        head = binary.read(max(self.block, 4))  # enough for a byte order mark
        self.codec = next(
            (codec for bom, codec in _BOMS if head.startswith(bom)),
            python_codec(encoding) or encoding if encoding else "utf-8",
        )
        self._decoder = codecs.getincrementaldecoder(self.codec)("strict")
        self._head: bytes | None = head
        self._offset = 0  # bytes given to the decoder so far
        self._where = LineCounter()  # of the text returned so far
        self.done = False

    def read(self, blocks: int = 1) -> str:
        """About `blocks` blocks of text ("" once the stream is done)."""
        if self.done:
            return ""
        if self._head is not None:
            data, self._head = self._head, None
            if blocks > 1:
                data += self._binary.read(self.block * (blocks - 1))
        else:
            data = self._binary.read(self.block * blocks)
        final = not data
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final)
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc, pending) from None
        self._offset += len(data)
        self.done = final
        if final:
            self._binary.close()
        self._where.advance(text)
        return text

    def encode(self, text: str) -> bytes:
        return text.encode(self.codec)

    def _decode_error(self, exc: UnicodeDecodeError, pending: int) -> FormatError:
        good = bytes(exc.object[: exc.start])
        where = LineCounter()
        where.line, where.column, where.after_cr = self._where.line, self._where.column, self._where.after_cr
        where.advance(good.decode(self.codec, "replace"))
        offset = self._offset - pending + exc.start
        name = _NAMES.get(self.codec, self.codec)
        hint = "; --encoding names the encoding of a file in another" if self.codec == "utf-8" else ""
        return FormatError(
            f"line {where.line}, column {where.column}: not valid {name} (byte offset {offset}: {exc.reason})"
            + hint
        )


class LineReader:
    """The LF-terminated lines of a stream (JSON Lines), one at a time. Offsets are into the
    reader's text, which `release` cuts at the current line."""

    def __init__(self, stream: TextStream) -> None:
        self._stream = stream
        self._text = stream.read()
        self._pos = 0
        self.line = 0  # of the last line returned (1-based)

    @property
    def position(self) -> int:
        return self._pos

    @property
    def text(self) -> str:
        return self._text

    def next_line(self) -> tuple[int, int] | None:
        """(start, end) of the next line, without its LF; None at the end of the stream."""
        while True:
            newline = self._text.find("\n", self._pos)
            if newline >= 0 or self._stream.done:
                break
            held = len(self._text) - self._pos  # read as much again: a long line is searched log times
            self._text += self._stream.read(max(1, held // self._stream.block))
        if self._pos >= len(self._text):
            return None
        start = self._pos
        end = newline if newline >= 0 else len(self._text)
        self._pos = end + 1 if newline >= 0 else end
        self.line += 1
        return start, end

    def release(self) -> None:
        self._text = self._text[self._pos :]
        self._pos = 0
