"""`is_translatable` answers what its definition says: a letter outside the inline tags, and no
lone surrogate. The quick form (a regex for word characters, each checked) against the plain one."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from hymt_cli.text.segments import LONE_SURROGATE, is_translatable
from hymt_cli.text.tags import TAG

PIECES = st.sampled_from(
    [
        "<s1>",
        "</s1>",
        "<s2/>",
        "<",
        ">",
        "s",
        "1",
        "½",
        "²",
        "Ⅳ",
        "_",
        "é",
        "e\u0301",
        "中",
        "٣",
        " ",
        "\ud800",
    ]
)


def by_definition(text: str) -> bool:
    return any(ch.isalpha() for ch in TAG.sub("", text)) and LONE_SURROGATE.search(text) is None


@given(st.one_of(st.text(), st.lists(PIECES).map("".join)))
@example("<s1/>")
@example("½ ² Ⅳ _ 3")
@example("ǅ")  # a title-case letter
def test_is_translatable_follows_its_definition(text: str) -> None:
    assert is_translatable(text) == by_definition(text)
