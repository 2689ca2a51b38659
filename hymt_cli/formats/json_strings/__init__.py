"""JSON string files (format.py), and their option: every command imports this to know the
flags, so it imports nothing else of the format."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...options import Options, Panel, option

# What kind of JSON string file (flavor.py tells from the content).
Flavor = Literal["auto", "plain", "i18next", "arb", "webextension"]


@dataclass(frozen=True, slots=True)
class JsonOptions(Options):
    flavor: Flavor = option(
        "auto",
        "--json-flavor",
        panel=Panel.FORMATS,
        help="json: what kind of string file (auto: from its content; i18next: {{x}} "
        "placeholders, single braces literal).",
    )
