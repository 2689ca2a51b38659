"""Each catalog's one source. A catalog is one file kept once per locale (`values*/strings.xml`,
`*.lproj/Localizable.strings`, `app_*.arb`, `po/*.po` with its `.pot`, `messages*.xlf`); of its
files, one is the source and every other one is a translation, a variant of the source language
included (`values-en/`, `en-GB.lproj`, `app_en_US.arb`, `en_GB.po`): a variant is a target (`--to
en-GB` merges into it), never a second source, whose keys would decide what the real targets keep.

The source is, in this order:
1. the file the catalog's ecosystem names (`Marked.source_of`, where it exists): Android's
   `values/` (lint's default resources), the Xcode project's development region (else
   `Base.lproj`), the template of Flutter's `l10n.yaml`, gettext's `.pot`, Java's
   `Messages.properties`, XLIFF's `messages.xlf` and an Angular project's extracted source;
2. else the file named by the source locale as it is spelled (`en` for en, `en-US` with `--from
   en-US`);
3. else the one file of the same locale once CLDR's likely subtags are added (`en_US` for en:
   Django's `locale/en_US/`, Magento's `i18n/en_US.csv`);
4. else the one file in the source language. Several and none above (`en_GB` and `en_AU`, no
   `en`): no source can be told; each is left alone, and the run says which to name.

A file whose content names its locale (a Rails file's one root key: `devise.en_pirate.yml` holds
`en_pirate:`) is in that locale, whatever its name; its catalog is the files of its folder named
alike (`devise.<locale>.yml`), ranked the same way (`declared_role`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..outputs.locale_places import existing_locales
from ..text.locales import canonical, equivalent
from .layout import Marked, in_language_of

Role = Literal["source", "variant", "translation", "other"]


@dataclass(frozen=True, slots=True)
class CatalogRole:
    """What a file is in its catalog (`role`), the catalog's source (None: none can be told),
    and, for every role but `source`, why it is no source (a skip reason)."""

    role: Role
    source: Path | None
    reason: str | None = None


def catalog_role(path: Path, found: Marked, language: str) -> CatalogRole:
    """The role of `path` (which `found` marks) in its catalog, `language` being the source's."""
    source = _named_source(found)
    members: list[tuple[str, Path]] = []
    if source is None:
        members = catalog_members(path, found)
        source = _by_language(members, language)
    if source is not None and _same_file(source, path):
        return CatalogRole("source", source)
    code = found.code
    if source is None:
        alike = [p for written, p in members if in_language_of(written, language)]
        if code is None or len(alike) < 2:
            return CatalogRole("source", None)
        listed = ", ".join(str(p) for p in alike[:4])
        return CatalogRole(
            "other",
            None,
            f"{len(alike)} files hold this catalog in the source language ({listed}) and none is "
            f"named {language}: translate the one that is its source (name it, or give --from)",
        )
    if code is None:
        return CatalogRole("other", source, f"not this catalog's source: {source} is (its ecosystem's)")
    if in_language_of(code, language):
        tag = canonical(code) or code
        return CatalogRole(
            "variant",
            source,
            f"a variant of the source language ({code}): {source} is its catalog's source, "
            f"and this file one of its targets (--to {tag})",
        )
    return CatalogRole("translation", source, f"a translation ({code}) of {source}")


def declared_role(
    path: Path, declared: str, language: str, declared_of: Callable[[Path], str | None]
) -> CatalogRole:
    """The role of a file whose content names its locale (a Rails file's root key: `en_pirate:`),
    `declared_of` reading another file's: its catalog is the files of its folder named as it is
    but for their locale (`devise.<locale>.yml`), and its source the one whose locale is the
    source's as spelled, else the one equivalent to it (`en-US` for en), else the one in its
    language."""
    members = [(declared, path)]
    prefix, found, suffix = path.name.partition(declared)
    if found and not prefix.endswith(declared):
        try:
            siblings = sorted(path.parent.iterdir())
        except OSError:
            siblings = []
        for sibling in siblings:
            name = sibling.name
            if (
                sibling == path
                or not (name.startswith(prefix) and name.endswith(suffix))
                or not sibling.is_file()
            ):
                continue
            locale = declared_of(sibling)
            if locale is not None and name == f"{prefix}{locale}{suffix}":
                members.append((locale, sibling))
    source = _by_language(members, language)
    if source is not None and _same_file(source, path):
        return CatalogRole("source", source)
    said = f"its root key is {declared}"
    if not in_language_of(declared, language):
        return CatalogRole("translation", source, f"a translation: {said}, not {language}")
    if source is None:
        alike = [str(p) for written, p in members if in_language_of(written, language)]
        return CatalogRole(
            "other",
            None,
            f"{len(alike)} files hold this catalog in the source language ({', '.join(alike[:4])}) and "
            f"none is named {language}: translate the one that is its source (name it, or give --from)",
        )
    return CatalogRole(
        "variant", source, f"a variant of the source language: {said}, not {language} (--to {declared})"
    )


def catalog_members(path: Path, found: Marked) -> list[tuple[str, Path]]:
    """The files of `path`'s catalog that name a locale, `path` among them where it names one."""
    members = existing_locales(found.rewrite, found.names, path)
    if found.code is not None and not any(_same_file(p, path) for _, p in members):
        members.append((found.code, path))
    return members


def named_source(path: Path, found: Marked) -> bool:
    """Is `path` the source its ecosystem names for its catalog, whatever language it is in (the
    development region of an Xcode project written in German, `l10n.yaml`'s `app_de.arb`)?"""
    named = _named_source(found)
    return named is not None and _same_file(named, path)


def _named_source(found: Marked) -> Path | None:
    if found.source_of is None:
        return None
    named = found.source_of()
    return named if named is not None and named.is_file() else None


def _by_language(members: list[tuple[str, Path]], language: str) -> Path | None:
    """The member named by the source locale as spelled, else the one equivalent to it, else
    the one in its language; None where there is no such one."""
    wanted = canonical(language) or language
    tests: tuple[Callable[[str], bool], ...] = (
        lambda written: canonical(written) == wanted,
        lambda written: equivalent(written.replace("_", "-"), wanted),
        lambda written: in_language_of(written, language),
    )
    for test in tests:
        hits = [p for written, p in members if test(written)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return None
    return None


def _same_file(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)
