"""Short commands start fast: `hymt config` (and every command's flag parsing) converts values
without typer's pydantic adapters, and reads the settings without importing the formats', the
pipeline's or the QA judgements' code. (Their time is measured in bench/start_up.py.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clirun import environment

PROBE = """
import contextlib, io, json, sys
from hymt_cli.cli.app import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""
HEAVY = ("pydantic", "markdown_it", "ruamel", "pyarrow", "hymt_cli.formats.strings", "hymt_cli.pipeline")


@pytest.mark.parametrize(
    "argv",
    [
        ["config", "--no-config", "--seed", "7", "--top-p", "0.5", "--exclude", "a/", "--exclude", "b/"],
        ["--help"],
        ["translate", "--help"],
    ],
)
def test_a_short_command_imports_nothing_heavy(argv: list[str], tmp_path) -> None:
    found = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=environment(), cwd=tmp_path
    )
    assert found.returncode == 0, found.stderr
    result = json.loads(found.stdout.splitlines()[-1])
    assert result["code"] == 0
    heavy = [m for m in result["modules"] if m.startswith(HEAVY) or m == "hymt_cli.qa.judgements"]
    assert heavy == []
