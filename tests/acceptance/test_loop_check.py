"""The decoding-loop check: `find_loop` finds what the regex that defines a loop finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.acceptance.answers import LOOP, find_loop, problem_with
from hymt_cli.engine.base import Generation

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


def test_a_run_the_source_holds_does_not_hide_a_loop_after_it() -> None:
    """Uptime Kuma's en.json has a format example with twelve e's in a row: that run, in the
    source, is no loop of the model's, yet a loop the model added after it must still be found
    (only the leftmost run was looked at, so ' la la la ...' was written to the file)."""
    source = 'In this format "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" usually the token.'
    looping = source + " la" * 40
    assert problem_with(Generation(looping, "stop", 5), source, looping) is not None
    assert problem_with(Generation(source, "stop", 5), source, source) is None
    # the source's run, made longer by the model, is a loop of the model's
    longer = source.replace("e" * 12, "e" * 60)
    assert problem_with(Generation(longer, "stop", 5), source, longer) is not None
