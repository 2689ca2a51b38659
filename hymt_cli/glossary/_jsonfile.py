"""JSON glossaries.

    {"source_lang": "en",                       (optional, for every term)
     "terms": [{"source": "free tier", "targets": {"de": "Gratis"}},
               {"source": "Cloud", "target": "Cloud", "case_sensitive": true, "note": "...", "id": 7}],
     "do_not_translate": ["Acme", {"source": "kubectl", "case_sensitive": false}]}

Strict JSON: no NaN/Infinity, no duplicate keys; no field is a number (numbers are never
converted, so a huge integer costs nothing).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn, TypeVar

from ._reading import read_text
from .entries import Entry, GlossaryError, code_or_error, shown, target, term

T = TypeVar("T")
_TOP_KEYS = frozenset({"terms", "do_not_translate", "source_lang", "note"})
_TERM_KEYS = frozenset({"source", "target", "targets", "case_sensitive", "source_lang", "note", "id"})
_DNT_KEYS = frozenset({"source", "case_sensitive", "note", "id"})


class _Refused(Exception):
    """Valid for Python's json module, not for a glossary (NaN, a repeated key)."""


class Number:
    """A JSON number, kept as its digits."""

    __slots__ = ("digits",)

    def __init__(self, digits: str) -> None:
        self.digits = digits


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"duplicate key {shown(key)}")
        result[key] = value
    return result


def _constant(name: str) -> NoReturn:
    raise _Refused(f"{name} is not JSON")


def parse(path: Path, text: str) -> object:
    """The JSON value, or a one-line GlossaryError."""
    try:
        return json.loads(
            text, object_pairs_hook=_object, parse_int=Number, parse_float=Number, parse_constant=_constant
        )
    except json.JSONDecodeError as exc:
        raise GlossaryError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    except _Refused as exc:
        raise GlossaryError(f"{path}: invalid JSON: {exc}") from None
    except RecursionError:
        raise GlossaryError(f"{path}: invalid JSON: nested too deeply") from None


class _Places:
    """`file:line` of each item, found by looking for its 'source' string after the previous
    item's (json keeps no positions); `file: terms[3]` when that fails."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.text, self.pos = path, text, 0

    def of(self, item: object, index: str) -> str:
        source = item.get("source") if isinstance(item, Mapping) else item
        if isinstance(source, str):
            for encoded in (json.dumps(source, ensure_ascii=False), json.dumps(source)):
                found = self.text.find(encoded, self.pos)
                if found >= 0:
                    self.pos = found + len(encoded)
                    line = self.text.count("\n", 0, found) + 1
                    return f"{self.path}:{line}"
        return f"{self.path}: {index}"


def _keys(item: Mapping[str, object], allowed: frozenset[str], where: str) -> None:
    unknown = set(item) - allowed
    if unknown:
        names = ", ".join(
            key if key.isprintable() and len(key) <= 40 else shown(key) for key in sorted(unknown)
        )
        raise GlossaryError(f"{where}: unknown key(s) {names}; expected {', '.join(sorted(allowed))}")


_KINDS: dict[type, str] = {str: "a string", bool: "true or false", list: "a list"}


def _expect(value: object, kind: type[T], where: object, name: str) -> T:
    """`value` if it is a `kind` (str, bool or list), else a GlossaryError naming the key."""
    if not isinstance(value, kind):
        raise GlossaryError(f"{where}: {name!r} must be {_KINDS[kind]}")
    return value


def term_entries(item: object, where: str, default_source: str | None) -> list[Entry]:
    """The entries of one item of "terms": one for `target`, one per language of `targets`."""
    if not isinstance(item, dict):
        raise GlossaryError(f"{where}: a term must be an object with 'source' and 'targets'")
    _keys(item, _TERM_KEYS, where)
    source = term(_expect(item.get("source"), str, where, "source"), where)
    case_sensitive = _expect(item.get("case_sensitive", False), bool, where, "case_sensitive")
    lang = item.get("source_lang", default_source)
    source_lang = code_or_error(_expect(lang, str, where, "source_lang"), where) if lang else None
    targets = item.get("targets", {})
    if not isinstance(targets, dict):
        raise GlossaryError(f"{where}: 'targets' must map language codes to strings")
    if "target" not in item and not targets:
        raise GlossaryError(
            f"{where}: term {shown(source)} has no 'targets' (use do_not_translate to keep it)"
        )
    entries = []
    if "target" in item:
        entries.append(
            Entry(
                source,
                target(_expect(item["target"], str, where, "target"), where),
                None,
                source_lang,
                case_sensitive,
                where,
            )
        )
    for code, value in targets.items():
        entries.append(
            Entry(
                source,
                target(_expect(value, str, where, f"targets.{code}"), where),
                code_or_error(code, where),
                source_lang,
                case_sensitive,
                where,
            )
        )
    return entries


def dnt_entry(item: object, where: str) -> Entry:
    """One item of "do_not_translate". Names kept verbatim are case-sensitive unless said
    otherwise: "Apple" is not "apple"."""
    if isinstance(item, dict):
        _keys(item, _DNT_KEYS, where)
        source, case_sensitive = item.get("source"), item.get("case_sensitive", True)
    else:
        source, case_sensitive = item, True
    if not isinstance(source, str) or not isinstance(case_sensitive, bool):
        raise GlossaryError(
            f'{where}: do_not_translate items are strings or {{"source": ..., "case_sensitive": ...}}'
        )
    return Entry(term(source, where), "", None, None, case_sensitive, where)


def load_json(path: Path) -> list[Entry]:
    """Every entry of a JSON glossary (see the module docstring)."""
    text = read_text(path)
    data = parse(path, text)
    if not isinstance(data, dict) or not ({"terms", "do_not_translate"} & set(data)):
        raise GlossaryError(f"{path}:1: expected an object with 'terms' and/or 'do_not_translate'")
    _keys(data, _TOP_KEYS, f"{path}:1")
    default_source = data.get("source_lang")
    if default_source is not None:
        default_source = _expect(default_source, str, f"{path}:1", "source_lang")
    places = _Places(path, text)
    entries: list[Entry] = []
    for i, item in enumerate(_expect(data.get("terms", []), list, path, "terms")):
        entries.extend(term_entries(item, places.of(item, f"terms[{i}]"), default_source))
    for i, item in enumerate(_expect(data.get("do_not_translate", []), list, path, "do_not_translate")):
        entries.append(dnt_entry(item, places.of(item, f"do_not_translate[{i}]")))
    return entries
