"""What a legacy encoding writes for a character it lacks: the conventional substitute its
typists wrote (’ → ' and … → ... in GBK or ISO-8859-1, œ → oe in ISO-8859-1, ß → ss: German's
official fallback), so that a French translation is written in a Latin-1 catalog as French was
always typed in Latin-1, and one typographic apostrophe of the model's never fails a GBK file.

A character (with the combining marks after it) that an encoding lacks is written, in order of
preference:
1. in a canonically equivalent form the encoding has: a decomposed é composed; Vietnamese ế as
   ê and a combining acute in windows-1258. The same text (Unicode says so): never counted.
2. as CLDR's character fallback (supplemental characterFallbacks, in fallbacks.json: ’ → ',
   – — → -, “ ” → ", œ → oe, ß → ss, € → EUR, ș → ş), hymt's own few first (`OWN`);
3. as its compatibility form (NFKC: … → ..., ﬁ → fi, a no-break space → a space, fullwidth
   Ａ → A), where the encoding has it, each of its characters substituted once more if need be.
Nothing else: a letter is never stripped of its marks (ä is no a: German stays unwritable in
GBK), and no script is transliterated (Russian is never romanized into Latin-1). Python's codecs
have no such fallback (their `replace` writes `?`), and the libraries that have one transliterate
everything to ASCII (unidecode, text-unidecode: GPL/Artistic; anyascii), letters included.
"""

from __future__ import annotations

import codecs
import json
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import combinations

# hymt's own substitutes, before CLDR's. A quotation mark for a quotation mark, as CLDR writes
# “ ” ‘ ’: its « » → << >> and „ ‚ → ,, , draw the glyph, and a typist of KOI8-R or Latin-1
# wrote "Файл" and "Datei", never <<Файл>> or ,,Datei". What CLDR leaves out: Ÿ (the capital
# of French's ÿ, which ISO-8859-1 lacks: Y, as French typed it), primes, single guillemets, the
# arrows of a menu path (File → Save); the dash and wave dash that Japanese and Chinese encodings
# hold under their other code point (JIS X 0208's dash is U+2015 in Shift_JIS, its wave dash
# U+FF5E in GBK), the middle dots of CJK text. Invisible characters are left out rather than
# drawn (a soft hyphen is no -).
OWN: dict[str, tuple[str, ...]] = {
    "«": ('"',),
    "»": ('"',),
    "„": ('"',),
    "‚": ("'",),
    "‹": ("'",),
    "›": ("'",),
    "′": ("'",),
    "″": ('"',),
    "Ÿ": ("Y",),
    "→": ("->",),
    "←": ("<-",),
    "—": ("―", "-"),
    "〜": ("～", "~"),
    "・": ("·",),
    "•": ("·", "・"),
    "\u00ad": ("",),  # soft hyphen
    "\u200b": ("",),  # zero width space
    "\u2060": ("",),  # word joiner
    "\ufeff": ("",),  # zero width no-break space (a byte order mark inside a text)
}
_MOST_MARKS = 4  # marks on one letter whose compositions are tried (2**4 subsets; more: NFC, NFD)
_LONGEST_CLUSTER = 8  # a letter and its marks, as long as any script writes one


@dataclass(frozen=True, slots=True)
class Substitute:
    """What an encoding writes for a character it lacks; `lossy` False: the same text in
    another canonical form (never counted as a substitute)."""

    text: str
    lossy: bool = True


@dataclass(frozen=True, slots=True)
class Fitted:
    """A text as an encoding writes it: `substituted` the (character, substitute) of each
    substitution made, in order; `lacking` the first character with no substitute (then `text`
    is the text as given, which the encoding cannot write)."""

    text: str
    substituted: tuple[tuple[str, str], ...] = ()
    lacking: str | None = None


def is_legacy(codec: str) -> bool:
    """Whether `codec` lacks characters (not UTF-8, -16 or -32: those write any)."""
    try:
        name = codecs.lookup(codec).name
    except LookupError:
        return False
    return not name.startswith(("utf-8", "utf-16", "utf-32", "utf_"))


def fit(text: str, codec: str) -> Fitted:
    """`text` as `codec` writes it: what it lacks as substitutes."""
    if _encodes(text, codec):
        return Fitted(text)  # (nearly every text)
    out: list[str] = []
    substituted: list[tuple[str, str]] = []
    for cluster in _clusters(text):
        if len(cluster) > _LONGEST_CLUSTER:  # marks no letter carries (an untrusted answer's): uncached
            found = Substitute(cluster, lossy=False) if _encodes(cluster, codec) else None
        elif writes(cluster, codec):
            out.append(cluster)
            continue
        else:
            found = substitute(cluster, codec)
        if found is None:
            return Fitted(
                text, tuple(substituted), next((c for c in cluster if not writes(c, codec)), cluster)
            )
        out.append(found.text)
        if found.lossy:
            substituted.append((cluster, found.text))
    return Fitted("".join(out), tuple(substituted))


def lacks(character: str, codec: str) -> bool:
    """Whether `codec` can write neither `character` nor a substitute for it."""
    return not writes(character, codec) and substitute(character, codec) is None


@lru_cache(maxsize=65536)
def writes(text: str, codec: str) -> bool:
    """Whether `codec` writes `text` (a character, a cluster or a substitute: cached)."""
    return _encodes(text, codec)


def writes_all(text: str, codec: str) -> bool:
    """Whether `codec` writes `text` as it is (not cached: a whole text)."""
    return _encodes(text, codec)


def _encodes(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@lru_cache(maxsize=16384)
def substitute(cluster: str, codec: str) -> Substitute | None:
    """What `codec` writes for `cluster` (a character and the combining marks after it), which
    it cannot write as it is; None: nothing (module docstring)."""
    same = _canonical(cluster, codec)
    if same is not None:
        return Substitute(same, lossy=False)
    composed = unicodedata.normalize("NFC", cluster)
    for candidate in _candidates(composed):
        if writes(candidate, codec):
            return Substitute(candidate)
    for candidate in _candidates(composed):  # (NFKC's ″ is ′′, whose ′ is ')
        again = [
            c if writes(c, codec) else next((s for s in _candidates(c) if writes(s, codec)), None)
            for c in candidate
        ]
        if all(c is not None for c in again):
            return Substitute("".join(c for c in again if c is not None))
    return None


def shown(text: str) -> str:
    """A character or a substitute as a message shows it: what draws nothing named."""
    if text == "":
        return "nothing"
    if text == " ":
        return "space"
    return "".join(
        f"U+{ord(c):04X}" if unicodedata.category(c)[0] in "CZ" or unicodedata.combining(c) else c
        for c in text
    )


def _candidates(character: str) -> list[str]:
    """A character's substitutes in order: the tables', then its compatibility form."""
    found = list(_fallbacks().get(character, ()))
    compatible = unicodedata.normalize("NFKC", character)
    if compatible != character:
        found.append(compatible)
    return found


def _canonical(cluster: str, codec: str) -> str | None:
    """A form of `cluster` canonically equivalent to it that `codec` writes (None: none): its
    composition, or its letter composed with some of its marks and the others after it."""
    composed = unicodedata.normalize("NFC", cluster)
    if composed != cluster and writes(composed, codec):
        return composed
    decomposed = unicodedata.normalize("NFD", cluster)
    base, marks = decomposed[:1], decomposed[1:]
    if not marks:
        return None
    counts = range(len(marks) - 1, 0, -1) if len(marks) <= _MOST_MARKS else range(0)
    for count in counts:  # the most composed first
        for chosen in combinations(range(len(marks)), count):
            head = unicodedata.normalize("NFC", base + "".join(marks[i] for i in chosen))
            form = head + "".join(m for i, m in enumerate(marks) if i not in chosen)
            if writes(form, codec) and unicodedata.normalize("NFD", form) == decomposed:
                return form
    return decomposed if writes(decomposed, codec) else None


def _clusters(text: str) -> list[str]:
    """`text` as characters, each with the combining marks after it."""
    starts = [i for i, c in enumerate(text) if i == 0 or unicodedata.category(c)[0] != "M"]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


@cache
def _fallbacks() -> dict[str, tuple[str, ...]]:
    """CLDR's character fallbacks (fallbacks.json, generated by scripts/cldr_fallbacks.py), and
    hymt's own before them."""
    data = resources.files("hymt_cli.text").joinpath("fallbacks.json").read_text(encoding="utf-8")
    table = {
        character: tuple(alternatives) for character, alternatives in json.loads(data)["fallbacks"].items()
    }
    table.update(OWN)
    return table
