"""The README's Python API section, run as it is: text and a folder with the pseudo engine, a
table with the identity engine, a translator with a progress listener, a domain error."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from clirun import ROOT, environment


def _example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- python-api -->\s*```python\n(.*?)```\s*<!-- /python-api -->", readme, re.S)
    assert block is not None, "README.md has no Python API example"
    return block.group(1)


def test_the_readme_python_api_runs(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "samples" / "txt", tmp_path / "docs")
    script = tmp_path / "example.py"
    script.write_text(_example(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # the library prints nothing
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# ") and "⟦" in lines[0]  # the heading, pseudo-translated
    files = len(list((tmp_path / "docs").iterdir()))
    assert f"{2 * files} files written, 0 segments kept in the source language" in result.stdout
    for lang in ("fr", "ja"):
        assert sorted(p.name for p in (tmp_path / "out" / lang).iterdir() if p.suffix == ".txt") == sorted(
            p.name for p in (tmp_path / "docs").iterdir()
        )
    assert "['sku', 'title', 'title_de', 'title_fr']" in result.stdout
    assert re.search(r"\['<p>.*Ĥ.*</p>', '<p>.*</p>'\] 2", result.stdout)
    assert "error: unknown language code 'xx'" in result.stdout
