"""What hymt wrote: a manifest per output folder, so a run replaces only its own files.

`.hymt-manifest.json` in a folder lists the files hymt wrote there with the SHA-256 of what it
wrote, the source they came from (its digest too) and the run's provenance (model, prompts,
glossary, sampling: `MemoryContext.key`; then, after `; `, the settings of its format that are
not at their defaults: formats/provenance.py). A file that exists and is not listed with its
current digest — a person's translation, or hymt's output edited since — is never replaced
unless the user says `--overwrite`. The manifest holds no timestamps: committed next to
the outputs, it changes only when they do.

Several runs may write into one folder: updates lock the folder (flock) and rewrite the
manifest atomically.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .atomic import write_atomically

MANIFEST_NAME = ".hymt-manifest.json"
SCHEMA = "hymt.manifest/1"


@dataclass(frozen=True, slots=True)
class Written:
    """One file hymt wrote."""

    sha256: str
    source: str  # the source's path relative to the manifest's folder (POSIX separators)
    source_sha256: str
    provenance: str


_SETTINGS = "; "  # between the run's provenance (a digest, and a context mode) and format settings


def with_settings(provenance: str, settings: str) -> str:
    """A provenance that also names the format settings an output was written with."""
    return f"{provenance}{_SETTINGS}{settings}" if settings else provenance


def split_provenance(provenance: str) -> tuple[str, str]:
    """The run's provenance, and the format settings it names ("": the defaults)."""
    run, _, settings = provenance.partition(_SETTINGS)
    return run, settings


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def read_manifest(folder: Path) -> dict[str, Written]:
    """The files hymt wrote in `folder` (empty when there is no usable manifest: then nothing
    there counts as hymt's, the safe reading)."""
    try:
        data = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) and data.get("schema") == SCHEMA else None
    if not isinstance(files, dict):
        return {}
    found = {}
    for name, entry in files.items():
        try:
            found[name] = Written(
                str(entry["sha256"]),
                str(entry["source"]),
                str(entry["source_sha256"]),
                str(entry["provenance"]),
            )
        except (KeyError, TypeError):
            continue  # an entry hymt cannot read protects its file
    return found


def written_by_hymt(path: Path) -> bool:
    """`path` is a file hymt wrote and nobody changed since."""
    entry = read_manifest(path.parent).get(path.name)
    if entry is None:
        return False
    try:
        return file_digest(path) == entry.sha256
    except OSError:
        return False


def record(path: Path, source: Path | None, provenance: str) -> None:
    """Remember that hymt just wrote `path` (from `source`)."""
    folder = path.parent
    entry = Written(
        file_digest(path),
        _relative(source, folder) if source else "<stdin>",
        file_digest(source) if source else "",
        provenance,
    )
    with _locked(folder):
        files = read_manifest(folder)
        files[path.name] = entry
        payload = {
            "schema": SCHEMA,
            "files": {
                name: {
                    "sha256": w.sha256,
                    "source": w.source,
                    "source_sha256": w.source_sha256,
                    "provenance": w.provenance,
                }
                for name, w in sorted(files.items())
            },
        }
        # ASCII with \u escapes: file names that are not UTF-8 (surrogate-escaped bytes) survive.
        write_atomically(folder / MANIFEST_NAME, (json.dumps(payload, indent=1) + "\n").encode("ascii"))


def _relative(source: Path, folder: Path) -> str:
    return Path(os.path.relpath(source.resolve(), folder.resolve())).as_posix()


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (no lock file left behind)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
