"""Accepted answers are held across windows and committed to the memory when a commit is due
(held_answers.py): a long file's windows do not each rewrite a large memory, and a text met
again in a later window is committed first and answered by the memory, as before."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engines import Recording
from pipelines import run_pipeline

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import TextOptions
from hymt_cli.options import OptionSet
from hymt_cli.pipeline.dispatch import MEMORY_CHUNK
from hymt_cli.pipeline.held_answers import MEMORY_COMMIT_SHARE, MEMORY_SECONDS, HeldAnswers

RequestKey = tuple[str, str, str]


class Remembering:
    """A memory in a dict that notes the size of each commit."""

    def __init__(self) -> None:
        self.known: dict[RequestKey, str] = {}
        self.commits: list[int] = []

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]:
        return [self.known.get(k) for k in keys]

    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None:
        self.known.update(items)
        self.commits.append(len(items))


def test_windows_share_a_commit_and_a_text_met_again_is_recalled(tmp_path: Path) -> None:
    files = []
    for n in range(3):
        path = tmp_path / f"part{n}.txt"
        path.write_text("".join(f"Line {i} of file {n}.\n" for i in range(300)))
        files.append(path)
    again = tmp_path / "part3.txt"
    again.write_bytes(files[0].read_bytes())  # the first file's lines, in the last window
    engine, memory = Recording(IdentityEngine()), Remembering()
    report = run_pipeline(
        [*files, again],
        lambda: engine,
        options=OptionSet([TextOptions(segment_by="line")]),
        out_dir=tmp_path / "out",
        window_segments=256,  # a file a window
        memory=memory,
    )
    assert report.files_ok == 4 and report.segments == 1200
    assert len(engine.requests) == 900 and report.cache_hits == 300  # the repeat: from the memory
    assert memory.commits == [900]  # one commit (as the repeat is asked for), not one a window
    assert (tmp_path / "out" / "fr" / "part3.txt").read_bytes() == again.read_bytes()


class FakeClock:
    """A clock that moves only when told to (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def answers(start: int, count: int) -> list[tuple[RequestKey, str]]:
    return [(("en", "fr", f"text {i}"), f"texte {i}") for i in range(start, start + count)]


def test_a_commit_waits_for_its_time_and_a_chunk() -> None:
    clock, memory = FakeClock(), Remembering()
    held = HeldAnswers(memory, clock=clock)
    held.remember(answers(0, MEMORY_CHUNK))
    assert memory.commits == []  # a chunk, but no time has passed
    clock.now += MEMORY_SECONDS
    held.remember(answers(MEMORY_CHUNK, 1))
    assert memory.commits == [MEMORY_CHUNK + 1]
    clock.now += MEMORY_SECONDS  # time enough, but no chunk held
    held.remember(answers(0, 10))
    assert memory.commits == [MEMORY_CHUNK + 1]
    held.flush()
    assert memory.commits == [MEMORY_CHUNK + 1, 10]


def test_a_slow_commit_spaces_the_next_ones() -> None:
    clock, memory = FakeClock(), Remembering()

    class Slow(Remembering):
        def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None:
            clock.now += 1.0  # a commit that takes a second: the next waits ten
            memory.remember(items)

    held = HeldAnswers(Slow(), clock=clock)
    held.remember(answers(0, MEMORY_CHUNK))
    held.flush()
    clock.now += MEMORY_COMMIT_SHARE - 0.5
    held.remember(answers(0, MEMORY_CHUNK))
    assert memory.commits == [MEMORY_CHUNK]
    clock.now += 0.5
    held.remember(answers(0, 1))
    assert memory.commits == [MEMORY_CHUNK, MEMORY_CHUNK]


def test_at_most_max_held_are_held_whatever_the_time() -> None:
    clock, memory = FakeClock(), Remembering()
    held = HeldAnswers(memory, clock=clock, max_held=8)
    held.remember(answers(0, 7))
    assert memory.commits == []
    held.remember(answers(7, 1))
    assert memory.commits == [8]


def test_a_held_text_asked_for_again_is_committed_first() -> None:
    memory = Remembering()
    held = HeldAnswers(memory, clock=FakeClock())
    held.remember(answers(0, 3))
    assert held.recall([("en", "fr", "text 1")]) == ["texte 1"]
    assert memory.commits == [3]
