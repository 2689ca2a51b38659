"""The GitHub Actions workflow of the README's "Keeping catalogs in sync" (issue 26): it parses,
has the jobs it says it has (a pull request gated on --check; a push translating on a GPU runner
with the model, vLLM and memory caches restored, proposing the result), and its hymt commands
run, as written, with the pseudo engine (no model): the check fails while the catalogs lack keys,
the translation fills them, and the check passes then."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from clirun import ROOT, environment
from ruamel.yaml import YAML


def _workflow() -> dict[str, Any]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Keeping catalogs in sync", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None, "the section has no workflow"
    data: dict[str, Any] = YAML(typ="safe").load(block.group(1))
    return data


def _steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def test_the_workflow_has_its_jobs() -> None:
    workflow = _workflow()
    assert set(workflow["on"]) == {"pull_request", "push"}
    check, translate = workflow["jobs"]["check"], workflow["jobs"]["translate"]
    assert any("--check" in step.get("run", "") for step in _steps(check))
    uses = {step.get("uses", "").split("@")[0]: step for step in _steps(translate)}
    cached = uses["actions/cache"]["with"]["path"].split()
    assert {"~/.cache/huggingface", "~/.cache/vllm", "~/.cache/hymt"} <= set(cached)
    assert "peter-evans/create-pull-request" in uses
    assert translate["permissions"] == {"contents": "write", "pull-requests": "write"}


def _hymt_commands(job: dict[str, Any]) -> list[str]:
    return [step["run"] for step in _steps(job) if step.get("run", "").startswith("hymt ")]


def _run(command: str, project: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = f'hymt() {{ "{sys.executable}" -m hymt_cli "$@"; }}\n{command}'
    return subprocess.run(
        ["bash", "-c", script], cwd=project, env=env, capture_output=True, text=True, timeout=300
    )


def test_its_hymt_commands_run_with_the_pseudo_engine(tmp_path: Path) -> None:
    workflow = _workflow()
    source = tmp_path / "locales/en/app.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"title": "Welcome", "menu": {"save": "Save the file"}}, indent=2) + "\n")
    person = tmp_path / "locales/de/app.json"
    person.parent.mkdir(parents=True)
    person.write_text('{\n  "title": "Willkommen"\n}\n')
    env = environment(
        {**{k: str(v) for k, v in workflow["env"].items()}, "HYMT_MODEL": None, "HYMT_ENGINE": "pseudo"}
    )
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # the translation memory, as ~/.cache/hymt
    [check] = _hymt_commands(workflow["jobs"]["check"])
    [translate] = _hymt_commands(workflow["jobs"]["translate"])

    before = _run(check, tmp_path, env)
    assert before.returncode == 5, before.stderr
    assert "stale: " in before.stderr
    done = _run(translate, tmp_path, env)
    assert done.returncode == 0, done.stderr
    assert json.loads(person.read_text())["title"] == "Willkommen"  # the person's value
    assert json.loads((tmp_path / "hymt-report.json").read_text())["files"]
    after = _run(check, tmp_path, env)
    assert after.returncode == 0, after.stderr
