"""The options of the Office Open XML formats (docx, pptx, xlsx)."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import Options, Panel, option


@dataclass(frozen=True, slots=True)
class OfficeOptions(Options):
    comments: bool = option(
        True,
        "--comments",
        off_flag="--no-comments",
        panel=Panel.FORMATS,
        help="docx/pptx/xlsx: translate comments (review comments, cell comments); "
        "--no-comments leaves them as they are.",
    )
    east_asian_font: str = option(
        "",
        "--east-asian-font",
        panel=Panel.FORMATS,
        metavar="FONT",
        help="docx/pptx: the font a Chinese, Japanese or Korean target's text gets where the "
        "source names no East-Asian font (default: Microsoft YaHei, Microsoft JhengHei, Yu Gothic "
        "or Malgun Gothic, by script).",
    )
