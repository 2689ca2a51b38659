"""Java `.properties` resource bundles, read as java.util.Properties.load reads them.

Each value is spliced in place: keys, separators, comments, blank lines and every untouched
value stay byte for byte. A value runs to the end of its logical line (a line ending in an
odd number of backslashes continues on the next, whose leading space is skipped). A new value
is escaped as Properties needs (`\\\\`, `\\n`, `\\t`, a leading `\\ `) and as the file is written:
- a file of ASCII bytes is ISO-8859-1 with `\\uXXXX` escapes (what Java before 9 reads, and
  `native2ascii` writes): every non-ASCII character of a translation becomes `\\uXXXX` (in the
  file's hex case);
- valid UTF-8 (Java 9+ bundles) is written as UTF-8; other bytes are ISO-8859-1 (what Java 9+
  falls back to, and Java 8 reads), where what Latin-1 lacks becomes `\\uXXXX`; the run warns
  that it guessed so, naming the file and the first byte that is not UTF-8.
A translated line break becomes `\\n`, continued on a new line where the source continues after
its `\\n`s (the usual layout of long messages).

MessageFormat: a value with arguments (`{0}`, `{1,number}`, `{0,choice,...}`) is a
java.text.MessageFormat pattern: its arguments are placeholders, a choice's texts are
segments, and apostrophes follow MessageFormat's rule (`''` for one) in what the model writes.
Bean Validation: `{min}` parameters and `${inclusive == true ? 'or equal to ' : ''}` EL
expressions (nested braces and quotes included) are one placeholder each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..text.segments import join_surrogates
from .base import Decoded, FormatError
from .layout import Layout, in_i18n_place, path_language, stem_suffix
from .strings import Entry, Item, PluralLanguages, SkippingStringsFormat, active, parse_value
from .strings.conventions import Convention
from .strings.outline import Container, Copied, Leaf, Member, Outline, Splice, indentation, newline_of
from .strings.shape import is_text

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.)|$)", re.DOTALL)
_SIMPLE = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_LEADING_SPACE = re.compile(r"[ \t\f]*")
_MESSAGE_FORMAT = re.compile(r"\{\d")
CANDIDATES = frozenset({Convention.PRINTF, Convention.HTML, Convention.EL, Convention.BRACE})
_BEAN_VALIDATION = frozenset({Convention.EL, Convention.BRACE})
_BUNDLE_WORDS = re.compile(
    r"messages|strings|bundle|resources|labels|text|i18n|l10n|lang|locali[sz]", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class PropertiesStyle:
    escape_above: int | None  # code points above this become \uXXXX (None: none)
    upper_hex: bool
    escaped_colons: bool  # the file writes `\:` and `\=` in values


def unescape(raw: str) -> str:
    """A key or value's text: escapes undone, continuations joined (IllegalArgument as Java)."""
    out: list[str] = []
    pos = 0
    for match in _ESCAPE.finditer(raw):
        out.append(raw[pos : match.start()])
        u4, ch = match.groups()
        if u4 is not None:
            out.append(chr(int(u4, 16)))
        elif ch is None:
            pass  # a lone backslash at the very end of the file
        elif ch in "\r\n":  # a continuation: the break and the next line's leading space go
            skip = 1 if ch == "\r" and raw.startswith("\n", match.end()) else 0
            lead = _LEADING_SPACE.match(raw, match.end() + skip)
            assert lead is not None  # (it matches the empty string)
            pos = lead.end()
            continue
        elif ch == "u":
            raise ValueError("malformed \\uxxxx escape")
        else:
            out.append(_SIMPLE.get(ch, ch))
        pos = match.end()
    out.append(raw[pos:])
    return join_surrogates("".join(out))


def escape(value: str, style: PropertiesStyle, continuation: str | None) -> str:
    out: list[str] = []
    line_start = True  # a space here would be skipped by Properties.load: written `\ `
    for i, ch in enumerate(value):
        code = ord(ch)
        at_start, line_start = line_start, False
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            continued = continuation is not None and i + 1 < len(value)
            out.append("\\n" + ("\\\n" + (continuation or "") if continued else ""))
            line_start = continued
        elif ch in "\t\r\f":
            out.append({"\t": "\\t", "\r": "\\r", "\f": "\\f"}[ch])
        elif at_start and ch in " \t\f":
            out.append("\\ ")
        elif ch in ":=" and style.escaped_colons:
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F or (style.escape_above is not None and code > style.escape_above):
            out.append(_u_escaped(ch, style.upper_hex))
        else:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Pair:
    key: str
    key_start: int
    value_start: int
    value_end: int  # before the logical line's terminator


def pairs(text: str) -> Iterator[_Pair]:
    """Every key/value pair of a properties text, as Properties.load finds them."""
    pos = 1 if text.startswith("\ufeff") else 0
    while pos < len(text):
        match = _LINE.match(text, pos)
        assert match is not None
        line_end = match.end()
        content_end = line_end - len(match.group(0)) + len(match.group(0).rstrip("\r\n"))
        if line_end == pos:
            break
        start = pos
        while start < content_end and text[start] in " \t\f":
            start += 1
        if start == content_end or text[start] in "#!":
            pos = line_end
            continue
        end = content_end  # the logical line continues while it ends in an odd run of backslashes
        while _odd_backslashes(text, end) and end < len(text):
            nxt = _LINE.match(text, line_end)
            assert nxt is not None
            if nxt.end() == line_end:
                break
            line_end = nxt.end()
            end = line_end - len(nxt.group(0)) + len(nxt.group(0).rstrip("\r\n"))
        key_end = _key_end(text, start, end)
        value_start = key_end
        while value_start < end and text[value_start] in " \t\f":
            value_start += 1
        if value_start < end and text[value_start] in "=:":
            value_start += 1
            while value_start < end and text[value_start] in " \t\f":
                value_start += 1
        yield _Pair(unescape(text[start:key_end]), start, value_start, end)
        pos = line_end


def _odd_backslashes(text: str, end: int) -> bool:
    count = 0
    while end - count - 1 >= 0 and text[end - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _key_end(text: str, start: int, end: int) -> int:
    i = start
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "=: \t\f":
            return i
        i += 1
    return end


def _comment_above(text: str, start: int) -> str:
    lines: list[str] = []
    line_start = text.rfind("\n", 0, start) + 1
    while line_start > 0 and len(lines) < 3:
        previous = text.rfind("\n", 0, line_start - 1) + 1
        line = text[previous : line_start - 1].strip()
        if not line or line[0] not in "#!":
            break
        lines.append(line.lstrip("#!").strip())
        line_start = previous
    return "\n".join(reversed([line for line in lines if line]))


def _continuation(raw: str) -> str | None:
    """The indentation a value continues with after its `\\n`s, if it does so in the source."""
    match = re.search(r"\\n\\\r?\n([ \t]*)", raw)
    return match.group(1) if match else None


class PropertiesFormat(SkippingStringsFormat):
    name = "properties"
    suffixes = (".properties",)
    layouts: ClassVar[tuple[Layout, ...]] = (stem_suffix,)
    writes_any_character = True  # (ISO-8859-1 with `\uXXXX` escapes: Java's own way)

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        """Configuration files share the suffix (application.properties, gradle.properties): in a
        folder walk, a bundle is a file named with a language (`_de`), one with translations
        beside it, one in an i18n folder, or one called like a bundle (`messages`, `strings` ...)."""
        stem = path.stem
        named = any(path_language("_".join(stem.split("_")[i:])) for i in range(1, len(stem.split("_"))))
        siblings = path.parent.is_dir() and any(path.parent.glob(f"{glob_escape(stem)}_*.properties"))
        if named or siblings or _BUNDLE_WORDS.search(stem) or in_i18n_place(path, ()):
            return None
        return (
            "a .properties file that is no resource bundle (no translations beside it, no language "
            "in its name, not in an i18n folder): name it, or pass --format, to translate it"
        )

    def decode(self, data: bytes) -> Decoded:
        if data.isascii():
            return Decoded(data.decode("latin-1"), "latin-1")
        try:
            return Decoded(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            return Decoded(
                data.decode("latin-1"),
                "latin-1",
                warning=f"not valid UTF-8 (line {line}, byte offset {exc.start}: {exc.reason}): read as "
                "ISO-8859-1, as Java reads such a bundle, and written so (\\uXXXX for what it lacks); if "
                "it is in another encoding, convert it to UTF-8 first",
            )

    def _scan(
        self, text: str, wanted: Callable[[int, int], bool] | None, languages: PluralLanguages
    ) -> Iterator[Item]:
        style = style_of(text)
        for pair in pairs(text):
            if wanted is not None and not wanted(pair.value_start, pair.value_end):
                continue
            raw = text[pair.value_start : pair.value_end]
            value = _value(text, pair, raw)
            if not value.strip() or not is_text(value):
                continue
            parsed = parse_value(value, conventions_for(value), plural_languages=languages)
            if parsed.segments:
                yield Entry(
                    pair.value_start,
                    pair.value_end,
                    parsed,
                    _writer(style, _continuation(raw)),
                    pair.key,
                    _comment_above(text, pair.key_start),
                )

    def outline(self, text: str) -> Outline:
        style = style_of(text)
        start = 1 if text.startswith("\ufeff") else 0
        members: list[Member] = [Container((), start, len(text), len(text), len(text))]
        for pair in pairs(text):
            raw = text[pair.value_start : pair.value_end]
            value = _value(text, pair, raw)
            members.append(
                Leaf(
                    (pair.key,),
                    pair.key_start,
                    pair.value_end,
                    pair.value_start,
                    pair.value_end,
                    value,
                    _writer(style, _continuation(raw)),
                )
            )
        return Outline(tuple(members), PropertiesSyntax(style))


def style_of(text: str) -> PropertiesStyle:
    """How the file writes values: ASCII: Latin-1 with \\u escapes; beyond Latin-1 somewhere:
    UTF-8, raw; else escape what Latin-1 lacks (right whichever of the two the bytes were)."""
    hexes = re.findall(r"\\u([0-9a-fA-F]{4})", text)
    body = text.lstrip("\ufeff")
    above = 0x7F if body.isascii() else (None if re.search("[^\x00-\xff]", body) else 0xFF)
    return PropertiesStyle(
        above,
        any(re.search("[A-F]", h) for h in hexes[:50]) or not hexes,
        re.search(r"(?<!\\)\\:", text) is not None,
    )


def _value(text: str, pair: _Pair, raw: str) -> str:
    try:
        return unescape(raw)
    except ValueError as exc:
        line = text.count("\n", 0, pair.value_start) + 1
        raise FormatError(f"not a valid properties file: {exc} at line {line}") from None


class PropertiesSyntax:
    """Members are logical lines: a new one goes on its own line(s) after its sibling, with the
    characters the target's encoding lacks written as `\\uXXXX`; a removed one takes its lines."""

    def __init__(self, style: PropertiesStyle) -> None:
        self.style = style

    def _body(self, text: str, member: Copied) -> str:
        body = member.text.replace("\r\n", "\n")
        above, upper = self.style.escape_above, self.style.upper_hex
        if above is not None:
            body = re.sub(f"[^\\x00-{chr(above)}]", lambda m: _u_escaped(m.group(0), upper), body)
        newline = newline_of(text)
        return body.replace("\n", newline) if newline != "\n" else body

    def insert_after(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        indent = indentation(text, sibling.start)
        added = "".join(newline + indent + self._body(text, m) for m in members)
        return Splice(sibling.end, sibling.end, added)

    def insert_before(self, text: str, sibling: Member, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        indent = indentation(text, sibling.start)
        added = "".join(self._body(text, m) + newline + indent for m in members)
        return Splice(sibling.start, sibling.start, added)

    def insert_into(self, text: str, container: Container, members: Sequence[Copied]) -> Splice:
        newline = newline_of(text)
        added = "".join(newline + self._body(text, m) for m in members)
        if not text.strip():
            added = added[len(newline) :] + newline
        elif text.endswith("\n"):
            added = added[len(newline) :] + newline
        return Splice(len(text), len(text), added)

    def remove(
        self, text: str, run: Sequence[Member], before: Member | None, after: Member | None, parent: Container
    ) -> Splice:
        start = text.rfind("\n", 0, run[0].start) + 1
        newline = text.find("\n", run[-1].end)
        end = len(text) if newline < 0 else newline + 1
        if newline < 0 and start > 0:  # the last line, without a line break: the break before it
            start -= 2 if text[start - 2 : start] == "\r\n" else 1
        return Splice(start, end, "")


def _u_escaped(ch: str, upper: bool) -> str:
    """`\\uXXXX` (above U+FFFF: a surrogate pair of them)."""
    units = ch.encode("utf-16-be", "surrogatepass")
    out = ""
    for j in range(0, len(units), 2):
        unit = int.from_bytes(units[j : j + 2], "big")
        out += f"\\u{unit:04X}" if upper else f"\\u{unit:04x}"
    return out


def conventions_for(value: str) -> frozenset[Convention]:
    """printf and HTML as the value shows them; MessageFormat where it has arguments (`{0}`);
    else a Bean Validation message's `{name}` parameters and `${...}` EL expressions (Hibernate
    Validator's ValidationMessages.properties), each one placeholder."""
    found = active(value, CANDIDATES)
    if _MESSAGE_FORMAT.search(value) and Convention.EL not in found:
        return (found - {Convention.BRACE}) | {Convention.JAVA_MESSAGE}
    if found & _BEAN_VALIDATION:  # a `{x}` or `${x}` of the model's would be interpolated too
        return found | _BEAN_VALIDATION
    return found


def _writer(style: PropertiesStyle, continuation: str | None):  # type: ignore[no-untyped-def]
    return lambda text: escape(text, style, continuation)


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)
