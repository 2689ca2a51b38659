"""The browser the review page's tests share: Debian's Chromium, headless, started once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from review_runs import ROOT, chromium


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    with chromium() as started:
        yield started


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where the browser tests leave their screenshots and figures (CI keeps `out/`)."""
    folder = ROOT / "out" / "review"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
