"""An XML member's text, decoded as it is unpacked, and what its prolog may not hold.

`xml_texts(archive, entry)` gives the member's codec (by its byte order mark, else its XML
declaration, else UTF-8; a BOM stays in the text as U+FEFF so that encoding gives the same
bytes back) and its text a chunk at a time. `check_prolog` refuses a member whose prolog
declares a DTD that could define entities or load a file (an internal subset, a SYSTEM or PUBLIC
identifier): no package part needs one (defusedxml refuses entities and external references
too), and nothing of it is ever read. A bare `<!DOCTYPE html>` (an HTML chunk a document embeds)
declares nothing and passes, as does XHTML's own `PUBLIC` doctype (never loaded); a part hymt
parses refuses any doctype (_xml_stream.py). A family whose parts carry a document type
declaration that names an external DTD (EPUB 2's NCX: `<!DOCTYPE ncx PUBLIC "..." "...">`, ODF's
macros: `<!DOCTYPE script:module PUBLIC ... "module.dtd">`) passes `external_dtd`: such a
declaration declares nothing itself and its DTD is never fetched; an internal subset (`[...]`)
is refused always.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ._archive import PackageError, ZipArchive, ZipEntry

_DECLARED = re.compile(rb"""\A(?:\xef\xbb\xbf)?<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_PROLOG_LIMIT = 1 << 20  # a prolog (declaration, comments, PIs) longer than this is refused


@dataclass(frozen=True, slots=True)
class XmlCodec:
    """How a member's bytes become text and back."""

    name: str  # a Python codec
    errors: str = "strict"

    def encode(self, text: str) -> bytes:
        return text.encode(self.name, self.errors)


def sniff_codec(head: bytes) -> XmlCodec:
    if head.startswith(codecs.BOM_UTF8):
        return XmlCodec("utf-8")
    if head.startswith((codecs.BOM_UTF16_LE, b"<\0?\0")):
        return XmlCodec("utf-16-le")
    if head.startswith((codecs.BOM_UTF16_BE, b"\0<\0?")):
        return XmlCodec("utf-16-be")
    declared = _DECLARED.match(head)
    if declared is None:
        return XmlCodec("utf-8")
    try:
        name = codecs.lookup(declared.group(1).decode("ascii")).name
    except LookupError:
        raise PackageError(f"declares the unknown encoding {declared.group(1)!r}") from None
    if name.startswith(("utf-16", "utf-32")):
        raise PackageError(f"declares {name} but has no byte order mark")
    return XmlCodec(name, "strict" if name.startswith("utf-") else "xmlcharrefreplace")


def xml_texts(archive: ZipArchive, entry: ZipEntry) -> tuple[XmlCodec, Iterator[str]]:
    """The member's codec and its text, a chunk at a time."""
    chunks = archive.chunks(entry)
    first = next(chunks, b"")
    codec = sniff_codec(first)

    def texts() -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(codec.name)("strict")
        try:
            yield decoder.decode(first)
            for chunk in chunks:
                yield decoder.decode(chunk)
            yield decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            raise PackageError(f"member {entry.name} is not valid {codec.name} ({exc.reason})") from None

    return codec, texts()


def looks_like_xml(head: bytes) -> bool:
    stripped = head.removeprefix(codecs.BOM_UTF8).lstrip()
    return stripped.startswith(b"<") or head.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, b"<\0", b"\0<")
    )


def check_prolog(archive: ZipArchive, entry: ZipEntry, *, external_dtd: bool = False) -> None:
    """Refuse a member whose prolog declares a DTD (`<!DOCTYPE`; with `external_dtd`, one with an
    internal subset); members that are no XML pass."""
    head = b""
    text = ""
    decoder: codecs.IncrementalDecoder | None = None
    for chunk in archive.chunks(entry, 1 << 14):
        if decoder is None:
            head += chunk
            if len(head) < 4 and len(head) < entry.size:
                continue
            if not looks_like_xml(head):
                return
            decoder = codecs.getincrementaldecoder(sniff_codec(head).name)("replace")
            text = decoder.decode(head)
        else:
            text += decoder.decode(chunk)
        verdict = _prolog_verdict(text, external_dtd)
        if verdict is not None:
            if verdict:
                raise PackageError(
                    f"member {entry.name} has a DTD (<!DOCTYPE ...>): DTDs and entities are refused"
                )
            return
        if len(text) > _PROLOG_LIMIT:
            raise PackageError(f"member {entry.name} has a prolog longer than {_PROLOG_LIMIT} characters")


_PROLOG_ITEM = re.compile(r"\ufeff?\s*(?:<\?.*?\?>|<!--.*?-->)", re.DOTALL)
_LITERAL = r"""(?:"[^"]*"|'[^']*')"""
# A document type declaration naming an external DTD at most: no internal subset, no entities.
EXTERNAL_DOCTYPE = re.compile(
    rf"<!DOCTYPE\s+[^\s\[\]<>\"']+(?:\s+(?:SYSTEM\s+{_LITERAL}|PUBLIC\s+{_LITERAL}(?:\s+{_LITERAL})?))?\s*>",
    re.IGNORECASE,
)


def _prolog_verdict(text: str, external_dtd: bool = False) -> bool | None:
    """True: the prolog declares a DTD that can define entities or load something (an internal
    subset `[...]`; without `external_dtd`, also a SYSTEM or PUBLIC identifier); False: it does
    not (`<!DOCTYPE html>`, or no doctype); None: read more to tell."""
    pos = 0
    while (item := _PROLOG_ITEM.match(text, pos)) is not None and item.end() > pos:
        pos = item.end()
    rest = text[pos:].lstrip("\ufeff \t\r\n")
    if len(rest) < 9 or rest.startswith(("<?", "<!--")):  # too short to tell, or an item cut short
        return None
    if rest[:9].upper() != "<!DOCTYPE":
        return False
    end = re.search(r"[\[>]", rest)
    if end is None:
        return None
    if end.group(0) == "[":
        return True
    declaration = rest[: end.start()]
    if external_dtd or re.match(r"<!DOCTYPE\s+html\b", declaration, re.IGNORECASE):
        return False  # HTML's and XHTML's own doctypes, or an external DTD: nothing is ever loaded
    return re.search(r"\b(?:SYSTEM|PUBLIC)\b", declaration) is not None
