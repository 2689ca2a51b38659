"""TBX glossaries: TBX-Basic (termEntry/langSet/tig/term) and TBX v3 (conceptEntry/langSec/termSec/term).

A concept serves every direction: each term is a source whose target in language T is the
concept's first term in T that is not deprecated. hymt conventions: `<termNote
type="doNotTranslate">yes</termNote>` (or `descrip`) keeps the terms verbatim;
`type="caseSensitive"` makes matching case-sensitive.

The XML is read by expat from the raw bytes, so its own encoding rules apply (UTF-8 or UTF-16,
by byte-order mark or declaration; 8-bit encodings by declaration). A DOCTYPE may name an
external DTD, which is never fetched; entity declarations are refused (no entity expansion
bombs, no external entities), as are entity references that cannot be resolved. TBX needs
none of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from xml.parsers import expat

from ._reading import read_bytes
from .entries import TRUE, Entry, GlossaryError, code_or_error, term

MAX_DEPTH = 64  # TBX nests about 8 deep; a deeper file is not a TBX file


@dataclass(slots=True)
class Node:
    """An element: local tag name, attributes, the line it starts on, and its content (text and
    child elements, in document order)."""

    tag: str
    attrs: dict[str, str]
    line: int
    content: list[str | Node] = field(default_factory=list)

    def iter(self, *tags: str) -> Iterator[Node]:
        """The descendants named `tags`, in document order."""
        stack = [c for c in reversed(self.content) if isinstance(c, Node)]
        while stack:
            node = stack.pop()
            if node.tag in tags:
                yield node
            stack.extend(c for c in reversed(node.content) if isinstance(c, Node))

    def all_text(self) -> str:
        """The text of the element and its descendants, in document order, stripped."""
        parts: list[str] = []
        stack: list[str | Node] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            else:
                stack.extend(reversed(item.content))
        return "".join(parts).strip()


def _local(tag: str) -> str:
    return tag.rsplit(":", 1)[-1] if ":" in tag and not tag.startswith("xml:") else tag


def parse_xml(path: Path, data: bytes) -> Node:
    """A minimal element tree with line numbers; see the module docstring for what is refused."""
    root = Node("#document", {}, 0)
    stack = [root]
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(what: str) -> NoReturn:
        raise GlossaryError(f"{path}:{parser.CurrentLineNumber}: {what} not allowed in a TBX glossary")

    def start(tag: str, attrs: dict[str, str]) -> None:
        if len(stack) > MAX_DEPTH:
            refuse(f"elements nested more than {MAX_DEPTH} deep are")
        node = Node(_local(tag), attrs, parser.CurrentLineNumber)
        stack[-1].content.append(node)
        stack.append(node)

    def external(*args: object) -> int:
        refuse("external entities are")

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    parser.CharacterDataHandler = lambda data: stack[-1].content.append(data)
    parser.EntityDeclHandler = lambda *args: refuse("entity declarations are")
    parser.UnparsedEntityDeclHandler = lambda *args: refuse("entity declarations are")
    parser.SkippedEntityHandler = lambda name, is_parameter: refuse(f"the undefined entity &{name}; is")
    parser.ExternalEntityRefHandler = external
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise GlossaryError(f"{path}:{exc.lineno}: invalid XML: {expat.ErrorString(exc.code)}") from None
    except (LookupError, ValueError) as exc:  # a declared encoding expat cannot use (GBK, Shift_JIS ...)
        raise GlossaryError(
            f"{path}:1: unsupported XML encoding ({exc}); save the file as UTF-8 or UTF-16"
        ) from None
    return root


def _note(node: Node, kind: str) -> str | None:
    for note in node.iter("termNote", "descrip"):
        if note.attrs.get("type") == kind:
            return note.all_text().lower()
    return None


@dataclass(frozen=True, slots=True)
class _Term:
    lang: str
    text: str
    usable: bool  # as a target: not deprecated
    where: str


def _concept_terms(concept: Node, path: Path) -> list[_Term]:
    terms = []
    for lang_set in concept.iter("langSet", "langSec"):
        raw = lang_set.attrs.get("xml:lang") or lang_set.attrs.get("lang")
        if not raw:
            raise GlossaryError(f"{path}:{lang_set.line}: {lang_set.tag} without xml:lang")
        code = code_or_error(raw, f"{path}:{lang_set.line}")
        for holder in lang_set.iter("tig", "ntig", "termSec"):
            usable = "deprecated" not in (_note(holder, "administrativeStatus") or "")
            for node in holder.iter("term"):
                where = f"{path}:{node.line}"
                terms.append(_Term(code, term(node.all_text(), where, "term"), usable, where))
    if not terms:
        raise GlossaryError(f"{path}:{concept.line}: {concept.tag} has no terms")
    return terms


def concept_entries(concept: Node, path: Path) -> list[Entry]:
    """Each term of the concept to the preferred term of every other language (or kept)."""
    dnt = _note(concept, "doNotTranslate") in TRUE
    case_sensitive = (_note(concept, "caseSensitive") or "") in TRUE
    terms = _concept_terms(concept, path)
    if dnt:
        return [Entry(t.text, "", None, t.lang, case_sensitive, t.where) for t in terms]
    preferred: dict[str, str] = {}
    for t in terms:
        if t.usable:
            preferred.setdefault(t.lang, t.text)
    return [
        Entry(t.text, target, lang, t.lang, case_sensitive, t.where)
        for t in terms
        for lang, target in preferred.items()
        if lang != t.lang
    ]


def load_tbx(path: Path) -> list[Entry]:
    """Every entry of a TBX glossary, each concept in every direction (see the module docstring)."""
    root = parse_xml(path, read_bytes(path))
    concepts = list(root.iter("termEntry", "conceptEntry"))
    if not concepts:
        top = next((c.tag for c in root.content if isinstance(c, Node)), "nothing")
        raise GlossaryError(
            f"{path}:1: not a TBX glossary: no termEntry (TBX-Basic) or conceptEntry (TBX v3) under <{top}>"
        )
    return [entry for concept in concepts for entry in concept_entries(concept, path)]
