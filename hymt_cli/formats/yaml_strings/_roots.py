"""Which part of a YAML string file holds one language: its root keys, read before the parse.

- A Rails locale file has one root key, its language (`en:`): the strings are under it, and a
  key's path leaves it out (`en.errors.blank` and `de.errors.blank` are both `errors.blank`).
- A file of several locales holds each under its own root key (Jekyll's `_data/ui-text.yml` of
  minimal-mistakes: `en:`, `de:`, `fr:` ...). Its source is the source locale's subtree (`en:`
  where there is one, else its first locale), and the translation into `de` is the `de:`
  subtree of the output file; the other locales' subtrees are never touched.

The root keys are read from the lines that start a block mapping's key at column 0 (the first
document only): cheap, and the same answer for the scan and the outline of one text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..layout import path_language, same_language, spell

_ROOT_KEY = re.compile(
    r"""^(?:"(?P<dq>[^"\\\n]*)"|'(?P<sq>[^'\n]*)'|(?P<plain>[^\s#'"\-?:%\[{&*!|>@`][^\n]*?))"""
    r"""[ \t]*:(?P<rest>[ \t][^\n]*|\r?)$""",
    re.MULTILINE,
)
_DOCUMENT_END = re.compile(r"^(?:---|\.\.\.)(?:[ \t]|$)", re.MULTILINE)
# After `en:`, a mapping follows on the next lines: nothing on the line but an anchor or a comment.
_MAPPING_NEXT = re.compile(r"[ \t]*(?:&[^\s]+[ \t]*)?(?:#[^\n]*)?\r?")


@dataclass(frozen=True, slots=True)
class Root:
    """How a file's root keys are read: `rails` (one root key, a language: `key`) or `locales`
    (several, `key` the source locale's), with every root key in order (`keys`)."""

    kind: Literal["rails", "locales"]
    key: str
    keys: tuple[str, ...]
    mapping: frozenset[str]  # the root keys whose value is a block mapping

    def locale_key(self, lang: str) -> str | None:
        """The root key of `lang` in a file of several locales (`pt-BR` for pt-BR, `de` for de:
        the key written as the language, else the first that names it); None: none."""
        wanted = lang.replace("_", "-").lower()
        for key in self.keys:
            if key.replace("_", "-").lower() == wanted:
                return key
        return next((k for k in self.keys if same_language(k, lang)), None)

    def new_key(self, lang: str) -> str:
        """How a new root key for `lang` is written (the separator the file's keys use)."""
        sep = "_" if any("_" in k for k in self.keys) else "-"
        return spell(lang, sep)


def _root_keys(text: str) -> tuple[list[str], set[str]]:
    """The keys at column 0 of the first document, and those whose value is a mapping."""
    body = text.lstrip("\ufeff")
    start = 0
    first = _DOCUMENT_END.search(body)
    if first is not None and not body[: first.start()].strip(" \t\r\n"):  # a leading `---`
        start = first.end()
        first = _DOCUMENT_END.search(body, start)
    end = first.start() if first is not None else len(body)
    keys: list[str] = []
    mapping: set[str] = set()
    for match in _ROOT_KEY.finditer(body, start, end):
        key = match.group("dq") if match.group("dq") is not None else match.group("sq")
        if key is None:
            key = match.group("plain").rstrip()
        keys.append(key)
        if _MAPPING_NEXT.fullmatch(match.group("rest")):
            mapping.add(key)
    return keys, mapping


@lru_cache(maxsize=8)
def root_of(text: str) -> Root | None:
    """The file's root reading (module docstring); None: a plain file, paths from its top."""
    keys, mapping = _root_keys(text)
    if len(keys) == 1 and path_language(keys[0]) is not None and keys[0] in mapping:
        return Root("rails", keys[0], tuple(keys), frozenset(mapping))
    codes = [k for k in keys if path_language(k) is not None]
    if len(codes) < 2 or 2 * len(codes) < len(keys) or len(set(keys)) != len(keys):
        return None
    english = [k for k in codes if path_language(k).language == "en"]  # type: ignore[union-attr]
    source = "en" if "en" in codes else (english[0] if english else codes[0])
    if source not in mapping:
        return None
    return Root("locales", source, tuple(keys), frozenset(mapping))
