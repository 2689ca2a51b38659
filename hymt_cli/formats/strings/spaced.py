"""How members are inserted into and removed from a file whose members only white space
separates (no `,` between them): XML resources (Android `<string>` elements, stringsdict
`<key>`/value pairs) and Apple `.strings` pairs (a pair with the comment written for it).

Between two members there may be what is no member: a comment about the next ones, an element
of another kind (`<color>`, a stringsdict's `NSStringFormatSpecTypeKey`). It stays: a removed
member goes with the white space after it (at the end of its container, with the white space
before it), never with its neighbours. A new member goes on a line of its own after its
sibling, indented as the sibling is (or on the sibling's line, where the target writes its
members side by side), in the target's line breaks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .outline import Container, Copied, Member, Splice, indentation, newline_of

_SPACE = " \t\r\n"


def _space_before(text: str, pos: int, floor: int = 0) -> int:
    while pos > floor and text[pos - 1] in _SPACE:
        pos -= 1
    return pos


def _space_after(text: str, pos: int, ceiling: int) -> int:
    while pos < ceiling and text[pos] in _SPACE:
        pos += 1
    return pos


def _in_newlines(text: str, newline: str) -> str:
    text = text.replace("\r\n", "\n")
    return text.replace("\n", newline) if newline != "\n" else text


class SpacedSyntax:
    """`blank_lines`: a new member keeps the blank lines its sibling is written after (`.strings`
    blocks, each a comment and its pair); else it goes on the next line (XML). `xml`: members
    are elements, a container an element whose end tag closes it (`<resources/>` opens)."""

    def __init__(self, *, blank_lines: bool = False, xml: bool = True) -> None:
        self.blank_lines = blank_lines
        self.xml = xml

    def _lead(self, text: str, sibling: Member) -> str:
        """What goes before a member written after `sibling`'s line: a line break and the
        indentation (and one blank line, with `blank_lines`, where the target puts one before the
        sibling), or the sibling's own lead on its line."""
        floor = 1 if text.startswith("\ufeff") else 0
        start = _space_before(text, sibling.start, floor)
        space = text[start : sibling.start]
        if start == floor and not space:
            space = text[sibling.end : _space_after(text, sibling.end, len(text))]  # the file's top
            if "\n" not in space:
                return newline_of(text)
        if "\n" not in space:
            return space
        newline = newline_of(text)
        blank = self.blank_lines and space.count("\n") > 1
        return newline * (2 if blank else 1) + indentation(text, sibling.start)

    def _texts(self, text: str, members: Sequence[Copied], indent: str) -> list[str]:
        newline = newline_of(text)
        out = []
        for member in members:
            body, old = member.text, member.indent
            if member.point:  # a new plural form as written at a point: its white space first
                stripped = body.lstrip(_SPACE)
                old = body[: len(body) - len(stripped)].rpartition("\n")[2]
                body = stripped
            body = self.adapted(text, body).replace("\r\n", "\n")
            if self.xml:
                body = _tags_reindented(body, old, indent, _indent_unit(text, members))
            out.append(_in_newlines(body, newline))
        return out

    def adapted(self, text: str, member: str) -> str:
        """A member copied from the source as the target `text` must hold it (a format's own
        needs: an XML namespace the target does not declare)."""
        return member

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = self._lead(text, sibling)
        texts = self._texts(text, members, indentation(text, sibling.start))
        if self.blank_lines and "\n" in lead and _groups(text):  # the source's grouping
            newline, indent = newline_of(text), indentation(text, sibling.start)
            leads = [newline * (2 if m.blank_before else 1) + indent for m in members]
            return Splice(sibling.end, sibling.end, "".join(a + t for a, t in zip(leads, texts)))
        return Splice(sibling.end, sibling.end, "".join(lead + t for t in texts))

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        lead = self._lead(text, sibling)
        texts = self._texts(text, members, indentation(text, sibling.start))
        return Splice(sibling.start, sibling.start, "".join(t + lead for t in texts))

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        inner_start, inner_end = container.inner_start, container.inner_end
        if not self.xml:  # the file's top: members one after the other, as the file separates them
            sep = newline * 2 if self.blank_lines else newline
            texts = self._texts(text, members, "")
            end = _space_before(text, inner_end, inner_start)
            if end == inner_start:
                return Splice(inner_start, inner_end, sep.join(texts) + newline)
            return Splice(end, end, "".join(sep + t for t in texts))
        opening = text.rfind("<", 0, inner_start)
        outer = indentation(text, opening)
        child = outer + _indent_unit(text, members)
        texts = self._texts(text, members, child)
        body = "".join(newline + child + t for t in texts)
        if text.startswith("/>", inner_start):  # `<resources/>`: opened, filled and closed
            name = re.match(r"<([^\s/>]+)", text[opening:])
            assert name is not None
            return Splice(inner_start, inner_start + 2, f">{body}{newline}{outer}</{name.group(1)}>")
        end = _space_before(text, inner_end, inner_start)
        if end == inner_start:
            return Splice(inner_start, inner_end, body + newline + outer)
        return Splice(end, end, body)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        """Each member with the white space after it; the last of its container with the white
        space before it. What lies between the members of `run` (a comment) stays."""
        floor, ceiling = parent.inner_start, parent.inner_end
        cuts: list[tuple[int, int]] = []
        for i, member in enumerate(run):
            following = _space_after(text, member.end, ceiling)
            if following < ceiling:
                cuts.append((member.start, following))
                continue
            first = i  # the last of its container: with the members right before it, if any
            while first > 0 and cuts[first - 1][1] == run[first].start:
                first -= 1
            del cuts[first:]
            cuts.append((_space_before(text, run[first].start, floor), member.end))
        kept = [text[end:start] for (_, end), (start, _) in zip(cuts, cuts[1:])]
        return Splice(cuts[0][0], cuts[-1][1], "".join(kept))


def _groups(text: str) -> bool:
    """Whether a file groups its members with blank lines (a file that writes none keeps none)."""
    return re.search(r"\n[ \t]*\r?\n", text) is not None


def _tags_reindented(member: str, old: str, new: str, unit: str) -> str:
    """A copied element's lines moved from the source's indentation (`old` and its own step) to
    the target's (`new` and `unit`). Only lines of tags are moved (a line that starts a tag after
    one that ends one): a value's own lines keep their white space, which may be its text."""
    lines = member.split("\n")
    if len(lines) == 1:
        return member
    steps = [
        line[len(old) : len(line) - len(line.lstrip(" \t"))]
        for previous, line in zip(lines, lines[1:])
        if previous.rstrip().endswith(">") and line.lstrip(" \t").startswith("<") and line.startswith(old)
    ]
    step = min((s for s in steps if s), key=len, default="")
    out = [lines[0]]
    for line in lines[1:]:
        stripped = line.lstrip(" \t")
        lead = line[: len(line) - len(stripped)]
        if out[-1].rstrip().endswith(">") and stripped.startswith("<") and lead.startswith(old):
            depth = lead[len(old) :]
            if step and depth == step * (len(depth) // len(step)):
                depth = unit * (len(depth) // len(step))
            line = new + depth + stripped
        out.append(line)
    return "\n".join(out)


def _indent_unit(text: str, members: Sequence[Copied]) -> str:
    """One step of the file's indentation (its least indented element's), else the members'."""
    found: list[str] = re.findall(r"\n([ \t]+)<", text[:20000])
    if found:
        return min(found, key=len)
    return next((m.indent for m in members if m.indent), "    ")
