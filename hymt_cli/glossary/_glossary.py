"""The run's glossary: every entry, resolved per target language on first use. A glossary names
the model's languages (`pt`, `zh-Hant`: entries.language_code): an entry for pt serves every
locale written in Portuguese (pt-BR, pt-PT)."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.languages import Language
from ._matching import Matcher, fold
from .entries import Entry
from .injection import GlossaryUse, build_use


class Glossary:
    """Every glossary of the run, resolved per target language on first use."""

    def __init__(self, entries: Sequence[Entry], *, source: Language | None = None, digest: str = "") -> None:
        self.entries = tuple(entries)
        self.source = source
        self.digest = digest  # for translation-memory keys
        self._matchers: dict[str, Matcher] = {}

    def matcher(self, lang: Language) -> Matcher:
        """The automaton of the entries that apply when translating into `lang`."""
        matcher = self._matchers.get(lang.model)
        if matcher is None:
            matcher = self._matchers[lang.model] = Matcher(self._entries_for(lang))
        return matcher

    def _entries_for(self, lang: Language) -> list[Entry]:
        source = self.source.model if self.source else None
        chosen: dict[tuple[str, bool], Entry] = {}
        for entry in self.entries:
            if entry.target_lang not in (None, lang.model) or entry.source_lang == lang.model:
                continue
            if source is not None and entry.source_lang not in (None, source):
                continue
            key = (entry.source if entry.case_sensitive else fold(entry.source), entry.case_sensitive)
            # A row for this very language beats a row for every language.
            if key not in chosen or (chosen[key].target_lang is None and entry.target_lang is not None):
                chosen[key] = entry
        return list(chosen.values())

    def use(self, text: str, lang: Language) -> GlossaryUse | None:
        """The glossary's part in translating `text` into `lang`; None when no term occurs."""
        matches = self.matcher(lang).find(text)
        return build_use(text, matches) if matches else None
