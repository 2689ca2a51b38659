"""The options of the Office Open XML formats (docx, pptx, xlsx): the record they share with the
OpenDocument formats (formats/package/options.py)."""

from __future__ import annotations

from ..office_options import OfficeOptions

__all__ = ["OfficeOptions"]
