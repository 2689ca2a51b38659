"""QA checks a reviewer trusts: numbers, URLs, emails, paths, handles, hashtags, SKUs,
brackets, quotes, whitespace, end punctuation, doubled words, untranslated answers and
inconsistent translations, each with an id and a severity (pofilter and Okapi CheckMate
flag the same things, without a model). Pure functions over a source segment and its
answer; the pipeline runs them (pipeline/flagging.py)."""

from __future__ import annotations

from .addresses import Address, find_addresses
from .checks import BY_ID, CHECK_IDS, CHECKS, Pair, QaCheck
from .codes import Code, find_codes
from .consistency import ConsistencyTracker, Inconsistency
from .flags import LEVELS, Flag, Level, Severity, excerpt
from .options import QaOptionError, QaOptions
from .suite import QaSuite, check_answer
from .views import kept_spans

__all__ = [
    "BY_ID",
    "CHECKS",
    "CHECK_IDS",
    "LEVELS",
    "Address",
    "Code",
    "ConsistencyTracker",
    "Flag",
    "Inconsistency",
    "Level",
    "Pair",
    "QaCheck",
    "QaOptionError",
    "QaOptions",
    "QaSuite",
    "Severity",
    "check_answer",
    "excerpt",
    "find_addresses",
    "find_codes",
    "kept_spans",
]
