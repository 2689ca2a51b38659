"""The README's quick start, followed verbatim in a clean copy of the repository (its tracked
files only), as a newcomer would: every `$ ` line of the quick-start block, in one bash session.

The set-up script is reused rather than run as a fresh install (which downloads gigabytes):
the copy gets a `.venv` that imports this test run's installed packages and the copy's own
`hymt_cli`, so `scripts/setup-cpu.sh` finds everything installed and only prints the next step,
as it does on a second run on any machine; `source .venv/bin/activate` then really puts `hymt`
on PATH."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from clirun import ROOT

pytestmark = pytest.mark.vllm


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- quick-start -->", 1)[1].split("<!-- /quick-start -->", 1)[0]
    return [
        re.sub(r"\s+#\s.*$", "", line[2:]).strip() for line in block.splitlines() if line.startswith("$ ")
    ]


def _clean_copy(target: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())
    for script in (target / "scripts").glob("*.sh"):
        script.chmod(0o755)


def _reused_environment(venv: Path, repo: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "hymt-reused.pth").write_text(f"{repo}\n{sysconfig.get_paths()['purelib']}\n")
    hymt = venv / "bin" / "hymt"
    hymt.write_text(
        f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom hymt_cli.cli.app import main\n"  # as pip writes it
        "if __name__ == '__main__':\n    sys.exit(main())\n"
    )
    hymt.chmod(0o755)


def test_the_readme_quick_start_verbatim(tmp_path: Path) -> None:
    pytest.importorskip("vllm")
    commands = quick_start_commands()
    assert commands[0] == "bash scripts/setup-cpu.sh" and "source .venv/bin/activate" in commands
    repo = tmp_path / "repo"
    _clean_copy(repo)
    _reused_environment(repo / ".venv", repo)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "HYMT_VENV")}
    env.update(HF_HUB_OFFLINE="1", NO_COLOR="1")
    result = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + "\n".join(commands)],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "already installed" in result.stderr and "next: put hymt on PATH" in result.stderr
    samples = sorted(p.name for p in (repo / "samples" / "txt").glob("*.txt"))
    assert sorted(p.name for p in (repo / "out" / "pseudo" / "fr").glob("*.txt")) == samples
    assert (repo / "out" / "tiny" / "de" / "release-notes.txt").is_file()
    assert "is a random-weight test model" in result.stderr
