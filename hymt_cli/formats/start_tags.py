"""A start tag's attributes rewritten in place: values replaced, attributes added, everything
else (order, quotes, spacing, the other attributes) as the source wrote it (the package
families' language and direction attributes: ODF styles, EPUB's package document)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .package import Node, escape_attribute

_ATTRIBUTE = re.compile(r"""(\s+)([^\s=/>]+)(\s*=\s*)(?:"([^"]*)"|'([^']*)')""")


def prefix_of(node: Node, uri: str) -> str | None:
    """The prefix `node`'s scope binds to `uri` (None: none is bound, so nothing can be added)."""
    return next((p for p, u in node.scope.uris.items() if u == uri and p), None)


def rewritten(tag: str, node: Node, values: Mapping[str, str], added: Mapping[str, str] | None = None) -> str:
    """The start tag `tag` of `node` with the attributes named in `values` (resolved names:
    `fo:language`) given those values, and `added` (qualified names as they are to be written)
    appended."""
    out: list[str] = []
    pos = 0
    for match in _ATTRIBUTE.finditer(tag):
        name = node.scope.attribute(match.group(2))
        if name not in values:
            continue
        quote = '"' if match.group(4) is not None else "'"
        value = escape_attribute(values[name])
        if quote == "'":
            value = value.replace("&quot;", '"').replace("'", "&apos;")
        out.append(tag[pos : match.start()])
        out.append(f"{match.group(1)}{match.group(2)}{match.group(3)}{quote}{value}{quote}")
        pos = match.end()
    out.append(tag[pos:])
    text = "".join(out)
    if not added:
        return text
    extra = "".join(f' {name}="{escape_attribute(value)}"' for name, value in added.items())
    closing = 2 if text.endswith("/>") else 1
    head, tail = text[:-closing], text[-closing:]
    kept = head.rstrip()
    return kept + extra + head[len(kept) :] + tail


def value_span(src: str, node: Node, name: str) -> tuple[int, int] | None:
    """Where the value of `node`'s attribute `name` (resolved: `xml:lang`) lies in `src`."""
    for match in _ATTRIBUTE.finditer(src, node.start, node.inner):
        if node.scope.attribute(match.group(2)) == name:
            group = 4 if match.group(4) is not None else 5
            return match.start(group), match.end(group)
    return None
