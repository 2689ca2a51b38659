"""What hymt wrote, so that `hymt translate --check` can tell, without an engine, whether each
output is still what a run would write.

A manifest, `.hymt-manifest.json`, sits in the folder of the outputs it describes: beside
the inputs, or in the root of each `-o DIR/<lang>/` tree (there it also marks the tree as
outputs, which discovery never reads: `"tree": true`). For each output (by path relative to
the manifest's folder): its source (relative path and SHA-256), what else decides the
output (model and its revision or folder digest, prompt template, glossary digest, sampling,
languages, format options), and the output's own SHA-256.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .atomic import write_atomically

MANIFEST = ".hymt-manifest.json"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Written:
    """One output written by a run."""

    output: Path
    source: Path
    recipe: Mapping[str, object]  # everything besides the source that decides the output


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def manifest_folder(output: Path, out_dir: Path | None, lang: str) -> Path:
    """Where the manifest describing `output` lives."""
    return out_dir / lang if out_dir is not None else output.parent


def _read(folder: Path) -> dict[str, object]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("hymt_manifest") == VERSION else {}


def is_output_tree(folder: Path) -> bool:
    """True when `folder` is the root of an -o language tree (never an input)."""
    return (folder / MANIFEST).is_file() and _read(folder).get("tree") is True


def mark_tree(folder: Path) -> None:
    """Make `folder` (an -o DIR/<lang>/) an output tree, before anything is written into it."""
    folder.mkdir(parents=True, exist_ok=True)
    data = _read(folder)
    if data.get("tree") is not True:
        write_atomically(folder / MANIFEST, _dump({"hymt_manifest": VERSION, "tree": True,
                                                   "files": data.get("files", {})}))


def record(folder: Path, written: Iterable[Written], *, tree: bool) -> None:
    """Add (or replace) the entries of outputs written into `folder`'s manifest."""
    data = _read(folder) or {"hymt_manifest": VERSION, "tree": tree, "files": {}}
    files = data.setdefault("files", {})
    assert isinstance(files, dict)
    for item in written:
        files[_relative(item.output, folder)] = {
            "source": _relative(item.source, folder), "source_sha256": file_digest(item.source),
            "recipe": dict(item.recipe), "output_sha256": file_digest(item.output)}
    write_atomically(folder / MANIFEST, _dump(data))


def entry(folder: Path, output: Path) -> dict[str, object] | None:
    files = _read(folder).get("files")
    found = files.get(_relative(output, folder)) if isinstance(files, dict) else None
    return found if isinstance(found, dict) else None


def _relative(path: Path, folder: Path) -> str:
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(folder))).as_posix()


def _dump(data: Mapping[str, object]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")
