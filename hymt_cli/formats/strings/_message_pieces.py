"""An ICU/Java MessageFormat message as the pieces a value's segment is made of: its literal
runs cut into parts by the other conventions (placeholders, HTML tags, line breaks), its
arguments as they are. An HTML tag whose attribute holds an argument (Jenkins' `<a href="{0}"
rel="noopener noreferrer" target="_blank">`) spans several nodes of the message: it is one
part, the argument inside it, so that its attributes are never sent and its `<` never escaped.
"""

from __future__ import annotations

from bisect import bisect_right

from ..spans import Span
from .conventions import Convention, Conventions, html_tags, literal_parts
from .icu import Complex, Literal, Message, Placeholder


def message_pieces(text: str, message: Message, others: Conventions) -> list[Span | Placeholder | Complex]:
    """A message's nodes as parts (literal runs cut by `others`), its arguments as they are; an
    HTML tag that holds an argument (`<a href="{0}">`) is one part, the argument inside it."""
    tags = _tags_across(text, message) if Convention.HTML in others else []
    pieces: list[Span | Placeholder | Complex] = []
    pos = message.start  # the source before this is in a piece already
    upcoming = iter(tags)
    tag = next(upcoming, None)
    for node in message.nodes:
        while tag is not None and tag.start < node.end:  # a tag that starts in this literal
            pieces.extend(literal_parts(text, max(pos, node.start), tag.start, others))
            pieces.append(tag)
            pos = tag.end
            tag = next(upcoming, None)
        if node.end <= pos:
            continue  # inside a tag
        if isinstance(node, Literal):
            if node.shown is None:
                pieces.extend(literal_parts(text, max(pos, node.start), node.end, others))
            else:
                pieces.append(Span(node.start, node.end, "text", shown=node.shown))
        else:
            pieces.append(node)
        pos = node.end
    return pieces


def _tags_across(text: str, message: Message) -> list[Span]:
    """The HTML tags of `message` that span several of its nodes: each starts and ends in
    literal text and holds simple arguments only (`<a href="{1}" target="_blank">`)."""
    nodes = message.nodes
    if len(nodes) < 2:
        return []
    starts = [node.start for node in nodes]
    found: list[Span] = []
    for tag in html_tags(text, message.start, message.end):
        first, last = bisect_right(starts, tag.start) - 1, bisect_right(starts, tag.end - 1) - 1
        if first == last or first < 0:
            continue  # inside one literal: literal_parts finds it
        ends = (nodes[first], nodes[last])
        if all(isinstance(n, Literal) and n.shown is None for n in ends) and not any(
            isinstance(n, Complex) for n in nodes[first : last + 1]
        ):
            found.append(tag)
    return found
