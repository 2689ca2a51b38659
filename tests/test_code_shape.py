"""The code's shape at the scale of a module: each module says in its docstring the one concept it
holds, however long it is (httpx's `_client.py` is long and easy to read); no module imports more than
FAN_OUT of hymt's own modules (a module that needs more holds more than one concept); no function
that cannot be read at once (ruff's mccabe complexity, pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

from code_scan import PACKAGE, imported_from, module_name

MODULES = sorted(PACKAGE.rglob("*.py"))
FAN_OUT = 16
# A package's __init__ that registers its members (every format, every engine) imports each of them:
# that is its one job.
REGISTRIES = {"formats/__init__.py", "engine/__init__.py"}
# The two hubs of a run, over FAN_OUT until the run is a list of stages (issue 35).
HUBS = {"pipeline/driver.py": 25, "run/session.py": 21}


def imported_modules(path: Path) -> set[str]:
    """The hymt_cli modules (or packages) that `path` imports, relative imports resolved."""
    name = module_name(path)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add(imported_from(path, node))
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {module for module in found if module.split(".")[0] == "hymt_cli" and module != name}


def test_the_scan_sees_every_package() -> None:
    packages = {path.parent.name for path in MODULES}
    assert {"engine", "pipeline", "formats", "settings", "cli", "qa", "review"} <= packages


def test_test_folders_mirror_the_packages() -> None:
    """tests/<name>/ for each package (or top-level module) of hymt_cli, and no other folder of
    tests but the data ones."""
    tests = Path(__file__).parent
    packages = {path.parent.name for path in MODULES if path.parent != PACKAGE}
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    folders = {path.parent.name for path in tests.glob("*/test_*.py")}
    assert folders <= packages | modules, f"test folders that are no package: {folders - packages - modules}"
    top = {path.parts[0] for path in (p.relative_to(PACKAGE) for p in MODULES) if len(path.parts) > 1}
    assert top <= folders, f"packages without their test folder: {top - folders}"


def test_every_module_names_its_concept() -> None:
    """A module's docstring says what it holds; a package's __init__ that only re-exports may be bare."""
    bare = [
        str(path.relative_to(PACKAGE))
        for path in MODULES
        if path.name not in ("__init__.py", "__main__.py")
        and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not bare, f"modules without a docstring: {bare}"


def test_fan_out() -> None:
    wide = {}
    for path in MODULES:
        rel = str(path.relative_to(PACKAGE))
        if rel in REGISTRIES:
            continue
        count = len(imported_modules(path))
        if count > HUBS.get(rel, FAN_OUT):
            wide[rel] = count
    assert not wide, f"modules importing more than {FAN_OUT} of hymt's modules: {wide}"


def test_fan_out_sees_relative_imports() -> None:
    driver = imported_modules(PACKAGE / "pipeline" / "driver.py")
    assert "hymt_cli.pipeline.planning" in driver and "hymt_cli.formats" in driver


def test_hubs_are_still_hubs() -> None:
    """An entry of HUBS that is back under FAN_OUT (or gone) is taken out, so the list only shrinks."""
    stale = {
        rel for rel in HUBS if not (PACKAGE / rel).exists() or len(imported_modules(PACKAGE / rel)) <= FAN_OUT
    }
    assert not stale, f"HUBS entries no longer over FAN_OUT: {stale}"


def _imports_of_tests() -> list[tuple[str, str, str]]:
    """(test file, module, name) for every `from X import name` and `import X` of tests/."""
    found = []
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        rel = str(path.relative_to(Path(__file__).parent))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found += [(rel, node.module, alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(rel, alias.name, "") for alias in node.names]
    return found


def test_tests_use_public_names_and_shared_helpers_only() -> None:
    imports = _imports_of_tests()
    assert any(module.startswith("hymt_cli") for _, module, _ in imports)  # the scan sees them
    private = [
        f"{rel}: {module}.{name}"
        for rel, module, name in imports
        if module.startswith("hymt_cli")
        and (name.startswith("_") or any(part.startswith("_") for part in module.split(".")[1:]))
    ]
    assert not private, f"tests import private names: {private}"
    # Helpers shared by test modules live in tests/*.py, never in another test module.
    from_tests = [
        f"{rel}: {module}" for rel, module, _ in imports if module.split(".")[0].startswith("test_")
    ]
    assert not from_tests, f"tests import other test modules: {from_tests}"


# Another library's private fields a test reads, and why.
FOREIGN_PRIVATE = {"_attn_implementation": "transformers' config: the attention that from_pretrained chose"}


def test_tests_reach_into_no_private_attribute() -> None:
    """`thing._name` on anything but a test's own `self` (or os._exit) is a private name too."""
    reached = []
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in FOREIGN_PRIVATE
                and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls", "os"})
            ):
                reached.append(
                    f"{path.relative_to(Path(__file__).parent)}:{node.lineno}: {ast.unparse(node)}"
                )
    assert not reached, f"tests reach into private attributes: {reached}"


def test_architecture_gives_each_package_and_top_module_a_row() -> None:
    """ARCHITECTURE.md's table has one row (one sentence) for each package and top-level module."""
    table = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {line.split("`")[1] for line in table.splitlines() if line.startswith("| `")}
    names = {f"{p.name}/" for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    names |= {p.name for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert names == rows, f"without a row: {sorted(names - rows)}; rows for nothing: {sorted(rows - names)}"
