"""TBX glossaries: TBX-Basic (termEntry/langSet/tig/term) and TBX v3 (conceptEntry/langSec/termSec/term)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from .entries import TRUE, Entry, GlossaryError, code_or_error
from .reading import read_text


@dataclass(slots=True)
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""

    def iter(self, *tags: str) -> Iterator[_Node]:
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

    def refuse(*args: object) -> None:
        raise GlossaryError(f"{path}:{parser.CurrentLineNumber}: entity declarations are not allowed in TBX")

    def refuse_external() -> int:
        refuse()
        return 0

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = lambda *args: refuse_external()
    try:
        parser.Parse(read_text(path).encode("utf-8"), True)
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


def load_tbx(path: Path) -> list[Entry]:
    """A concept serves every direction: each term is a source whose target in language T is the
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
        dnt = _note(concept, "doNotTranslate") in TRUE
        case_sensitive = (_note(concept, "caseSensitive") or "") in TRUE
        terms: list[tuple[str, str, bool, str]] = []  # lang, term, usable as target, where
        for lang_set in concept.iter("langSet", "langSec"):
            raw = lang_set.attrs.get("xml:lang") or lang_set.attrs.get("lang")
            if not raw:
                raise GlossaryError(f"{path}:{lang_set.line}: {lang_set.tag} without xml:lang")
            code = code_or_error(raw, f"{path}:{lang_set.line}")
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
