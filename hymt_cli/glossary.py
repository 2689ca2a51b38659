"""Glossaries: load TSV/CSV/JSON/TBX, find the terms in a segment, protect do-not-translate
terms, verify and tally adherence.

The pipeline calls three narrow hooks: `Glossary.use(text, lang)` while planning (what the
model sees and which terms go into the prompt), `GlossaryUse.restore(output)` on every model
output, and `Glossary.check` as a validator (a miss is a *soft* problem: retried once, then the
best output is kept and the miss recorded). `tally` fills the report.

Matching rules, per target language:
- case-insensitive unless the entry says `case_sensitive`;
- whole-word where a term edge is a letter or digit of a space-delimited script, substring
  where it is Han, kana, Hangul, Thai, Lao, Khmer, Myanmar or Tibetan;
- longest match first, then leftmost; matches never overlap each other or an inline tag;
- one Aho-Corasick automaton per target language: cost grows with the text, not with the
  number of terms (bench/glossary_matching.py measures it).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

import ahocorasick

from .errors import UsageError
from .languages import LANGUAGES, Language
from .placeholders import LOOSE_TAG, max_tag_number
from .prompts import Term
from .report import GlossaryMiss, GlossaryStats
from .validation import Problem
from .writing_systems import char_class


class GlossaryError(UsageError):
    """A glossary file cannot be used; the message starts with `file:line:`."""


# -- entries --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Entry:
    """One glossary row: `source` must come out as `target` in `target_lang`.

    `target_lang` None: every target language. `target` "": do not translate (the term stays
    exactly as in the source). `source_lang` None: whatever the source language.
    """

    source: str
    target: str
    target_lang: str | None = None
    source_lang: str | None = None
    case_sensitive: bool = False
    origin: str = ""  # file:line

    @property
    def dnt(self) -> bool:
        return self.target == ""


_TBX_REGIONS = {"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "zh-hant": "zh-Hant",
                "zh-cn": "zh", "zh-sg": "zh", "zh-hans": "zh"}
_CODES = {code.lower(): code for code in LANGUAGES}


def language_code(value: str) -> str | None:
    """`de`, `DE`, `de-DE`, `zh-TW` -> a hymt language code; None if HY-MT has no such language."""
    key = value.strip().replace("_", "-").lower()
    if key in _CODES:
        return _CODES[key]
    if key in _TBX_REGIONS:
        return _TBX_REGIONS[key]
    primary = key.split("-", 1)[0]
    return _CODES.get(primary) if primary != "zh" else "zh"


def _code_or_error(value: str, where: str) -> str:
    code = language_code(value)
    if code is None:
        raise GlossaryError(f"{where}: unknown language code {value!r}; valid codes: {', '.join(LANGUAGES)}")
    return code


_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"", "0", "false", "no", "n"}


def _flag(value: str, where: str, column: str) -> bool:
    key = value.strip().lower()
    if key in _TRUE:
        return True
    if key in _FALSE:
        return False
    raise GlossaryError(f"{where}: {column} must be true or false, not {value!r}")


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GlossaryError(f"{path}: cannot read glossary: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise GlossaryError(f"{path}:{line}: not UTF-8 text") from None


# -- TSV / CSV ------------------------------------------------------------------------------

_COLUMNS = {"source", "target", "source_lang", "target_lang", "lang", "case_sensitive", "note"}


def _load_delimited(path: Path, delimiter: str) -> list[Entry]:
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise GlossaryError(f"{path}:1: empty glossary (expected a header row: source, target, ...)")
        names = [h.strip() for h in header]
        lang_columns: dict[int, str] = {}
        for i, name in enumerate(names):
            if name.lower() in _COLUMNS:
                names[i] = name.lower()
            elif language_code(name) is not None:
                lang_columns[i] = language_code(name)  # type: ignore[assignment]
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
            case_sensitive = _flag(row[col["case_sensitive"]], where, "case_sensitive") \
                if "case_sensitive" in col else False
            source_lang = None
            if "source_lang" in col and row[col["source_lang"]].strip():
                source_lang = _code_or_error(row[col["source_lang"]], where)
            target_lang = None
            for name in ("target_lang", "lang"):
                if name in col and row[col[name]].strip():
                    target_lang = _code_or_error(row[col[name]], where)
            if "target" in col:
                entries.append(Entry(source, row[col["target"]].strip(), target_lang, source_lang,
                                     case_sensitive, where))
            for i, code in lang_columns.items():
                entries.append(Entry(source, row[i].strip(), code, source_lang, case_sensitive, where))
        return entries
    except csv.Error as exc:
        raise GlossaryError(f"{path}:{reader.line_num}: malformed row: {exc}") from None


# -- JSON -----------------------------------------------------------------------------------

_TERM_KEYS = {"source", "target", "targets", "case_sensitive", "source_lang", "note", "id"}


def _json_line(text: str, value: str, start: int) -> tuple[int, int]:
    """The line where the JSON string `value` next occurs after `start` (json keeps no positions)."""
    for encoded in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
        pos = text.find(encoded, start)
        if pos >= 0:
            return text.count("\n", 0, pos) + 1, pos + len(encoded)
    return 0, start


def _load_json(path: Path) -> list[Entry]:
    text = _read_text(path)
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
        source_lang = _code_or_error(source_lang, where) if source_lang else None
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
            entries.append(Entry(source.strip(), target.strip(), _code_or_error(code, where), source_lang,
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


# -- TBX ------------------------------------------------------------------------------------

@dataclass(slots=True)
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""

    def iter(self, *tags: str):
        for child in self.children:
            if child.tag in tags:
                yield child
            yield from child.iter(*tags)


def _parse_xml(path: Path) -> _Node:
    """A minimal expat tree with line numbers. Entity declarations are refused (no entity bombs,
    no external entities): TBX needs none."""
    root = _Node("#document", {}, 0)
    stack = [root]
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag.rsplit(":", 1)[-1] if ":" in tag and not tag.startswith("xml:") else tag,
                     attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    def refuse(*args) -> None:
        raise GlossaryError(f"{path}:{parser.CurrentLineNumber}: entity declarations are not allowed in TBX")

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = lambda *a: refuse()
    try:
        parser.Parse(_read_text(path).encode("utf-8"), True)
    except expat.ExpatError as exc:
        raise GlossaryError(f"{path}:{exc.lineno}: invalid XML: {expat.ErrorString(exc.code)}") from None
    return root


def _all_text(node: _Node) -> str:
    return (node.text + "".join(_all_text(c) for c in node.children)).strip()


def _note(node: _Node, kind: str) -> str | None:
    for note in node.iter("termNote", "descrip"):
        if note.attrs.get("type") == kind:
            return _all_text(note).lower()
    return None


def _load_tbx(path: Path) -> list[Entry]:
    """TBX-Basic (termEntry/langSet/tig/term) and TBX v3 (conceptEntry/langSec/termSec/term).

    A concept serves every direction: each term is a source whose target in language T is the
    concept's first term in T that is not deprecated. hymt conventions: `<termNote
    type="doNotTranslate">yes</termNote>` (or `descrip`) keeps the terms verbatim;
    `type="caseSensitive"` makes matching case-sensitive.
    """
    root = _parse_xml(path)
    entries: list[Entry] = []
    concepts = list(root.iter("termEntry", "conceptEntry"))
    if not concepts:
        raise GlossaryError(f"{path}:1: no termEntry (TBX-Basic) or conceptEntry (TBX v3) found")
    for concept in concepts:
        dnt = _note(concept, "doNotTranslate") in _TRUE
        case_sensitive = (_note(concept, "caseSensitive") or "") in _TRUE
        terms: list[tuple[str, str, bool, str]] = []  # lang, term, usable as target, where
        for lang_set in concept.iter("langSet", "langSec"):
            raw = lang_set.attrs.get("xml:lang") or lang_set.attrs.get("lang")
            if not raw:
                raise GlossaryError(f"{path}:{lang_set.line}: {lang_set.tag} without xml:lang")
            code = _code_or_error(raw, f"{path}:{lang_set.line}")
            for holder in lang_set.iter("tig", "ntig", "termSec"):
                for term in holder.iter("term"):
                    text = _all_text(term)
                    if not text:
                        raise GlossaryError(f"{path}:{term.line}: empty term")
                    usable = "deprecated" not in (_note(holder, "administrativeStatus") or "")
                    terms.append((code, text, usable, f"{path}:{term.line}"))
        if not terms:
            raise GlossaryError(f"{path}:{concept.line}: {concept.tag} has no terms")
        preferred: dict[str, str] = {}
        for code, text, usable, _ in terms:
            if usable:
                preferred.setdefault(code, text)
        for code, text, _, where in terms:
            if dnt:
                entries.append(Entry(text, "", None, code, case_sensitive, where))
                continue
            for target_lang, target in preferred.items():
                if target_lang != code:
                    entries.append(Entry(text, target, target_lang, code, case_sensitive, where))
    return entries


_LOADERS = {".tsv": lambda p: _load_delimited(p, "\t"), ".csv": lambda p: _load_delimited(p, ","),
            ".json": _load_json, ".tbx": _load_tbx, ".xml": _load_tbx}


# -- matching -------------------------------------------------------------------------------

# Scripts written without spaces between words: terms match as substrings there.
_UNSPACED = char_class("thai", "lao", "tibetan", "myanmar", "khmer", "hangul", "hangul_compatibility",
                       "kana", "han", "han_supplementary")


def _is_spaced_word_char(ch: str) -> bool:
    """A letter or digit of a script that separates words with spaces."""
    return (ch.isalnum() or ch == "_") and not _UNSPACED.match(ch)


def fold(text: str) -> str:
    """Lower case, same length (offsets in the folded text are offsets in the original)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@dataclass(frozen=True, slots=True)
class Match:
    start: int
    end: int
    entry: Entry


class Matcher:
    """All the entries for one target language, compiled into one Aho-Corasick automaton."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        by_key: dict[str, list[Entry]] = {}
        for entry in entries:
            by_key.setdefault(fold(entry.source), []).append(entry)
        self.size = sum(len(v) for v in by_key.values())
        self._automaton = ahocorasick.Automaton()
        for key, group in by_key.items():
            # An exact-case entry wins over a case-insensitive one with the same letters.
            group.sort(key=lambda e: not e.case_sensitive)
            self._automaton.add_word(key, (len(key), tuple(group)))
        if by_key:
            self._automaton.make_automaton()

    def find(self, text: str) -> list[Match]:
        """Non-overlapping matches, longest first then leftmost, returned in text order."""
        if not self.size:
            return []
        candidates: list[Match] = []
        for last, (length, group) in self._automaton.iter(fold(text)):
            start, end = last + 1 - length, last + 1
            for entry in group:
                if entry.case_sensitive and text[start:end] != entry.source:
                    continue
                if at_word_edges(text, start, end):  # the same for every entry of the group
                    candidates.append(Match(start, end, entry))
                break
        return select(text, candidates)


def at_word_edges(text: str, start: int, end: int) -> bool:
    """Whole-word rule: a term edge that is a letter or digit of a space-delimited script must
    not continue into another such character (CJK and similar edges: substring match)."""
    if _is_spaced_word_char(text[start]) and start > 0 and _is_spaced_word_char(text[start - 1]):
        return False
    return not (_is_spaced_word_char(text[end - 1]) and end < len(text) and _is_spaced_word_char(text[end]))


def select(text: str, candidates: Sequence[Match]) -> list[Match]:
    """Longest first, then leftmost; no overlaps with each other or with inline tags."""
    if not candidates:
        return []
    taken = bytearray(len(text))
    if "<" in text:  # never match inside an inline tag
        for tag in LOOSE_TAG.finditer(text):
            taken[tag.start():tag.end()] = b"\x01" * (tag.end() - tag.start())
    chosen = []
    for match in sorted(candidates, key=lambda m: (m.start - m.end, m.start)):
        if not any(taken[match.start:match.end]):
            taken[match.start:match.end] = b"\x01" * (match.end - match.start)
            chosen.append(match)
    chosen.sort(key=lambda m: m.start)
    return chosen


# -- use in a segment -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Expected:
    """What the output must contain: `target` (a term's translation, or a do-not-translate
    term verbatim `count` times)."""

    source: str
    target: str
    case_sensitive: bool
    dnt: bool = False
    count: int = 1

    def found_in(self, output: str) -> bool:
        if self.dnt or self.case_sensitive:
            return output.count(self.target) >= self.count
        return output.lower().count(self.target.lower()) >= self.count


@dataclass(frozen=True, slots=True)
class GlossaryUse:
    """The glossary's part in one request (hashable: it is part of the dedupe key).

    `text`: the segment as the model sees it, do-not-translate terms replaced by `<sN/>`;
    `terms`: the prompt's reference translations, in order of first occurrence;
    `protected`: (placeholder, original text) pairs; `expected`: what verification looks for.
    """

    text: str
    terms: tuple[Term, ...]
    protected: tuple[tuple[str, str], ...]
    expected: tuple[Expected, ...]

    @property
    def formatted(self) -> bool:
        """The text carries `<sN>` tags (its own or placeholders): the formatted template applies."""
        return LOOSE_TAG.search(self.text) is not None

    def restore(self, output: str) -> str:
        """Put the protected terms back, verbatim (also when the model wrote `<sN></sN>`)."""
        for placeholder, original in self.protected:
            number = placeholder[2:-2]
            output = re.sub(rf"<s{number}\s*/>|<s{number}>\s*</s{number}>", lambda _: original, output)
        return output

    def misses(self, output: str) -> list[Expected]:
        return [e for e in self.expected if not e.found_in(output)]


def _use(text: str, matches: Sequence[Match]) -> GlossaryUse:
    next_number = max_tag_number(text) + 1
    parts: list[str] = []
    protected: list[tuple[str, str]] = []
    terms: dict[tuple[str, str], Term] = {}
    expected: dict[tuple[str, str, bool], Expected] = {}
    pos = 0
    for match in matches:
        surface = text[match.start:match.end]
        entry = match.entry
        parts.append(text[pos:match.start])
        if entry.dnt:
            placeholder = f"<s{next_number}/>"
            next_number += 1
            protected.append((placeholder, surface))
            parts.append(placeholder)
            key = (surface, surface, True)
            old = expected.get(key)
            expected[key] = Expected(surface, surface, True, True, (old.count if old else 0) + 1)
        else:
            parts.append(surface)
            terms.setdefault((entry.source.lower(), entry.target), Term(surface, entry.target))
            expected.setdefault((entry.source.lower(), entry.target, False),
                                Expected(surface, entry.target, entry.case_sensitive))
        pos = match.end
    parts.append(text[pos:])
    return GlossaryUse("".join(parts), tuple(terms.values()), tuple(protected), tuple(expected.values()))


class Glossary:
    """Every glossary of the run, resolved per target language on first use."""

    def __init__(self, entries: Sequence[Entry], *, source: Language | None = None,
                 digest: str = "") -> None:
        self.entries = tuple(entries)
        self.source = source
        self.digest = digest  # for translation-memory keys
        self._matchers: dict[str, Matcher] = {}

    def matcher(self, lang: Language) -> Matcher:
        matcher = self._matchers.get(lang.code)
        if matcher is None:
            source = self.source.code if self.source else None
            chosen: dict[tuple[str, bool], Entry] = {}
            for entry in self.entries:
                if entry.target_lang not in (None, lang.code) or entry.source_lang == lang.code:
                    continue
                if source is not None and entry.source_lang not in (None, source):
                    continue
                key = (entry.source if entry.case_sensitive else fold(entry.source), entry.case_sensitive)
                # A row for this very language beats a row for every language.
                if key not in chosen or (chosen[key].target_lang is None and entry.target_lang is not None):
                    chosen[key] = entry
            matcher = self._matchers[lang.code] = Matcher(chosen.values())
        return matcher

    def use(self, text: str, lang: Language) -> GlossaryUse | None:
        """The glossary's part in translating `text` into `lang`; None when no term occurs."""
        matches = self.matcher(lang).find(text)
        return _use(text, matches) if matches else None

    @staticmethod
    def check(request, output: str) -> Problem | None:
        """Validator: every expected term is in the (restored) output. Soft: the output is kept
        after the retry, and the misses are reported."""
        use = getattr(request, "glossary", None)
        if use is None:
            return None
        missed = use.misses(output)
        if not missed:
            return None
        names = ", ".join(f"{m.source!r} -> {m.target!r}" for m in missed)
        return Problem(f"glossary: {len(missed)} term(s) missed: {names}", retryable=True,
                       soft=True, severity=len(missed))


def tally(stats: GlossaryStats, segment: int, lang: str, uses: Iterable[tuple[GlossaryUse, str]]) -> None:
    """Count one translated segment's terms: `uses` pairs each piece's use with its output."""
    for use, output in uses:
        stats.expected += len(use.expected)
        for miss in use.misses(output):
            stats.missed += 1
            stats.misses.append(GlossaryMiss(segment, lang, miss.source, miss.target))
        stats.found = stats.expected - stats.missed


def _check_conflicts(entries: Sequence[Entry]) -> None:
    seen: dict[tuple, Entry] = {}
    for entry in entries:
        key = (entry.source if entry.case_sensitive else fold(entry.source), entry.case_sensitive,
               entry.source_lang, entry.target_lang)
        other = seen.get(key)
        if other is None:
            seen[key] = entry
        elif other.target != entry.target:
            lang = f" ({entry.target_lang})" if entry.target_lang else ""
            def show(e: Entry) -> str:
                return repr(e.target) if e.target else "do-not-translate"
            raise GlossaryError(f"{entry.origin}: {entry.source!r}{lang} -> {show(entry)} conflicts with "
                                f"{other.origin}: {other.source!r} -> {show(other)}")


def load_entries(path: Path) -> list[Entry]:
    """One glossary file, by suffix: .tsv, .csv, .json, .tbx (or .xml)."""
    loader = _LOADERS.get(path.suffix.lower())
    if loader is None:
        raise GlossaryError(f"{path}: unknown glossary format {path.suffix or '(no suffix)'!r}; "
                            "use .tsv, .csv, .json or .tbx")
    return loader(path)


def load_glossaries(paths: Sequence[Path], *, source: Language | None = None) -> Glossary:
    """Load and merge glossary files; conflicting entries (same term, same language, different
    target) are an error naming both places."""
    entries: list[Entry] = []
    digest = hashlib.sha256()
    for path in paths:
        entries.extend(load_entries(path))
    _check_conflicts(entries)
    for entry in entries:
        digest.update(repr((entry.source, entry.target, entry.target_lang, entry.source_lang,
                            entry.case_sensitive)).encode())
    return Glossary(entries, source=source, digest=digest.hexdigest()[:16])


__all__ = ["Entry", "Expected", "Glossary", "GlossaryError", "GlossaryUse", "Match", "Matcher",
           "at_word_edges", "fold", "select", "language_code", "load_entries", "load_glossaries", "tally"]
