"""Loading glossary files by suffix and merging them into the run's `Glossary`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from ..text.languages import Language
from ._delimited import load_csv, load_tsv
from ._glossary import Glossary
from ._jsonfile import load_json
from ._matching import fold
from ._tbx import load_tbx
from .entries import Entry, GlossaryError

LOADERS: dict[str, Callable[[Path], list[Entry]]] = {
    ".tsv": load_tsv,
    ".csv": load_csv,
    ".json": load_json,
    ".tbx": load_tbx,
    ".xml": load_tbx,
}


def load_entries(path: Path) -> list[Entry]:
    """One glossary file, by suffix: .tsv, .csv, .json, .tbx (or .xml)."""
    loader = LOADERS.get(path.suffix.lower())
    if loader is None:
        raise GlossaryError(
            f"{path}: unknown glossary format {path.suffix or '(no suffix)'!r}; use .tsv, .csv, .json or .tbx"
        )
    entries = loader(path)
    if not entries:
        raise GlossaryError(
            f"{path}: no glossary entries (a term needs a target, or to be marked do-not-translate)"
        )
    return entries


def _show(entry: Entry) -> str:
    return repr(entry.target) if entry.target else "do-not-translate"


def check_conflicts(entries: Sequence[Entry]) -> None:
    """Same term, same languages, different target: an error naming both places."""
    seen: dict[tuple[str, bool, str | None, str | None], Entry] = {}
    for entry in entries:
        key = (
            entry.source if entry.case_sensitive else fold(entry.source),
            entry.case_sensitive,
            entry.source_lang,
            entry.target_lang,
        )
        other = seen.setdefault(key, entry)
        if other.target != entry.target:
            lang = f" ({entry.target_lang})" if entry.target_lang else ""
            raise GlossaryError(
                f"{entry.origin}: {entry.source!r}{lang} -> {_show(entry)} conflicts with "
                f"{other.origin}: {other.source!r} -> {_show(other)}"
            )


def digest(entries: Sequence[Entry]) -> str:
    """What translation-memory keys record of the glossary (origins and notes do not count)."""
    sha = hashlib.sha256()
    for entry in entries:
        sha.update(
            repr(
                (entry.source, entry.target, entry.target_lang, entry.source_lang, entry.case_sensitive)
            ).encode()
        )
    return sha.hexdigest()[:16]


def load_glossaries(paths: Sequence[Path], *, source: Language | None = None) -> Glossary:
    """Load and merge glossary files; conflicting entries (same term, same language, different
    target) are an error naming both places."""
    entries: list[Entry] = []
    for path in paths:
        entries.extend(load_entries(path))
    check_conflicts(entries)
    return Glossary(entries, source=source, digest=digest(entries))
