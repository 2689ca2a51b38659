"""Where a path names its language, the way its ecosystem does, and the path of a translation.

A format declares `layouts`: rules that each recognise a path or not (`Layout`). A rule that
recognises one returns `Marked`: the language the path names (None for a base file that names
none: `values/strings.xml`, `Messages.properties`, `x.pot`) and how to write the same path
for another language. Two places use them:
- output naming (outputs.output_path): `locales/en/x.json` -> `locales/de/x.json`,
  `config/locales/en.yml` -> `config/locales/de.yml`, `Messages.properties` ->
  `Messages_de.properties`, `app_en.arb` -> `app_de.arb` (and under `-o DIR/<lang>/` the same
  rewrite of the relative path);
- discovery: a file whose path names another language than the source's is a translation, not
  a source (`locales/de/x.json`).

Language codes in paths are many: `en`, `en-US`, `pt_BR`, `zh-Hans`, `iw` (old Java/Android
Hebrew). `path_language` reads them; `same_language` compares one with a HY-MT code;
`spell(code, sep)` writes a HY-MT code in a path's style (`zh-Hant` -> `zh_Hant`).

A folder or a file name counts as a language code only where the path shows an i18n layout
(a parent folder called `locales`, `i18n`, `lang` ...: `I18N_FOLDERS`), or where the code has
a region or script (`pt-BR`): a folder called `it` or `my` elsewhere is just a folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

I18N_FOLDERS = frozenset(
    {
        "locales",
        "locale",
        "i18n",
        "l10n",
        "lang",
        "langs",
        "language",
        "languages",
        "translations",
        "translation",
        "messages",
        "_locales",
        "localization",
        "localizations",
        "localisation",
        "intl",
        "strings",
        "texts",
        "nls",
        "resources",
        "res",
        "lproj",
    }
)
_OLD_CODES = {
    "iw": "he",
    "in": "id",
    "ji": "yi",
    "fil": "tl",
    "zh-hans": "zh",
    "zh-cn": "zh",
    "zh-sg": "zh",
    "zh-hant": "zh-hant",
    "zh-tw": "zh-hant",
    "zh-hk": "zh-hant",
    "zh-mo": "zh-hant",
}
_SUBTAG = re.compile(r"^(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3}|[A-Za-z]{2,3}|r[A-Z]{2}|[A-Za-z0-9]{5,8})$")
_SCRIPT_OR_REGION = re.compile(r"^(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3})$")


@cache
def _languages() -> frozenset[str]:
    from babel.localedata import locale_identifiers

    return frozenset({i.split("_")[0].lower() for i in locale_identifiers()} | set(_OLD_CODES) | {"tl"})


@dataclass(frozen=True, slots=True)
class PathCode:
    """A language code as a path writes it: `written` (`pt_BR`), its language (`pt`), whether it
    has a region or script (`pt_BR`, `zh-Hant`), and its separator (`_` or `-`)."""

    written: str
    language: str
    qualified: bool
    sep: str


def path_language(name: str) -> PathCode | None:
    """`en`, `en-US`, `pt_BR`, `zh-Hant`, `sr_Latn_RS` as a language code; None when it is none."""
    sep = "_" if "_" in name else "-"
    parts = name.split(sep)
    if not parts[0] or parts[0].lower() not in _languages() or parts[0] != parts[0].lower():
        return None
    rest = parts[1:]
    if any(not _SUBTAG.match(p) for p in rest) or len(rest) > 3:
        return None
    return PathCode(name, parts[0], any(_SCRIPT_OR_REGION.match(p) for p in rest), sep)


def normalized(code: str) -> str:
    """A path's code compared with HY-MT's: lower case, `-`, old codes mapped (`iw` -> `he`)."""
    low = code.replace("_", "-").lower()
    for old, new in _OLD_CODES.items():
        if low == old or low.startswith(old + "-"):
            return new
    return (
        low.split("-")[0]
        if not low.startswith(("zh-hant", "yue"))
        else low.split("-")[0] + ("-hant" if low.startswith("zh-hant") else "")
    )


def same_language(written: str, code: str) -> bool:
    """Does the path code `written` (`en_US`, `zh-TW`) name the HY-MT language `code`?"""
    return normalized(written) == code.lower()


def spell(code: str, sep: str = "-") -> str:
    """A HY-MT code written with a path's separator (`zh-Hant` -> `zh_Hant`)."""
    return code.replace("-", sep)


@dataclass(frozen=True, slots=True)
class Marked:
    """A path that names its language: the code as written (None: a base file naming none),
    and the path of the same file for another language (a HY-MT code)."""

    code: str | None
    rewrite: Callable[[str], Path]


Layout = Callable[[Path], "Marked | None"]


def _in_i18n_folder(path: Path) -> bool:
    return any(part.lower() in I18N_FOLDERS or part.lower().endswith(".lproj") for part in path.parent.parts)


def folder_per_language(path: Path) -> Marked | None:
    """`locales/en/x.json` -> `locales/de/x.json` (a language folder inside an i18n folder, or a
    qualified code anywhere: `pt-BR/x.json`); the nearest such folder counts."""
    parts = path.parts
    for i in range(len(parts) - 2, -1, -1):
        code = path_language(parts[i])
        if code is None:
            continue
        if code.qualified or (i > 0 and parts[i - 1].lower() in I18N_FOLDERS):
            return Marked(code.written, _replace_part(parts, i, code.sep))
    return None


def _replace_part(parts: tuple[str, ...], i: int, sep: str) -> Callable[[str], Path]:
    return lambda lang: Path(*parts[:i], spell(lang, sep), *parts[i + 1 :])


def file_named_by_language(path: Path) -> Marked | None:
    """`config/locales/en.yml` -> `config/locales/de.yml`, `i18n/en.toml`, `lang/pt_BR.json`
    (the whole name a language code, in an i18n folder, or a qualified code)."""
    code = path_language(path.stem)
    if code is None or not (code.qualified or _in_i18n_folder(path)):
        return None
    return Marked(code.written, lambda lang: path.with_name(spell(lang, code.sep) + path.suffix))


def stem_suffix(path: Path) -> Marked | None:
    """`Messages_de.properties`, `app_en.arb`, `strings_pt_BR.arb`: the code after the last `_`
    of the stem (with its region); a stem without one is the base (`Messages.properties`), whose
    translations add `_<code>`."""
    stem = path.stem
    pieces = stem.split("_")
    for i in range(1, len(pieces)):
        code = path_language("_".join(pieces[i:]))
        if code is not None:
            return Marked(code.written, _with_suffix_code(path, "_".join(pieces[:i])))
    return Marked(None, _with_suffix_code(path, stem))


def _with_suffix_code(path: Path, base: str) -> Callable[[str], Path]:
    return lambda lang: path.with_name(f"{base}_{spell(lang, '_')}{path.suffix}")


def marked(path: Path, layouts: tuple[Layout, ...]) -> Marked | None:
    """The first layout that recognises `path`, or None."""
    for layout in layouts:
        found = layout(path)
        if found is not None:
            return found
    return None


def in_i18n_place(path: Path, layouts: tuple[Layout, ...]) -> bool:
    """A path that shows it holds strings: an i18n folder on the way, or a language it names."""
    if _in_i18n_folder(path):
        return True
    found = marked(path, layouts)
    return found is not None and found.code is not None


# -- layouts of the formats of strings-b (PO, Android, Apple): here so that every format names
# its outputs and finds its translations the same way --------------------------------------------
_ANDROID_REGION = re.compile(r"^r([A-Z]{2})$")


def android_spelling(code: str) -> str:
    """A HY-MT code as an Android resource qualifier: `de`, `zh-Hant` -> `b+zh+Hant`."""
    return "b+" + code.replace("-", "+") if "-" in code else code


def android_values(path: Path) -> Marked | None:
    """`res/values/strings.xml` (the base) -> `res/values-de/strings.xml`; `values-pt-rBR`,
    `values-b+zh+Hant` name a language; other qualifiers (`values-night`) are no layout."""
    folder = path.parent.name
    if folder == "values":
        return Marked(
            None, lambda lang: path.parent.with_name(f"values-{android_spelling(lang)}") / path.name
        )
    if not folder.startswith("values-"):
        return None
    qualifier = folder[len("values-") :]
    if qualifier.startswith("b+"):
        code = path_language(qualifier[2:].replace("+", "-"))
    else:
        language, _, region = qualifier.partition("-")
        code = path_language(language) if not region or _ANDROID_REGION.match(region) else None
    if code is None:
        return None
    return Marked(
        code.written if not qualifier.startswith("b+") else qualifier[2:].replace("+", "-"),
        lambda lang: path.parent.with_name(f"values-{android_spelling(lang)}") / path.name,
    )


def apple_lproj(path: Path) -> Marked | None:
    """`en.lproj/Localizable.strings` -> `de.lproj/Localizable.strings`; `Base.lproj` is the base."""
    for i in range(len(path.parts) - 2, -1, -1):
        part = path.parts[i]
        if not part.endswith(".lproj"):
            continue
        name = part[: -len(".lproj")]
        code = None if name == "Base" else path_language(name)
        if name != "Base" and code is None:
            return None
        return Marked(None if code is None else code.written, _lproj(path.parts, i))
    return None


def _lproj(parts: tuple[str, ...], i: int) -> Callable[[str], Path]:
    return lambda lang: Path(*parts[:i], f"{lang}.lproj", *parts[i + 1 :])


def gettext_catalog(path: Path) -> Marked | None:
    """`po/x.pot` (the base) -> `po/de.po`, or `locale/de/LC_MESSAGES/x.po` where the folder
    holds that layout already; `de.po` and `de/LC_MESSAGES/x.po` name a language."""
    parts = path.parts
    if len(parts) >= 3 and parts[-2] == "LC_MESSAGES":
        code = path_language(parts[-3])
        if code is not None:
            return Marked(code.written, _replace_part(parts, len(parts) - 3, "_"))
    if path.suffix == ".pot":
        return Marked(None, lambda lang: _pot_output(path, lang))
    code = path_language(path.stem)
    if code is not None:
        return Marked(code.written, lambda lang: path.with_name(spell(lang, "_") + path.suffix))
    return None


def _pot_output(path: Path, lang: str) -> Path:
    """Beside the template as `<lang>.po`, unless the folder already has `<code>/LC_MESSAGES/`."""
    folder = path.parent
    try:
        nested = any((child / "LC_MESSAGES").is_dir() for child in folder.iterdir() if child.is_dir())
    except OSError:
        nested = False
    if nested:
        return folder / spell(lang, "_") / "LC_MESSAGES" / f"{path.stem}.po"
    return folder / f"{spell(lang, '_')}.po"
