"""TSV and CSV glossaries: a header row naming the columns, one term per row."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from .entries import Entry, GlossaryError, code_or_error, flag, language_code
from .reading import read_text

_COLUMNS = {"source", "target", "source_lang", "target_lang", "lang", "case_sensitive", "note"}


def load_delimited(path: Path, delimiter: str) -> list[Entry]:
    reader = csv.reader(io.StringIO(read_text(path), newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise GlossaryError(f"{path}:1: empty glossary (expected a header row: source, target, ...)")
        names = [h.strip() for h in header]
        lang_columns: dict[int, str] = {}
        for i, name in enumerate(names):
            code = language_code(name)
            if name.lower() in _COLUMNS:
                names[i] = name.lower()
            elif code is not None:
                lang_columns[i] = code
            else:
                raise GlossaryError(f"{path}:1: unknown column {name!r}; expected source, target, "
                                    "source_lang, target_lang, case_sensitive, note or language codes")
        if "source" not in names:
            raise GlossaryError(f"{path}:1: the header has no 'source' column")
        if "target" not in names and not lang_columns:
            raise GlossaryError(f"{path}:1: the header has no 'target' column and no language columns")
        col = {name: i for i, name in enumerate(names)}
        entries: list[Entry] = []
        for row in reader:
            where = f"{path}:{reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(names):
                raise GlossaryError(f"{where}: malformed row: {len(row)} fields, the header has {len(names)}")
            source = row[col["source"]].strip()
            if not source:
                raise GlossaryError(f"{where}: empty source term")
            case_sensitive = flag(row[col["case_sensitive"]], where, "case_sensitive") \
                if "case_sensitive" in col else False
            source_lang = None
            if "source_lang" in col and row[col["source_lang"]].strip():
                source_lang = code_or_error(row[col["source_lang"]], where)
            target_lang = None
            for name in ("target_lang", "lang"):
                if name in col and row[col[name]].strip():
                    target_lang = code_or_error(row[col[name]], where)
            if "target" in col:
                entries.append(Entry(source, row[col["target"]].strip(), target_lang, source_lang,
                                     case_sensitive, where))
            for i, code in lang_columns.items():
                entries.append(Entry(source, row[i].strip(), code, source_lang, case_sensitive, where))
        return entries
    except csv.Error as exc:
        raise GlossaryError(f"{path}:{reader.line_num}: malformed row: {exc}") from None


def load_tsv(path: Path) -> list[Entry]:
    return load_delimited(path, "\t")


def load_csv(path: Path) -> list[Entry]:
    return load_delimited(path, ",")
