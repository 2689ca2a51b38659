"""The PO header entry: what it says, and the edits a target file carries.

A translated file gets `Language` (the target, unless the header already names that language,
then it is kept: `pt_BR` for `pt`), `Plural-Forms` (the target's, unless the header names the
target language and has valid forms: a person's choice, which its translations follow), and a
template's `charset=CHARSET` becomes UTF-8. A source catalog in another language (a Crowdin
`en_US.po`) also names its language in `Language-Team`, `X-Crowdin-Language` and
`X-Poedit-Language`: those are written for the target, as msginit fills them in (Crowdin's
`X-Crowdin-File` names the source file every translation shares: it stays). Each header line
that changes is rewritten; every other line keeps its bytes (wrapping included).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...text.languages import LANGUAGES
from ...text.locales import maximized
from ..layout import same_language, spell
from ..strings import gettext_plurals, gettext_plurals_of, parse_plural_forms
from ..strings.plurals import GettextPlurals
from .cstring import field_lines, quote, unquote
from .entries import Field

_AFTER = {
    "Language": (
        "Language-Team",
        "Last-Translator",
        "PO-Revision-Date",
        "POT-Creation-Date",
        "Report-Msgid-Bugs-To",
        "Project-Id-Version",
    )
}
# Read as UTF-8: a template's placeholder CHARSET, none, and ASCII (a subset).
UTF8_NAMES = frozenset({"utf-8", "utf8", "charset", "ascii", "us-ascii", ""})


@dataclass(frozen=True, slots=True)
class HeaderInfo:
    """What the header says that hymt uses: the language, plural forms and charset, and the
    other fields that name the file's language (`named`: key as written -> value)."""

    language: str = ""
    plural_forms: str = ""
    charset: str = ""
    named: tuple[tuple[str, str], ...] = ()

    @classmethod
    def read(cls, value: str) -> HeaderInfo:
        fields: dict[str, str] = {}
        named: dict[str, tuple[str, str]] = {}
        for line in value.split("\n"):
            key, sep, rest = line.partition(":")
            if sep:
                fields.setdefault(key.strip().lower(), rest.strip())
                if key.strip().lower() in _NAMING:
                    named.setdefault(key.strip().lower(), (key.strip(), rest.strip()))
        content_type = fields.get("content-type", "")
        charset = content_type.partition("charset=")[2].split(";")[0].strip()
        return cls(fields.get("language", ""), fields.get("plural-forms", ""), charset, tuple(named.values()))

    def names(self, lang: str) -> bool:
        """Whether the header says the catalog is in `lang`: its `Language`, or in a catalog
        older than that field (gettext 0.18, 2010: GNU Wget's `fr.po`), its team's language
        (`Language-Team: French <traduc@traduc.org>`), as a language only (a team `Chinese`
        writes zh_TW.po too): its translations and Plural-Forms are then the person's."""
        if self.language:
            return same_language(self.language, lang)
        team = self.team_language()
        return team is not None and maximized(team)[0] == maximized(lang)[0]

    @property
    def says_language(self) -> bool:
        """Whether the header says which language the catalog is in (`names`)."""
        return bool(self.language) or self.team_language() is not None

    def team_language(self) -> str | None:
        """The language an older catalog's `Language-Team` names by its English name (`French
        <traduc@traduc.org>`: fr), where it is one of HY-MT's; None: none, or another field says."""
        team = next((v for k, v in self.named if k.lower() == "language-team"), "")
        name = team.partition("<")[0].strip().lower()
        return next((code for code, lang in LANGUAGES.items() if lang.english.lower() == name), None)

    def plurals(self, lang: str) -> GettextPlurals:
        """The forms a target file in `lang` has: the header's own when it names `lang` and its
        Plural-Forms can be evaluated, else Babel's table for `lang`."""
        if self.names(lang):
            forms = parse_plural_forms(self.plural_forms)
            if forms is not None:
                own = gettext_plurals_of(lang, *forms)
                if own is not None:
                    return own
        return gettext_plurals(lang)

    def changes(self, lang: str) -> dict[str, str]:
        """Header keys whose value a file in `lang` must have, where it differs from this one."""
        out: dict[str, str] = {}
        if not self.names(lang):
            out["Language"] = spell(lang, "_")
        plurals = self.plurals(lang)
        if plurals.header != self.plural_forms:
            out["Plural-Forms"] = plurals.header
        if self.charset.lower() in ("charset", ""):
            out["Content-Type"] = "text/plain; charset=UTF-8"
        if not self.names(lang):
            out.update(_renamed(self.named, lang))
        return out


# Header fields besides `Language` that name the catalog's language (as msginit fills them in a
# new catalog): the team's (gettext, Crowdin: `Language-Team: English`), Crowdin's code, Poedit's.
_NAMING = frozenset({"language-team", "x-crowdin-language", "x-poedit-language"})


def _renamed(named: tuple[tuple[str, str], ...], lang: str) -> dict[str, str]:
    """The fields of `named` that name another language, written for `lang` (`Language-Team:
    English` -> `German`, `X-Crowdin-Language: en` -> `pt-BR`); a template's placeholder
    (`LANGUAGE <LL@li.org>`) is left for the team to fill in, as it was."""
    from ...text.locales import english_name

    out: dict[str, str] = {}
    name = english_name(lang) or lang
    for key, value in named:
        lower = key.lower()
        if not value or "LANGUAGE" in value or "LL@li.org" in value:
            continue
        if lower == "language-team":
            out[key] = name
        elif lower == "x-crowdin-language":
            out[key] = spell(lang, "-")
        elif lower == "x-poedit-language":
            out[key] = english_name(lang.replace("_", "-").split("-")[0]) or name
    return out


def _pieces(text: str, field: Field) -> tuple[list[tuple[str, str]], bool]:
    """The raw lines of a header msgstr (after `msgstr ""`) with their decoded strings; False
    when the layout is not gettext's (`msgstr` itself holds text): then the field is rewritten."""
    raw = text[field.start : field.end]
    lines = raw.splitlines(keepends=True)
    first = lines[0]
    start = first.find('"')
    value, _ = unquote(first.rstrip("\r\n"), start)
    pieces = []
    for line in lines[1:]:
        stripped = line.rstrip("\r\n")
        quote_at = stripped.find('"')
        decoded, _ = unquote(stripped, quote_at)
        pieces.append((line, decoded))
    return pieces, value == ""


def edited_header(text: str, field: Field, changes: dict[str, str], newline: str) -> str:
    """The header msgstr field with `changes` (key -> value) made."""
    pieces, standard = _pieces(text, field)
    lines: list[tuple[str, str]] = []  # (key, raw lines of one header line)
    current_raw, current_text = "", ""
    for raw, decoded in pieces:
        current_raw += raw
        current_text += decoded
        if current_text.endswith("\n"):
            lines.append((current_text.partition(":")[0].strip(), current_raw))
            current_raw, current_text = "", ""
    if current_raw:
        lines.append((current_text.partition(":")[0].strip(), current_raw))
    if not standard:
        return _rewritten(field, changes, newline)
    last_raw_newline = lines[-1][1].endswith(("\n", "\r")) if lines else False
    out = [text[field.start : field.end].splitlines(keepends=True)[0]]
    if not out[0].endswith(("\n", "\r")):
        out[0] += newline
    done: set[str] = set()
    keys = [key for key, _ in lines]
    for key, raw in lines:
        new = changes.get(key)
        ended = raw if raw.endswith(("\n", "\r")) else raw + newline
        out.append(f'"{quote(f"{key}: {new}")}\\n"{newline}' if new is not None else ended)
        if new is not None:
            done.add(key)
    for key, value in changes.items():
        if key in done:
            continue
        line = f'"{quote(f"{key}: {value}")}\\n"{newline}'
        after = next((keys.index(k) for k in _AFTER.get(key, ()) if k in keys), None)
        if after is None:
            out.append(line)
        else:
            out.insert(after + 2, line)
            keys.insert(after + 1, key)
    joined = "".join(out)
    if not last_raw_newline:  # the field ended without a line break: so does the new one
        joined = joined.removesuffix(newline)
    return joined


def _rewritten(field: Field, changes: dict[str, str], newline: str) -> str:
    """A header written on one line (`msgstr "A: b\\nC: d\\n"`): its lines with the changes,
    written the way gettext writes a header."""
    lines = [line for line in field.value.split("\n") if line]
    keys = [line.partition(":")[0].strip() for line in lines]
    for key, new in changes.items():
        if key in keys:
            lines[keys.index(key)] = f"{key}: {new}"
        else:
            lines.append(f"{key}: {new}")
    text = "".join(line + "\n" for line in lines)
    return newline.join(['msgstr ""'] + [f'"{quote(line)}"' for line in text.splitlines(keepends=True)])


def new_header(lang: str, newline: str) -> str:
    """A header for a file that has none (msgfmt needs Plural-Forms for plural entries)."""
    value = (
        f"Language: {spell(lang, '_')}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
        f"Content-Transfer-Encoding: 8bit\nPlural-Forms: {gettext_plurals(lang).header}\n"
    )
    lines = ['msgid ""', *field_lines("msgstr", value)]
    return newline.join(lines) + newline + newline
