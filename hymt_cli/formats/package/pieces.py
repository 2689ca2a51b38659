"""A piece of a package part: its segments, and the edits that write their translations back.

A format's reader of a part makes a `PartPiece` per piece of the part's text: the segments
found there (ids from 0 in the piece), how a review names each (`labels`: "footnote 2",
"Sheet1!B4"), the keys under which later parts may look up a segment's translation (`keys`: a
SmartArt drawing repeats its data's text, under the ids of the shapes that show it), and
`Edit`s. An edit replaces a span of the piece's text with what its `render` makes of the
translations; edits may nest (a text box's paragraph
inside the paragraph that anchors it): an edit's render reads its span through `source`, with
the edits inside it already applied. A render that returns None leaves its span as the source
has it (with the nested edits applied). `finish`, where given, makes the whole spliced piece say
the target (its language attributes). Splicing is the contract, as for every document:

    piece.reassemble({s.id: s.text for s in piece.segments}, None) == piece.text
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from ...text.segments import Segment
from ..base import Finding
from ._target import Target

Source = Callable[[int, int], str]  # (start, end) -> the piece's text there, nested edits applied


@dataclass(frozen=True, slots=True)
class Rendering:
    """What an edit renders with: the piece's translations (by segment id), the target (None:
    only checking the splice), and translations that earlier parts published (`shared`)."""

    translated: Mapping[int, str]
    target: Target | None
    shared: Mapping[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)  # what rendering found (text too long ...)


Render = Callable[[Rendering, Source], "str | None"]


@dataclass(frozen=True, slots=True)
class Edit:
    start: int
    end: int
    render: Render


@dataclass(slots=True)
class PartPiece:
    text: str
    segments: Sequence[Segment] = ()
    labels: Mapping[int, str] = field(default_factory=dict)
    keys: Mapping[int, Sequence[str]] = field(default_factory=dict)
    edits: Sequence[Edit] = ()
    # What the whole spliced piece becomes for a target (its language attributes), if anything.
    finish: Callable[[str, Target], str] | None = None

    def reassemble(
        self,
        translated: Mapping[int, str],
        target: Target | None,
        shared: MutableMapping[str, str] | None = None,
        findings: list[Finding] | None = None,
    ) -> str:
        """The piece with its edits applied; the translations of its keyed segments are added
        to `shared` (for the parts read after it); what the edits found, to `findings`."""
        if shared is not None:
            for sid, keys in self.keys.items():
                if sid in translated:
                    for key in keys:
                        shared[key] = translated[sid]
        text = self.text
        if self.edits:
            found = findings if findings is not None else []
            context = Rendering(translated, target, shared if shared is not None else {}, found)
            text = splice(text, self.edits, context)
        if self.finish is not None and target is not None:
            text = self.finish(text, target)
        return text


class _Node:
    __slots__ = ("edit", "children")

    def __init__(self, edit: Edit | None) -> None:
        self.edit = edit
        self.children: list[_Node] = []


def splice(text: str, edits: Sequence[Edit], context: Rendering) -> str:
    """`text` with `edits` applied, inner ones first; an edit that overlaps another without
    lying inside it is dropped (never corrupts the output)."""
    root = _Node(None)
    stack: list[tuple[_Node, int]] = [(root, len(text))]
    # (an insertion where another edit starts goes before that edit, not into it)
    for edit in sorted(edits, key=lambda e: (e.start, e.end > e.start, -e.end)):
        while stack[-1][1] <= edit.start and len(stack) > 1:
            stack.pop()
        parent, parent_end = stack[-1]
        if edit.end > parent_end:
            continue
        node = _Node(edit)
        parent.children.append(node)
        stack.append((node, edit.end))
    return _patched(text, root.children, 0, len(text), context)


def _patched(text: str, nodes: list[_Node], start: int, end: int, context: Rendering) -> str:
    """text[start:end] with the edits of `nodes` (sorted, disjoint) that lie inside it applied."""
    out: list[str] = []
    pos = start
    for node in nodes:
        edit = node.edit
        assert edit is not None
        if edit.start < pos or edit.end > end:
            continue
        out.append(text[pos : edit.start])
        out.append(_rendered(text, node, context))
        pos = edit.end
    out.append(text[pos:end])
    return "".join(out)


def _rendered(text: str, node: _Node, context: Rendering) -> str:
    edit = node.edit
    assert edit is not None
    children = node.children

    def source(start: int, end: int) -> str:
        return _patched(text, children, start, end, context) if children else text[start:end]

    made = edit.render(context, source)
    return made if made is not None else source(edit.start, edit.end)
