"""Brackets, quotes, end punctuation and edge whitespace: the shape of a sentence, compared
between a source and its answer, allowing each language's own marks (（）for (), 「」 for
quotes, 。 for ., ؟ for ?)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import regex

from ._locales import END_PUNCTUATION_EQUIVALENTS, base

# Bracket kinds, each with the opening and closing marks that stand for it in any language.
BRACKETS: dict[str, tuple[str, str]] = {
    "round": ("(（﹙⁽₍", ")）﹚⁾₎"),
    "square": ("[［【〔〖〘", "]］】〕〗〙"),
    "curly": ("{｛﹛", "}｝﹜"),
    "angle": ("〈《⟨", "〉》⟩"),  # CJK title marks
}
_BRACKET = re.compile("[" + re.escape("".join(o + c for o, c in BRACKETS.values())) + "]")
# Double quotation marks of every style; a style's opening and closing marks differ by language
# (“ opens in English and closes in German, » opens in Danish), so only counts are compared,
# except for marks that only ever pair one way.
DOUBLE_QUOTES = '"“”„‟«»「」『』＂〝〞〟﹁﹂﹃﹄'
_QUOTE = re.compile("[" + re.escape(DOUBLE_QUOTES) + "]")
QUOTE_PAIRS = (("「", "」"), ("『", "』"), ("﹁", "﹂"), ("﹃", "﹄"), ("«", "»"))
END_CLASSES: dict[str, str] = {
    "period": ".。｡．۔।॥။።។།܂᠃։",
    "question": "?？؟\u037e⸮፧",
    "exclamation": "!！",
    "colon": ":：︓",
    "semicolon": ";；؛",
    "comma": ",，、،",
}

_CLASS_OF = {ch: name for name, chars in END_CLASSES.items() for ch in chars}
# Every script's sentence terminals (Unicode's Sentence_Terminal: Armenian ։, Khmer ៕, Javanese ꧉,
# Ol Chiki ᱾ ...) end a text too: those not listed above are classed by their names.
_TERMINAL = regex.compile(r"\p{Sentence_Terminal}")
END_MARKS = "".join(END_CLASSES.values()) + "…⋯‥"  # every mark that ends a text (ellipses too)
# Marks that may follow the end punctuation and are looked through: closing quotes and brackets.
CLOSING_MARKS = "\"'”’“‘»«›‹」』〉》⟩)]}）］｝】〕〗〙"
_ELLIPSES = ("...", "…", "⋯", "。。。", "．．．", "‥")


def bracket_problem(source: str, answer: str) -> str | None:
    """Each kind of bracket as balanced in the answer as in the source: closed where the source
    closes it; where the source itself leaves one open (`1) first`), open the same way."""
    source_marks, answer_marks = _BRACKET.findall(source), _BRACKET.findall(answer)
    if not source_marks and not answer_marks:
        return None
    problems = []
    for kind, (opens, closes) in BRACKETS.items():
        want, got = _balance(source_marks, opens, closes), _balance(answer_marks, opens, closes)
        if want == got:
            continue
        if want == (0, 0):
            problems.append(
                f"{kind} brackets unbalanced in the answer ({_describe(got, opens[0], closes[0])})"
            )
        else:
            problems.append(
                f"{kind} brackets balanced differently ({_describe(want, opens[0], closes[0])} in the "
                f"source, {_describe(got, opens[0], closes[0]) or 'balanced'} in the answer)"
            )
    return "; ".join(problems) or None


def _balance(marks: list[str], opens: str, closes: str) -> tuple[int, int]:
    """(closing marks without an opening one, opening marks never closed)."""
    depth = unmatched = 0
    for ch in marks:
        if ch in opens:
            depth += 1
        elif ch in closes:
            if depth:
                depth -= 1
            else:
                unmatched += 1
    return unmatched, depth


def _describe(balance: tuple[int, int], open_mark: str, close_mark: str) -> str:
    closed, left_open = balance
    parts = ([f"{closed} {close_mark} without {open_mark}"] if closed else []) + (
        [f"{left_open} {open_mark} not closed"] if left_open else []
    )
    return ", ".join(parts)


def quote_problem(source: str, answer: str) -> str | None:
    """Where the source's double quotes pair up (an even number of marks), the answer's must too.
    A source with an odd number (an inch mark: 27") is not judged."""
    want, got = Counter(_QUOTE.findall(source)), Counter(_QUOTE.findall(answer))
    if not got or want.total() % 2:
        return None
    if got.total() % 2:
        return f"unpaired quotation mark in the answer ({got.total()} double quotes)"
    for opening, closing in QUOTE_PAIRS:
        if want[opening] == want[closing] and got[opening] != got[closing]:
            return f"unpaired {opening}{closing} in the answer"
    return None


def end_class(text: str) -> str:
    """The end punctuation of `text`: a class name, or "" for none. Closing quotes and brackets
    after it are looked through (`"yes."` ends with a period, as `« oui ».` does)."""
    end = len(text.rstrip())
    while end and _closes(text[end - 1]):
        end = len(text[: end - 1].rstrip())
    core = text[:end]
    if core.endswith(_ELLIPSES):
        return "ellipsis"
    last = core[-1:]
    return _CLASS_OF.get(last) or (_terminal_class(last) if last and _TERMINAL.match(last) else "")


def _terminal_class(mark: str) -> str:
    """A sentence terminal's class from its name: a question or exclamation mark, else a period."""
    name = unicodedata.name(mark, "")
    return "question" if "QUESTION" in name else "exclamation" if "EXCLAMATION" in name else "period"


def _closes(ch: str) -> bool:
    return ch in "\"'" or unicodedata.category(ch) in ("Pe", "Pf", "Pi")


def end_punctuation_problem(source: str, answer: str, target: str, source_lang: str | None) -> str | None:
    want, got = end_class(source), end_class(answer)
    if want == got:
        return None
    allowed = END_PUNCTUATION_EQUIVALENTS.get(base(target), frozenset()) | END_PUNCTUATION_EQUIVALENTS.get(
        base(source_lang), frozenset()
    )
    if frozenset({want, got}) in allowed:
        return None
    return f"ends with {_name(got)} where the source ends with {_name(want)}"


def _name(end: str) -> str:
    return {
        "": "no punctuation",
        "ellipsis": "an ellipsis",
        "exclamation": "an exclamation mark",
        "question": "a question mark",
    }.get(end, f"a {end}")


def whitespace_problem(source: str, answer: str) -> str | None:
    """Leading and trailing whitespace kept: present or not, and a line break or not."""
    problems = []
    for where, pick in (("leading", _leading), ("trailing", _trailing)):
        want, got = _space_kind(pick(source)), _space_kind(pick(answer))
        if want != got:
            problems.append(f"{where} whitespace: {got or 'none'} where the source has {want or 'none'}")
    return "; ".join(problems) or None


def _leading(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _trailing(text: str) -> str:
    return text[len(text.rstrip()) :]


def _space_kind(space: str) -> str:
    return "" if not space else ("a line break" if "\n" in space or "\r" in space else "spaces")
