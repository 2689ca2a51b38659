"""Translation memory exchange: TMX 1.4 and JSON lines, out for review and back in.

Exported entries carry their origin (model or import) and, for model output, the context
they were made in. Imported entries are reviewed translations: they win over model output.
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .cache import Entry
from .errors import InputError
from .languages import LANGUAGES

FORMATS = ("tmx", "jsonl")
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_UNDETERMINED = "und"  # BCP 47 for entries made with --from auto
_ALIASES = {"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "zh-cn": "zh", "zh-hans": "zh",
            "zh-sg": "zh", "fil": "tl"}
_BY_LOWER = {code.lower(): code for code in LANGUAGES}


def language_code(tag: str) -> str | None:
    """A TMX/BCP 47 tag as one of hymt's codes (`fr-FR` -> `fr`, `zh-TW` -> `zh-Hant`), or None."""
    lower = tag.strip().lower().replace("_", "-")
    if lower in _BY_LOWER:
        return _BY_LOWER[lower]
    if lower in _ALIASES:
        return _ALIASES[lower]
    return _BY_LOWER.get(lower.split("-")[0])


def write_jsonl(entries: Iterable[Entry], out) -> int:
    n = 0
    for e in entries:
        record = {"source": e.source, "target": e.target, "src_lang": e.src_lang, "tgt_lang": e.tgt_lang,
                  "origin": e.origin}
        if e.context:
            record["context"] = e.context
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        n += 1
    return n


def write_tmx(entries: Iterable[Entry], out) -> int:
    """TMX 1.4b: one <tu> per entry, the context as <prop>s."""
    from xml.sax.saxutils import escape, quoteattr

    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
              '  <header creationtool="hymt" creationtoolversion="1" segtype="paragraph" '
              'o-tmf="hymt.memory" adminlang="en" srclang="*all*" datatype="plaintext"/>\n  <body>\n')
    n = 0
    for e in entries:
        src = e.src_lang if e.src_lang != "auto" else _UNDETERMINED
        props = [f'      <prop type="x-hymt-origin">{escape(e.origin)}</prop>\n']
        for key, value in sorted((e.context or {}).items()):
            props.append(f'      <prop type="x-hymt-{escape(key)}">{escape(value)}</prop>\n')
        out.write(f"    <tu srclang={quoteattr(src)}>\n{''.join(props)}"
                  f"      <tuv xml:lang={quoteattr(src)}><seg>{escape(e.source)}</seg></tuv>\n"
                  f"      <tuv xml:lang={quoteattr(e.tgt_lang)}><seg>{escape(e.target)}</seg></tuv>\n"
                  f"    </tu>\n")
        n += 1
    out.write("  </body>\n</tmx>\n")
    return n


@dataclass(slots=True)
class ImportResult:
    entries: list[Entry]
    skipped: int = 0  # unknown languages, missing fields, inline markup


def read_entries(path: Path, fmt: str | None = None) -> ImportResult:
    """Entries from a TMX or JSONL file (format from the suffix unless given)."""
    fmt = fmt or ("tmx" if path.suffix.lower() == ".tmx" else "jsonl" if path.suffix.lower() in
                  (".jsonl", ".ndjson") else None)
    if fmt not in FORMATS:
        raise InputError(f"{path}: cannot tell the format; use --format tmx or jsonl")
    try:
        return _read_tmx(path) if fmt == "tmx" else _read_jsonl(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _read_jsonl(path: Path) -> ImportResult:
    result = ImportResult([])
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: line {number}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict):
                result.skipped += 1
                continue
            tgt = language_code(str(record.get("tgt_lang", "")))
            if tgt is None or not isinstance(record.get("source"), str) \
                    or not isinstance(record.get("target"), str) or not record["target"].strip():
                result.skipped += 1
                continue
            src = str(record.get("src_lang") or "auto")
            result.entries.append(Entry(record["source"], record["target"],
                                        language_code(src) or "auto", tgt))
    return result


def _read_tmx(path: Path) -> ImportResult:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise InputError(f"{path}: not valid TMX ({exc})") from None
    if root.tag != "tmx":
        raise InputError(f"{path}: not a TMX file (root element <{root.tag}>)")
    header = root.find("header")
    default_src = header.get("srclang", "*all*") if header is not None else "*all*"
    result = ImportResult([])
    for tu in root.iter("tu"):
        src_tag = tu.get("srclang", default_src)
        variants = []
        for tuv in tu.findall("tuv"):
            seg = tuv.find("seg")
            lang = tuv.get(_XML_LANG) or tuv.get("lang") or ""
            if seg is None or len(seg):  # inline TMX markup (<bpt>, <ph>...) is not ours
                variants.append((lang, None))
            else:
                variants.append((lang, seg.text or ""))
        if len(variants) < 2:
            result.skipped += 1
            continue
        source_index = next((i for i, (lang, _) in enumerate(variants) if lang.lower() == src_tag.lower()), 0)
        src_lang, source = variants[source_index]
        if source is None:
            result.skipped += 1
            continue
        src_code = language_code(src_lang) or "auto"
        for i, (lang, target) in enumerate(variants):
            if i == source_index:
                continue
            code = language_code(lang)
            if code is None or target is None or not target.strip():  # empty: not reviewed
                result.skipped += 1
                continue
            result.entries.append(Entry(source, target, src_code, code))
    return result


def iter_chunks(items: Iterable[Entry], size: int = 10_000) -> Iterator[list[Entry]]:
    chunk: list[Entry] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
