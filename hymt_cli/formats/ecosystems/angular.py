"""Angular's `angular.json`: a project's `i18n` section names its source locale (`sourceLocale`,
default `en-US`) and, for each locale, its translation files (`locales`: a path, a list of
paths, or `{"translation": ...}`), relative to the workspace's root; `ng extract-i18n` writes
the source (`messages.xlf`, or its `outFile` in its `outputPath`) at the root. The XLIFF layout
(formats/xliff) reads this to find a source's translations where the project keeps them
(`src/locale/messages.de_DE.xlf`), however they are spelled.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_LEVELS = 6
_LARGEST = 4 << 20
_SOURCE_SUFFIXES = {"xlf": ".xlf", "xlif": ".xlf", "xliff": ".xlf", "xlf2": ".xlf", "xliff2": ".xlf"}


@dataclass(frozen=True, slots=True)
class AngularI18n:
    """One project's i18n: its source file, source locale and translations (absolute paths)."""

    source: Path
    source_locale: str
    translations: tuple[tuple[str, Path], ...]
    config: Path  # the angular.json

    def missing(self, translation: Path, code: str) -> str | None:
        """What to add to angular.json for a new translation file it does not list (Angular
        builds only the locales it lists), or None: it lists it."""
        if any(translation.resolve() == p.resolve() for _, p in self.translations):
            return None
        where = os.path.relpath(translation, self.config.parent).replace(os.sep, "/")
        return f'add "{code}": "{where}" to the i18n locales of {self.config} (Angular builds only those)'

    def holds(self, path: Path) -> bool:
        """Is `path` this project's source or one of its translation files?"""
        real = path.resolve()
        return real == self.source.resolve() or any(real == p.resolve() for _, p in self.translations)


def angular_i18n(xliff: Path) -> AngularI18n | None:
    """The i18n of the Angular project whose source or translations folder holds `xliff`: the
    nearest `angular.json` above it with a project whose source is `xliff` or whose translation
    files lie in `xliff`'s folder. None: no such project."""
    folder = xliff.parent.resolve()
    root = folder
    for _ in range(_LEVELS):
        config = root / "angular.json"
        if config.is_file():
            if not xliff.is_absolute():  # the paths as the run names its files: relative
                config = Path(os.path.relpath(config))
            for project in _projects(config):
                here = {p.parent.resolve() for _, p in project.translations}
                if project.source.resolve() == xliff.resolve() or folder in here:
                    return project
            return None
        if root.parent == root:
            return None
        root = root.parent
    return None


def _projects(config: Path) -> list[AngularI18n]:
    try:
        stat = config.stat()
    except OSError:
        return []
    if stat.st_size > _LARGEST:
        return []
    return list(_read_projects(str(config), stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=16)
def _read_projects(name: str, mtime_ns: int, size: int) -> tuple[AngularI18n, ...]:
    """The projects with i18n of an `angular.json` as it is (read once: a folder walk asks for
    every XLIFF file)."""
    config = Path(name)
    try:
        data = json.loads(config.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError):
        return ()
    projects = data.get("projects") if isinstance(data, dict) else None
    if not isinstance(projects, dict):
        return ()
    root = config.parent
    found = []
    for project in projects.values():
        if isinstance(project, dict):
            read = _project(root, project)
            if read is not None:
                found.append(read)
    return tuple(found)


def _project(root: Path, project: dict[str, object]) -> AngularI18n | None:
    i18n = project.get("i18n")
    if not isinstance(i18n, dict):
        return None
    source_locale = i18n.get("sourceLocale", "en-US")
    if isinstance(source_locale, dict):
        source_locale = source_locale.get("code", "en-US")
    locales = i18n.get("locales")
    if not isinstance(source_locale, str) or not isinstance(locales, dict):
        return None
    translations: list[tuple[str, Path]] = []
    for code, given in locales.items():
        if isinstance(given, dict):
            given = given.get("translation")
        for each in given if isinstance(given, list) else [given]:
            if isinstance(code, str) and isinstance(each, str) and each.endswith(".xlf"):
                translations.append((code, root / each))
    if not translations:
        return None
    return AngularI18n(_source_file(root, project), source_locale, tuple(translations), root / "angular.json")


def _source_file(root: Path, project: dict[str, object]) -> Path:
    """Where `ng extract-i18n` writes the source: its options' `outputPath` and `outFile`
    (default `messages.xlf` at the workspace's root)."""
    architect = project.get("architect") or project.get("targets")
    extract = architect.get("extract-i18n") if isinstance(architect, dict) else None
    options = extract.get("options") if isinstance(extract, dict) else None
    options = options if isinstance(options, dict) else {}
    folder = options.get("outputPath")
    name = options.get("outFile")
    suffix = _SOURCE_SUFFIXES.get(str(options.get("format", "xlf")), ".xlf")
    return (root / folder if isinstance(folder, str) else root) / (
        name if isinstance(name, str) else f"messages{suffix}"
    )
