"""Which string format an `.xml` file is, by its content: Android resources or XLIFF.

`.xml` is shared by every kind of XML (layouts, manifests, build files). A file is an input
only when its root element says it is strings: `<resources>` holding `<string>`,
`<string-array>` or `<plurals>` (Android; `colors.xml` and `dimens.xml` are not), or
`<xliff>`. Only the start of the file is read.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

_HEAD = 1 << 16
# After the XML declaration, comments, processing instructions and a doctype: the root's name.
_ROOT = re.compile(
    r"\A\ufeff?(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)*<([\w:.-]+)", re.DOTALL
)
_STRINGS = re.compile(r"<(?:string|string-array|plurals)\b")


def _text(head: bytes) -> str:
    if head.startswith((codecs.BOM_UTF16_LE, b"<\0")):
        return head.decode("utf-16-le", "replace")
    if head.startswith((codecs.BOM_UTF16_BE, b"\0<")):
        return head.decode("utf-16-be", "replace")
    return head.decode("utf-8", "replace")


def xml_kind(head: bytes) -> str | None:
    """ "android", "xliff" or None for the first bytes of an XML file."""
    text = _text(head)
    root = _ROOT.match(text)
    if root is None:
        return None
    name = root.group(1).rpartition(":")[2]
    if name == "xliff":
        return "xliff"
    if name == "resources" and _STRINGS.search(text, root.end()):
        return "android"
    return None


def xml_format_name(path: Path) -> str | None:
    """The string format of an `.xml` file (None: not one, or unreadable)."""
    try:
        with path.open("rb") as handle:
            return xml_kind(handle.read(_HEAD))
    except OSError:
        return None
