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
