"""TOML multi-line strings in a CRLF file: tomllib reads their line breaks as LF, so the scan
must too; such values used to disagree with tomllib and were silently left untranslated. A
translation written into one keeps the file's CRLF breaks."""

from __future__ import annotations

import re
import tomllib

from hymt_cli.formats.toml_strings import TomlStringsFormat

SOURCE = """\
[multi]
other = \"\"\"
First line
second line\"\"\"
lit = '''
Literal first
literal second'''
trimmed = \"\"\"\\
  Joined by a line-ending \\
  backslash\"\"\"
"""


def test_multiline_strings_of_a_crlf_file_are_translated_with_crlf() -> None:
    text = SOURCE.replace("\n", "\r\n")
    doc = TomlStringsFormat().parse(text)
    assert [s.text for s in doc.segments] == [
        "First line\nsecond line",
        "Literal first\nliteral second",
        "Joined by a line-ending backslash",
    ]
    out = doc.reassemble({s.id: s.text.upper() for s in doc.segments}, target_language="de")
    assert not re.search(r"(?<!\r)\n", out), repr(out)
    assert tomllib.loads(out)["multi"] == {k: v.upper() for k, v in tomllib.loads(text)["multi"].items()}
