"""The code's shape at the scale of a module: no module of hymt_cli over 400 lines, no function
that cannot be read at once. A module that grows past it is split by its jobs
(ARCHITECTURE.md), never excused here."""

from __future__ import annotations

import ast
from pathlib import Path

import hymt_cli

PACKAGE = Path(hymt_cli.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 70


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


def test_no_module_over_400_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in MODULES
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_over_70_lines() -> None:
    long = {}
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(PACKAGE)}:{node.name}"] = length
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


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
