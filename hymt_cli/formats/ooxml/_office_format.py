"""What the three Office Open XML formats share: their options, the target as they write it, and
how a numbered part is named in a segment's place ("chart 2")."""

from __future__ import annotations

import re

from ..package import PackageFormat, Target, target_for
from ._options import OfficeOptions


class OfficeFormat(PackageFormat):
    """A Word, PowerPoint or Excel package (`plan` is the family's own)."""

    def __init__(self, options: OfficeOptions | None = None) -> None:
        self.options = options or OfficeOptions()

    def target(self, code: str) -> Target:
        return target_for(code, self.options.east_asian_font)


def numbered(name: str, word: str) -> str:
    """ "chart 2" for `word/charts/chart2.xml`."""
    found = re.search(r"(\d+)\.xml$", name)
    return f"{word} {found.group(1)}" if found else word
