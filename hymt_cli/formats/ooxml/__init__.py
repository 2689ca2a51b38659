"""Office Open XML: Word (.docx), PowerPoint (.pptx), Excel (.xlsx), on the package layer.

Each format plans which parts of its package are read (docx.py, pptx.py, xlsx.py); the parts
share how a paragraph of runs becomes one segment and is written back as runs (_inline.py,
_sentence.py, in the three dialects of _dialects.py), DrawingML shapes and charts (_drawing.py),
the target's language attributes, direction and East-Asian fonts (_languages.py), and the
package's content types and relationships (_opc.py).
"""

from __future__ import annotations

from ._options import OfficeOptions
from .docx import DocxFormat
from .pptx import PptxFormat
from .xlsx import XlsxFormat

__all__ = ["DocxFormat", "OfficeOptions", "PptxFormat", "XlsxFormat"]
