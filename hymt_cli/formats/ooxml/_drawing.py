"""DrawingML text: shapes' text bodies (slides, sheet drawings, SmartArt) and charts.

`ShapeHandler` takes each shape (or table frame) as a block and every `a:p` in it as a
segment. A SmartArt diagram keeps its text in its data part (`dgm:pt`) and a cached drawing of
it (`dsp:sp`, the same `modelId`): the data's paragraphs publish their translations by key, and
the drawing's paragraphs take them where their text is the same, so the cache matches the data.
A shape that does not fit its text to its box (no autofit, `a:noAutofit`) and whose text grows
gets `a:normAutofit` with a font scale for the longer text (PowerPoint computes it again only
when someone edits the text); a right-to-left target's translated paragraphs get `rtl="1"`.

`ChartHandler` takes a chart's rich text (titles, axis titles, data labels), its literal series
names, and the text its series cache from the sheet (series names, categories); formulas
(`c:f`) and number caches never change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ...text.tags import TAG
from ..base import Finding
from ..package import Node, Open, PartPiece, Rendering, Source, Target
from ._collector import Collector, keyed, prefix_of
from ._dialects import DRAWING
from ._languages import A_URIS, declared_prefixes, drawing_adapt, drawing_languages
from ._properties import children, get_attribute, set_attribute
from ._word import paragraphs


def _finish_drawing(prefixes: tuple[str, ...]) -> Callable[[str, Target], str]:
    def finish(spliced: str, target: Target) -> str:
        return drawing_languages(spliced, prefixes, target)

    return finish


class ShapeHandler:
    """Shapes' text (see the module docstring). `blocks`: the shape elements of this kind of part
    (`p:sp`, `p:graphicFrame`; `xdr:sp`; `dgm:pt`; `dsp:sp`); `place`: the part's place name;
    `autofit`: fit growing text to its box; `own_only`: leave placeholders (a layout's prompts)."""

    def __init__(
        self, place: str, blocks: frozenset[str], *, autofit: bool = False, own_only: bool = False
    ) -> None:
        self._place = place
        self._blocks = blocks
        self._autofit = autofit
        self._own_only = own_only  # a layout's or master's own shapes, not its placeholders' prompts
        self._collector = Collector()
        self._prefixes: tuple[str, ...] | None = None
        self._points: dict[int, tuple[str, int, str]] = {}  # SmartArt data: segment -> (model, n, text)
        self._shown_by: dict[str, list[str]] = {}  # a data point -> the drawing shapes showing it

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name in self._blocks

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        model = node.get("modelId") if node.name in ("dgm:pt", "dsp:sp") else None
        key = f"dgm:{model}" if model else None
        if node.name == "dgm:pt" and model and node.get("type") == "pres":
            shown = node.child("dgm:prSet")
            of = shown.get("presAssocID") if shown is not None else None
            if of:  # a shape of the drawing (its modelId) shows this point of the data
                self._shown_by.setdefault(of, []).append(model)
            return
        if self._own_only and _is_placeholder(node):
            return
        role = _title_role(node) if self._autofit else ""
        made: list[tuple[int, str]] = []
        cells: dict[int, list[tuple[int, str]]] = {}
        for n, (paragraph, ancestors) in enumerate(paragraphs(node, "a:p")):
            label = self._place + (" table" if any(a.name == "a:tbl" for a in ancestors) else "")
            found = self._collector.paragraph(
                paragraph,
                src,
                DRAWING,
                drawing_adapt,
                label,
                shared_key=f"{key}:{n}" if key and node.name == "dsp:sp" else None,
                role=role,
            )
            if found is not None:
                made.append((found[0], found[1].text))
                cell = next((a for a in reversed(ancestors) if a.name == "a:tc"), None)
                if cell is not None:
                    cells.setdefault(id(cell), []).append((found[0], found[1].text))
                if key and node.name == "dgm:pt":
                    self._points[found[0]] = (model or "", n, found[1].text)
                self._right_to_left(paragraph, found[0])
        if self._autofit and made:
            self._fit(node, made)
        if cells:
            self._cells(node, cells)

    def _right_to_left(self, paragraph: Node, sid: int) -> None:
        props = paragraph.child("a:pPr")
        prefix = prefix_of(paragraph)

        def rendered(context: Rendering, source: Source) -> str | None:
            if context.target is None or not context.target.rtl or sid not in context.translated:
                return None
            if props is None:
                return f'<{prefix}pPr rtl="1"/>'
            tag_end = source(props.start, props.end).index(">") + 1
            tag = source(props.start, props.end)
            return set_attribute(tag[:tag_end], "rtl", "1") + tag[tag_end:]

        if props is None:
            self._collector.edit(paragraph.inner, paragraph.inner, rendered)
        else:
            self._collector.edit(props.start, props.end, rendered)

    def _fit(self, shape: Node, made: list[tuple[int, str]]) -> None:
        body = next((n for n in shape.walk() if n.name == "a:bodyPr"), None)
        if body is None or any(n.name == "a:tbl" for n in shape.walk()):
            return
        prefix = prefix_of(body)

        place = self._place

        def rendered(context: Rendering, source: Source) -> str | None:
            grown = growth(made, context)
            if grown <= 1.05:
                return None
            fit = fitted(source(body.start, body.end), prefix, grown)
            if fit is None:
                return None
            scale = fit[1]
            if scale < READABLE_SCALE:
                context.findings.append(
                    Finding(
                        made[0][0],
                        "overflow",
                        f"{place}: the text is {grown - 1:.0%} longer; "
                        f"its font is scaled to {scale:.0%} to fit its box",
                    )
                )
            return fit[0]

        self._collector.edit(body.start, body.end, rendered)

    def _cells(self, frame: Node, cells: dict[int, list[tuple[int, str]]]) -> None:
        """A table's cells whose text grows much: a finding (a table's rows grow, the slide does not)."""
        place = self._place

        def rendered(context: Rendering, source: Source) -> str | None:
            for made in cells.values():
                grown = growth(made, context)
                if grown > TABLE_GROWTH:
                    message = (
                        f"{place} table: a cell's text is {grown - 1:.0%} longer; "
                        "its row grows and may leave the slide"
                    )
                    context.findings.append(Finding(made[0][0], "overflow", message))
            return None

        self._collector.edit(frame.end, frame.end, rendered)

    def piece(self, text: str) -> PartPiece:
        if self._prefixes is None:
            self._prefixes = declared_prefixes(text, A_URIS) or ("a:",)
        for sid, (model, n, source) in self._points.items():
            shapes = [model, *self._shown_by.get(model, ())]
            self._collector.keys[sid] = tuple(keyed(f"dgm:{m}:{n}", source) for m in shapes)
        self._points = {}
        return self._collector.piece(text, _finish_drawing(self._prefixes))


def _title_role(shape: Node) -> str:
    """A slide's title as a heading (the title slide's as the deck's): the context of the rest."""
    names = shape.child("p:nvSpPr")
    props = names.child("p:nvPr") if names is not None else None
    placeholder = props.child("p:ph") if props is not None else None
    kind = placeholder.get("type") if placeholder is not None else None
    return {"ctrTitle": "heading 1", "title": "heading 2"}.get(kind or "", "")


def _is_placeholder(shape: Node) -> bool:
    """A placeholder shape (`p:nvSpPr/p:nvPr/p:ph`): on a layout or master, its text is a prompt
    that slides never show ("Click to edit Master title style")."""
    names = shape.child("p:nvSpPr")
    props = names.child("p:nvPr") if names is not None else None
    return props is not None and props.child("p:ph") is not None


def growth(made: list[tuple[int, str]], context: Rendering) -> float:
    """How many times longer the shape's translated text is than its source (tags aside)."""
    before = after = 0
    for sid, text in made:
        plain = TAG.sub("", text)
        before += len(plain)
        after += len(TAG.sub("", context.translated.get(sid, text)))
    return after / before if before else 1.0


READABLE_SCALE = 0.6  # a font scaled below this to fit its box is worth a reviewer's look
TABLE_GROWTH = 1.3  # a table cell's text this many times longer: its row grows


def fitted(body: str, prefix: str, grown: float) -> tuple[str, float] | None:
    """A text body's properties with `a:normAutofit` scaling the font for text `grown` times
    longer (a box's text fills about the square of the font size), and the scale; None where the
    shape fits its text already (`a:spAutoFit`: the shape grows)."""
    found = [name for name, _, _ in children(body)]
    if "spAutoFit" in found:
        return None
    scale = 1.0
    norm = re.search(rf"<{re.escape(prefix)}normAutofit\b[^>]*>", body)
    if norm is not None:
        given = get_attribute(norm.group(0), "fontScale")
        scale = int(given) / 100000 if given and given.isdigit() else 1.0
    scale = max(0.25, math.floor(scale / math.sqrt(grown) * 40) / 40)  # in steps of 2.5%
    value = str(int(round(scale * 100000)))
    if norm is not None:
        return body[: norm.start()] + set_attribute(norm.group(0), "fontScale", value) + body[
            norm.end() :
        ], scale
    autofit = f'<{prefix}normAutofit fontScale="{value}"/>'
    no = re.search(rf"<{re.escape(prefix)}noAutofit\b[^>]*?(?:/>|>.*?</{re.escape(prefix)}noAutofit>)", body)
    if no is not None:
        return body[: no.start()] + autofit + body[no.end() :], scale
    if body.endswith("/>"):
        return body[:-2].rstrip() + f">{autofit}</{prefix}bodyPr>", scale
    # (after a:prstTxWarp, before a:scene3d, a:sp3d, a:flatTx, a:extLst)
    after = re.search(rf"<{re.escape(prefix)}(?:scene3d|sp3d|flatTx|extLst)\b", body)
    at = after.start() if after is not None else body.rindex("</")
    return body[:at] + autofit + body[at:], scale


class ChartHandler:
    """A chart's text (see the module docstring); `place`: "chart 2"."""

    def __init__(self, place: str) -> None:
        self._place = place
        self._collector = Collector()
        self._prefixes: tuple[str, ...] | None = None

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        if name == "c:rich":
            return True
        parent = path[-1].name if path else ""
        if name == "c:v" and parent == "c:tx":
            return True
        return name == "c:pt" and parent in ("c:strCache", "c:lvl")

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        label = f"{self._place} {_chart_role(path)}"
        if node.name == "c:rich":
            for paragraph, _ in paragraphs(node, "a:p"):
                self._collector.paragraph(paragraph, src, DRAWING, drawing_adapt, label)
        elif node.name == "c:v":
            self._collector.value(node, src, label)
        else:
            value = node.child("c:v")
            if value is not None:
                self._collector.value(value, src, label)

    def piece(self, text: str) -> PartPiece:
        if self._prefixes is None:
            self._prefixes = declared_prefixes(text, A_URIS) or ("a:",)
        return self._collector.piece(text, _finish_drawing(self._prefixes))


def _chart_role(path: tuple[Open, ...]) -> str:
    names = [o.name for o in path]
    if "c:cat" in names:
        return "category"
    if "c:dLbls" in names or "c:dLbl" in names:
        return "data label"
    if "c:ser" in names:
        return "series name"
    if any(n in names for n in ("c:valAx", "c:catAx", "c:dateAx", "c:serAx")):
        return "axis title"
    return "title"
