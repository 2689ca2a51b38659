"""Independent readers of subtitle files, the subtitle formats' test oracles: pysubs2 (MIT) for
SubRip and ASS/SSA, webvtt-py (MIT) for WebVTT, and a few lines of regular expressions of this
module's own for what they do not report (SubRip's cue numbers, every timing line as written).

`skeleton(suffix, text)` is what a translation must leave as it was, cue by cue; `texts(suffix,
text)` each cue's text as the oracle reads it, which a translation changes. Neither uses hymt's
own parsers.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from typing import Any

import pysubs2
import webvtt

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.text.tags import TAG

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_LINE_ENDS = re.compile(r"\r\n|\r")
_NUMBER_THEN_TIMING = re.compile(r"^[ \t]*(\d+)[ \t]*\n(?=[^\n]*-->)", re.MULTILINE)
_TIMING_LINE = re.compile(r"^[^\n]*-->[^\n]*$", re.MULTILINE)
_LANGUAGE = re.compile(r"^Language:.*$", re.MULTILINE)
_LETTER = re.compile(r"[^\W\d_]")
_VOICES = re.compile(r"<v[ .][^>]*>")


def decoded(data: bytes, encoding: str | None = None) -> str:
    """The text of a subtitle file: by its byte order mark, else in `encoding` (UTF-8 by default);
    line ends as LF (pysubs2 reads no CR-only file)."""
    codec = next((name for bom, name in _BOMS if data.startswith(bom)), encoding or "utf-8")
    return _LINE_ENDS.sub("\n", data.decode(codec))


def bom(data: bytes) -> bytes:
    return next((mark for mark, _ in _BOMS if data.startswith(mark)), b"")


def skeleton(suffix: str, text: str) -> Any:
    """What a translation never changes, as the oracles read it."""
    if suffix == ".vtt":
        vtt = webvtt.from_string(text)
        cues = [
            (c.identifier, c.start, c.end, str(c.settings), _VOICES.findall(c.raw_text)) for c in vtt.captions
        ]
        styles = [style.text for style in vtt.styles]
        header = _LANGUAGE.sub("Language: *", text.split("\n\n", 1)[0])  # (the target's language)
        return cues, styles, vtt.header_comments, vtt.footer_comments, header, _TIMING_LINE.findall(text)
    subs = pysubs2.SSAFile.from_string(text, format_="srt" if suffix == ".srt" else None)
    events = [
        (
            e.type,
            e.layer,
            e.start,
            e.end,
            e.style,
            e.name,
            e.marginl,
            e.marginr,
            e.marginv,
            e.effect,
            e.text if e.type != "Dialogue" or e.is_drawing else "",
        )
        for e in subs.events
    ]
    if suffix == ".srt":
        return events, _NUMBER_THEN_TIMING.findall(text), _TIMING_LINE.findall(text)
    styles = {name: style.as_dict() for name, style in subs.styles.items()}
    return events, dict(subs.info), styles, subs.fonts_opaque, subs.graphics_opaque


def texts(suffix: str, text: str) -> list[str]:
    """Each cue's text as the oracle reads it (markup out): '' for one that is not translated
    (an ASS comment, a drawing)."""
    if suffix == ".vtt":
        return [c.text for c in webvtt.from_string(text).captions]
    subs = pysubs2.SSAFile.from_string(text, format_="srt" if suffix == ".srt" else None)
    return [e.plaintext if e.type == "Dialogue" and not e.is_drawing else "" for e in subs.events]


def has_letters(text: str) -> bool:
    return _LETTER.search(text) is not None


class ReversingEngine(BatchEngine):
    """Answers each request with every run of letters reversed and a `·` in front (tags kept):
    an answer any legacy encoding of its source can hold, so a file stays in its encoding."""

    name = "reversing"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [Generation("·" + _reversed_words(r.source_text), "stop", 3) for r in requests]


def _reversed_words(text: str) -> str:
    out, pos = [], 0
    for match in TAG.finditer(text):
        out.append(re.sub(r"[^\W\d_]+", lambda m: m.group(0)[::-1], text[pos : match.start()]))
        out.append(match.group(0))
        pos = match.end()
    out.append(re.sub(r"[^\W\d_]+", lambda m: m.group(0)[::-1], text[pos:]))
    return "".join(out)
