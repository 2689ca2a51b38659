"""The glossary package's shape (issue 10): its public API, one job per small module, and no
reach into the pipeline, the CLI, the engines or the formats."""

from __future__ import annotations

import ast
from pathlib import Path

import hymt_cli.glossary as glossary

PACKAGE = Path(glossary.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))
PARTS = ["hymt_cli", "glossary"]


def imported(path: Path) -> set[str]:
    """Absolute names of the hymt_cli modules `path` imports (relative imports resolved)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = PARTS[: len(PARTS) - node.level + 1] if node.level else []  # `.x`: hymt_cli.glossary.x
            module = ".".join([*base, node.module] if node.module else base)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("hymt_cli")}


def test_public_api_is_reexported():
    for name in (
        "load_glossaries",
        "Glossary",
        "GlossaryUse",
        "GlossaryError",
        "tally",
        "check_terms",
        "Entry",
        "Matcher",
        "Match",
        "fold",
        "select",
        "at_word_edges",
        "load_entries",
        "language_code",
    ):
        assert name in glossary.__all__ and hasattr(glossary, name), name


def test_no_import_of_pipeline_cli_engines_or_formats():
    for path in MODULES:
        for name in imported(path):
            assert not name.startswith(
                ("hymt_cli.pipeline", "hymt_cli.cli.app", "hymt_cli.engine", "hymt_cli.formats")
            ), f"{path.name} imports {name}"


def test_modules_and_functions_stay_small():
    for path in MODULES:
        source = path.read_text(encoding="utf-8")
        assert len(source.splitlines()) <= 500, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno - node.lineno < 80, f"{path.name}: {node.name}"


def test_the_import_scan_sees_relative_imports():
    assert "hymt_cli.acceptance.answers.Problem" in imported(PACKAGE / "_verification.py")
    assert "hymt_cli.glossary.injection.GlossaryUse" in imported(PACKAGE / "_verification.py")
