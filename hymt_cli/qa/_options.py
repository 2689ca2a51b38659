"""Which QA checks run, and at what severity: the run's QA options.

--qa number=error,doubled-word=off        (repeatable; LEVEL: error | warning | off;
                                           `all=LEVEL` sets every check, later entries win)
qa = "number=error,doubled-word=off"      (hymt.toml; or a table: [qa] number = "error")
HYMT_QA="number=error,doubled-word=off"
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import UsageError
from ..options import Options, Panel, option, split_list
from .flags import LEVELS, Level
from .table import BY_ID, CHECK_IDS

_LEVEL: dict[str, Level] = {level: level for level in LEVELS}


class QaOptionError(UsageError):
    """A --qa value or config entry that names no check or no level (one line, for the user)."""


@dataclass(frozen=True, slots=True)
class QaOptions(Options):
    """Overrides of the checks' default severities, in the order given (`all` first applies to
    every check, later entries win). The defaults: number, url and email are errors, the rest
    warnings."""

    qa: tuple[str, ...] = option(
        (),
        "--qa",
        metavar="CHECK=LEVEL",
        comma_list=True,
        pairs=True,
        panel=Panel.QUALITY,
        help="A QA check's level (error, warning, off): number=error,all=off. Checks: "
        + ", ".join(CHECK_IDS)
        + ".",
    )

    def validate(self) -> None:
        """Every entry names a check and a level (QaOptionError names a wrong one); written the
        one way (`number=error`), so that equal settings compare equal."""
        object.__setattr__(self, "qa", tuple(f"{name}={level}" for name, level in self.levels))

    @property
    def levels(self) -> tuple[tuple[str, Level], ...]:
        return tuple(_level(*_pair(item)) for item in self.qa)

    def level(self, check: str) -> Level:
        found: Level = BY_ID[check].default
        for name, level in self.levels:
            if name in ("all", check):
                found = level
        if found == "error" and BY_ID[check].reported_only:
            return "warning"  # found after the answers are kept: it can only be reported
        return found

    def resolved(self) -> dict[str, Level]:
        """Every check with the level it runs at (the report's record of the run's QA)."""
        return {check: self.level(check) for check in CHECK_IDS}

    @classmethod
    def parse(cls, spec: str | Mapping[str, str]) -> QaOptions:
        """`number=error,doubled-word=off` (a flag, a config string, HYMT_QA), or a mapping (a
        config table); QaOptionError names what is wrong."""
        items = [f"{k}={v}" for k, v in spec.items()] if isinstance(spec, Mapping) else split_list(spec)
        return cls(tuple(items))

    def __add__(self, other: QaOptions) -> QaOptions:
        """These options, then `other`'s on top."""
        return QaOptions(self.qa + other.qa)


def _level(name: str, level: str) -> tuple[str, Level]:
    name, level = name.strip().lower(), level.strip().lower()
    if name != "all" and name not in BY_ID:
        close = difflib.get_close_matches(name, CHECK_IDS, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f"; the checks: {', '.join(CHECK_IDS)}"
        raise QaOptionError(f"--qa: no check called {name!r}{hint}")
    if level not in _LEVEL:
        raise QaOptionError(f"--qa {name}={level}: the level is one of {', '.join(LEVELS)}")
    if level == "error" and name != "all" and BY_ID[name].reported_only:
        raise QaOptionError(
            f"--qa {name}=error: {name} is found after the answers are kept, "
            "so it can only be a warning or off"
        )
    return name, _LEVEL[level]


def _pair(item: str) -> tuple[str, str]:
    name, sep, level = item.partition("=")
    if not sep:
        raise QaOptionError(
            f"--qa {item.strip()!r}: write CHECK=LEVEL, e.g. number=error or doubled-word=off"
        )
    return name, level
