"""An XML part read as a stream of pieces, its translatable blocks as small trees with offsets.

A package part can be far larger than memory should hold (a spreadsheet's shared strings, a
600-page document's body). `XmlScanner` is fed the part's text as it is unpacked and cuts it
into pieces between blocks: a *block* is an element a `BlockHandler` asks for (a paragraph, a
shape, a string item), collected whole as a `Node` tree whose offsets are in the piece's text;
everything outside blocks is only tracked (the open elements, their namespaces). When a piece
is long enough (`piece_chars`) and no block is open, the handler turns what it collected into
a `PartPiece` (pieces.py) and the scanner drops the piece's text.

Element names are resolved by namespace, not by the prefix a producer chose: a name in a
namespace listed in `namespaces` reads `prefix:local` with the listed prefix (`w:p` whatever the
document calls WordprocessingML), in another namespace `{uri}local`, in none `local`.

Untrusted input: a DTD (`<!DOCTYPE`) is refused, never read (with `external_dtd`, a declaration
that only names an external DTD is passed over: it declares nothing); entity references other than
XML's five and character references are refused where text is read (`unescape`); end tags
must match their start tags; a part that ends inside markup or an element is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from ._archive import PackageError, ZipArchive, ZipEntry
from ._xml_text import EXTERNAL_DOCTYPE, xml_texts
from .pieces import PartPiece

# One token at a time: a tag, a comment, CDATA, a processing instruction, a declaration, text.
# A tag's name and attributes are matched possessively: a tag cut short at the end of what has
# been read fails at once, where backtracking through its attributes would take exponential time.
_TOKEN = re.compile(
    r"<(?P<close>/)?(?P<name>[^\s/>!?]++)(?P<attrs>(?:[^>\"'/]++|\"[^\"]*+\"|'[^']*+'|/(?!>))*+)(?P<empty>/)?>"
    r"|(?P<comment><!--.*?-->)"
    r"|(?P<cdata><!\[CDATA\[.*?\]\]>)"
    r"|(?P<pi><\?.*?\?>)"
    r"|(?P<decl><![A-Za-z])"
    r"|(?P<text>[^<]+)",
    re.DOTALL,
)
_ATTR = re.compile(r"([^\s=/]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_XMLNS = re.compile(r"\bxmlns(?::([^\s=]+))?\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_REFERENCE = re.compile(r"&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z_][\w.-]*);|&")
_PREDEFINED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_XML_NS = "http://www.w3.org/XML/1998/namespace"


def unescape(raw: str) -> str:
    """The characters XML text or an attribute value stands for (CR LF stays as it is)."""
    if "&" not in raw:
        return raw

    def one(match: re.Match[str]) -> str:
        ref = match.group(1)
        if ref is None:
            raise PackageError("has a bare '&' in its XML text (not well-formed)")
        if ref.startswith("#"):
            code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
            if not 0 < code <= 0x10FFFF:
                raise PackageError(f"has an invalid character reference &{ref};")
            return chr(code)
        if ref not in _PREDEFINED:
            raise PackageError(f"refers to the entity &{ref}; (entities are refused)")
        return _PREDEFINED[ref]

    return _REFERENCE.sub(one, raw)


_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def escape_text(text: str) -> str:
    """Text for XML character data: markup characters escaped, characters XML forbids dropped
    (a model's answer is untrusted)."""
    text = _INVALID.sub("", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attribute(text: str) -> str:
    return escape_text(text).replace('"', "&quot;")


class Scope:
    """The namespaces in scope: prefix -> URI, and names resolved in it (cached)."""

    __slots__ = ("uris", "known", "_cache")

    def __init__(self, uris: Mapping[str, str], known: Mapping[str, str]) -> None:
        self.uris = uris
        self.known = known
        self._cache: dict[str, str] = {}

    def name(self, qname: str) -> str:
        found = self._cache.get(qname)
        if found is None:
            found = self._cache[qname] = self._resolve(qname, element=True)
        return found

    def attribute(self, qname: str) -> str:
        return self._resolve(qname, element=False)

    def _resolve(self, qname: str, *, element: bool) -> str:
        prefix, _, local = qname.rpartition(":")
        if not prefix and not element:
            return local  # an unprefixed attribute is in no namespace
        uri = _XML_NS if prefix == "xml" else self.uris.get(prefix)
        if uri is None:
            return qname if prefix else local
        if uri == _XML_NS:
            return f"xml:{local}"
        canonical = self.known.get(uri)
        return f"{canonical}:{local}" if canonical is not None else f"{{{uri}}}{local}"

    def declared(self, attrs: str) -> Scope:
        """The scope inside an element whose attributes are `attrs` (itself where they declare none)."""
        if "xmlns" not in attrs:
            return self
        uris = dict(self.uris)
        for prefix, double, single in _XMLNS.findall(attrs):
            uris[prefix or ""] = double or single
        return Scope(uris, self.known)


class Chars:
    """Character data in a block: text, CDATA, a comment or a processing instruction."""

    __slots__ = ("start", "end", "kind")

    def __init__(self, start: int, end: int, kind: str) -> None:
        self.start, self.end, self.kind = start, end, kind


class Node:
    """An element of a block: its resolved `name`, its source span (`start`..`end`), the span of
    its content (`inner`..`inner_end`, equal for `<x/>`) and its children in order."""

    __slots__ = ("name", "qname", "start", "inner", "inner_end", "end", "attrs_raw", "scope", "children")

    def __init__(self, name: str, qname: str, start: int, inner: int, attrs_raw: str, scope: Scope) -> None:
        self.name = name
        self.qname = qname
        self.start = start
        self.inner = inner
        self.inner_end = inner
        self.end = inner
        self.attrs_raw = attrs_raw
        self.scope = scope
        self.children: list[Node | Chars] = []

    def attrs(self) -> dict[str, str]:
        """Attributes by resolved name, their values unescaped."""
        out: dict[str, str] = {}
        for qname, double, single in _ATTR.findall(self.attrs_raw):
            if not qname.startswith("xmlns"):
                out[self.scope.attribute(qname)] = unescape(double or single)
        return out

    def get(self, name: str) -> str | None:
        """One attribute's value (resolved name: `w:val`, `lang`), or None."""
        if name.rpartition(":")[2] not in self.attrs_raw:
            return None
        return self.attrs().get(name)

    def elements(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child

    def child(self, name: str) -> Node | None:
        return next((c for c in self.elements() if c.name == name), None)

    def walk(self) -> Iterator[Node]:
        """This element and every element inside it, in document order."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed([c for c in node.children if isinstance(c, Node)]))

    def text(self, src: str) -> str:
        """The character data directly inside (CDATA as its content), unescaped."""
        out = []
        for child in self.children:
            if isinstance(child, Chars):
                raw = src[child.start : child.end]
                if child.kind == "text":
                    out.append(unescape(raw))
                elif child.kind == "cdata":
                    out.append(raw[9:-3])
        return "".join(out)


@dataclass(frozen=True, slots=True)
class Open:
    """An element open around the scanner's position, outside any block: its resolved name,
    its start tag's text and the namespaces in scope inside it."""

    name: str
    qname: str
    tag: str
    scope: Scope

    def get(self, name: str) -> str | None:
        for qname, double, single in _ATTR.findall(self.tag):
            if self.scope.attribute(qname) == name:
                return unescape(double or single)
        return None


class BlockHandler(Protocol):
    """What a part's reader asks for (a format's): which elements are blocks, what to make of
    each, and the piece made of the blocks collected since the last one."""

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool: ...

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        """A complete block; `src` is the piece's text so far (node offsets are in it)."""
        ...

    def piece(self, text: str) -> PartPiece:
        """The piece `text` (from the last cut), with what the blocks in it made."""
        ...


class XmlScanner:
    """Feeds a part's text through a `BlockHandler`, a piece at a time (`feed`)."""

    def __init__(
        self,
        handler: BlockHandler,
        namespaces: Mapping[str, str],
        piece_chars: int = 1 << 18,
        *,
        external_dtd: bool = False,
    ) -> None:
        self._handler = handler
        self._external_dtd = external_dtd
        self._piece_chars = piece_chars
        self._buffer = ""
        self._pos = 0
        self._path: list[Open] = []
        self._root_scope = Scope({}, namespaces)
        self._block: list[Node] = []  # the block being collected: its open elements
        self._seen_root = False

    def feed(self, text: str, *, final: bool = False) -> Iterator[PartPiece]:
        """More of the part's text (`final`: the end); the pieces complete so far. The last call
        always yields a piece, however short."""
        self._buffer += text
        while True:
            cut = self._advance(final)
            if cut is None:
                break
            yield self._cut(cut)
        if final:
            if self._pos < len(self._buffer):
                raise PackageError("is not well-formed XML (it ends inside markup)")
            if self._path or self._block:
                open_name = self._block[-1].qname if self._block else self._path[-1].qname
                raise PackageError(f"is not well-formed XML (<{open_name}> is never closed)")
            yield self._cut(self._pos)

    def _cut(self, at: int) -> PartPiece:
        text, self._buffer = self._buffer[:at], self._buffer[at:]
        self._pos -= at
        return self._handler.piece(text)

    def _advance(self, final: bool) -> int | None:
        """Read tokens; the offset of a cut once a piece is long enough (None: read on)."""
        buffer, match = self._buffer, _TOKEN.match
        pos = self._pos
        try:
            while pos < len(buffer):
                if not self._block and pos >= self._piece_chars:
                    return pos
                token = match(buffer, pos)
                if token is None or (token.lastgroup == "text" and token.end() == len(buffer) and not final):
                    if token is None and (final or len(buffer) - pos > (1 << 24)):
                        raise PackageError("is not well-formed XML (markup that never ends)")
                    return None
                if token.lastgroup == "decl" and self._external_dtd and not (self._path or self._block):
                    doctype = EXTERNAL_DOCTYPE.match(buffer, pos)
                    if doctype is None and not final and ">" not in buffer[pos:]:
                        return None
                    if doctype is not None:  # (names an external DTD at most: passed over)
                        pos = self._pos = doctype.end()
                        continue
                self._token(token)
                pos = token.end()
                self._pos = pos
            return None
        finally:
            self._pos = pos

    def _token(self, token: re.Match[str]) -> None:
        kind = token.lastgroup
        start, end = token.start(), token.end()
        if kind == "name" or kind == "attrs" or kind == "empty" or kind == "close":
            kind = "tag"
        if kind == "decl":
            raise PackageError("has a DTD (<!DOCTYPE ...>): DTDs and entities are refused")
        if kind != "tag":
            if self._block:
                self._block[-1].children.append(Chars(start, end, kind or "text"))
            return
        qname = token.group("name")
        if token.group("close"):
            self._end(qname, start, end)
            return
        attrs = token.group("attrs")
        scope = self._scope().declared(attrs)
        name = scope.name(qname)
        empty = token.group("empty") is not None
        if self._block:
            node = Node(name, qname, start, end, attrs, scope)
            self._block[-1].children.append(node)
            if not empty:
                self._block.append(node)
            return
        path = tuple(self._path)
        if self._handler.is_block(name, path):
            node = Node(name, qname, start, end, attrs, scope)
            if empty:
                self._handler.block(node, self._buffer, path)
            else:
                self._block.append(node)
            return
        if not empty:
            self._path.append(Open(name, qname, self._buffer[start:end], scope))

    def _scope(self) -> Scope:
        if self._block:
            return self._block[-1].scope
        return self._path[-1].scope if self._path else self._root_scope

    def _end(self, qname: str, start: int, end: int) -> None:
        if self._block:
            node = self._block.pop()
            if node.qname != qname:
                raise PackageError(f"is not well-formed XML (</{qname}> closes <{node.qname}>)")
            node.inner_end, node.end = start, end
            if not self._block:
                self._handler.block(node, self._buffer, tuple(self._path))
            return
        if not self._path or self._path[-1].qname != qname:
            raise PackageError(f"is not well-formed XML (</{qname}> closes nothing open)")
        self._path.pop()


def scan_member(
    archive: ZipArchive,
    entry: ZipEntry,
    handler: BlockHandler,
    namespaces: Mapping[str, str],
    *,
    limit: int,
    external_dtd: bool = False,
) -> None:
    """Feed a small member (a manifest, a container: read for what it lists, never translated)
    whole through `handler`; a member over `limit` bytes, or one that is no well-formed XML, is a
    `PackageError` naming it."""
    if entry.size > limit:
        raise PackageError(f"member {entry.name} is too large ({entry.size} bytes)")
    scanner = XmlScanner(handler, namespaces, external_dtd=external_dtd)
    _, texts = xml_texts(archive, entry)
    try:
        for text in texts:
            for _ in scanner.feed(text):
                pass
        for _ in scanner.feed("", final=True):
            pass
    except PackageError as exc:
        raise PackageError(f"member {entry.name} {exc}") from None
