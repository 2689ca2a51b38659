"""The JSON outline (formats/json_strings/outline.py): its one-pattern reader gives exactly the
members of the token reader (jsontext) for any document, and leaves what is no JSON to it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strings_helpers import CORPUS

from hymt_cli.formats.json_strings.outline import json_outline, pattern_members, token_members
from hymt_cli.formats.jsontext import JsonSyntaxError

_scalars = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)
_documents = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
).filter(lambda d: isinstance(d, dict | list))


def _same(text: str) -> None:
    fast = pattern_members(text, str)
    assert fast is not None
    assert fast == token_members(text, str)


@given(_documents, st.sampled_from([None, 0, 1, 2, 4, "\t"]), st.booleans())
def test_the_one_pattern_reader_reads_what_the_token_reader_reads(
    doc: object, indent: object, ascii_: bool
) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_)  # type: ignore[arg-type]
    _same(text)
    _same("\ufeff \r\n" + text.replace("\n", "\r\n") + "\n\n")


def test_real_catalogs_read_the_same_both_ways() -> None:
    files = sorted([*CORPUS.glob("json/*.json"), *CORPUS.glob("arb/*.arb")])
    if not files:
        pytest.skip("the corpus is not gathered (python scripts/gather_corpus.py)")
    for path in files:
        _same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "text",
    ['{"a": 1,}', '{"a" 1}', "[1 2]", '{"a": "x\ny"}', '{"a": 01}', "{} {}", '{"a": [}', "[", '{"a": "\\q"}'],
)
def test_what_is_no_json_is_refused_with_its_place(text: str) -> None:
    assert pattern_members(text, str) is None
    with pytest.raises(JsonSyntaxError, match="line 1, column"):
        json_outline(text)
