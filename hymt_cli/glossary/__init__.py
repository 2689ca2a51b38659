"""Glossaries: load TSV/CSV/JSON/TBX, find the terms in a segment, protect do-not-translate
terms, verify and tally adherence.

The pipeline calls three narrow hooks: `Glossary.use(text, lang)` while planning (what the
model sees and which terms go into the prompt), `GlossaryUse.restore(output)` on every model
output, and `check_terms(use, output)` (the pipeline's validator: a miss is a *soft*
problem, retried once, then the best output is kept and the miss recorded). `tally` fills the
report.

Modules, one job each:
- `entries`: the `Entry` value, `GlossaryError`, language codes, the rules every term obeys;
- `reading`, `delimited` (TSV/CSV), `jsonfile`, `tbx`: one loader per file kind;
- `loading`: by suffix, merged, conflicts refused, digest for translation-memory keys;
- `matching`: the terms of one target language in a segment (Aho-Corasick, word edges);
- `injection`: placeholders for do-not-translate terms, prompt terms, expectations;
- `verification`: did the output use the terms; the report's tally;
- `glossary`: the `Glossary` the pipeline holds.
"""

from __future__ import annotations

from ._glossary import Glossary
from ._loading import load_entries, load_glossaries
from ._matching import Match, Matcher, at_word_edges, fold, select
from ._verification import check_terms, tally
from .entries import Entry, GlossaryError, language_code
from .injection import Expected, GlossaryUse

__all__ = [
    "Entry",
    "Expected",
    "Glossary",
    "GlossaryError",
    "GlossaryUse",
    "Match",
    "Matcher",
    "at_word_edges",
    "check_terms",
    "fold",
    "language_code",
    "load_entries",
    "load_glossaries",
    "select",
    "tally",
]
