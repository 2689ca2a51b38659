"""gettext PO and POT files (format.py), and their option: every command imports this to know
the flags, so it imports nothing else of the format."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import Options, Panel, option


@dataclass(frozen=True, slots=True)
class PoOptions(Options):
    fuzzy: bool = option(
        False,
        "--po-fuzzy",
        off_flag="--no-po-fuzzy",
        panel=Panel.FORMATS,
        help="po: flag every machine translation `#, fuzzy`, for a person to review "
        "(msgfmt leaves fuzzy entries out until the flag is removed).",
    )
