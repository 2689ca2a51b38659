"""XLIFF 1.2 and 2.0 files (format.py), and their option: every command imports this to know
the flags, so it imports nothing else of the format."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import Options, Panel, option


@dataclass(frozen=True, slots=True)
class XliffOptions(Options):
    xliff_review: bool = option(
        False,
        "--xliff-review",
        off_flag="--no-xliff-review",
        panel=Panel.FORMATS,
        help="xliff: mark machine translations in XLIFF 1.2 needs-review-translation "
        "instead of translated (2.0 has no such state).",
    )
