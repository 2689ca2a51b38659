"""A string file's structure, for merging into a target file that exists (merge.py).

A format that can merge (`StringsFormat.outline`) lists its members in document order: every
key of the file, nested or not, with the span of the whole member (key and value: what an
insertion copies from the source and a removal takes out of the target) and, for a value
(`Leaf`), the span of the value, what it says and how a new value is written there. A
`Container` (a JSON object, a YAML mapping) holds members; its `inner` span is where they go.

Paths are the keys from the file's top (a Rails locale file's root key, the language, is left
out: `en.greeting` and `de.greeting` are both `("greeting",)`), so that a member is the same
member in the source and in every target file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

KeyPath = tuple[str | int, ...]


@dataclass(slots=True)  # not frozen: a file of 100,000 keys makes as many, and frozen costs
class Leaf:
    """A key with a value: `text` is what the value says (decoded: the same words whatever the
    quoting), `source` what a translation of it is translated from (the text itself in a
    monolingual file; a PO entry's msgid), `write(text)` the raw text for [value_start,
    value_end) (None: the raw value is copied as it is, a number, a boolean ...). `category`
    names the plural category a member is a form of (`items_few`: few), "" when none.
    `translatable=False`: a key of the source never added to a target (Android's
    `translatable="false"`), kept where a target has it."""

    path: KeyPath
    start: int
    end: int
    value_start: int
    value_end: int
    text: str
    write: Callable[[str], str] | None
    source: str | None = None
    category: str = ""
    translatable: bool = True
    # A bilingual format's member written anew in a target from the source's member as this
    # language's file has it (`Copied.text`): what [start, end) becomes when the value is
    # translated there, the source side included (a PO entry's msgid_plural, an XLIFF
    # <source>). None: only [value_start, value_end) is rewritten, by `write`.
    rewrite: Callable[[str], str] | None = None

    @property
    def source_text(self) -> str:
        return self.text if self.source is None else self.source


@dataclass(slots=True)
class Container:
    """A key whose value holds members (the file's top is the container with path ()).
    `forms`: its members are the forms of one plural (an Android `<plurals>`, a stringsdict
    rule), so that a form only the target has (a person's `zero`) is the target's: it goes
    only with the plural."""

    path: KeyPath
    start: int
    end: int
    inner_start: int  # members go in [inner_start, inner_end)
    inner_end: int
    forms: bool = False


Member = Leaf | Container


@dataclass(frozen=True, slots=True)
class Copied:
    """A member copied from the source into a target: its text as the source writes it (values
    translated) and the indentation of its first line there; `point`: the text is what the
    format inserts at a point for a new plural form (its separator first: `,\n  "x_few": ...`)."""

    text: str
    indent: str
    point: bool = False
    blank_before: bool = False  # the source has a blank line right before it (a group starts)


@dataclass(frozen=True, slots=True)
class Splice:
    """Replace [start, end) of the target's text by `text` (an insertion when start == end)."""

    start: int
    end: int
    text: str


class Syntax(Protocol):
    """How a format's members are inserted and removed, the way the target file writes them."""

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        """New members right after `sibling`."""
        ...

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        """New members before `sibling`, the first member of its container that stays."""
        ...

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        """New members into a container that keeps none of its own."""
        ...

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        """Remove a run of adjacent members; `before`/`after`: the members that stay around it."""
        ...


@runtime_checkable
class Retiring(Protocol):
    """A syntax whose files keep what leaves them (PO's obsolete `#~` entries, as msgmerge
    writes them): a key that comes back is taken from there (`Outline.retired`)."""

    def retire(self, text: str, removed: Sequence[Member], revived: Sequence[Leaf]) -> list[Splice]:
        """The splices that keep the `removed` members where the file keeps retired ones, and
        take out the retired members `revived` (their keys are in the file again)."""
        ...


@dataclass(frozen=True)
class Outline:
    """A file's members in document order (the top container first) and how its members are
    written."""

    members: tuple[Member, ...]
    syntax: Syntax
    # Members that describe a key rather than being one (ARB `@save` of `save`): the key they go
    # with. A merge adds one only with its key, where the target keeps such members, and removes
    # one only with its key; it counts none.
    companions: Mapping[KeyPath, KeyPath] = field(default_factory=dict)
    # Members the file keeps for keys it no longer has (PO obsolete entries), by key: a key of
    # the source found there comes back with its value ("" when none is final) and leaves them.
    retired: Mapping[KeyPath, Leaf] = field(default_factory=dict)
    # Plural categories a runtime takes in every language where a plural has them, whatever the
    # language's CLDR categories: Ruby I18n's and i18next's `zero` (a count of 0), Apple's `zero`.
    # A source's such form goes into every target; a person's stays where the source has none.
    optional_forms: frozenset[str] = frozenset()

    def companion_of(self, path: KeyPath) -> KeyPath | None:
        """The key a member (or a member inside it) describes, None for a key of its own."""
        for i in range(1, len(path) + 1):
            found = self.companions.get(path[:i])
            if found is not None:
                return found
        return None

    @property
    def top(self) -> Container:
        first = self.members[0]
        assert isinstance(first, Container) and first.path == ()
        return first

    def leaves(self) -> Iterator[Leaf]:
        return (m for m in self.members if isinstance(m, Leaf))


def listed_removal(
    run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
) -> Splice:
    """Members of a comma-separated list (JSON, a YAML flow collection, a TOML inline table)
    removed with the separator after them, or before them where they end the list."""
    if after is not None:
        return Splice(run[0].start, after.start, "")
    if before is not None:
        return Splice(before.end, run[-1].end, "")
    return Splice(parent.inner_start, parent.inner_end, "")


def indentation(text: str, pos: int) -> str:
    """The spaces and tabs that start the line `pos` is on (up to `pos`)."""
    line = text.rfind("\n", 0, pos) + 1
    end = line
    while end < pos and text[end] in " \t":
        end += 1
    return text[line:end]


def reindented(member: str, old: str, new: str) -> str:
    """`member`'s lines after its first moved from indentation `old` to `new` (what is deeper
    keeps its depth below it)."""
    if old == new or "\n" not in member:
        return member
    lines = member.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        out.append(new + line[len(old) :] if line.startswith(old) else line)
    return "\n".join(out)


def newline_of(text: str) -> str:
    """The file's line break (`\\r\\n` where its first line ends so)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"
