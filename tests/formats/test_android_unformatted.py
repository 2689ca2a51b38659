"""Android `formatted="false"` strings (a literal `%`, or several `%s` that the app formats
itself): their clear printf directives are still placeholders the model may not change (they
used to go to it as words, and came back altered), while a `%` the model writes stays a single
`%` (such a string is not escaped for String.format)."""

from __future__ import annotations

from hymt_cli.formats.android import AndroidFormat

SOURCE = """<resources>
    <string name="ratio" formatted="false">%s of %s done, 50% off</string>
    <string name="plain">%s of %s done</string>
</resources>
"""


def test_unformatted_strings_keep_their_directives_and_write_percent_as_is() -> None:
    doc = AndroidFormat().parse(SOURCE)
    unformatted, formatted = (s.text for s in doc.segments)
    assert unformatted == "<s1/> of <s2/> done, 50% off"
    assert formatted == "<s1/> of <s2/> done"
    out = doc.reassemble({s.id: "<s2/> von <s1/>: 100% fertig" for s in doc.segments}, target_language="de")
    assert '<string name="ratio" formatted="false">%s von %s: 100% fertig</string>' in out
    assert '<string name="plain">%s von %s: 100%% fertig</string>' in out
