"""Globs that choose files, in .gitignore syntax (pathspec's GitIgnoreSpec, git's own rules).

A glob without a `/` matches a name at any depth (`*.csv`, `node_modules/`), one with a `/` is
relative to its base folder (`docs/data/*.csv`, `/README.md`), `**` matches any number of
folders, a trailing `/` matches folders only and `!` takes a file back. The base folder is the
current one for a glob given as a flag (or from Python), and a config file's folder for a glob in
that file: `rebased` writes such a glob relative to the current folder (as config paths are), and
`GlobSet` matches files by their absolute paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from pathspec import GitIgnoreSpec

_SPECIAL = re.compile(r"([\[\]*?\\])")


def _split(pattern: str) -> tuple[str, str, bool, bool]:
    """(negation, body without the trailing slash, folder only, anchored)."""
    negate = "!" if pattern.startswith("!") else ""
    body = pattern[len(negate) :]
    folder_only = body.endswith("/")
    body = body.rstrip("/")
    return negate, body, folder_only, "/" in body


def rebased(pattern: str, base: Path, cwd: Path | None = None) -> str:
    """`pattern`, written relative to `base`, as the same glob relative to the current folder."""
    here = Path(os.path.abspath(cwd or Path.cwd()))
    folder = Path(os.path.abspath(base))
    if folder == here or not pattern.strip():
        return pattern
    negate, body, folder_only, anchored = _split(pattern)
    body = body.lstrip("/") if anchored else "**/" + body
    prefix = Path(os.path.relpath(folder, here)).as_posix()
    return f"{negate}{prefix}/{body}{'/' if folder_only else ''}"


def absolute(pattern: str, base: Path) -> str:
    """`pattern`, relative to `base` (its leading `./` and `../` too), as a glob of absolute paths
    (without their leading `/`, as `matched_path` writes them)."""
    negate, body, folder_only, anchored = _split(pattern)
    folder = Path(os.path.abspath(base))
    parts = body.lstrip("/").split("/") if anchored else ["**", body]
    while parts and parts[0] in (".", ".."):
        folder = folder.parent if parts.pop(0) == ".." else folder
    root = _SPECIAL.sub(r"\\\1", folder.as_posix().strip("/"))
    joined = "/".join(part for part in (root, *parts) if part)
    return f"{negate}/{joined}{'/' if folder_only else ''}"


def matched_path(path: Path, *, folder: bool = False) -> str:
    """How a `GlobSet` is asked about a file (or a folder): its absolute path, `/`-separated."""
    text = Path(os.path.abspath(path)).as_posix().lstrip("/")
    return text + "/" if folder else text


class GlobSet:
    """Globs of one base folder, compiled once; `match` names the glob that decided."""

    def __init__(self, patterns: Sequence[str], base: Path) -> None:
        self.patterns = tuple(p for p in patterns if p.strip() and not p.startswith("#"))
        self._spec = GitIgnoreSpec.from_lines(absolute(p, base) for p in self.patterns)

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def match(self, path: Path, *, folder: bool = False) -> str | None:
        """The glob that matches `path` last (None: none does, or a `!` glob took it back)."""
        verdict = self.match_verdict(path, folder=folder)
        return verdict[1] if verdict is not None and verdict[0] else None

    def match_verdict(self, path: Path, *, folder: bool = False) -> tuple[bool, str] | None:
        """(matched, the glob that decided) where a glob matches `path`, False for a `!` glob's;
        None where none does."""
        result = self._spec.check_file(matched_path(path, folder=folder))
        if result.include is None or result.index is None:
            return None
        return result.include, self.patterns[result.index]
