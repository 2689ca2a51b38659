"""The options the office document families share (Office Open XML and OpenDocument): one flag
each, whatever the format, so that a folder of .docx and .odt files is translated alike."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import Options, Panel, option


@dataclass(frozen=True, slots=True)
class OfficeOptions(Options):
    comments: bool = option(
        True,
        "--comments",
        off_flag="--no-comments",
        panel=Panel.FORMATS,
        help="docx/pptx/xlsx, odt/odp/ods: translate comments (review comments, cell comments); "
        "--no-comments leaves them as they are.",
    )
    east_asian_font: str = option(
        "",
        "--east-asian-font",
        panel=Panel.FORMATS,
        metavar="FONT",
        help="docx/pptx, odt/odp/ods: the font a Chinese, Japanese or Korean target's text gets where the "
        "source names no East-Asian font (default: Microsoft YaHei, Microsoft JhengHei, Yu Gothic "
        "or Malgun Gothic, by script).",
    )
