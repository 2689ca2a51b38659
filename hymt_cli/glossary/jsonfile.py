"""JSON glossaries: `{"terms": [{"source": ..., "targets": {lang: ...}}], "do_not_translate": [...]}`."""
from __future__ import annotations

import json
from pathlib import Path

from .entries import Entry, GlossaryError, code_or_error
from .reading import read_text

_TERM_KEYS = {"source", "target", "targets", "case_sensitive", "source_lang", "note", "id"}


def _json_line(text: str, value: str, start: int) -> tuple[int, int]:
    """The line where the JSON string `value` next occurs after `start` (json keeps no positions)."""
    for encoded in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
        pos = text.find(encoded, start)
        if pos >= 0:
            return text.count("\n", 0, pos) + 1, pos + len(encoded)
    return 0, start


def load_json(path: Path) -> list[Entry]:
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GlossaryError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not set(data) <= {"terms", "do_not_translate", "source_lang", "note"}:
        raise GlossaryError(f"{path}:1: expected an object with 'terms' and/or 'do_not_translate'")
    entries: list[Entry] = []
    pos = 0
    default_source = data.get("source_lang")

    def where_of(item: object, index: str) -> tuple[str, int]:
        source = item.get("source") if isinstance(item, dict) else item
        line, end = _json_line(text, source, pos) if isinstance(source, str) else (0, pos)
        return (f"{path}:{line}" if line else f"{path}: {index}"), end

    for i, item in enumerate(data.get("terms", [])):
        where, pos = where_of(item, f"terms[{i}]")
        if not isinstance(item, dict):
            raise GlossaryError(f"{where}: a term must be an object with 'source' and 'targets'")
        unknown = set(item) - _TERM_KEYS
        if unknown:
            raise GlossaryError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        source = item.get("source")
        if not isinstance(source, str) or not source.strip():
            raise GlossaryError(f"{where}: 'source' must be a non-empty string")
        case_sensitive = item.get("case_sensitive", False)
        if not isinstance(case_sensitive, bool):
            raise GlossaryError(f"{where}: 'case_sensitive' must be true or false")
        source_lang = item.get("source_lang", default_source)
        source_lang = code_or_error(source_lang, where) if source_lang else None
        targets = item.get("targets", {})
        if not isinstance(targets, dict) or not all(isinstance(v, str) for v in targets.values()):
            raise GlossaryError(f"{where}: 'targets' must map language codes to strings")
        if "target" in item:
            if not isinstance(item["target"], str):
                raise GlossaryError(f"{where}: 'target' must be a string")
            entries.append(Entry(source.strip(), item["target"].strip(), None, source_lang, case_sensitive, where))
        elif not targets:
            raise GlossaryError(f"{where}: term {source!r} has no 'targets' (use do_not_translate to keep it)")
        for code, target in targets.items():
            entries.append(Entry(source.strip(), target.strip(), code_or_error(code, where), source_lang,
                                 case_sensitive, where))
    for i, item in enumerate(data.get("do_not_translate", [])):
        where, pos = where_of(item, f"do_not_translate[{i}]")
        # Names kept verbatim are case-sensitive unless said otherwise: "Apple" is not "apple".
        if isinstance(item, dict):
            source, case_sensitive = item.get("source"), item.get("case_sensitive", True)
        else:
            source, case_sensitive = item, True
        if not isinstance(source, str) or not source.strip() or not isinstance(case_sensitive, bool):
            raise GlossaryError(f"{where}: do_not_translate items are strings or "
                                "{\"source\": ..., \"case_sensitive\": ...}")
        entries.append(Entry(source.strip(), "", None, None, case_sensitive, where))
    return entries
