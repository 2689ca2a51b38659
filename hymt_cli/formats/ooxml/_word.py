"""A WordprocessingML part (the body, a header or footer, footnotes, endnotes, comments) as blocks.

Every top-level `w:p` is a block; every paragraph inside it (the paragraphs of a text box
anchored there) is a segment too. A text box is stored twice, as DrawingML (`mc:Choice`) and
as its VML fallback (`mc:Fallback`): a fallback paragraph whose text is its DrawingML twin's
is written with the twin's translation, so both copies say the same. Each segment names its
place: the part ("header", "footnote 2", "comment 5"), "table" or "text box" within it.

For a right-to-left target a translated paragraph gets `w:bidi` (its runs `w:rtl`); every
`w:lang` of the part says the target (_languages.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...text.tags import TAG
from ..base import Finding
from ..package import Node, Open, PartPiece, Rendering, Source, Target
from ._collector import Collector, prefix_of
from ._dialects import WORD
from ._inline import inline
from ._languages import W_URIS, declared_prefixes, default_east_asian_font, word_adapt, word_languages
from ._properties import PARAGRAPH_PROPERTIES, with_child
from ._sentence import sentence

EXACT_ROW_GROWTH = 1.15  # a row of exact height holds little more than its source's text


def paragraphs(node: Node, name: str) -> list[tuple[Node, tuple[Node, ...]]]:
    """Every element `name` in `node` (itself included), with its ancestors inside `node`."""
    # (a loop, not a recursive closure: that would be a reference cycle holding the whole tree
    # until the cycle collector runs, which the pipeline pauses during a window)
    found: list[tuple[Node, tuple[Node, ...]]] = []
    stack: list[tuple[Node, tuple[Node, ...]]] = [(node, ())]
    while stack:
        current, ancestors = stack.pop()
        if current.name == name:
            found.append((current, ancestors))
        inner = (*ancestors, current)
        stack.extend((child, inner) for child in reversed(list(current.elements())))
    return found


class Twins:
    """A text box's DrawingML paragraphs, by their `mc:AlternateContent`, for its VML fallback."""

    def __init__(self) -> None:
        self._segments: dict[int, tuple[int, str]] = {}  # id(paragraph) -> (segment, text)

    def note(self, paragraph: Node, sid: int, text: str) -> None:
        self._segments[id(paragraph)] = (sid, text)

    def twin(self, paragraph: Node, ancestors: tuple[Node, ...], text: str, name: str) -> int | None:
        """The segment of the paragraph's twin in the `mc:Choice`, where the texts are the same."""
        for i in range(len(ancestors) - 1, 0, -1):
            if ancestors[i].name == "mc:Fallback" and ancestors[i - 1].name == "mc:AlternateContent":
                choice = ancestors[i - 1].child("mc:Choice")
                if choice is None:
                    return None
                ours = [p for p, _ in paragraphs(ancestors[i], name)]
                theirs = [p for p, _ in paragraphs(choice, name)]
                if len(ours) != len(theirs):
                    return None
                found = self._segments.get(id(theirs[ours.index(paragraph)]))
                return found[0] if found is not None and found[1] == text else None
        return None


class WordHandler:
    """A WordprocessingML part's paragraphs (see the module docstring); `place`: how its segments
    are named ("body", "header", "footnote", "comment" get the note's or comment's id)."""

    def __init__(self, place: str, headings: Mapping[str, str] | None = None) -> None:
        self._place = place
        self._headings = headings or {}  # paragraph style id -> "heading 2", "document title"
        self._collector = Collector()
        self._prefixes: tuple[str, ...] | None = None
        self._exact_row = False  # in a table row of exact height (w:trHeight w:hRule="exact")

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        if name == "w:tr":
            self._exact_row = False  # (its w:trHeight, a block, says otherwise)
        return name in ("w:p", "w:trHeight")

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        if node.name == "w:trHeight":
            self._exact_row = node.get("w:hRule") == "exact"
            return
        place = self._label(path)
        in_exact_row = self._exact_row and any(o.name == "w:tr" for o in path)
        twins = Twins()
        for paragraph, ancestors in paragraphs(node, "w:p"):
            names = {a.name for a in ancestors}
            label = f"{place} text box" if "w:txbxContent" in names else place
            mirror = None
            if "mc:Fallback" in names:
                found_text = _text_of(paragraph, src)
                mirror = twins.twin(paragraph, ancestors, found_text, "w:p") if found_text else None
            role = self._role(paragraph) if not ancestors else ""
            made = self._collector.paragraph(
                paragraph, src, WORD, word_adapt, label, mirror_of=mirror, role=role
            )
            if made is None:
                continue
            sid, found = made
            twins.note(paragraph, sid, found.text)
            self._right_to_left(paragraph, sid)
            if in_exact_row and mirror is None:
                self._watch_height(paragraph, sid, found.text, label)

    def _watch_height(self, paragraph: Node, sid: int, text: str, label: str) -> None:
        """A paragraph in a table row of exact height whose text grows: a finding (Word cuts
        off what does not fit)."""

        def rendered(context: Rendering, source: Source) -> str | None:
            answer = context.translated.get(sid)
            grown = len(TAG.sub("", answer)) / max(1, len(TAG.sub("", text))) if answer else 1.0
            if grown > EXACT_ROW_GROWTH:
                message = (
                    f"{label}: a table row of exact height; the text is {grown - 1:.0%} longer "
                    "and may be cut off"
                )
                context.findings.append(Finding(sid, "overflow", message))
            return None

        self._collector.edit(paragraph.end, paragraph.end, rendered)

    def _role(self, paragraph: Node) -> str:
        """A heading's role, by its outline level or its style."""
        props = paragraph.child("w:pPr")
        if props is None:
            return ""
        level = props.child("w:outlineLvl")
        value = level.get("w:val") if level is not None else None
        if value is not None and value.isdigit() and int(value) < 9:
            return f"heading {int(value) + 1}"
        style = props.child("w:pStyle")
        return self._headings.get(style.get("w:val") or "", "") if style is not None else ""

    def _label(self, path: tuple[Open, ...]) -> str:
        names = [o.name for o in path]
        for kind in ("footnote", "endnote", "comment"):
            if f"w:{kind}" in names:
                note = path[names.index(f"w:{kind}")]
                return f"{kind} {note.get('w:id') or ''}".strip()
        if "w:tbl" in names and self._place == "body":
            return "table"
        return self._place

    def _right_to_left(self, paragraph: Node, sid: int) -> None:
        """A translated paragraph of a right-to-left target reads right to left (`w:bidi`)."""
        props = paragraph.child("w:pPr")
        prefix = prefix_of(paragraph)
        bidi = f"<{prefix}bidi/>"

        def rendered(context: Rendering, source: Source) -> str | None:
            if context.target is None or not context.target.rtl or sid not in context.translated:
                return None
            if props is None:
                return f"<{prefix}pPr>{bidi}</{prefix}pPr>"
            return with_child(source(props.start, props.end), bidi, "bidi", PARAGRAPH_PROPERTIES)

        if props is None:
            self._collector.edit(paragraph.inner, paragraph.inner, rendered)
        else:
            self._collector.edit(props.start, props.end, rendered)

    def piece(self, text: str) -> PartPiece:
        if self._prefixes is None:
            self._prefixes = declared_prefixes(text, W_URIS) or ("w:",)
        prefixes = self._prefixes

        def finish(spliced: str, target: Target) -> str:
            return word_languages(spliced, prefixes, target)

        return self._collector.piece(text, finish)


def _text_of(paragraph: Node, src: str) -> str:
    found = sentence(inline(paragraph, src, WORD))
    return found.text if found is not None else ""


class LanguageHandler:
    """A part with no text to translate whose language attributes say the target (styles.xml,
    settings.xml), and, for styles, the East-Asian default font an East-Asian target needs."""

    def __init__(self, styles: bool) -> None:
        self._styles = styles
        self._prefixes: tuple[str, ...] | None = None

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return False

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:  # pragma: no cover - no blocks
        pass

    def piece(self, text: str) -> PartPiece:
        if self._prefixes is None:
            self._prefixes = declared_prefixes(text, W_URIS) or ("w:",)
        prefixes, styles = self._prefixes, self._styles

        def finish(spliced: str, target: Target) -> str:
            out = word_languages(spliced, prefixes, target)
            return default_east_asian_font(out, prefixes[0], target) if styles else out

        return PartPiece(text, finish=finish)
