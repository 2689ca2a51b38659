"""A YAML block scalar rewritten with a translation keeps the file's line breaks: a CRLF (or
CR) file stays CRLF (or CR) inside the block too, where every new line used to be a bare LF
(a file of mixed line endings), and the output reads back as the translations."""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from hymt_cli.formats.yaml_strings import YamlStringsFormat

SOURCE = """\
literal: |
  First line
  second line
stripped: |-
  Stripped one
  stripped two
folded: >
  Folded text
kept: |+
  Kept trailing

after: Plain value
"""


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_block_scalars_keep_the_files_line_breaks(newline: str) -> None:
    text = SOURCE.replace("\n", newline)
    doc = YamlStringsFormat().parse(text)
    translated = {s.id: s.text.upper() for s in doc.segments}
    out = doc.reassemble(translated, target_language="de")
    assert out != text
    bare = r"(?<!\r)\n|\r(?!\n)" if newline == "\r\n" else r"\n"
    assert not re.search(bare, out), repr(out)
    loaded = YAML(typ="safe", pure=True).load(out)
    source = YAML(typ="safe", pure=True).load(text)
    assert loaded == {k: v.upper() for k, v in source.items()}
