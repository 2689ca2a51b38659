"""What git ignores, for a folder walk inside a git work tree: the `.gitignore` files from the
work tree's top down to each folder, and `.git/info/exclude`, read as git reads them (GitIgnoreSpec):
a file's globs are relative to its folder, and a deeper file's verdict overrides a shallower one's.
The user's global excludes (core.excludesFile) are not read: they differ from one machine to the
next, and a run should find the same files on a laptop and in CI. Outside a work tree nothing is
ignored, nor in a folder that git ignores itself and that a person named as an input (`git add
-f` takes such files too)."""

from __future__ import annotations

import os
from pathlib import Path

from .globs import GlobSet


def work_tree(folder: Path) -> Path | None:
    """The top of the git work tree that holds `folder` (the nearest folder with `.git`)."""
    here = Path(os.path.abspath(folder))
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _read(path: Path) -> list[str]:
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return []
    return text.splitlines()


class GitIgnores:
    """The ignore rules of the folders of one walk, read once per folder."""

    def __init__(self, root: Path) -> None:
        self.top = work_tree(root)
        self._folders: dict[Path, GlobSet | None] = {}
        self._base: list[tuple[Path, GlobSet]] = []
        if self.top is not None:
            exclude = GlobSet(_read(self.top / ".git" / "info" / "exclude"), self.top)
            if exclude:
                self._base.append((self.top / ".git" / "info" / "exclude", exclude))
            if self.ignored(root, folder=True) is not None:
                self.top = None

    def _rules(self, folder: Path) -> GlobSet | None:
        if folder not in self._folders:
            lines = _read(folder / ".gitignore")
            self._folders[folder] = GlobSet(lines, folder) if lines else None
        return self._folders[folder]

    def ignored(self, path: Path, *, folder: bool = False) -> str | None:
        """Why git ignores `path` (`docs/.gitignore: site/`), or None."""
        if self.top is None:
            return None
        here = Path(os.path.abspath(path))
        if not here.is_relative_to(self.top):
            return None
        chain = [p for p in (here.parent, *here.parent.parents) if p.is_relative_to(self.top)]
        sources = [(f / ".gitignore", self._rules(f)) for f in chain]
        for where, rules in [*sources, *reversed(self._base)]:
            if rules is None:
                continue
            verdict = rules.match_verdict(here, folder=folder)
            if verdict is not None:
                ignored, pattern = verdict
                return f"{os.path.relpath(where)}: {pattern}" if ignored else None
        return None
