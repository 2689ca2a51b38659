"""`hymt serve`'s own setting: how long a served engine waits for the next request before it stops
(its GPU memory and processes are given back then)."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import Options, Panel, option


@dataclass(frozen=True, slots=True)
class ServeOptions(Options):
    serve_idle: float = option(
        15.0,
        "--serve-idle",
        metavar="MINUTES",
        minimum=0,
        panel=Panel.MODEL,
        help="hymt serve: stop the background engine after MINUTES without a request (0: never).",
    )
