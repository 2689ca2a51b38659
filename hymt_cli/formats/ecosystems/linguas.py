"""gettext's `LINGUAS` (`po/LINGUAS`, read by meson's i18n module and by autotools' po/Makefile):
the catalogs a project builds, one locale per entry (`de`, `pt_BR`, `sr@latin`), entries
separated by white space, `#` comments. A catalog missing from it is never built: a new one is
added keeping the file's style (one entry a line, or several on a line; sorted, or in the
order the project keeps), everything else byte for byte (`with_entry`: linguas_join.py hands
outputs/listings.py the file's new bytes, which reads and writes it).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

NAME = "LINGUAS"
_ENTRY = re.compile(r"[^\s#]+")


def listed(folder: Path) -> frozenset[str]:
    """The locales the `LINGUAS` of `folder` lists (none where there is none)."""
    path = folder / NAME
    try:
        stat = path.stat()
    except OSError:
        return frozenset()
    return _listed(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _listed(name: str, mtime_ns: int, size: int) -> frozenset[str]:
    try:
        return frozenset(entries(Path(name).read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return frozenset()


def entries(text: str) -> list[str]:
    """The locales a `LINGUAS` text lists, in order."""
    return [m.group(0) for line in text.splitlines() for m in _ENTRY.finditer(line.split("#", 1)[0])]


def with_entry(text: str, code: str) -> str:
    """`text` listing `code` too (unchanged where it does): on a line of its own where the file
    writes one entry a line, else at the end of the last line of entries; in sorted place where
    the entries are sorted, else last."""
    listed = entries(text)
    if code in listed:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    rows = [i for i, line in enumerate(lines) if _ENTRY.search(line.split("#", 1)[0])]
    if not rows:
        return text + ("" if not text or text.endswith(("\n", "\r")) else newline) + code + newline
    one_a_line = all(len(_ENTRY.findall(lines[i].split("#", 1)[0])) == 1 for i in rows)
    if one_a_line:
        at = rows[-1] + 1
        if listed == sorted(listed):
            later = [i for i in rows if entries(lines[i])[0] > code]
            at = later[0] if later else at
        if at and not lines[at - 1].endswith(("\n", "\r")):  # the last line had no line end
            lines[at - 1] += newline
        lines.insert(at, code + newline)
        return "".join(lines)
    last = lines[rows[-1]]
    body = last.rstrip("\r\n")
    lines[rows[-1]] = body + " " + code + last[len(body) :]
    return "".join(lines)
