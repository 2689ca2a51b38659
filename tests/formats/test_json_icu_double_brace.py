"""ICU messages in JSON string files whose branch starts with an argument (`one {{count} file}`,
`one {{b, select, ...}}`: `{{` in valid ICU) are ICU: only the branch texts are sent, and the
argument, the keywords and the selectors stay. They used to be sent whole as text (the model
could translate `plural` and `other`), and so did an ICU plural in a file read as i18next."""

from __future__ import annotations

import json

import pytest

from hymt_cli.formats.json_strings.format import JsonStringsFormat
from hymt_cli.formats.strings import parse_message

PLAIN = {
    "files": "{count, plural, one {{count} file} other {{count} files}}",
    "nested": "{a, plural, one {{b, select, x {One X} other {One Y}}} other {Many}}",
    "template": "Hello {{name}}",
}
I18NEXT = {"greeting": "Hello {{name}}", "files": PLAIN["files"]}


@pytest.mark.parametrize("values", [PLAIN, I18NEXT], ids=["plain", "i18next"])
def test_icu_values_with_double_braces_send_only_their_branch_texts(values: dict[str, str]) -> None:
    doc = JsonStringsFormat().parse(json.dumps(values))
    sent = " ".join(s.text for s in doc.segments)
    for keyword in ("plural", "select", "other", "count,"):
        assert keyword not in sent, sent
    out = json.loads(doc.reassemble({s.id: s.text.upper() for s in doc.segments}, target_language="de"))
    for key, value in values.items():
        if "plural" in value:
            parse_message(out[key])  # still ICU
            assert out[key].startswith(value[: value.index("{", 1)]), out[key]
            assert "other {" in out[key]
        else:
            assert "{{name}}" in out[key]
