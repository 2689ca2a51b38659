"""TSV and CSV glossaries: a header row naming the columns, then one term per row.

What a header name means (case-insensitive; spaces and hyphens count as underscores):
- `source` (required): the term;
- `target`: its translation for every target language (or for `target_lang`); empty: keep
  the term as it is (do not translate);
- `source_lang`, `target_lang` (alias `lang`): language codes restricting the row;
- `case_sensitive`: true/false, yes/no, 1/0 (default false);
- metadata, read and ignored: `id`, `note`, `notes`, `comment`, `comments`, `context`,
  `description`, `definition`;
- anything else shaped like a language tag (`de`, `fr`, `pt-BR`, `zh-Hant`, `zh_TW`) whose
  language HY-MT translates into (languages.py): that language's translation of the term.
  Metadata names come first: a column `id` is an identifier, not Indonesian; name an
  Indonesian column `id-ID` (or use `target` with `target_lang` = `id`).
A row needs `target` or at least one language column. Blank rows are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ._reading import read_text
from .entries import Entry, GlossaryError, code_or_error, flag, language_code, shown, target, term

ROLES = ("source", "target", "source_lang", "target_lang", "case_sensitive")
ALIASES = {"lang": "target_lang"}
METADATA = frozenset({"id", "note", "notes", "comment", "comments", "context", "description", "definition"})
# language[-Script][-REGION], BCP 47's common shape: `de`, `yue`, `zh-Hant`, `pt-BR`, `es-419`.
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Columns:
    """What the header says: the index of each role and of each language column."""

    count: int
    roles: dict[str, int]
    languages: dict[int, str]


def _kind(name: str, where: str) -> str:
    """A header name -> its role, "" for metadata, or a language code; raises otherwise."""
    key = re.sub(r"[\s-]+", "_", name.strip().lower())
    key = ALIASES.get(key, key)
    if key in ROLES:
        return key
    if key in METADATA:
        return ""
    code = language_code(name) if _LANGUAGE_TAG.fullmatch(name.strip().replace("_", "-")) else None
    if code is None:
        raise GlossaryError(
            f"{where}: unknown column {shown(name.strip())}; expected {', '.join(ROLES)}, "
            f"metadata ({', '.join(sorted(METADATA))}) or language codes such as de, fr, zh-Hant"
        )
    return "lang:" + code


def read_header(header: Sequence[str], where: str) -> Columns:
    """The header row's meaning (see the module docstring); refuses unknown, unnamed and duplicate columns."""
    roles: dict[str, int] = {}
    languages: dict[int, str] = {}
    seen: dict[str, str] = {}
    for i, name in enumerate(header):
        if not name.strip():
            raise GlossaryError(f"{where}: column {i + 1} has no name")
        kind = _kind(name, where)
        if kind and kind in seen:
            meaning = f"language {kind[5:]}" if kind.startswith("lang:") else kind
            raise GlossaryError(f"{where}: columns {shown(seen[kind])} and {shown(name)} both mean {meaning}")
        seen[kind] = name
        if kind.startswith("lang:"):
            languages[i] = kind[5:]
        elif kind:
            roles[kind] = i
    if "source" not in roles:
        raise GlossaryError(f"{where}: the header has no 'source' column")
    if "target" not in roles and not languages:
        raise GlossaryError(f"{where}: the header has no 'target' column and no language columns")
    return Columns(len(header), roles, languages)


def row_entries(row: Sequence[str], columns: Columns, where: str) -> list[Entry]:
    """The entries of one row: one for `target`, one per language column."""
    if len(row) != columns.count:
        raise GlossaryError(f"{where}: malformed row: {len(row)} fields, the header has {columns.count}")

    def cell(role: str) -> str:
        return row[columns.roles[role]] if role in columns.roles else ""

    source = term(cell("source"), where)
    case_sensitive = flag(cell("case_sensitive"), where, "case_sensitive")
    source_lang = code_or_error(cell("source_lang"), where) if cell("source_lang").strip() else None
    target_lang = code_or_error(cell("target_lang"), where) if cell("target_lang").strip() else None
    entries = []
    if "target" in columns.roles:
        entries.append(
            Entry(source, target(cell("target"), where), target_lang, source_lang, case_sensitive, where)
        )
    for i, code in columns.languages.items():
        entries.append(Entry(source, target(row[i], where), code, source_lang, case_sensitive, where))
    return entries


def load_delimited(path: Path, delimiter: str) -> list[Entry]:
    """Every entry of a TSV (tab) or CSV (`,`) glossary; errors name the line."""
    reader = csv.reader(io.StringIO(read_text(path), newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise GlossaryError(f"{path}:1: empty glossary (expected a header row: source, target, ...)")
        columns = read_header(header, f"{path}:1")
        entries: list[Entry] = []
        for row in reader:
            if any(cell.strip() for cell in row):
                entries.extend(row_entries(row, columns, f"{path}:{reader.line_num}"))
        return entries
    except csv.Error as exc:
        raise GlossaryError(f"{path}:{reader.line_num}: malformed row: {exc}") from None


def load_tsv(path: Path) -> list[Entry]:
    return load_delimited(path, "\t")


def load_csv(path: Path) -> list[Entry]:
    return load_delimited(path, ",")
