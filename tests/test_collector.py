"""The garbage collector is paused for a block and left as it was found (signals.collector_paused):
a run, or a large file's outline, never switches it on or off for the process."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from pipelines import run_pipeline

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.signals import collector_paused


@pytest.fixture
def collector_state() -> Iterator[None]:
    """Whatever a test does to the collector, the next test finds it running."""
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_previous_state_comes_back(enabled: bool, collector_state: None) -> None:
    (gc.enable if enabled else gc.disable)()
    with collector_paused() as was_enabled:
        assert was_enabled is enabled and not gc.isenabled()
    assert gc.isenabled() is enabled


@pytest.mark.parametrize("enabled", [True, False])
def test_the_previous_state_comes_back_when_the_block_switches_it(
    enabled: bool, collector_state: None
) -> None:
    (gc.enable if enabled else gc.disable)()
    with collector_paused():
        (gc.disable if enabled else gc.enable)()  # code inside that switches it the other way
    assert gc.isenabled() is enabled  # a library user who had switched it off keeps it off


@pytest.mark.parametrize("enabled", [True, False])
def test_the_previous_state_comes_back_on_an_error(enabled: bool, collector_state: None) -> None:
    (gc.enable if enabled else gc.disable)()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("stop")
    assert gc.isenabled() is enabled


@pytest.mark.parametrize("enabled", [True, False])
def test_a_run_leaves_the_collector_as_it_found_it(
    enabled: bool, tmp_path: Path, collector_state: None
) -> None:
    src = tmp_path / "a.txt"
    src.write_text("One line.\nAnother.\n")
    (gc.enable if enabled else gc.disable)()
    report = run_pipeline([src], IdentityEngine, out_dir=tmp_path / "out")
    assert report.files_ok == 1
    assert gc.isenabled() is enabled
