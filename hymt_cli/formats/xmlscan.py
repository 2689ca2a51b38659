"""XML read as untrusted input, event by event, with the offset of every event in the text.

Resource formats (XLIFF, Android `strings.xml`, `.stringsdict` plists) are spliced, never
re-serialised: what they need from a parser is where each start tag, end tag, text run,
CDATA section and comment lies in the source. `xml.parsers.expat` reports the byte index
of every event; `scan` turns those into offsets in the decoded text (an event ends where
the next begins).

Nothing is fetched or expanded. An internal entity of the document's own DTD subset
(`<!ENTITY app_name "Termux">`, as Android projects declare an app's name) is taken as it is:
its references stay literal in the text, each a `skipped` event whose source is `&app_name;`
(a placeholder for the formats), as is an undeclared entity in a document with an external
DTD. Refused with one line, as defusedxml refuses them: external and unparsed entities,
parameter entities, and an entity whose value refers to another one (the billion-laughs attack
nests them) or is longer than `ENTITY_VALUE_LIMIT` (expat still expands references in
attribute values). External DTDs are never read.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal
from xml.parsers import expat

from .base import Decoded, DocumentDecodeError, FormatError

EventKind = Literal["start", "end", "text", "cdata_start", "cdata_end", "comment", "skipped", "pi", "doctype"]


@dataclass(frozen=True, slots=True)
class XmlEvent:
    """One event: `text[start:end]` is its source. `data`: the characters a text event reads
    as (entities and character references decoded, CR LF as LF); a comment's text."""

    kind: EventKind
    start: int
    end: int
    name: str = ""
    attrs: Mapping[str, str] = field(default_factory=dict)
    data: str = ""
    empty: bool = False  # a start tag written `<x/>` (its end event has no source of its own)


class _Refused(Exception):
    pass


def _refuse(reason: str) -> Callable[..., None]:
    def handler(*_: object) -> None:
        raise _Refused(reason)

    return handler


def _refuse_external(_context: str, _base: str | None, _system: str | None, _public: str | None) -> int:
    raise _Refused("external XML entities are not allowed")


ENTITY_VALUE_LIMIT = 1024
# A reference to an entity other than XML's five (the replacement text has its character
# references undone already; a parameter entity cannot be referred to in an internal subset).
_NESTING = re.compile(r"&(?!(?:amp|lt|gt|quot|apos);)[A-Za-z_:][\w.:-]*;")


class _Entities:
    """The internal general entities a document declares: their references stay literal."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def declare(
        self,
        name: str,
        is_parameter: bool,
        value: str | None,
        _base: str | None,
        _system: str | None,
        _public: str | None,
        notation: str | None,
    ) -> None:
        if is_parameter:
            raise _Refused("XML parameter entities are not allowed")
        if value is None or notation is not None:
            raise _Refused("external XML entities are not allowed")
        if _NESTING.search(value):
            raise _Refused(f"the XML entity {name!r} refers to another entity (not allowed)")
        if len(value) > ENTITY_VALUE_LIMIT:
            raise _Refused(f"the XML entity {name!r} is longer than {ENTITY_VALUE_LIMIT} characters")
        self.names.add(name)

    def reference(self, data: str) -> str | None:
        """The entity `data` refers to when it is a reference to a declared one (`&name;`)."""
        if data.startswith("&") and data.endswith(";") and data[1:-1] in self.names:
            return data[1:-1]
        return None


def scan(text: str) -> list[XmlEvent]:
    """Every event of `text`, in order; FormatError (with line and column) when it is not
    well-formed XML or declares entities other than plain internal ones."""
    data = text.encode("utf-8", "surrogatepass")
    parser = expat.ParserCreate(encoding="UTF-8")
    parser.buffer_text = False
    raw: list[tuple[EventKind, int, str, dict[str, str], str]] = []

    def add(kind: EventKind, name: str = "", attrs: dict[str, str] | None = None, payload: str = "") -> None:
        raw.append((kind, parser.CurrentByteIndex, name, attrs or {}, payload))

    parser.StartElementHandler = lambda name, attrs: add("start", name, attrs)
    parser.EndElementHandler = lambda name: add("end", name)
    parser.CharacterDataHandler = lambda chars: add("text", payload=chars)
    parser.StartCdataSectionHandler = lambda: add("cdata_start")
    parser.EndCdataSectionHandler = lambda: add("cdata_end")
    parser.CommentHandler = lambda chars: add("comment", payload=chars)
    parser.SkippedEntityHandler = lambda name, _is_param: add("skipped", name)
    parser.ProcessingInstructionHandler = lambda target, _data: add("pi", target)
    entities = _Entities()
    parser.EntityDeclHandler = entities.declare
    parser.UnparsedEntityDeclHandler = _refuse("external XML entities are not allowed")
    parser.ExternalEntityRefHandler = _refuse_external

    def unexpanded(data: str) -> None:  # a default handler: internal entities are not expanded
        name = entities.reference(data)
        if name is not None:
            add("skipped", name)

    parser.DefaultHandler = unexpanded
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        line, column = exc.lineno, _column(data, exc.lineno, exc.offset)
        raise FormatError(f"line {line}, column {column}: {expat.ErrorString(exc.code)}") from None
    except _Refused as exc:
        line, column = (
            parser.CurrentLineNumber,
            _column(data, parser.CurrentLineNumber, parser.CurrentColumnNumber),
        )
        raise FormatError(f"line {line}, column {column}: {exc}") from None
    return _events(text, data, raw)


def _column(data: bytes, line: int, byte_column: int) -> int:
    """expat counts columns in bytes: the 1-based column in characters."""
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start) + 1
    return len(data[start : start + byte_column].decode("utf-8", "ignore")) + 1


def _events(
    text: str, data: bytes, raw: list[tuple[EventKind, int, str, dict[str, str], str]]
) -> list[XmlEvent]:
    ascii_only = len(data) == len(text)
    last_byte = last_char = 0

    def char_offset(byte: int) -> int:
        nonlocal last_byte, last_char
        if ascii_only:
            return byte
        if byte < last_byte:  # never in practice: events come in order
            last_byte = last_char = 0
        last_char += len(data[last_byte:byte].decode("utf-8", "surrogatepass"))
        last_byte = byte
        return last_char

    starts = [char_offset(index) for _, index, _, _, _ in raw]
    events: list[XmlEvent] = []
    for i, (kind, _, name, attrs, payload) in enumerate(raw):
        start = starts[i]
        if i + 1 < len(raw):
            end = starts[i + 1]
        else:  # the root's end tag: up to its `>`
            close = text.find(">", start)
            end = close + 1 if close >= 0 else len(text)
        events.append(XmlEvent(kind, start, end, name, attrs, payload))
    for i, event in enumerate(events):  # `<x/>`: the end event has no source of its own
        if event.kind == "end" and event.start == event.end and i and events[i - 1].kind == "start":
            previous = events[i - 1]
            events[i - 1] = XmlEvent(
                "start", previous.start, previous.end, previous.name, previous.attrs, empty=True
            )
    return events


_DECLARED = re.compile(rb"""\A<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def decode_xml(data: bytes) -> Decoded:
    """An XML document's text: by its byte order mark, else its declared encoding, else UTF-8.
    The BOM stays in the text, so that encoding gives back the same bytes; characters that
    the encoding lacks are written as character references."""
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8"
    elif data.startswith(codecs.BOM_UTF16_LE):
        encoding = "utf-16-le"
    elif data.startswith(codecs.BOM_UTF16_BE):
        encoding = "utf-16-be"
    elif data.startswith(b"<\0?\0"):
        encoding = "utf-16-le"
    elif data.startswith(b"\0<\0?"):
        encoding = "utf-16-be"
    else:
        declared = _DECLARED.match(data)
        encoding = declared.group(1).decode("ascii").lower() if declared else "utf-8"
        try:
            encoding = codecs.lookup(encoding).name
        except LookupError:
            raise DocumentDecodeError(f"unknown encoding {encoding!r} in the XML declaration") from None
        if encoding.startswith(("utf-16", "utf-32")):
            raise DocumentDecodeError(f"declares {encoding} but has no byte order mark")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {encoding} ({exc.reason})", exc.start) from None
    errors = "strict" if encoding.startswith("utf-") else "xmlcharrefreplace"
    return Decoded(text, encoding, errors)


def escape_attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
