"""A paragraph's content as a flat list of atoms: the model of a sentence made of runs.

Each atom is one thing a reader meets in order: text (with the properties of its run), a line
break, something inside a run that is no text (a tab, a footnote reference, a drawing: a
*special*), something beside the runs (a bookmark, a deletion, an equation: an *element*),
the opening or closing of what wraps runs (a hyperlink, an insertion, a content control, a
field's code before its result). Atoms keep source spans, never copies: a drawing that holds a
text box is written back through the splice's `source`, with the text box translated.

A complex field is `begin` .. code .. `separate` .. result .. `end`, possibly over several runs:
where all of its marks sit at one level of one paragraph, code and marks become an opening and
a closing around the result (the result is translated, the code never); elsewhere each mark and
each piece of code is a special. Deleted and moved-from text are elements: kept as they are.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from ..package import Node, PackageError
from ._dialects import Dialect

AtomKind = Literal["text", "break", "special", "element", "open", "close"]

# Source text a model could take for one of its tags: kept as a placeholder.
_TAG_LIKE = re.compile(r"</?s\d+\s*/?>|</?(?:target|source|sn)\s*/?>|</?s\d*\b[^<>]*>?", re.IGNORECASE)


@dataclass(slots=True)
class Atom:
    kind: AtomKind
    start: int  # the atom's own markup (a run's child, or a paragraph's child)
    end: int
    text: str = ""  # what the reader sees (text, a break's "\n")
    props: tuple[int, int] | None = None  # the span of its run's properties (None: none)
    key: object = None  # its run's formatting, as far as it is formatting
    in_run: bool = False  # written inside a run of its properties
    pair: int = -1  # an opening's closing (index), and back
    scope: int = -1  # the opening it lies inside (-1: the paragraph)
    # Atoms merged into this one (a field's marks and code), written back each as it was.
    parts: list[Atom] = field(default_factory=list)
    opener: Atom | None = None  # a closing's opening


@dataclass(slots=True)
class Inline:
    """A paragraph's atoms, and the span of its content (what is written anew)."""

    atoms: list[Atom] = field(default_factory=list)
    start: int = -1
    end: int = -1
    bare: bool = False  # text elements right in the paragraph, no runs (a plain `<si><t>`)


def inline(paragraph: Node, src: str, dialect: Dialect) -> Inline:
    out = Inline()
    for child in paragraph.elements():
        if child.name in dialect.para_props:
            continue
        if out.start < 0:
            out.start = child.start
        out.end = child.end
        _paragraph_child(child, src, dialect, out)
    out.atoms = pair_fields(out.atoms, src)
    _scopes(out.atoms)
    return out


def _paragraph_child(node: Node, src: str, dialect: Dialect, out: Inline) -> None:
    name = node.name
    atoms = out.atoms
    if name == dialect.run:
        _run(node, src, dialect, atoms)
    elif name in dialect.ignored:
        return
    elif name in dialect.para_breaks:
        atoms.append(Atom("break", node.start, node.end, "\n"))
    elif dialect.is_text(name):  # text right in the paragraph
        out.bare = True
        _text(node, src, atoms, None, None, in_run=False)
    elif name in dialect.wrappers:
        _wrapper(node, src, dialect, out)
    else:
        atoms.append(Atom("element", node.start, node.end))


def _wrapper(node: Node, src: str, dialect: Dialect, out: Inline) -> None:
    wrapping = dialect.wrappers[node.name]
    holder = node.child(wrapping.content) if wrapping.content is not None else node
    if holder is None:
        out.atoms.append(Atom("element", node.start, node.end))
        return
    children = [c for c in holder.elements() if c.name not in wrapping.props]
    if holder is node:
        open_end = children[0].start if children else node.inner_end
        close_start = node.inner_end
    else:
        open_end = holder.inner
        close_start = holder.inner_end
    opening = len(out.atoms)
    out.atoms.append(Atom("open", node.start, open_end))
    for child in children:
        _paragraph_child(child, src, dialect, out)
    out.atoms.append(Atom("close", close_start, node.end, opener=out.atoms[opening]))


def _run(run: Node, src: str, dialect: Dialect, atoms: list[Atom]) -> None:
    props_node = run.child(dialect.run_props)
    props = (props_node.start, props_node.end) if props_node is not None else None
    key = formatting_key(props_node, src, dialect) if props_node is not None else ()
    for child in run.elements():
        name = child.name
        if child is props_node or name in dialect.ignored:
            continue
        if dialect.is_text(name):
            _text(child, src, atoms, props, key, in_run=True)
        elif name in dialect.shown:
            atoms.append(Atom("text", child.start, child.end, dialect.shown[name], props, key, True))
        elif name in dialect.breaks and (child.get("w:type") or "textWrapping") == "textWrapping":
            atoms.append(Atom("break", child.start, child.end, "\n", props, key, True))
        else:
            atoms.append(Atom("special", child.start, child.end, "", props, key, True))


def _text(
    node: Node, src: str, atoms: list[Atom], props: tuple[int, int] | None, key: object, *, in_run: bool
) -> None:
    if any(isinstance(c, Node) for c in node.children):
        raise PackageError(f"has markup inside a text element at offset {node.start} (not OOXML)")
    text = node.text(src)
    if not _TAG_LIKE.search(text):
        atoms.append(Atom("text", node.start, node.end, text, props, key, in_run))
        return
    # Text that reads as a tag: the whole text element stays as it is, a placeholder.
    atoms.append(Atom("special", node.start, node.end, "", props, key, in_run))


def formatting_key(props: Node, src: str, dialect: Dialect) -> object:
    """What makes a run's look: its properties without the ones that are no formatting."""
    found = _key(props, dialect.key_ignored)
    # An empty property element is no formatting either (`<w:rPr/>`, or one left with only ignored parts).
    return () if found is None or found == (props.name, (), ()) else found


def _key(node: Node, ignored: frozenset[str]) -> object:
    given = node.attrs() if node.attrs_raw.strip() else {}
    attrs = tuple(sorted((k, v) for k, v in given.items() if k not in ignored))
    children = tuple(
        k for c in node.elements() if c.name not in ignored and (k := _key(c, ignored)) is not None
    )
    if given and not attrs and not children:  # (`w:rFonts w:hint=...`: only what is no formatting)
        return None
    return (node.name, attrs, children)


def field_mark(atom: Atom, src: str) -> str | None:
    """The mark of a run's `w:fldChar` ("begin", "separate", "end"), else None."""
    if atom.kind != "special":
        return None
    head = src[atom.start : atom.start + 40]
    if "fldChar" in head:
        found = re.search(r"fldCharType\s*=\s*[\"'](\w+)", src[atom.start : atom.end])
        return found.group(1) if found else None
    return None


def pair_fields(atoms: list[Atom], src: str) -> list[Atom]:
    """The atoms with each complete field at one level made an opening and a closing (or an
    element where it has no result); the source must be known to read the marks."""
    out: list[Atom] = []
    stack: list[tuple[int, int, bool]] = []  # (index in out of begin, depth, separated)
    depth = 0
    for atom in atoms:
        mark = field_mark(atom, src)
        if atom.kind == "open":
            depth += 1
        elif atom.kind == "close":
            depth -= 1
        if mark == "begin":
            stack.append((len(out), depth, False))
            out.append(atom)
            continue
        if (
            mark == "separate"
            and stack
            and stack[-1][1] == depth
            and not stack[-1][2]
            and _balanced(out[stack[-1][0] + 1 :])
        ):
            begin, level, _ = stack.pop()
            opened = Atom("open", out[begin].start, atom.end, parts=out[begin:] + [atom])
            del out[begin:]
            out.append(opened)
            stack.append((len(out) - 1, level, True))
            continue
        if mark == "end" and stack and stack[-1][1] == depth and _balanced(out[stack[-1][0] + 1 :]):
            begin, _, separated = stack.pop()
            if separated:
                out.append(Atom("close", atom.start, atom.end, parts=[atom], opener=out[begin]))
            else:  # begin .. code .. end: no result, one element written back as it was
                whole = Atom("element", out[begin].start, atom.end, parts=out[begin:] + [atom])
                del out[begin:]
                out.append(whole)
            continue
        out.append(atom)
    # Marks left open (a field that goes on in the next paragraph) stay specials.
    _repair_pairs(out)
    return out


def _balanced(atoms: list[Atom]) -> bool:
    """Every opening among `atoms` is closed among them, in order."""
    depth = 0
    for atom in atoms:
        depth += (atom.kind == "open") - (atom.kind == "close")
        if depth < 0:
            return False
    return depth == 0


def _repair_pairs(atoms: list[Atom]) -> None:
    """Openings and closings point at each other by index; one whose other half is not at this
    level, or that would not nest, is made an element (a placeholder, written as it was)."""
    index = {id(atom): i for i, atom in enumerate(atoms) if atom.kind == "open"}
    stack: list[int] = []
    for i, atom in enumerate(atoms):
        if atom.kind == "open":
            stack.append(i)
        elif atom.kind == "close":
            opening = index.get(id(atom.opener), -1)
            if opening not in stack:
                atom.kind = "element"
                continue
            while stack[-1] != opening:
                atoms[stack.pop()].kind = "element"
            stack.pop()
            atoms[opening].pair, atom.pair = i, opening
    for i in stack:
        atoms[i].kind = "element"


def _scopes(atoms: list[Atom]) -> None:
    stack: list[int] = []
    for i, atom in enumerate(atoms):
        if atom.kind == "close" and stack:
            stack.pop()
        atom.scope = stack[-1] if stack else -1
        if atom.kind == "open":
            stack.append(i)


def base_keys(atoms: list[Atom]) -> dict[int, object]:
    """Each scope's (the paragraph: -1; an opening: its index) commonest formatting by text length:
    its text needs no tag."""
    weights: dict[int, Counter[object]] = {}
    for atom in atoms:
        if atom.kind == "text" and atom.text.strip():
            weights.setdefault(atom.scope, Counter())[atom.key] += len(atom.text)
    return {scope: counter.most_common(1)[0][0] for scope, counter in weights.items()}


__all__ = ["Atom", "Inline", "base_keys", "formatting_key", "inline", "pair_fields"]
