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

from ..text.locales import equivalent, maximized, parse_locale, posix_spelling
from .ecosystems.flutter import arb_template
from .ecosystems.linguas import listed
from .ecosystems.xcode import development_region

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
_SUBTAG = re.compile(
    r"^(?:[A-Z]{2}|[0-9]{3}|[A-Za-z]{4}|[A-Za-z]{2,3}|r[A-Z]{2}|[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3})$"
)
_SCRIPT_OR_REGION = re.compile(r"^(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3})$")
_MODIFIER = re.compile(r"^[a-z][a-z0-9]{1,7}$")  # gettext's `@latin`, `@valencia`


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
    """`en`, `en-US`, `pt_BR`, `zh-Hant`, `sr_Latn_RS` as a language code, and gettext's
    `sr@latin`, `ca@valencia` (a POSIX `@modifier`: a script or a variant, so qualified);
    None when it is none."""
    code, at, modifier = name.partition("@")
    if at and not _MODIFIER.match(modifier):
        return None
    sep = "_" if "_" in code else "-" if "-" in code else ""
    parts = code.split(sep) if sep else [code]
    if not parts[0] or parts[0].lower() not in _languages() or parts[0] != parts[0].lower():
        return None
    rest = parts[1:]
    if any(not _SUBTAG.match(p) for p in rest) or len(rest) > 3:
        return None
    return PathCode(name, parts[0], bool(at) or any(_SCRIPT_OR_REGION.match(p) for p in rest), sep)


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
    # The file its ecosystem names as the source of this file's catalog (`values/strings.xml`
    # for `values-de/strings.xml`, the `.pot` beside `po/de.po`, `Base.lproj` or the Xcode
    # project's development region, the template of Flutter's `l10n.yaml`), asked when needed;
    # None where the ecosystem names none (catalogs.py then goes by the source language).
    source_of: Callable[[], Path | None] | None = None

    def names(self, path: Path) -> str | None:
        found = marked(path, self.layouts)
        return found.code if found is not None else None


Layout = Callable[[Path], "Marked | None"]


def known(path: Path | None) -> Callable[[], Path | None]:
    """`Marked.source_of` for a source known from the path alone."""
    return lambda: path


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
    """gettext's spelling: `pt_BR`, `zh_Hant_TW`, `sr@latin`, `ca@valencia` (glibc's names)."""
    return posix_spelling(lang)


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
            base = "_".join(pieces[:i])
            return Marked(
                code.written,
                _with_suffix_code(path, base),
                source_of=known(path.with_name(base + path.suffix)),
            )
    return Marked(None, _with_suffix_code(path, stem), source_of=known(path))


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

    base = path.parent.with_name("-".join(["values", *rest])) / path.name  # values/ (lint's default)
    return Marked(code, rewrite, source_of=known(base))


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
        source = _apple_source(path.parts, i)
        if name == "English":
            return Marked("en", _lproj(path.parts, i, ""), source_of=source)
        code = None if name == "Base" else path_language(name)
        if name != "Base" and code is None:
            return None
        return Marked(
            None if code is None else code.written,
            _lproj(path.parts, i, code.sep if code else ""),
            source_of=source,
        )
    return None


def _apple_source(parts: tuple[str, ...], i: int) -> Callable[[], Path | None]:
    """The source of an `.lproj` file's catalog, as Xcode exports it: the development region's
    file (the project's `developmentRegion`, else English) where it holds any string, else
    `Base.lproj`'s; the development region's where `Base.lproj` has none."""

    def source() -> Path | None:
        region = development_region(Path(*parts[: i + 1])) or "en"
        names = [f"{region}.lproj"] + (["English.lproj"] if same_language(region, "en") else [])
        own = [Path(*parts[:i], name, *parts[i + 1 :]) for name in names]
        base = Path(*parts[:i], "Base.lproj", *parts[i + 1 :])
        found = next((p for p in own if p.is_file()), None)
        if found is not None and (has_strings(found) or not base.is_file()):
            return found
        return base if base.is_file() else found

    return source


_COMMENTS = re.compile(rb"/\*.*?\*/|//[^\n]*", re.DOTALL)


def has_strings(path: Path) -> bool:
    """Does an Apple strings file hold anything but white space and comments (an empty
    `InfoPlist.strings` in `Base.lproj` is common)? A `.stringsdict` holds a `<key>`."""
    try:
        data = path.read_bytes()[: 1 << 20]
    except OSError:
        return False
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = data.decode("utf-16", "replace").encode("utf-8")
    if path.suffix == ".stringsdict":
        return b"<key>" in data
    return bool(_COMMENTS.sub(b"", data).strip(b" \t\r\n\xef\xbb\xbf"))


def _lproj(parts: tuple[str, ...], i: int, sep: str) -> Callable[[str], Path]:
    def rewrite(lang: str) -> Path:
        name = _APPLE.get(lang, lang)
        return Path(*parts[:i], f"{spell(name, sep) if sep else name}.lproj", *parts[i + 1 :])

    return rewrite


def gettext_catalog(path: Path) -> Marked | None:
    """`po/x.pot` (the base) -> `po/de.po`, or where the project keeps the template's catalogs
    already (`_pot_output`); `de.po` and `de/LC_MESSAGES/x.po` name a language, and so does every
    catalog the folder's `LINGUAS` lists (`po/LINGUAS`: ecosystems/linguas.py)."""
    parts = path.parts
    if len(parts) >= 3 and parts[-2] == "LC_MESSAGES":
        code = path_language(parts[-3])
        if code is not None:
            home = path.parents[2]
            return Marked(
                code.written,
                _replace_part(parts, len(parts) - 3, _posix),
                source_of=lambda: _template_of(home, path.stem),
            )
    if path.suffix == ".pot":
        return Marked(None, lambda lang: _pot_output(path, lang), source_of=known(path))
    code = path_language(path.stem)
    if code is not None or (path.suffix == ".po" and path.stem in listed(path.parent)):
        return Marked(
            code.written if code is not None else path.stem,  # (LINGUAS lists it: a catalog)
            lambda lang: path.with_name(_posix(lang) + path.suffix),
            source_of=lambda: _template_of(path.parent, None),
        )
    return None


def _template_of(home: Path, domain: str | None) -> Path | None:
    """The template whose catalogs `home` holds (`_pot_output`'s places, looked at the other
    way): `<domain>.pot` there or in the folder above a catalog folder; for flat catalogs
    (`po/de.po`, domain unknown) the one `.pot` there, if there is exactly one."""
    places = [home] + ([home.parent] if home.name.lower() in CATALOG_FOLDERS else [])
    for place in places:
        if domain is not None:
            if (place / f"{domain}.pot").is_file():
                return place / f"{domain}.pot"
            continue
        try:
            templates = sorted(p for p in place.iterdir() if p.suffix == ".pot" and p.is_file())
        except OSError:
            continue
        if templates:
            return templates[0] if len(templates) == 1 else None
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


def magento_dictionary(path: Path) -> Marked | None:
    """Magento's translation dictionaries: `i18n/en_US.csv` -> `i18n/de_DE.csv`. Magento loads
    a module's or theme's `i18n/<locale>.csv` by its full locale code only (`de_DE`,
    `zh_Hans_CN`), so a target is written as one: its likely region added (`de` -> `de_DE`,
    `pt-BR` -> `pt_BR`), and its script where the language is written in several
    (`zh` -> `zh_Hans_CN`, `zh-TW` -> `zh_Hant_TW`)."""
    if path.suffix.lower() != ".csv" or path.parent.name != "i18n":
        return None
    code = path_language(path.stem)
    if code is None or code.sep != "_" or not code.qualified:
        return None
    return Marked(code.written, lambda lang: path.with_name(magento_locale(lang) + path.suffix))


def magento_locale(tag: str) -> str:
    """A locale as Magento names it: language, the script where the language has several in
    CLDR, and region (`de_DE`, `zh_Hans_CN`, `sr_Cyrl_RS`); as given where CLDR knows no region."""
    found = parse_locale(tag)
    if found is None:
        return spell(tag, "_")
    language, script, region = maximized(tag)
    if region is None:
        return spell(tag, "_")
    keep_script = found.script is not None or (script is not None and f"{language}_{script}" in _scripted())
    return "_".join(p for p in (language, script if keep_script else None, region) if p)


@cache
def _scripted() -> frozenset[str]:
    """CLDR's `language_Script` locales: the languages written in several scripts."""
    from babel.localedata import locale_identifiers

    return frozenset(i for i in locale_identifiers() if i.count("_") == 1 and len(i.split("_")[1]) == 4)


def arb_file(path: Path) -> Marked | None:
    """Flutter's ARB files: `app_en.arb` -> `app_de.arb` (`stem_suffix`); their catalog's source
    is the template the package's `l10n.yaml` names (`template-arb-file` in `arb-dir`:
    ecosystems/flutter.py), whatever locale the other files name (`app_en_US.arb` is a
    translation of `app_en.arb`)."""
    found = stem_suffix(path)
    if found is None:
        return None
    fallback = found.source_of

    def source() -> Path | None:
        template = arb_template(path)
        return template if template is not None else fallback() if fallback is not None else None

    return replace(found, source_of=source)
