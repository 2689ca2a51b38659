"""The subtitle formats' options: how a translated cue's lines are laid out, and the reading speed
the QA check measures cues against."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import Options, Panel, option
from ...text.writing_systems import right_to_left

# Languages whose subtitle lines are counted in wide characters (Chinese, Japanese, Korean): a
# line holds 16 of them (Netflix's timed-text style guides), not 42.
WIDE = frozenset({"zh", "ja", "ko", "yue"})
# Of those, the ones written without spaces between words: a line may break between any two
# characters (but where kinsoku forbids, subtitles.layout).
UNSPACED = frozenset({"zh", "ja", "yue"})


@dataclass(frozen=True, slots=True)
class SubtitleOptions(Options):
    line_length: int = option(
        42,
        "--subtitle-line-length",
        metavar="N",
        minimum=8,
        panel=Panel.FORMATS,
        help="srt, vtt, ass: characters a translated cue's line holds (Chinese, Japanese, Korean: "
        "--subtitle-line-length-cjk).",
    )
    line_length_cjk: int = option(
        16,
        "--subtitle-line-length-cjk",
        metavar="N",
        minimum=4,
        panel=Panel.FORMATS,
        help="srt, vtt, ass: characters a line holds in Chinese, Japanese or Korean.",
    )
    lines: int = option(
        2,
        "--subtitle-lines",
        metavar="N",
        minimum=1,
        panel=Panel.FORMATS,
        help="srt, vtt, ass: lines a translated cue has at most (more where its text cannot fit).",
    )
    reading_speed: float = option(
        17.0,
        "--reading-speed",
        metavar="CPS",
        above=0,
        shapes_output=False,
        panel=Panel.QUALITY,
        help="srt, vtt, ass: characters a second a cue may ask of a reader (QA check reading-speed).",
    )
    rtl_marks: bool = option(
        True,
        "--subtitle-rtl-marks",
        off_flag="--no-subtitle-rtl-marks",
        panel=Panel.FORMATS,
        help="srt, vtt, ass: a right-to-left translation's lines in Unicode right-to-left "
        "embeddings, so that players that lay lines out left to right put punctuation right.",
    )

    def width(self, target: str) -> int:
        """Characters a line holds in `target`'s translation."""
        return self.line_length_cjk if primary(target) in WIDE else self.line_length

    def marks(self, target: str) -> bool:
        return self.rtl_marks and right_to_left(target)


def primary(tag: str) -> str:
    """A language tag's language (`zh-Hant` -> zh, `pt_BR` -> pt)."""
    return tag.replace("_", "-").split("-")[0].lower()
