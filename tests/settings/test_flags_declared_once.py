"""A setting's flag is written once, in its declaration: a module that names a setting (a
message's location, a command's option) takes the flag from the declaration (`flag_of`, the
generated options), so that renaming a flag is one edit. Another command's own option may share a
flag's spelling (`hymt tm export --format tmx`), and is listed here with why."""

from __future__ import annotations

import ast
from pathlib import Path

import hymt_cli
from hymt_cli.settings import all_settings

PACKAGE = Path(hymt_cli.__file__).parent
# (module, spelling): why it is no second declaration of a setting
OTHER_OPTIONS = {
    ("cli/app.py", "--format"): "hymt tm's exchange format (tmx, jsonl), not the input format",
    ("cli/app.py", "--out"): "hymt tm export's output file, not the output folder",
    ("cli/app.py", "-o"): "hymt tm export's output file, not the output folder",
    ("model/tiny.py", "--seed"): "the tiny test model builder's own command line",
}


def _spellings() -> set[str]:
    spelled = set()
    for setting in all_settings():
        declared = setting.declared
        spelled |= {declared.flag, *(f for f in (declared.off_flag, declared.short) if f)}
        if declared.short:
            spelled.add(f"{declared.short}/{declared.flag}")
    return spelled


def _declarations(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are arguments of an `option(...)` declaration."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "option":
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                inside.add(id(arg))
    return inside


def test_no_module_writes_a_declared_flag_again() -> None:
    spelled = _spellings()
    again = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        declared = _declarations(tree)
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in spelled
                and id(node) not in declared
                and (module, node.value) not in OTHER_OPTIONS
            ):
                again.append(f"{module}:{node.lineno}: {node.value}")
    assert not again, "flags written besides their declaration (use options.flag_of): " + ", ".join(again)
