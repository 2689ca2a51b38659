"""A paragraph's atoms as one segment, and its translation written back as runs.

The segment is the paragraph's text: runs whose formatting is the commonest of their scope (the
paragraph, or what wraps them: a hyperlink's runs have the hyperlink's look) are plain text;
other formatting is a paired tag `<sN>...</sN>`; what wraps runs (a hyperlink, an insertion,
a field's code around its result) a paired tag; specials and elements a placeholder `<sN/>`.
What lies before the first visible character or after the last (a bookmark, a tab, the
footnote mark at a note's start) stays outside the segment, and so does markup that wraps all
of it.

A translation is written as new runs over the paragraph's content: each stretch of text in the
run properties of its tag (or of its scope), a line break as the dialect writes one, each
placeholder and each wrapper's opening and closing as the source has them. An answer equal to
the segment, or whose tags do not match the segment's, leaves the paragraph as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...text.tags import TAG, close_tag, open_tag, self_tag
from ..package import Source, escape_text
from ._dialects import Dialect
from ._inline import Atom, Inline, base_keys

Adapt = Callable[[str | None], str | None]  # run properties -> as a translated run has them


@dataclass(frozen=True, slots=True)
class FormatTag:
    props: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class WrapperTag:
    opening: Atom
    closing: Atom
    props: tuple[int, int] | None  # the text inside: its scope's commonest run properties


@dataclass(frozen=True, slots=True)
class SelfTag:
    atom: Atom


Markup = FormatTag | WrapperTag | SelfTag


@dataclass(slots=True)
class Sentence:
    text: str
    before: list[Atom]
    after: list[Atom]
    markup: dict[str, Markup] = field(default_factory=dict)
    base: tuple[int, int] | None = None  # the paragraph's commonest run properties
    lead: str = ""
    trail: str = ""
    bare: bool = False


def sentence(inline: Inline) -> Sentence | None:
    """The paragraph's segment, or None where it has no visible text."""
    atoms = inline.atoms
    visible = [i for i, a in enumerate(atoms) if _visible(a)]
    if not visible:
        return None
    first, last = _edges(atoms, visible[0], visible[-1])
    props = _props_by_key(atoms)
    bases = {scope: props.get(key) for scope, key in base_keys(atoms).items()}
    keys = base_keys(atoms)
    built = _Builder(atoms, keys, bases)
    for i in range(first, last + 1):
        built.add(i)
    built.close_group()
    text = "".join(built.parts)
    stripped = text.strip()
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return Sentence(
        stripped, atoms[:first], atoms[last + 1 :], built.markup, bases.get(-1), lead, trail, inline.bare
    )


def _edges(atoms: list[Atom], first: int, last: int) -> tuple[int, int]:
    """The first and last atom inside the segment: from the first visible text to the last, with
    the other half of every pair one half of which is inside, less what wraps all the rest."""
    first, last = _extended(atoms, first, last)
    while atoms[first].kind == "open" and atoms[first].pair == last:
        inside = [i for i in range(first + 1, last) if _visible(atoms[i])]
        if not inside:
            break
        first, last = _extended(atoms, inside[0], inside[-1])
    return first, last


def _extended(atoms: list[Atom], first: int, last: int) -> tuple[int, int]:
    changed = True
    while changed:
        changed = False
        for i in range(first, last + 1):
            atom = atoms[i]
            if atom.kind in ("open", "close") and atom.pair >= 0 and not first <= atom.pair <= last:
                first, last, changed = min(first, atom.pair), max(last, atom.pair), True
    return first, last


def _visible(atom: Atom) -> bool:
    return atom.kind == "text" and bool(atom.text.strip())


def _props_by_key(atoms: list[Atom]) -> dict[object, tuple[int, int] | None]:
    found: dict[object, tuple[int, int] | None] = {}
    for atom in atoms:
        if atom.kind == "text" and atom.key not in found:
            found[atom.key] = atom.props
    return found


class _Builder:
    def __init__(
        self, atoms: list[Atom], keys: dict[int, object], bases: dict[int, tuple[int, int] | None]
    ) -> None:
        self.atoms = atoms
        self.keys = keys
        self.bases = bases
        self.parts: list[str] = []
        self.markup: dict[str, Markup] = {}
        self.number = 0
        self.group: tuple[int, object, int] | None = None  # (scope, key, tag number)
        self.wrapper_numbers: dict[int, int] = {}

    def add(self, i: int) -> None:
        atom = self.atoms[i]
        if atom.kind == "text" or atom.kind == "break":
            if atom.kind == "text":
                self._format(atom)
            self.parts.append(atom.text)
        elif atom.kind == "open":
            self.close_group()
            self.number += 1
            self.wrapper_numbers[i] = self.number
            closing = self.atoms[atom.pair]
            self.markup[open_tag(self.number)] = WrapperTag(atom, closing, self.bases.get(i))
            self.parts.append(open_tag(self.number))
        elif atom.kind == "close":
            self.close_group()
            self.parts.append(close_tag(self.wrapper_numbers[atom.pair]))
        else:
            self.number += 1
            self.markup[self_tag(self.number)] = SelfTag(atom)
            self.parts.append(self_tag(self.number))

    def _format(self, atom: Atom) -> None:
        if not atom.text.strip():  # spaces: in the tag open around them, if any
            return
        if atom.key == self.keys.get(atom.scope):
            self.close_group()
            return
        if self.group is not None and self.group[:2] == (atom.scope, atom.key):
            return
        self.close_group()
        self.number += 1
        self.group = (atom.scope, atom.key, self.number)
        self.markup[open_tag(self.number)] = FormatTag(atom.props)
        self.parts.append(open_tag(self.number))

    def close_group(self) -> None:
        if self.group is not None:
            self.parts.append(close_tag(self.group[2]))
            self.group = None


@dataclass(frozen=True, slots=True)
class Writing:
    """How to write runs: the paragraph's element prefix (`w:`), the dialect, the splice's
    source, and how a translated run's properties change for the target (`adapt`)."""

    prefix: str
    dialect: Dialect
    source: Source
    adapt: Adapt


def render(found: Sentence, translation: str, writing: Writing) -> str | None:
    """The paragraph's content written anew for `translation`; None: as it was (the answer is the
    segment, or its tags do not match the segment's)."""
    if translation == found.text:
        return None
    tokens = _checked(translation, found.markup)
    if tokens is None:
        return None
    out: list[str] = [_raw(a, writing) for a in found.before]
    stack: list[tuple[int, int] | None] = [found.base]
    if found.lead and not translation[:1].isspace():
        tokens.insert(0, found.lead)
    if found.trail and not translation[-1:].isspace():
        tokens.append(found.trail)
    for token in tokens:
        markup = found.markup.get(token)
        if markup is None:
            if token.startswith("</s") and TAG.fullmatch(token):
                closing = found.markup[token.replace("/", "", 1)]
                stack.pop()
                if isinstance(closing, WrapperTag):
                    out.append(_raw(closing.closing, writing))
            else:
                out.append(_text(token, stack[-1], writing, found.bare))
        elif isinstance(markup, FormatTag):
            stack.append(markup.props)
        elif isinstance(markup, WrapperTag):
            out.append(_raw(markup.opening, writing))
            stack.append(markup.props if markup.props is not None else stack[-1])
        else:
            out.append(_raw(markup.atom, writing))
    out.extend(_raw(a, writing) for a in found.after)
    return "".join(out)


def _checked(translation: str, markup: dict[str, Markup]) -> list[str] | None:
    """The translation as text and tags, each tag the segment's, once, properly nested."""
    tokens: list[str] = []
    seen: set[str] = set()
    stack: list[str] = []
    pos = 0
    for match in TAG.finditer(translation):
        if match.start() > pos:
            tokens.append(translation[pos : match.start()])
        tag = match.group(0)
        closing = match.group(1) == "/"
        opening_of = tag.replace("/", "", 1) if closing else tag
        if opening_of not in markup or tag in seen:
            return None
        seen.add(tag)
        if closing:
            if not stack or stack.pop() != opening_of:
                return None
        elif not match.group(3) and not isinstance(markup[tag], SelfTag):
            stack.append(tag)
        tokens.append(tag)
        pos = match.end()
    if pos < len(translation):
        tokens.append(translation[pos:])
    expected = set(markup) | {
        t.replace("<", "</", 1) for t, m in markup.items() if not isinstance(m, SelfTag)
    }
    if seen != expected or stack:
        return None
    return tokens


def _raw(atom: Atom, writing: Writing) -> str:
    """An atom as the source has it (a run's child inside a run of its properties)."""
    if atom.parts:
        return "".join(_raw(part, writing) for part in atom.parts)
    inner = writing.source(atom.start, atom.end)
    if not atom.in_run:
        return inner
    props = writing.source(*atom.props) if atom.props is not None else ""
    run = f"{writing.prefix}{writing.dialect.run.partition(':')[2]}"
    return f"<{run}>{props}{inner}</{run}>"


def _text(text: str, props: tuple[int, int] | None, writing: Writing, bare: bool) -> str:
    """Text written as runs of `props` (line breaks as the dialect writes them)."""
    if not text:
        return ""
    dialect = writing.dialect
    p = writing.prefix
    source_props = writing.source(*props) if props is not None else None
    props_text = writing.adapt(source_props) or ""
    run = f"{p}{dialect.run.partition(':')[2]}"
    t = f"{p}{dialect.text_element}"
    space = ' xml:space="preserve"' if dialect.preserve_space else ""
    lines = text.split("\n") if dialect.newline_element else [text]
    out: list[str] = []
    for n, line in enumerate(lines):
        if n:
            br = f"<{p}{dialect.newline_element}/>"
            if dialect.newline_in_run:
                out.append(f"<{run}>{props_text}{br}</{run}>")
            else:
                out.append(f"<{p}{dialect.newline_element}>{props_text}</{p}{dialect.newline_element}>")
        if line:
            if bare:
                out.append(f"<{t}{space}>{escape_text(line)}</{t}>")
            else:
                out.append(f"<{run}>{props_text}<{t}{space}>{escape_text(line)}</{t}></{run}>")
    return "".join(out)
