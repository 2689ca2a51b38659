"""Where a paragraph sits, as a review names it ("slide 3 notes", "Sheet1!B4", "footnote 2",
"header"), and its role in the document's structure ("heading 2", "list item")."""

from __future__ import annotations

from collections.abc import Sequence

from ..package import Node, Open

_HEADERS = {
    "style:header": "header",
    "style:header-left": "header (left pages)",
    "style:header-first": "header (first page)",
    "style:footer": "footer",
    "style:footer-left": "footer (left pages)",
    "style:footer-first": "footer (first page)",
}


def column_name(index: int) -> str:
    """A spreadsheet column's letters: 0 -> A, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def place_of(path: Sequence[Open], slide: int) -> str:
    """The place that the open elements around a block make: a header, a slide's notes, a sheet's
    drawings, a text box, a comment on a slide."""
    names = [o.name for o in path]
    if any(name.endswith(":annotation") for name in names):
        return joined(_place(path, names, slide), "comment")
    return _place(path, names, slide)


def _place(path: Sequence[Open], names: list[str], slide: int) -> str:
    for open_ in reversed(path):
        if open_.name in _HEADERS:
            return _HEADERS[open_.name]
    if "presentation:notes" in names:
        return f"slide {slide} notes" if slide else "notes"
    if "draw:page" in names:
        return f"slide {slide}"
    if "style:master-page" in names:
        return "master page"
    sheet = next((o.get("table:name") for o in reversed(path) if o.name == "table:table"), None)
    if "table:shapes" in names and sheet:
        return f"{sheet} drawing"
    if any(name.startswith("draw:") for name in names):
        return "text box"
    return ""


def joined(*places: str) -> str:
    return " ".join(p for p in places if p)


def note_place(note: Node, src: str) -> str:
    """ "footnote 2", "endnote 1": a note by its class and citation."""
    kind = note.get("text:note-class") or "footnote"
    citation = note.child("text:note-citation")
    number = citation.text(src).strip() if citation is not None else ""
    return f"{kind} {number}".strip()


def role_of(node: Node, path: Sequence[Open]) -> str:
    if node.name == "text:h":
        return f"heading {node.get('text:outline-level') or 1}"
    names = {o.name for o in path}
    if names & {"text:list-item", "text:list-header"}:
        return "list item"
    if "table:table-cell" in names:
        return "table cell"
    return ""
