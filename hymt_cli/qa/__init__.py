"""QA checks a reviewer trusts: numbers, URLs, emails, paths, handles, hashtags, SKUs,
brackets, quotes, whitespace, end punctuation, doubled words, untranslated answers and
inconsistent translations, each with an id and a severity (pofilter and Okapi CheckMate
flag the same things, without a model). Pure functions over a source segment and its
answer; the pipeline runs them (pipeline/flagging.py).

The names are imported on first use: every command reads the QA options (table.py, light),
only a run needs the judgements (their patterns and number formats)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..later import exports

_EXPORTS = {
    "Address": "addresses",
    "find_addresses": "addresses",
    "BY_ID": "table",
    "CHECK_IDS": "table",
    "CHECKS": "table",
    "QaCheck": "table",
    "Pair": "judgements",
    "Code": "_codes",
    "find_codes": "_codes",
    "ConsistencyTracker": "_consistency",
    "Inconsistency": "_consistency",
    "LEVELS": "flags",
    "Flag": "flags",
    "Level": "flags",
    "Severity": "flags",
    "excerpt": "flags",
    "QaOptionError": "_options",
    "QaOptions": "_options",
    "QaSuite": "_suite",
    "check_answer": "_suite",
    "kept_spans": "_views",
}

if TYPE_CHECKING:
    from ._codes import Code as Code
    from ._codes import find_codes as find_codes
    from ._consistency import ConsistencyTracker as ConsistencyTracker
    from ._consistency import Inconsistency as Inconsistency
    from ._options import QaOptionError as QaOptionError
    from ._options import QaOptions as QaOptions
    from ._suite import QaSuite as QaSuite
    from ._suite import check_answer as check_answer
    from ._views import kept_spans as kept_spans
    from .addresses import Address as Address
    from .addresses import find_addresses as find_addresses
    from .flags import LEVELS as LEVELS
    from .flags import Flag as Flag
    from .flags import Level as Level
    from .flags import Severity as Severity
    from .flags import excerpt as excerpt
    from .judgements import Pair as Pair
    from .table import BY_ID as BY_ID
    from .table import CHECK_IDS as CHECK_IDS
    from .table import CHECKS as CHECKS
    from .table import QaCheck as QaCheck


__getattr__ = exports(__name__, _EXPORTS)


__all__ = sorted(_EXPORTS)
