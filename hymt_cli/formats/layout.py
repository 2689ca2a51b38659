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
Hebrew). `path_language` reads them; `same_language` tells whether one names a target locale
(CLDR's likely subtags: `de_DE` names de, `zh_TW` names zh-Hant); `spell(tag, sep)` writes a
locale in a path's style (`pt-BR` -> `pt_BR`). A layout writes a target in its ecosystem's
spelling: Android `values-pt-rBR`, `values-b+zh+Hant`; Apple `pt-BR.lproj`, `zh-Hans.lproj`;
gettext, Java, ARB and WebExtension `pt_BR`; folders and file names in the separator the
source's own code shows (`en-US/` -> `pt-BR/`, `en_US.json` -> `pt_BR.json`), else in the one
the target is given in (outputs/paths.py passes the project's style: `zh_CN/` beside `en/`).

A folder or a file name counts as a language code only where the path shows an i18n layout
(a parent folder called `locales`, `i18n`, `lang` ...: `I18N_FOLDERS`), or where the code has
a region or script (`pt-BR`): a folder called `it` or `my` elsewhere is just a folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from ..text.locales import equivalent, maximized, parse_locale

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
_OLD_CODES = frozenset({"iw", "in", "ji"})  # Java's and Android's Hebrew, Indonesian, Yiddish
_SUBTAG = re.compile(r"^(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3}|[A-Za-z]{2,3}|r[A-Z]{2}|[A-Za-z0-9]{5,8})$")
_SCRIPT_OR_REGION = re.compile(r"^(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3})$")


@cache
def _languages() -> frozenset[str]:
    from babel.localedata import locale_identifiers

    return frozenset({i.split("_")[0].lower() for i in locale_identifiers()} | _OLD_CODES | {"tl"})


@dataclass(frozen=True, slots=True)
class PathCode:
    """A language code as a path writes it: `written` (`pt_BR`), its language (`pt`), whether it
    has a region or script (`pt_BR`, `zh-Hant`), and its separator (`_` or `-`; "" where it
    shows none: `en`)."""

    written: str
    language: str
    qualified: bool
    sep: str

    def spelled(self, lang: str) -> str:
        """A target written with this code's separator, or as given where it shows none."""
        return spell(lang, self.sep) if self.sep else lang


def path_language(name: str) -> PathCode | None:
    """`en`, `en-US`, `pt_BR`, `zh-Hant`, `sr_Latn_RS` as a language code; None when it is none."""
    sep = "_" if "_" in name else "-" if "-" in name else ""
    parts = name.split(sep) if sep else [name]
    if not parts[0] or parts[0].lower() not in _languages() or parts[0] != parts[0].lower():
        return None
    rest = parts[1:]
    if any(not _SUBTAG.match(p) for p in rest) or len(rest) > 3:
        return None
    return PathCode(name, parts[0], any(_SCRIPT_OR_REGION.match(p) for p in rest), sep)


def same_language(written: str, code: str) -> bool:
    """Does `written` (a path's or a file's code: `en_US`, `zh-TW`, `iw`) name the locale `code`:
    the same one once CLDR's likely subtags are added (`de_DE` names de, `zh_TW` zh-Hant, `iw`
    he; `de_AT` does not name de, nor `pt_PT` pt-BR)?"""
    return parse_locale(written) is not None and equivalent(written.replace("_", "-"), code)


def in_language_of(written: str, source: str) -> bool:
    """Is `written` in the language of `source` (discovery's test for a source file): the same
    language and script (`en_GB`, `en-US` for en; not `zh_TW` for zh), and where `source` names
    a region, the same locale (`en-GB` only for en-GB)."""
    found = parse_locale(source)
    if parse_locale(written) is None or found is None:
        return False
    if found.region is not None or found.variants:
        return same_language(written, source)
    return maximized(written)[:2] == maximized(source)[:2]


def spell(code: str, sep: str = "-") -> str:
    """A locale written with a path's separator (`zh-Hant` -> `zh_Hant`, `pt_BR` -> `pt-BR`)."""
    return code.replace("_", "-").replace("-", sep)


@dataclass(frozen=True, slots=True)
class Marked:
    """A path that names its language: the code as written (None: a base file naming none),
    and the path of the same file for another locale (`rewrite("pt-BR")`, in the ecosystem's
    spelling); `names(path)` reads the code another path of the same layouts names (None:
    none), so that outputs can find where a project keeps a locale already."""

    code: str | None
    rewrite: Callable[[str], Path]
    layouts: tuple[Layout, ...] = ()

    def names(self, path: Path) -> str | None:
        found = marked(path, self.layouts)
        return found.code if found is not None else None


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
            return Marked(code.written, _replace_part(parts, i, code.spelled))
    return None


def _replace_part(parts: tuple[str, ...], i: int, spelled: Callable[[str], str]) -> Callable[[str], Path]:
    return lambda lang: Path(*parts[:i], spelled(lang), *parts[i + 1 :])


def _posix(lang: str) -> str:
    """gettext's, Java's, Flutter's and Chrome's spelling: `pt_BR`, `zh_Hant_TW`."""
    return spell(lang, "_")


def file_named_by_language(path: Path) -> Marked | None:
    """`config/locales/en.yml` -> `config/locales/de.yml`, `i18n/en.toml`, `lang/pt_BR.json`
    (the whole name a language code, in an i18n folder, or a qualified code)."""
    code = path_language(path.stem)
    if code is None or not (code.qualified or _in_i18n_folder(path)):
        return None
    return Marked(code.written, lambda lang: path.with_name(code.spelled(lang) + path.suffix))


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
            return replace(found, layouts=layouts)
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
    """A locale as an Android resource qualifier: `de`, `pt-BR` -> `pt-rBR` (a two-letter
    region); BCP 47's `b+` form where that cannot say it (a script, a numeric region):
    `zh-Hant` -> `b+zh+Hant`, `es-419` -> `b+es+419`."""
    found = parse_locale(code)
    if found is None:
        return code
    if found.script is None and not found.variants and (found.region is None or found.region.isalpha()):
        return found.language + (f"-r{found.region}" if found.region else "")
    return "b+" + found.spelled("+")


def android_values(path: Path) -> Marked | None:
    """`res/values/strings.xml` (the base) -> `res/values-de/strings.xml`; `values-pt-rBR`,
    `values-b+zh+Hant` name a language. Other qualifiers stay after the language's, as Android
    orders them: `values-night/` -> `values-de-night/` (a name beside the base there,
    `strings.de.xml`, would be one more resource file of the same resources)."""
    folder = path.parent.name
    if folder != "values" and not folder.startswith("values-"):
        return None
    qualifiers = folder.split("-")[1:]
    code: str | None = None
    rest = qualifiers
    if qualifiers and qualifiers[0].startswith("b+"):
        found = path_language(qualifiers[0][2:].replace("+", "-"))
        if found is not None:
            code, rest = qualifiers[0][2:].replace("+", "-"), qualifiers[1:]
    elif qualifiers and re.fullmatch(r"[a-z]{2,3}", qualifiers[0]):
        found = path_language(qualifiers[0])
        if found is not None:
            region = _ANDROID_REGION.match(qualifiers[1]) if len(qualifiers) > 1 else None
            code = found.written + (f"-{region.group(1)}" if region else "")
            rest = qualifiers[2:] if region else qualifiers[1:]

    def rewrite(lang: str) -> Path:
        return path.parent.with_name("-".join(["values", android_spelling(lang), *rest])) / path.name

    return Marked(code, rewrite)


# HY-MT code -> the name Apple gives the language's `.lproj` folder.
_APPLE = {"zh": "zh-Hans", "tl": "fil"}


def apple_lproj(path: Path) -> Marked | None:
    """`en.lproj/Localizable.strings` -> `de.lproj/Localizable.strings`, `pt-BR.lproj`
    (`zh-Hans.lproj` for Chinese, as Xcode names it; `pt_PT.lproj` where the source's own folder
    writes `_`, as older projects do); `Base.lproj` is the base, `English.lproj` (older projects)
    is English."""
    for i in range(len(path.parts) - 2, -1, -1):
        part = path.parts[i]
        if not part.endswith(".lproj"):
            continue
        name = part[: -len(".lproj")]
        if name == "English":
            return Marked("en", _lproj(path.parts, i, ""))
        code = None if name == "Base" else path_language(name)
        if name != "Base" and code is None:
            return None
        return Marked(None if code is None else code.written, _lproj(path.parts, i, code.sep if code else ""))
    return None


def _lproj(parts: tuple[str, ...], i: int, sep: str) -> Callable[[str], Path]:
    def rewrite(lang: str) -> Path:
        name = _APPLE.get(lang, lang)
        return Path(*parts[:i], f"{spell(name, sep) if sep else name}.lproj", *parts[i + 1 :])

    return rewrite


def gettext_catalog(path: Path) -> Marked | None:
    """`po/x.pot` (the base) -> `po/de.po`, or where the project keeps the template's catalogs
    already (`_pot_output`); `de.po` and `de/LC_MESSAGES/x.po` name a language."""
    parts = path.parts
    if len(parts) >= 3 and parts[-2] == "LC_MESSAGES":
        code = path_language(parts[-3])
        if code is not None:
            return Marked(code.written, _replace_part(parts, len(parts) - 3, _posix))
    if path.suffix == ".pot":
        return Marked(None, lambda lang: _pot_output(path, lang))
    code = path_language(path.stem)
    if code is not None:
        return Marked(code.written, lambda lang: path.with_name(_posix(lang) + path.suffix))
    return None


# Where projects keep the catalogs of a template that lies above them: Flask-Babel's
# `translations/`, Django's `locale/`, GNU's `po/` ...
CATALOG_FOLDERS = ("po", "locale", "locales", "translations", "i18n", "l10n", "lang")


def _pot_output(path: Path, lang: str) -> Path:
    """Where the project keeps the template's catalogs: beside it or in a catalog folder below
    its own (`messages.pot` with `translations/de/LC_MESSAGES/messages.po`: Flask-Babel), as
    `<code>/LC_MESSAGES/<template>.po` or `<code>.po`, whichever the folder holds; beside the
    template as `<lang>.po` where no catalog exists yet."""
    folder = path.parent
    for home in (folder, *(folder / name for name in CATALOG_FOLDERS)):
        nested, flat = _catalogs(home)
        if nested:
            return home / _posix(lang) / "LC_MESSAGES" / f"{path.stem}.po"
        if flat:
            return home / f"{_posix(lang)}.po"
    return folder / f"{_posix(lang)}.po"


def _catalogs(home: Path) -> tuple[bool, bool]:
    """Does `home` hold catalogs `<code>/LC_MESSAGES/` (nested), or `<code>.po` (flat)?"""
    try:
        children = list(home.iterdir())
    except OSError:
        return False, False
    nested = any(c.is_dir() and (c / "LC_MESSAGES").is_dir() for c in children)
    flat = any(c.suffix == ".po" and path_language(c.stem) is not None and c.is_file() for c in children)
    return nested, flat
