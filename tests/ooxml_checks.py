"""What every translated Office file is checked for (tests of formats/ooxml, corpus and fixtures).

`same_members`: the identity engine's output holds the source's members, each the same bytes
but for its language attributes. `texts_of`: every paragraph's own visible text per part
(deleted text, field codes and equations are not visible text). `fixed_things`: what a
translation must never change (deleted and moved-from text, field codes, bookmarks, hyperlink
targets, formulas and their cached values, sheet names, numbers and dates in cells).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"

_LANGUAGE = re.compile(
    rb"""<(?:[\w.-]+:)?(?:lang|themeFontLang)\b[^>]*>|\s(?:lang)\s*=\s*"[^"]*"|<(?:[\w.-]+:)?(?:bidi|rtl)\s*/>"""
)
PSEUDO = "\u27e6"  # how the pseudo engine opens every translation


def without_languages(data: bytes) -> bytes:
    return _LANGUAGE.sub(b"", data)


def members(data: bytes | Path) -> dict[str, bytes]:
    raw = data.read_bytes() if isinstance(data, Path) else data
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def same_members(source: Path, output: Path) -> list[str]:
    """The members that differ beyond their language attributes (none, for the identity engine)."""
    before, after = members(source), members(output)
    if list(before) != list(after):
        return ["<the member list>"]
    return [name for name in before if without_languages(before[name]) != without_languages(after[name])]


def _own_text(paragraph: ET.Element, text_tag: str, paragraph_tag: str) -> str:
    """The paragraph's visible text, without its nested paragraphs' (a text box's)."""
    out: list[str] = []

    def visit(node: ET.Element, top: bool) -> None:
        if not top and node.tag == paragraph_tag:
            return
        if node.tag in (
            W + "del",
            W + "moveFrom",
            W + "instrText",
            "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath",
        ):
            return
        if node.tag == text_tag and node.text:
            out.append(node.text)
        for child in node:
            visit(child, False)

    visit(paragraph, True)
    return "".join(out)


def paragraph_texts(data: bytes, text_tag: str, paragraph_tag: str) -> list[str]:
    root = ET.fromstring(data)
    return [_own_text(p, text_tag, paragraph_tag) for p in root.iter(paragraph_tag)]


def has_letters(text: str) -> bool:
    return re.search(r"[^\W\d_]", text) is not None


def untranslated(output: Path, parts: dict[str, tuple[str, str]]) -> list[str]:
    """The paragraphs with letters, in the parts named, whose text the pseudo engine did not
    write (`parts`: member name pattern -> (text tag, paragraph tag))."""
    missed: list[str] = []
    for name, data in members(output).items():
        for pattern, (text_tag, paragraph_tag) in parts.items():
            if re.fullmatch(pattern, name):
                for text in paragraph_texts(data, text_tag, paragraph_tag):
                    if has_letters(text) and PSEUDO not in text:
                        missed.append(f"{name}: {text[:60]!r}")
    return missed


def fixed_things(data: Path) -> Counter[str]:
    """Everything a translation must leave as it was, counted."""
    found: Counter[str] = Counter()
    for name, raw in members(data).items():
        if name.endswith(".rels") or name.endswith("vbaProject.bin") or name == "[Content_Types].xml":
            found[f"{name}={raw!r}"] += 1
            continue
        if not name.endswith(".xml"):
            found[f"{name}={hash(raw)}"] += 1
            continue
        root = ET.fromstring(raw)
        for node in root.iter():
            tag = node.tag
            if tag in (W + "delText", W + "instrText", C + "f", X + "f"):
                found[f"{tag}:{node.text}"] += 1
            elif tag == W + "bookmarkStart":
                found[f"bookmark:{node.get(W + 'name')}"] += 1
            elif tag in (W + "hyperlink", A + "hlinkClick"):
                found[f"link:{node.get(R + 'id')}:{node.get(W + 'anchor')}"] += 1
            elif tag == X + "sheet":
                found[f"sheet:{node.get('name')}"] += 1
            elif tag == X + "c" and node.get("t") not in ("s", "inlineStr"):
                value = node.find(X + "v")
                found[f"cell:{node.get('r')}:{node.get('t')}:{value.text if value is not None else ''}"] += 1
    return found
