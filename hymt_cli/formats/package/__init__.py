"""Packages: documents that are zip archives of XML parts (OOXML, ODF, EPUB), translated part by
part and written back byte-faithfully.

The layer, for a family's format to build on:

- `archive.ZipArchive.open(binary, ZipLimits())`: the central directory read and checked as
  untrusted input (zip bombs by ratio and totals, overlapping members, `../` and absolute
  names, repeated names, encrypted members, an OLE file: "encrypted" or "legacy binary",
  truncation); `entry(name)`, `read(name)` (whole, bounded), `chunks(entry)` (streamed, size
  and CRC checked), `record(entry)` (the local record as it lies). Errors are `PackageError`
  (a `FormatError`): one line, naming the problem; the run names the file.
- `zip_output.ZipOutput`: members copied byte for byte or packed anew, then the directory.
  A member left as it was keeps its compressed bytes and local header; `mimetype`, stored and
  first in the source, stays stored and first.
- `xml_text`: a member's codec and text streamed; `check_prolog` refuses DTDs in any XML member.
- `xml_stream.XmlScanner(handler, namespaces)`: a part's text as pieces; the `BlockHandler`
  says which elements are blocks (paragraphs, shapes, string items), gets each as a `Node`
  tree with offsets (names resolved by namespace: `w:p` whatever the prefix), and makes a
  `PartPiece` of each piece. `unescape`, `escape_text`, `escape_attribute` for XML text.
- `pieces.PartPiece`: a piece's segments, labels (a segment's place: "footnote 2",
  "Sheet1!B4"), keys (segment -> the keys its translation is published under, for parts read
  later), nested `Edit`s and `finish` (the whole piece for a target: language attributes);
  `reassemble` splices, and an unchanged translation gives the source back byte for byte. An
  edit's render gets a `Rendering` (translations, target, published translations, and a list
  of `Finding`s it may add: text too long for its box, reported as QA flags).
- `target.Target` / `target_for(code)`: the target as packages write it (`de-DE`, rtl,
  East-Asian font); `options.OfficeOptions`: the settings the office families share (comments, the
  East-Asian font).
- `format.PackageFormat`: subclass it, set `name`/`suffixes`, define `plan(archive)` ->
  `PackagePlan([PlannedPart(entry, scanner_factory), ...])`; reading (a unit per piece) and
  writing (`PackageWriter`: source order kept, untouched members copied, changed ones spliced)
  are shared. Register it with a `FormatSpec` like any format (`document=False`).

How a part's paragraphs become segments is the family's: OOXML's runs are modelled in
`formats/ooxml/` (inline.py, sentence.py); a mixed-content paragraph (ODF's `text:p`, XHTML) can
use `formats/spans.py`'s located parts over the block's offsets instead.
"""

from __future__ import annotations

from ..office_options import OfficeOptions
from ._archive import PackageError, ZipArchive, ZipEntry, ZipLimits
from ._target import Target, target_for
from ._xml_stream import (
    BlockHandler,
    Chars,
    Node,
    Open,
    XmlScanner,
    escape_attribute,
    escape_text,
    scan_member,
    unescape,
)
from ._xml_text import XmlCodec, check_prolog, xml_texts
from ._zip_output import ZipOutput
from .format import (
    PackageFormat,
    PackagePlan,
    PackageReader,
    PackageWriter,
    PieceContent,
    PieceScanner,
    PlannedPart,
)
from .pieces import Edit, PartPiece, Rendering, Source, splice

__all__ = [
    "BlockHandler",
    "Chars",
    "Edit",
    "Node",
    "Open",
    "PackageError",
    "PackageFormat",
    "OfficeOptions",
    "PackagePlan",
    "PackageReader",
    "PackageWriter",
    "PartPiece",
    "PieceContent",
    "PieceScanner",
    "PlannedPart",
    "Rendering",
    "Source",
    "Target",
    "XmlCodec",
    "XmlScanner",
    "ZipArchive",
    "ZipEntry",
    "ZipLimits",
    "ZipOutput",
    "check_prolog",
    "escape_attribute",
    "escape_text",
    "scan_member",
    "splice",
    "target_for",
    "unescape",
    "xml_texts",
]
