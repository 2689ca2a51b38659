"""The shared core of the software-string formats (JSON, YAML, TOML, properties, PO, XLIFF,
Android, Apple): one placeholder grammar, ICU messages, CLDR plurals, and splicing.

How a format uses it (see each module's docstring):
1. Subclass `StringsFormat` (_document.py): `decode(bytes) -> Decoded` and `scan(text)` yielding
   `Entry`s and `Edit`s in source order. Parsing, streaming units and writing are done here.
2. For each string value: undo the container's escapes (JSON: jsontext.decode_string), choose
   the conventions (`active(text, candidates, always)`, conventions.py), and
   `parse_value(text, conventions)` (values.py): segments with placeholders as HY-MT tags, ICU
   branches as segments of their own, new CLDR plural categories for the targets that need them.
3. Yield `Entry(start, end, value, write, key=..., note=...)`: `write(new value text)` escapes
   the text for the container the way the source writes it (quotes, escapes); the core calls it
   only when the value changed, so an untranslated value keeps its bytes.
4. A plural form a target needs that the file lacks as a key of its own (i18next `x_few`, an
   Android `<item quantity="few">`, a stringsdict key) is an `Entry` inserted at a point
   (`start == end`) with `targets` naming the language, `value.for_targets(...)` of the source
   form it is translated from, and `fallback` the entry whose rendering it copies when its own
   translation is missing. plurals.py says which categories each language needs.
5. Changes every target file carries (ARB `@@locale`, Rails' root key, a PO header) are `Edit`s.
6. Declare `layouts` (formats/layout.py: where a path names its language) and, for a suffix
   shared with configuration files, `walk_refusal`; register the class in formats/__init__.py
   (`_DOCUMENTS` and `_STRINGS`).

A value read in one place and written in another (a PO msgid into its msgstr) is an Entry whose
span is where the translation goes (`write` escapes for it); one written differently per
target (a PO file's `msgstr[n]` lines: as many as the target has forms) is one Entry whose value
(any `values.Value`: po/_messages.py's PluralMessage) renders the whole block for the language
asked, from segments of its own per target and category. `Segment.targets` (segments.py) makes the pipeline
plan a segment only for those
targets. `values.placeholders(text, conventions)` is the placeholder multiset a translation must
keep (tests; checks).
"""

from __future__ import annotations

from ._document import SkippingStringsFormat, StringsFormat, StringsReader, Wanted
from ._splice import Chunk, Edit, Entry, Item, StringsDocument, context_of
from .conventions import (
    Convention,
    Conventions,
    active,
    escaper,
    icu_escape,
    literal_parts,
    looks_like_printf,
)
from .html_text import html_escaped
from .icu import IcuError, parse_message
from .merge import MergeCounts
from .plurals import (
    CATEGORIES,
    GettextPlurals,
    PluralKind,
    PluralLanguages,
    PluralRules,
    category_note,
    gettext_plurals,
    gettext_plurals_of,
    missing_categories,
    nearest_form,
    parse_plural_forms,
    plural_rules,
)
from .target import MergeResult
from .values import ParsedValue, Value, ValueSegment, located_value, parse_value

__all__ = [
    "CATEGORIES",
    "Chunk",
    "Convention",
    "Conventions",
    "Edit",
    "Entry",
    "GettextPlurals",
    "IcuError",
    "Item",
    "MergeCounts",
    "MergeResult",
    "StringsReader",
    "Wanted",
    "ParsedValue",
    "Value",
    "PluralKind",
    "PluralLanguages",
    "PluralRules",
    "StringsDocument",
    "SkippingStringsFormat",
    "StringsFormat",
    "ValueSegment",
    "active",
    "category_note",
    "context_of",
    "escaper",
    "html_escaped",
    "gettext_plurals",
    "gettext_plurals_of",
    "icu_escape",
    "literal_parts",
    "looks_like_printf",
    "located_value",
    "missing_categories",
    "nearest_form",
    "parse_message",
    "parse_plural_forms",
    "parse_value",
    "plural_rules",
]
