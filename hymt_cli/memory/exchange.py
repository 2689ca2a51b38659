"""Translation memory exchange: TMX 1.4 and JSON lines, out for review and back in.

Exported entries carry their origin (model or import) and, for model output, the context
they were made in. Imported entries are reviewed translations: they win over model output.

Export -> import is lossless for any text the memory holds (any Unicode text):
- JSON lines carry every character (JSON escapes the control characters).
- XML 1.0, and so TMX, cannot carry the C0 controls other than tab, LF and CR, nor U+FFFE
  and U+FFFF. Each is exported as the inline placeholder `<ph type="x-hymt-char">U+001B</ph>`
  (TMX's element for codes that are not text, kept by CAT tools) and imported back as the
  character. CR is exported as `&#13;`, since XML readers turn a raw CR into LF.

Import refuses a file that is unusable as a whole, with one line naming the file and the
line, and imports nothing from it: not UTF-8, a line that is not JSON, a record over
MAX_RECORD_BYTES, XML that is not well-formed or truncated, a root other than <tmx>, a DTD
with declarations (entity expansion attacks), an entity reference hymt cannot resolve
(external DTDs and entities are never read). Entries it cannot use are skipped and
counted by reason, with the line of the first: a JSON line that is not an object, a
missing or non-string field, an unknown language, an empty target (not translated), no
source language, inline markup in <seg> (codes hymt would have to invent a meaning for).
A file of which no entry is usable is an error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from ..errors import InputError, OutputError
from ..outputs.atomic import open_text_atomically
from ..reporting.report import unicode_text
from .importing import CHAR_TYPE, UNDETERMINED, ImportResult, read_jsonl, read_tmx
from .store import Entry

FORMATS = ("tmx", "jsonl")


class TextOut(Protocol):
    """Where an export is written: a text file or the guarded stdout."""

    def write(self, text: str, /) -> object: ...


# -- export ---------------------------------------------------------------------------------------
def write_jsonl(entries: Iterable[Entry], out: TextOut) -> int:
    n = 0
    for e in entries:
        record: dict[str, str | dict[str, str]] = {
            "source": e.source,
            "target": e.target,
            "src_lang": e.src_lang,
            "tgt_lang": e.tgt_lang,
            "origin": e.origin,
        }
        if e.context:
            record["context"] = {key: unicode_text(value) for key, value in e.context.items()}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        n += 1
    return n


# Characters XML 1.0 cannot carry, plus those that need escaping in element content.
_SEG_SPECIAL = re.compile("[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}


def _seg_char(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f'<ph type="{CHAR_TYPE}">U+{ord(char):04X}</ph>'


def _prop_char(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"U+{ord(char):04X}"  # informative only: import ignores <prop>s


def _xml_attr(text: str) -> str:
    return '"' + text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") + '"'


def write_tmx(entries: Iterable[Entry], out: TextOut) -> int:
    """TMX 1.4b: one <tu> per entry, the context as <prop>s."""
    out.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
        '  <header creationtool="hymt" creationtoolversion="1" segtype="paragraph" '
        'o-tmf="hymt.memory" adminlang="en" srclang="*all*" datatype="plaintext"/>\n  <body>\n'
    )
    n = 0
    for e in entries:
        src = _xml_attr(e.src_lang if e.src_lang != "auto" else UNDETERMINED)
        props = [f'      <prop type="x-hymt-origin">{_SEG_SPECIAL.sub(_prop_char, e.origin)}</prop>\n']
        for key, value in sorted((e.context or {}).items()):
            props.append(
                f"      <prop type={_xml_attr('x-hymt-' + key)}>"
                f"{_SEG_SPECIAL.sub(_prop_char, unicode_text(value))}</prop>\n"
            )
        out.write(
            f"    <tu srclang={src}>\n{''.join(props)}"
            f"      <tuv xml:lang={src}><seg>{_SEG_SPECIAL.sub(_seg_char, e.source)}</seg></tuv>\n"
            f"      <tuv xml:lang={_xml_attr(e.tgt_lang)}><seg>{_SEG_SPECIAL.sub(_seg_char, e.target)}"
            f"</seg></tuv>\n    </tu>\n"
        )
        n += 1
    out.write("  </body>\n</tmx>\n")
    return n


def export(entries: Iterable[Entry], fmt: str, out: TextOut) -> int:
    """Write `entries` as `fmt` (tmx or jsonl); returns how many."""
    return (write_tmx if fmt == "tmx" else write_jsonl)(entries, out)


def export_to_file(entries: Iterable[Entry], fmt: str, path: Path) -> int:
    """`export` into `path`, which appears only, and whole, when every entry is written."""
    try:
        with open_text_atomically(path) as handle:
            return export(entries, fmt, handle)
    except OSError as exc:
        raise OutputError(
            f"{path}: cannot write the export: {_write_problem(path, exc)}",
            hint="nothing was written there; pick another -o path",
        ) from None


def _write_problem(path: Path, exc: OSError) -> str:
    for folder in path.parents:  # nearest first
        if folder.exists():
            if not folder.is_dir():  # mkdir says "File exists", which misleads
                return f"{folder} is a file, not a folder"
            break
    return exc.strerror or str(exc)


# -- import ---------------------------------------------------------------------------------------
def read_entries(path: Path, fmt: str | None = None) -> ImportResult:
    """Entries from a TMX or JSONL file (format from the suffix unless given).

    Raises InputError (one line: file, line, what is wrong) for a file unusable as a whole,
    or of which no entry is usable; see the module docstring for what is skipped instead."""
    fmt = fmt or (
        "tmx"
        if path.suffix.lower() == ".tmx"
        else "jsonl"
        if path.suffix.lower() in (".jsonl", ".ndjson")
        else None
    )
    if fmt not in FORMATS:
        raise InputError(f"{path}: cannot tell the format; use --format tmx or jsonl")
    try:
        with path.open("rb") as handle:
            result = read_tmx(path, handle) if fmt == "tmx" else read_jsonl(path, handle)
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not result.entries and result.skipped:
        raise InputError(f"{path}: no usable entries; {result.describe_skipped()}")
    return result
