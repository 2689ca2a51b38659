"""Reading a translation memory file back in: JSON lines and TMX 1.4 (what exchange.py writes,
and what CAT tools export). See exchange.py for what is refused and what is skipped."""

from __future__ import annotations

import json
import re
import xml.parsers.expat as expat
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..errors import InputError, UsageError
from ..text.languages import language
from .store import Entry, is_unicode

MAX_RECORD_BYTES = 8 << 20  # one JSON line or one <seg>: far above any paragraph a model translates
XML_LANG = "xml:lang"
UNDETERMINED = "und"  # BCP 47 for entries made with --from auto
CHAR_TYPE = "x-hymt-char"  # <ph type=...>U+001B</ph>: a character XML cannot carry
CHAR_CODE = re.compile(r"U\+([0-9A-F]{4,6})")


def language_code(tag: str) -> str | None:
    """A TMX/BCP 47 tag as the memory knows targets (Language.memory_code): `fr-FR` -> fr,
    `zh-TW` -> zh-Hant (CLDR's likely subtags: the language's own locale), `pt-PT` -> pt-PT
    (a translation for Portugal serves pt-PT, never pt-BR); None when no HY-MT language writes it."""
    try:
        return language(tag).memory_code
    except UsageError:
        return None


@dataclass(slots=True)
class Skips:
    """Entries left out on import, by reason, with where the first of each was."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)

    def add(self, reason: str, where: str, count: int = 1) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + count
        self.first.setdefault(reason, where)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def describe(self) -> str:
        """`2 unknown language (first: line 4, 'xx'); 1 empty target (first: line 9)`"""
        return "; ".join(f"{n} {reason} (first: {self.first[reason]})" for reason, n in self.counts.items())


@dataclass(slots=True)
class ImportResult:
    entries: list[Entry]
    skips: Skips = field(default_factory=Skips)

    @property
    def skipped(self) -> int:
        return self.skips.total

    def describe_skipped(self) -> str:
        return f"skipped {self.skipped}: {self.skips.describe()}" if self.skipped else ""


def read_jsonl(path: Path, handle: BinaryIO) -> ImportResult:
    result = ImportResult([])
    number = 0
    while raw := handle.readline(MAX_RECORD_BYTES + 1):
        number += 1
        if len(raw) > MAX_RECORD_BYTES:
            raise InputError(
                f"{path}: line {number}: longer than {MAX_RECORD_BYTES >> 20} MiB, "
                "not a translation memory entry"
            )
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{path}: line {number}: not UTF-8 (byte 0x{raw[exc.start]:02x} at byte "
                f"{exc.start + 1} of the line)"
            ) from None
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError:
            raise InputError(f"{path}: line {number}: JSON nested too deeply") from None
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}: not JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:  # e.g. an integer beyond Python's digit limit
            raise InputError(f"{path}: line {number}: not usable JSON ({exc})") from None
        made = _jsonl_entry(record)
        if isinstance(made, Entry):
            result.entries.append(made)
        else:
            reason, detail = made
            result.skips.add(reason, f"line {number}" + (f", {detail}" if detail else ""))
    return result


def _jsonl_entry(record: object) -> Entry | tuple[str, str]:
    """The entry of one JSON line, or why it is skipped (reason, detail)."""
    if not isinstance(record, dict):
        return "not a JSON object", type(record).__name__
    for name in ("source", "target", "tgt_lang"):
        if not isinstance(record.get(name), str):
            return f"'{name}' missing or not a string", ""
    source, target, tgt_lang = record["source"], record["target"], record["tgt_lang"]
    src_lang = record.get("src_lang")
    if src_lang is not None and not isinstance(src_lang, str):
        return "'src_lang' not a string", ""
    return _entry(source, target, src_lang or "auto", tgt_lang)


def _entry(source: str, target: str, src_tag: str, tgt_tag: str) -> Entry | tuple[str, str]:
    tgt = language_code(tgt_tag)
    if tgt is None:
        return "unknown language", repr(tgt_tag)
    if not target.strip():
        return "empty target", ""
    if not source:
        return "empty source", ""
    if not (is_unicode(source) and is_unicode(target)):
        return "lone surrogate in the text", ""
    return Entry(source, target, language_code(src_tag) or "auto", tgt)


class _Refused(Exception):
    """The TMX is unusable as a whole (raised inside expat's callbacks)."""


@dataclass(slots=True)
class _Variant:
    lang: str
    text: str | None = None  # None: no <seg>
    problem: str | None = None  # inline markup, a bad placeholder


@dataclass(slots=True)
class _Unit:
    line: int
    srclang: str | None
    variants: list[_Variant] = field(default_factory=list)


class _TmxReader:
    """Streams a TMX file through expat: memory stays bounded by one <tu>."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.result = ImportResult([])
        self.header_srclang: str | None = None
        self.stack: list[str] = []
        self.root_seen = False
        self.unit: _Unit | None = None
        self.variant: _Variant | None = None
        self.seg: list[str] | None = None  # text of the open <seg>
        self.seg_size = 0
        self.placeholder: list[str] | None = None  # text of an open x-hymt-char <ph>
        self.inline_depth = 0  # open elements inside <seg>
        parser = self.parser = expat.ParserCreate()
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity_declaration
        parser.ExternalEntityRefHandler = self._external_entity
        parser.SkippedEntityHandler = self._skipped_entity
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text

    def _where(self) -> str:
        return f"line {self.parser.CurrentLineNumber}"

    # -- DTDs and entities: refused, never expanded, never fetched
    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, has_internal_subset: int
    ) -> None:
        if has_internal_subset:
            raise _Refused(
                f"{self._where()}: a DOCTYPE with declarations (an internal DTD subset) is not "
                "accepted: entities are never expanded"
            )

    def _entity_declaration(self, name: str, *rest: object) -> None:
        raise _Refused(f"{self._where()}: entity declaration <!ENTITY {name} ...> is not accepted")

    def _external_entity(
        self, context: str, base: str | None, system_id: str | None, public_id: str | None
    ) -> int:
        raise _Refused(f"{self._where()}: external entity {system_id!r} is not read")

    def _skipped_entity(self, name: str, is_parameter_entity: int) -> None:
        raise _Refused(
            f"{self._where()}: entity &{name}; is not defined in the file (external DTDs are not read)"
        )

    # -- elements
    def _start(self, name: str, attrs: dict[str, str]) -> None:
        if not self.root_seen:
            if name != "tmx":
                raise _Refused(f"not a TMX file (root element <{name}>)")
            self.root_seen = True
        self.stack.append(name)
        if self.seg is not None:  # inside <seg>: inline markup
            self.inline_depth += 1
            if (
                name == "ph"
                and attrs.get("type") == CHAR_TYPE
                and self.inline_depth == 1
                and self.placeholder is None
            ):
                self.placeholder = []
            elif self.variant is not None:
                self.variant.problem = "inline markup in <seg>"
            return
        if name == "header":
            self.header_srclang = attrs.get("srclang")
        elif name == "tu":
            self.unit = _Unit(self.parser.CurrentLineNumber, attrs.get("srclang"))
        elif name == "tuv" and self.unit is not None:
            self.variant = _Variant(attrs.get(XML_LANG) or attrs.get("lang") or "")
            self.unit.variants.append(self.variant)
        elif name == "seg" and self.variant is not None:
            self.seg, self.seg_size = [], 0

    def _end(self, name: str) -> None:
        self.stack.pop()
        if self.seg is not None and self.inline_depth:
            self.inline_depth -= 1
            if self.placeholder is not None and self.inline_depth == 0:
                self._close_placeholder()
            return
        if name == "seg" and self.seg is not None and self.variant is not None:
            self.variant.text = "".join(self.seg)
            self.seg = None
        elif name == "tuv":
            self.variant = None
        elif name == "tu" and self.unit is not None:
            self._settle(self.unit)
            self.unit = None

    def _close_placeholder(self) -> None:
        assert self.placeholder is not None and self.seg is not None and self.variant is not None
        match = CHAR_CODE.fullmatch("".join(self.placeholder).strip())
        code = int(match.group(1), 16) if match else -1
        if 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            self.seg.append(chr(code))
        else:
            self.variant.problem = f'malformed <ph type="{CHAR_TYPE}">'
        self.placeholder = None

    def _text(self, data: str) -> None:
        if self.placeholder is not None:
            self.placeholder.append(data)
        elif self.seg is not None and not self.inline_depth:
            self.seg_size += len(data)
            if self.seg_size > MAX_RECORD_BYTES:
                raise _Refused(
                    f"{self._where()}: a <seg> longer than {MAX_RECORD_BYTES >> 20} MiB, "
                    "not a translation memory entry"
                )
            self.seg.append(data)

    def _settle(self, unit: _Unit) -> None:
        """The entries of one <tu>: its source <tuv> against each of the others."""
        skips, where = self.result.skips, f"line {unit.line}"
        if len(unit.variants) < 2:
            skips.add("fewer than two <tuv>", where)
            return
        src_tag = unit.srclang or self.header_srclang
        if not src_tag:
            skips.add("no srclang on <tu> or <header>", where)
            return
        index = _source_index(unit.variants, src_tag)
        if index is None:
            skips.add("no <tuv> in the source language", f"{where}, srclang {src_tag!r}")
            return
        source = unit.variants[index]
        if source.text is None or source.problem:
            skips.add(source.problem or "no <seg>", where)
            return
        for i, variant in enumerate(unit.variants):
            if i == index:
                continue
            if variant.text is None or variant.problem:
                skips.add(variant.problem or "no <seg>", where)
                continue
            made = _entry(source.text, variant.text, source.lang, variant.lang)
            if isinstance(made, Entry):
                self.result.entries.append(made)
            else:
                reason, detail = made
                skips.add(reason, where + (f", {detail}" if detail else ""))

    def read(self, handle: BinaryIO) -> ImportResult:
        try:
            while chunk := handle.read(1 << 20):
                self.parser.Parse(chunk, False)
            try:
                self.parser.Parse(b"", True)
            except expat.ExpatError as exc:  # at the end of the file
                if not self.root_seen:
                    raise InputError(f"{self.path}: empty, no XML element") from None
                if self.stack:
                    raise InputError(
                        f"{self.path}: line {exc.lineno}: the file ends inside <{self.stack[-1]}> "
                        "(truncated?)"
                    ) from None
                raise
        except _Refused as exc:
            raise InputError(f"{self.path}: {exc}") from None
        except expat.ExpatError as exc:
            raise InputError(
                f"{self.path}: line {exc.lineno}, column {exc.offset + 1}: not well-formed XML "
                f"({expat.ErrorString(exc.code)})"
            ) from None
        return self.result


def _source_index(variants: list[_Variant], src_tag: str) -> int | None:
    """The source <tuv>: the one in `srclang` (`*all*`: the first, as written by hymt and most tools)."""
    if src_tag.strip().lower() == "*all*":
        return 0
    wanted = src_tag.strip().lower()
    for i, variant in enumerate(variants):
        if variant.lang.strip().lower() == wanted:
            return i
    code = language_code(src_tag)
    if code is None:
        return None
    return next((i for i, v in enumerate(variants) if language_code(v.lang) == code), None)


def read_tmx(path: Path, handle: BinaryIO) -> ImportResult:
    return _TmxReader(path).read(handle)
