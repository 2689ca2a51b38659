"""The decoding-loop check: `find_loop` finds what the regex that defines a loop finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.checks.answers import LOOP, find_loop

# few characters, so that runs and repeats are common; wide ones (4-byte UTF-32) included
CHARS = st.sampled_from(list("ab ·é日😀!"))


def regex(text: str) -> tuple[str, str] | None:
    match = LOOP.search(text)
    return (match.group(0), match.group(1)) if match else None


@settings(max_examples=400)
@given(
    st.lists(
        st.one_of(
            CHARS.map(lambda c: c * 1),
            st.tuples(st.text(CHARS, min_size=1, max_size=6), st.integers(1, 14)).map(lambda t: t[0] * t[1]),
        ),
        max_size=30,
    ).map("".join)
)
def test_find_loop_agrees_with_the_regex(text: str) -> None:
    assert find_loop(text) == regex(text)


def test_find_loop_examples() -> None:
    assert find_loop("la la la la la la la la la la la end") == ("la la la la la la la la la la la ", "la ")
    assert find_loop("!" * 12) == ("!" * 12, "!")
    assert find_loop("a" * 9) is None and find_loop("x" + "abc" * 9) is None
    assert find_loop("日本語" * 12 + "テスト") == ("日本語" * 12, "日本語")
    assert find_loop("The cat sat on the mat. " * 2) is None
