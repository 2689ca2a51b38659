"""Subtitles: SubRip (`.srt`), WebVTT (`.vtt`), ASS and SSA (`.ass`, `.ssa`).

One cue in, one cue out: each cue's text is one segment, translated with its neighbours as the
model's context (a sentence often runs over several cues) and spliced back where it was; numbers,
identifiers, timings, cue settings, headers, comments, styles, fonts and every byte outside the
cues' text are the source's. Inline markup is kept as tags. A translated cue's lines are laid out
again within a line's width (42 characters, 16 in Chinese, Japanese, Korean) and a cue's number
of lines (2), and checked for reading speed (17 characters a second) and line length (QA checks
`reading-speed` and `line-length`, named by the cue: "cue 12 (line 45)"). The file's encoding is
kept (UTF-8, UTF-16 or UTF-32 with their byte order mark; cp1252, gbk ... with `--encoding`).

The formats' code is in `srt.py`, `vtt.py`, `ass.py` (registered lazily: formats/__init__.py); what
every command imports is the options record.
"""

from __future__ import annotations

from .options import SubtitleOptions

__all__ = ["SubtitleOptions"]
