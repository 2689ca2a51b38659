"""A format keeps no state and never writes files (ARCHITECTURE.md): it is handed bytes and a stream
to write into, and `outputs/` does the writing (atomic files, the manifest, the project files a
new catalog joins: outputs/listings.py). Scanned in the code of hymt_cli/formats/, as
tests/test_code_shape.py scans the code's shape: no call that creates, writes, renames or deletes
a file, no import of outputs/'s atomic files, nothing of a manifest but its provenance's spelling."""

from __future__ import annotations

import ast
from pathlib import Path

from code_scan import imported_from

import hymt_cli.formats

FORMATS = Path(hymt_cli.formats.__file__).parent
MODULES = sorted(FORMATS.rglob("*.py"))

# `os.<name>` and `from os import <name>`: what makes, writes, renames or deletes a file.
OS_WRITES = {
    "open", "fdopen", "write", "replace", "rename", "renames", "remove", "unlink", "rmdir",
    "removedirs", "mkdir", "makedirs", "truncate", "ftruncate", "chmod", "chown", "link",
    "symlink", "utime", "mkfifo",
}  # fmt: skip
# Every name of these modules writes files.
WRITING_MODULES = {"shutil", "tempfile"}
# `<path>.<name>(...)`: pathlib's writes.
PATH_WRITES = {
    "write_text", "write_bytes", "unlink", "rename", "mkdir", "rmdir", "touch", "chmod",
    "symlink_to", "hardlink_to",
}  # fmt: skip
# Of outputs/manifest.py a format may name how a provenance spells its format settings (a string,
# formats/_provenance.py); the manifest's records come to it through a KeptFile, never read.
MANIFEST_NAMES = {"with_settings"}
FORBIDDEN_MODULES = {"hymt_cli.outputs.atomic"}

# What must stay, each with why: (module relative to formats/, the call as written).
ALLOWED = {
    # A spliced package part is spooled (in memory, on disk past its limit) before it is packed
    # into the output stream: an anonymous temp file the process deletes, no file of the project.
    ("package/format.py", "tempfile.SpooledTemporaryFile"),
}


def _write_mode(call: ast.Call) -> bool:
    """A `.open(...)` call whose mode (first argument, or `mode=`) writes: w, a, x or +."""
    modes = [call.args[0]] if call.args else []
    modes += [k.value for k in call.keywords if k.arg == "mode"]
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+") for m in modes
    )


class _Scan(ast.NodeVisitor):
    """The file writes of one module, as `(call or import as written, line)`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.aliases: dict[str, str] = {}  # a local name -> the module it stands for (os, shutil, tempfile)
        self.found: list[tuple[str, int]] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name in {"os", *WRITING_MODULES}:
                self.aliases[alias.asname or alias.name] = alias.name
            if alias.name in FORBIDDEN_MODULES or alias.name == "hymt_cli.outputs.manifest":
                self.found.append((f"import {alias.name}", node.lineno))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = imported_from(self.path, node)
        for alias in node.names:
            bad = (
                module in FORBIDDEN_MODULES
                or (module == "hymt_cli.outputs.manifest" and alias.name not in MANIFEST_NAMES)
                or (module == "os" and alias.name in OS_WRITES)
                or module in WRITING_MODULES
                or (module == "hymt_cli.outputs" and alias.name in {"atomic", "manifest"})
            )
            if bad:
                self.found.append((f"from {module} import {alias.name}", node.lineno))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            self.found.append(("open", node.lineno))
        elif isinstance(func, ast.Attribute):
            owner = self.aliases.get(func.value.id) if isinstance(func.value, ast.Name) else None
            if (owner == "os" and func.attr in OS_WRITES) or owner in WRITING_MODULES:
                self.found.append((f"{owner}.{func.attr}", node.lineno))
            elif owner is None and func.attr in PATH_WRITES:
                self.found.append((f".{func.attr}", node.lineno))
            elif owner is None and func.attr == "open" and _write_mode(node):
                self.found.append((".open (to write)", node.lineno))
        self.generic_visit(node)


def file_writes(path: Path) -> list[tuple[str, int]]:
    scan = _Scan(path)
    scan.visit(ast.parse(path.read_text(encoding="utf-8")))
    return scan.found


def test_the_scan_sees_every_format_and_what_it_looks_for() -> None:
    assert {"base.py", "layout.py", "linguas.py", "format.py"} <= {p.name for p in MODULES}
    probe = FORMATS / "ecosystems" / "_probe_never_written.py"  # (named, never written: parsed below)
    source = (
        "import os as o, shutil\nfrom pathlib import Path\nfrom ...outputs.atomic import open_atomically\n"
        "from ...outputs.manifest import read_manifest, with_settings\n"
        "o.replace('a', 'b'); shutil.copy('a', 'b'); Path('a').write_text('x'); open('a')\n"
        "Path('a').open('wb'); Path('a').open('rb'); Path('a').read_bytes()\n"
    )
    scan = _Scan(probe)
    scan.visit(ast.parse(source))
    assert [what for what, _ in scan.found] == [
        "from hymt_cli.outputs.atomic import open_atomically",
        "from hymt_cli.outputs.manifest import read_manifest",
        "os.replace",
        "shutil.copy",
        ".write_text",
        "open",
        ".open (to write)",
    ]


def test_no_format_writes_a_file() -> None:
    """outputs/ writes what a format computes (its bytes into the stream it is handed, a
    project file's new bytes: outputs/listings.py); nothing under formats/ writes a file itself."""
    found = [
        f"{path.relative_to(FORMATS)}:{line}: {what}"
        for path in MODULES
        for what, line in file_writes(path)
        if (str(path.relative_to(FORMATS)), what) not in ALLOWED
    ]
    assert not found, "formats that write files (move the I/O to outputs/ or inputs/):\n" + "\n".join(found)


def test_every_allowed_write_is_still_there() -> None:
    """An entry of ALLOWED that no longer matches is removed with the code it allowed."""
    seen = {(str(path.relative_to(FORMATS)), what) for path in MODULES for what, _ in file_writes(path)}
    assert ALLOWED <= seen, f"stale entries of ALLOWED: {ALLOWED - seen}"
