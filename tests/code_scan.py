"""What the tests that read hymt's own code share (test_code_shape.py, formats' file writes): a
module's dotted name, and the module a `from` import names, relative imports resolved."""

from __future__ import annotations

import ast
from pathlib import Path

import hymt_cli

PACKAGE = Path(hymt_cli.__file__).parent


def module_name(path: Path) -> str:
    """`hymt_cli/formats/base.py` -> `hymt_cli.formats.base` (a package's `__init__`: the package)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_from(path: Path, node: ast.ImportFrom) -> str:
    """The module `from ... import` names in the module at `path` (`from .base import X` in
    formats/text.py: `hymt_cli.formats.base`)."""
    if not node.level:
        return node.module or ""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))
