"""Front matter: the one-line `title` and `description` values of YAML (`---`) or TOML
(`+++`) front matter are translated; every other key, and every value that is not a plain
one-line string, is kept as written."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ..spans import Located, Span, locate
from ._escapes import Escape, toml_basic, toml_literal, yaml_double, yaml_plain, yaml_single
from ._source import Lines

_YAML_KEY = re.compile(r"(title|description)([ \t]*:[ \t]*)(.*?)[ \t]*\Z")
_YAML_INDICATOR = re.compile(r"[\-?:,\[\]{}#&*!|>'\"%@`]")
_TOML_FENCE = re.compile(r"\+\+\+[ \t]*\Z")
_TOML_KEY = re.compile(r"""(title|description)[ \t]*=[ \t]*(?:"([^"\\]*)"|'([^']*)')[ \t]*(?:#.*)?\Z""")


def _yaml_value(value: str, at: int) -> tuple[int, int, Escape] | None:
    """The translatable span of a YAML scalar written at `at`, and its escape; None when it
    is no plain, single- or double-quoted one-line string without escapes."""
    if (
        value[0] == '"'
        and len(value) >= 2
        and value.endswith('"')
        and "\\" not in value
        and '"' not in value[1:-1]
    ):
        return at + 1, at + len(value) - 1, yaml_double
    if value[0] == "'" and len(value) >= 2 and value.endswith("'") and "'" not in value[1:-1]:
        return at + 1, at + len(value) - 1, yaml_single
    if not _YAML_INDICATOR.match(value) and " #" not in value:
        return at, at + len(value), yaml_plain
    return None


def yaml_values(src: str, lines: Lines, span: Sequence[int]) -> list[Located]:
    """`title:` and `description:` values of YAML front matter (top-level keys only)."""
    out: list[Located] = []
    for row in range(span[0] + 1, min(span[1] - 1, len(lines))):
        match = _YAML_KEY.match(lines.text(src, row))
        if not match or not match.group(3):
            continue
        found = _yaml_value(match.group(3), lines.starts[row] + match.start(3))
        if found is None:
            continue
        start, end, escape = found
        located = locate(src, [Span(start, end, "text")], newline=" ", escape=escape)
        if located is not None:
            out.append(dataclasses.replace(located, role=f"key {match.group(1)}"))
    return out


def toml_end(src: str, lines: Lines) -> int | None:
    """Row after the closing `+++` of TOML front matter at the start, or None."""
    if not len(lines) or not _TOML_FENCE.match(lines.text(src, 0)):
        return None
    for row in range(1, len(lines)):
        if _TOML_FENCE.match(lines.text(src, row)):
            return row + 1
    return None


def toml_values(src: str, lines: Lines, end_row: int) -> list[Located]:
    """`title` and `description` values of TOML front matter: top-level keys, one-line
    basic strings without escapes or literal strings; everything else is kept."""
    out: list[Located] = []
    for row in range(1, end_row - 1):
        text = lines.text(src, row)
        if text.lstrip().startswith("["):
            break  # a table: its keys are not the page's
        match = _TOML_KEY.match(text)
        if not match:
            continue
        group = 2 if match.group(2) is not None else 3
        start, end = lines.starts[row] + match.start(group), lines.starts[row] + match.end(group)
        located = locate(
            src,
            [Span(start, end, "text")],
            newline=" ",
            escape=toml_basic if group == 2 else toml_literal,
            peel=False,
        )
        if located is not None:
            out.append(dataclasses.replace(located, role=f"key {match.group(1)}"))
    return out
