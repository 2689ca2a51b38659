"""The closed sets a run reports (statuses, severities, signals, phases) are Literals: a typo in a
status is a type error, and a caller reads the possible values from the type."""

from __future__ import annotations

from typing import Literal, Union, get_args, get_origin, get_type_hints

import pytest

from hymt_cli.reporting.progress import RunState
from hymt_cli.reporting.report import FileReport, ReportedFlag, RunReport


def _words(hint: object) -> set[str]:
    """The values a Literal (or an Optional Literal) allows; empty for anything else."""
    if get_origin(hint) is Literal:
        return set(get_args(hint))
    if get_origin(hint) is Union or type(hint).__name__ == "UnionType":
        return set().union(*(_words(arm) for arm in get_args(hint) if arm is not type(None)))
    return set()


@pytest.mark.parametrize(
    ("owner", "field", "values"),
    [
        (FileReport, "status", {"ok", "failed", "skipped", "interrupted"}),
        (RunReport, "status", {"ok", "failed", "interrupted"}),
        (RunReport, "signal", {"SIGINT", "SIGTERM"}),
        (ReportedFlag, "severity", {"error", "warning"}),
        (RunState, "phase", {"preparing", "reading", "planning", "translating", "writing", "finished"}),
        (RunState, "engine", {"", "starting", "ready"}),
    ],
)
def test_closed_sets_are_literals(owner: type, field: str, values: set[str]) -> None:
    assert _words(get_type_hints(owner)[field]) == values
