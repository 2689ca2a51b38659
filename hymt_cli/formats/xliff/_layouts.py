"""Where an XLIFF file names its language, and where its translations are.

- `messages.de.xlf`, `validators.en.xlf`, `en.xliff`: the code before the suffix (Symfony,
  Angular, Xcode's exports); `messages.xlf`, which names none, is the source of the catalog
  `messages.<code>.xlf`, and a translation's source is the same name without its code.
- An Angular project (`angular.json`'s `i18n`: ecosystems/angular.py): its source (`ng
  extract-i18n`'s `messages.xlf` at the workspace's root) has its translations where the
  project lists them (`src/locale/messages.de_DE.xlf`), in the spelling they use there; each of
  those files' source is that `messages.xlf`.
"""

from __future__ import annotations

from pathlib import Path

from ..ecosystems.angular import angular_i18n
from ..layout import Marked, known, path_language


def dotted_language(path: Path) -> Marked | None:
    """`validators.en.xlf` -> `validators.de.xlf`, `en.xliff` -> `de.xliff` (Symfony, Xcode);
    `messages.xlf` (no code) is its catalog's source: `messages.de.xlf`."""
    stem = path.stem
    base, dot, last = stem.rpartition(".")
    code = path_language(last)
    if code is None:
        return Marked(None, lambda lang: path.with_name(f"{stem}.{lang}{path.suffix}"), source_of=known(path))
    prefix = base + dot
    source = path.with_name(base + path.suffix) if base else None
    return Marked(
        code.written,
        lambda lang: path.with_name(f"{prefix}{code.spelled(lang)}{path.suffix}"),
        source_of=known(source),
    )


def angular_xliff(path: Path) -> Marked | None:
    """An Angular project's source or one of its translation files (module docstring)."""
    i18n = angular_i18n(path)
    if i18n is None:
        return None
    first = dotted_language(i18n.translations[0][1])
    if first is None or first.code is None:
        return None
    pattern = first.rewrite
    if path.resolve() == i18n.source.resolve():
        return Marked(None, pattern, source_of=known(path))
    own = dotted_language(path)
    if own is None or own.code is None:
        return None
    return Marked(own.code, pattern, source_of=known(i18n.source))


def angular_note(target: Path) -> str | None:
    """A new translation of an Angular project: what angular.json must list for Angular to build
    it (None: it lists it, or the file is no Angular project's)."""
    i18n = angular_i18n(target)
    own = dotted_language(target)
    if i18n is None or own is None or own.code is None:
        return None
    missing = i18n.missing(target, own.code.replace("_", "-"))
    return f"{target}: {missing}" if missing is not None else None
