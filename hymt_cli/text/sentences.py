"""Split text too long for one model call at sentence boundaries, losslessly.

`"".join(split_long(text, ...)) == text` always holds: separators stay attached to the
piece before them, so rejoining translated pieces needs no knowledge of the split.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# After sentence-final punctuation (Latin, CJK, Devanagari, Arabic...) plus closing quotes,
# either whitespace follows or (CJK full-width punctuation) anything does.
_SENTENCE_END = re.compile(r"(?:[.!?;…]+[\"'”’)\]]*\s+|[。！？；]+[」』”’）]*\s*|[।॥۔؟]\s*|\n+)")
_WORD_END = re.compile(r"\s+")


def _pieces(text: str, pattern: re.Pattern[str]) -> list[str]:
    pieces, start = [], 0
    for match in pattern.finditer(text):
        if match.end() > start and match.end() < len(text):
            pieces.append(text[start : match.end()])
            start = match.end()
    pieces.append(text[start:])
    return [p for p in pieces if p]


def _pack(pieces: list[str], max_tokens: int, count: Callable[[str], int]) -> list[str]:
    """Greedily join consecutive pieces while they fit in max_tokens."""
    chunks: list[str] = []
    current, current_tokens = "", 0
    for piece in pieces:
        tokens = count(piece)
        if current and current_tokens + tokens > max_tokens:
            chunks.append(current)
            current, current_tokens = "", 0
        current += piece
        current_tokens += tokens
    if current:
        chunks.append(current)
    return chunks


def split_long(text: str, max_tokens: int, count: Callable[[str], int]) -> list[str]:
    """Pieces of at most ~max_tokens tokens each: at sentence ends, then at spaces, then hard cuts."""
    if count(text) <= max_tokens:
        return [text]
    out: list[str] = []
    for chunk in _pack(_pieces(text, _SENTENCE_END), max_tokens, count):
        if count(chunk) <= max_tokens:
            out.append(chunk)
            continue
        for sub in _pack(_pieces(chunk, _WORD_END), max_tokens, count):
            if count(sub) <= max_tokens:
                out.append(sub)
            else:  # one enormous "word" (CJK without punctuation, base64...): cut by characters
                step = max(1, len(sub) * max_tokens // max(count(sub), 1))
                out.extend(sub[i : i + step] for i in range(0, len(sub), step))
    return out
