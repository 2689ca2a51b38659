"""Existing layout wins: a target goes where the project keeps that locale already, in whatever
spelling it uses, rather than into a new parallel file or folder that the app never loads.

The layout of a string file (formats/layout.py) says where a path names its language
(`locales/<code>/x.json`, `values-<code>/`, `Messages_<code>.properties`, `<code>.lproj/`,
`po/<code>.po`). Its siblings in that place are the locales the project has, each read back by
the same layouts. For a target locale (`de`, `pt-BR`) the output is, in this order:
1. the sibling that is the target in another spelling or case (`pt_BR/`, `values-pt-rBR/` for
   pt-BR);
2. else the one sibling that is the same locale once CLDR's likely subtags are added (`de_DE/`
   for de, `pt_BR/` for pt, `zh_TW/` for zh-Hant; never `pt_PT/` for pt-BR, nor `de_AT/` for de);
   several (`zh_CN/` and `zh_Hans/` for zh): the target's own name, with a warning;
3. else the target's own name, written with the separator the project's other locales use
   (`pt_BR/` beside `en/` and `zh_CN/`).
`--locale-paths exact` keeps 3 alone.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ..text.locales import canonical, equivalent, parse_locale

# Stands for the language code when a layout writes a path: where it lands, the layout's
# siblings are found (a character no file name holds).
_PROBE = "\0"


def locale_place(
    place: Callable[[str], Path],
    names: Callable[[Path], str | None],
    tag: str,
    *,
    source: Path,
    exact: bool = False,
) -> tuple[Path, str | None, str | None]:
    """Where target `tag` goes: `place(code)` is the path that names `code` (the layout's, in
    its output tree), `names(path)` the code another path names; `source` is never a target.
    (path, note, written) as paths.Place holds them: why another place the project has was not
    taken (None: nothing to say), the locale code as the path writes it (None: it names none)."""
    siblings = existing_locales(place, names, source)
    own = place(_styled(tag, siblings))
    if exact:
        return own, None, names(own)
    spelled = [(written, path) for written, path in siblings if canonical(written) == tag]
    if spelled:
        return next(((p, None, w) for w, p in spelled if p == own), (spelled[0][1], None, spelled[0][0]))
    alike = [(written, path) for written, path in siblings if equivalent(_tag(written), tag)]
    if len(alike) == 1:
        return alike[0][1], None, alike[0][0]
    note = None
    if alike:
        listed = ", ".join(written for written, _ in alike)
        note = f"{listed} all name {tag} here; wrote {own} (give one of them exactly in --to to write there)"
    return own, note, names(own)


def existing_locales(
    place: Callable[[str], Path], names: Callable[[Path], str | None], source: Path
) -> list[tuple[str, Path]]:
    """The locales the project keeps in the place a layout names: (code as written, path), the
    source's own left out."""
    probe = place(_PROBE)
    at = [i for i, part in enumerate(probe.parts) if _PROBE in part]
    if len(at) != 1 or probe.parts[at[0]].count(_PROBE) != 1:
        return []  # the code is written twice, or nowhere: no one place to look in
    i = at[0]
    prefix, suffix = probe.parts[i].split(_PROBE)
    folder, rest = Path(*probe.parts[:i]) if i else Path("."), probe.parts[i + 1 :]
    try:
        children = sorted(os.listdir(folder))
    except OSError:
        return []
    own = os.path.realpath(source)
    found = []
    for child in children:
        if len(child) <= len(prefix) + len(suffix) or not (
            child.startswith(prefix) and child.endswith(suffix)
        ):
            continue
        holder = os.path.realpath(folder / child)
        if own == holder or own.startswith(holder + os.sep):
            continue  # the source itself, or the folder it lies in
        candidate = folder.joinpath(child, *rest)
        written = names(candidate)
        if written is not None and parse_locale(_tag(written)) is not None:
            found.append((written, candidate))
    return found


def _tag(written: str) -> str:
    return written.replace("_", "-")


def _styled(tag: str, siblings: list[tuple[str, Path]]) -> str:
    """`tag` with the separator most of the project's locales use (`pt_BR` beside `zh_CN`)."""
    seps = Counter(
        "_" if "_" in written else "-" for written, _ in siblings if "_" in written or "-" in written
    )
    return tag.replace("-", "_") if seps and seps["_"] > seps["-"] else tag
