"""The string values of a JSON string file as entries, in source order (one pass over jsontext).

What is sent: string values (object members at any depth, array items). Never sent: keys,
numbers, booleans, nulls; ARB `@key` metadata and `@@` keys; `placeholders` objects;
`description` beside a `message`/`defaultMessage` (it is the message's context instead);
values that are no text (shape.is_text: URLs, paths, key references ...).

i18next plural keys: a run of adjacent sibling members `stem_one`, `stem_other` (or
`stem_ordinal_one` ...) is one plural; a target that needs a category the run lacks gets a new
member `stem_few` right after the run's last member, written like it (indentation, `": "`),
translated from `stem_other` (context: the category and its numbers) and, where that
translation is missing, a copy of the target's `stem_other`. Members of one plural that are not
adjacent are not seen as one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from ..jsontext import JsonStyle, Path, Token, decode_string, encode_string, tokens
from ..layout import spell
from ..strings import (
    Edit,
    Entry,
    Item,
    PluralLanguages,
    active,
    category_note,
    missing_categories,
    parse_value,
)
from ..strings.plurals import CATEGORIES, PluralKind, nearest_form
from ..strings.shape import is_text
from . import Flavor
from .flavor import conventions_of

_MESSAGE_KEYS = frozenset({"message", "defaultMessage"})
_MESSAGE_OBJECT_KEYS = _MESSAGE_KEYS | {"description", "placeholders"}
_GENDER = {"male": "i18next context: male", "female": "i18next context: female"}


_KEY_PARTS = 8  # a key path in context: its last parts (a hostile file may nest 100,000 deep)


def key_path(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def plural_key(key: str) -> tuple[str, str, PluralKind] | None:
    """`items_few` -> ("items", "few", cardinal); `place_ordinal_two` -> ordinal; else None."""
    stem, sep, category = key.rpartition("_")
    if not sep or not stem or category not in CATEGORIES:
        return None
    if stem.endswith("_ordinal"):
        return stem[: -len("_ordinal")], category, "ordinal"
    return stem, category, "cardinal"


@dataclass(slots=True)
class _Member:
    key: Token
    value: Token
    entry: Entry | None  # None: nothing to translate in it (still a form of the plural)
    category: str


@dataclass(slots=True)
class _Frame:
    kind: Literal["{", "["]
    depth: int
    opaque: bool = False  # metadata: nothing inside is sent
    message_object: bool | None = None  # decided by its first key
    key: Token | None = None
    held: list[Item] = field(default_factory=list)  # a message object's entries, until it closes
    description: str = ""
    run: list[_Member] = field(default_factory=list)  # adjacent plural forms
    run_stem: tuple[str, PluralKind] | None = None


class Walk:
    def __init__(
        self,
        text: str,
        flavor: Flavor,
        descriptions: dict[str, str] | None = None,
        wanted: Callable[[int, int], bool] | None = None,
        skip: Mapping[int, int] | None = None,
        languages: PluralLanguages = None,
    ) -> None:
        """`wanted`: the only value spans that must be entries (a merge needing a few: the
        others are not parsed); plural forms are always, for the forms a target needs.
        `skip`: containers that hold no wanted value and no plural a target lacks a form of
        (strings/_document.Wanted), passed over unread. `languages`: those new plural forms are
        made for (strings/plurals.plural_codes; None: every language)."""
        self.text = text
        self.languages = languages
        self.wanted = wanted
        self.skip = skip
        self.flavor = flavor
        self.descriptions = descriptions or {}
        self.stack: list[_Frame] = []

    @cached_property
    def style(self) -> JsonStyle:
        """How the file writes strings, read when a value is first needed (a merge may need none)."""
        return JsonStyle.of(self.text)

    def items(self) -> Iterator[Item]:
        for token in tokens(self.text, skip=self.skip):
            yield from self._token(token)

    def _token(self, token: Token) -> Iterator[Item]:
        frame = self.stack[-1] if self.stack else None
        kind = token.kind
        if kind == "key":
            assert frame is not None
            yield from self._key(frame, token)
            return
        if kind in ("}", "]"):
            closed = self.stack.pop()
            yield from self._flush(closed)
            if closed.message_object:
                yield from closed.held
            return
        if frame is not None and frame.kind == "{" and kind != "string":
            yield from self._flush(frame)  # a non-string member ends a plural run
        if kind in ("{", "["):
            opaque = frame is not None and (frame.opaque or self._opaque_key(frame, token))
            self.stack.append(_Frame(kind, token.depth, opaque))
            return
        if kind == "string" and (frame is None or not frame.opaque):
            yield from self._string(frame, token)

    def _opaque_key(self, frame: _Frame, token: Token) -> bool:
        """Metadata subtrees: ARB `@key`, `placeholders` of a message object or anywhere in ARB."""
        key = token.key
        if not isinstance(key, str):
            return False
        if self.flavor == "arb" and token.depth == 1 and key.startswith("@"):
            return True
        return key == "placeholders" and (
            self.flavor in ("arb", "webextension") or bool(frame.message_object)
        )

    def _key(self, frame: _Frame, token: Token) -> Iterator[Item]:
        key = token.key
        assert isinstance(key, str)
        if frame.message_object is None:  # decided by the first key: `message` first, or WebExtension's
            frame.message_object = key in _MESSAGE_KEYS or (
                self.flavor == "webextension" and frame.depth == 1 and key in _MESSAGE_OBJECT_KEYS
            )
        frame.key = token
        parsed = plural_key(key)
        stem = (parsed[0], parsed[2]) if parsed is not None else None
        if frame.run and stem != frame.run_stem:
            yield from self._flush(frame)

    def _string(self, frame: _Frame | None, token: Token) -> Iterator[Item]:
        key = token.key
        if self.flavor == "arb" and isinstance(key, str) and token.depth == 1 and key.startswith("@"):
            if key == "@@locale":
                yield self._locale_edit(token)
            return
        if self.flavor == "arb" and token.depth != 1:
            return
        if frame is not None and frame.message_object:
            if key == "description":
                frame.description = decode_string(self.text[token.start + 1 : token.end - 1])
                for i, item in enumerate(frame.held):
                    if isinstance(item, Entry):
                        frame.held[i] = _with_note(item, frame.description)
                return
            if key not in _MESSAGE_KEYS:
                return
        plural = (
            isinstance(key, str) and frame is not None and frame.kind == "{" and plural_key(key) is not None
        )
        if self.wanted is not None and not plural and not self.wanted(token.start + 1, token.end - 1):
            entry = None
        else:
            entry = self._entry(token, frame)
        if frame is not None and frame.message_object:
            if entry is not None:
                frame.held.append(entry)
            return
        parsed = plural_key(key) if isinstance(key, str) and frame is not None and frame.kind == "{" else None
        if parsed is not None and frame is not None and frame.key is not None:
            frame.run_stem = (parsed[0], parsed[2])
            frame.run.append(_Member(frame.key, token, entry, parsed[1]))
            return
        if entry is not None:
            yield entry

    def _entry(self, token: Token, frame: _Frame | None) -> Entry | None:
        raw = self.text[token.start + 1 : token.end - 1]
        value = decode_string(raw)
        if not value.strip() or not is_text(value):
            return None
        candidates, always = conventions_of(self.flavor, value)
        parsed = parse_value(value, active(value, candidates, always), plural_languages=self.languages)
        if not parsed.segments:
            return None
        path, more = token.tail(_KEY_PARTS)
        key = ("…." if more else "") + key_path(path)
        notes = [self.descriptions.get(str(path[0]), "") if self.flavor == "arb" and path else ""]
        if frame is not None and frame.message_object:
            notes.append(frame.description)
        last = path[-1] if path else ""
        if isinstance(last, str):
            notes.append(_GENDER.get(last.rpartition("_")[2], ""))
        style = self.style
        return Entry(
            token.start + 1,
            token.end - 1,
            parsed,
            lambda text: encode_string(text, style),
            key,
            "\n".join(n for n in notes if n),
        )

    def _locale_edit(self, token: Token) -> Edit:
        written = decode_string(self.text[token.start + 1 : token.end - 1])
        sep = "-" if "-" in written else "_"
        style = self.style
        return Edit(token.start + 1, token.end - 1, lambda lang: encode_string(spell(lang, sep), style))

    def _flush(self, frame: _Frame) -> Iterator[Item]:
        """The plural run of `frame` ends: its entries, then the new forms targets need."""
        run, frame.run, stem = frame.run, [], frame.run_stem
        frame.run_stem = None
        if not run:
            return
        for member in run:
            if member.entry is not None:
                yield member.entry
        categories = [m.category for m in run]
        base_name = nearest_form(categories)
        if stem is None or len(run) < 2 or "other" not in categories or base_name is None:
            return  # i18next always has `_other`: `level_one`, `level_two` alone are no plural
        base = run[categories.index(base_name)]
        if base.entry is None:
            return
        yield from self._new_forms(run, base, base.entry, stem[1])

    def _new_forms(
        self, run: list[_Member], base: _Member, entry: Entry, kind: PluralKind
    ) -> Iterator[Entry]:
        text, last = self.text, run[-1]
        # written like the run's last member: the space before its key, the `": "` after it
        lead = text[_space_start(text, last.key.start) : last.key.start]
        colon = text[last.key.end : last.value.start]
        base_key = text[base.key.start : base.key.end]
        stem_raw = base_key[: -len(base.category) - 1]
        tail, more = base.key.tail(_KEY_PARTS + 1)
        prefix = ("…." if more else "") + key_path(tail[:-1])
        parent = base.key.path[:-1]
        style = self.style
        for lang, categories in sorted(
            missing_categories([m.category for m in run], kind, self.languages).items()
        ):
            for category in categories:
                note = category_note(lang, category, kind)
                key_raw = f'{stem_raw}{category}"'
                name = decode_string(key_raw[1:-1])
                yield Entry(
                    last.value.end,
                    last.value.end,
                    entry.value.for_targets(frozenset({lang}), note),
                    _member_writer(f",{lead}{key_raw}{colon}", style),
                    f"{prefix}.{name}" if prefix else name,
                    entry.note,
                    frozenset({lang}),
                    entry,
                    path=(*parent, name),
                )


def _member_writer(head: str, style: JsonStyle) -> Callable[[str], str]:
    return lambda text: f'{head}"{encode_string(text, style)}"'


def _space_start(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1] in " \t\r\n":
        pos -= 1
    return pos


def _with_note(entry: Entry, note: str) -> Entry:
    from dataclasses import replace

    return replace(entry, note="\n".join(n for n in (entry.note, note) if n))


def arb_descriptions(text: str) -> dict[str, str]:
    """`@key.description` of every message in an ARB file (a first pass: metadata may follow)."""
    found: dict[str, str] = {}
    for token in tokens(text):
        if token.kind != "string" or token.depth != 2:
            continue
        path = token.path
        if (
            token.kind == "string"
            and len(path) == 2
            and path[1] == "description"
            and isinstance(path[0], str)
            and path[0].startswith("@")
            and not path[0].startswith("@@")
        ):
            found[path[0][1:]] = decode_string(text[token.start + 1 : token.end - 1])
    return found
