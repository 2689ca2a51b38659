"""The review page: per-segment records of a run (records), spooled as units finish (spool),
and the self-contained HTML page that shows them (page)."""

from __future__ import annotations

from ._spool import OutputCounts, RecordSpool
from .page import SCHEMA, render, write_page
from .records import STATUSES, Flag, Retry, SegmentRecord, Severity, Status, script_safe_json, worst

__all__ = [
    "SCHEMA",
    "STATUSES",
    "Flag",
    "OutputCounts",
    "RecordSpool",
    "Retry",
    "SegmentRecord",
    "Severity",
    "Status",
    "render",
    "script_safe_json",
    "worst",
    "write_page",
]
