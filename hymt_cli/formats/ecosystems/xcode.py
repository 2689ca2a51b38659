"""Xcode's development region: the language a project is written in (`developmentRegion = en;`
in `<App>.xcodeproj/project.pbxproj`), the one whose `.lproj` folder holds the source strings
beside `Base.lproj` (Xcode exports that language as the source of its localizations).

The project is the nearest `*.xcodeproj` in the folders above an `.lproj` folder (its own folder
first); none found, or one that names no region: None (English is then assumed by the caller).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_REGION = re.compile(rb'^\s*developmentRegion\s*=\s*"?([A-Za-z0-9_@.-]+)"?\s*;', re.MULTILINE)
_LEVELS = 6  # .lproj folders lie a few levels below the project (App/Resources/en.lproj)
_LARGEST = 32 << 20  # a project file past this is no project file to read


def development_region(lproj: Path) -> str | None:
    """The development region of the Xcode project that `lproj` (an `.lproj` folder) belongs to."""
    folder = lproj.parent
    for _ in range(_LEVELS):
        for project in _projects(folder):
            region = _region_of(project / "project.pbxproj")
            if region is not None:
                return region
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _projects(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".xcodeproj" and p.is_dir())
    except OSError:
        return []


def _region_of(pbxproj: Path) -> str | None:
    try:
        stat = pbxproj.stat()
    except OSError:
        return None
    if stat.st_size > _LARGEST:
        return None
    return _read_region(str(pbxproj), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _read_region(pbxproj: str, mtime_ns: int, size: int) -> str | None:
    """The region a project file names (asked once per file as it is: a folder walk asks for
    every `.lproj` file, and a project file is hundreds of kilobytes)."""
    try:
        data = Path(pbxproj).read_bytes()
    except OSError:
        return None
    found = _REGION.search(data)
    return found.group(1).decode("ascii") if found else None
