"""A new gettext catalog (`po/ja.po`) joins the `LINGUAS` beside it: its new bytes, in the
file's style (linguas.with_entry), and what to tell; outputs/listings.py reads the file and
writes it. Apart from linguas.py, which the registry imports (discovery reads what LINGUAS
lists): this comes with the PO format's code (po/format.py), in the runs that read PO files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .linguas import NAME, with_entry


@dataclass(frozen=True, slots=True)
class Linguas:
    """The `LINGUAS` of a catalog folder, which a new catalog `code` joins (an
    outputs/listings.Listing: outputs/ reads and writes the file, this computes its bytes)."""

    path: Path
    code: str

    def joined(self, data: bytes) -> bytes | None:
        """`data` listing `code` too, in its style; None: it lists it already. UnicodeDecodeError
        (a ValueError): not UTF-8."""
        text = data.decode("utf-8")
        updated = with_entry(text, self.code)
        return None if updated == text else updated.encode("utf-8")

    def added(self) -> str:
        return f"{self.path}: {self.code} added (the catalogs meson and autotools build)"

    def unreadable(self) -> str:
        return (
            f"{self.path}: cannot be read: add {self.code} to it yourself (meson builds only what it lists)"
        )

    def unwritable(self, reason: str) -> str:
        return f"{self.path}: cannot be written ({reason}): add {self.code} to it yourself"


def linguas_listing(catalog: Path) -> Linguas | None:
    """The `LINGUAS` beside a new catalog `po/<code>.po`, which it joins (None: no catalog of
    gettext's; whether the file is there is for outputs/listings.py to see)."""
    return Linguas(catalog.parent / NAME, catalog.stem) if catalog.suffix == ".po" else None
