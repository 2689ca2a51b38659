"""The engine's noise goes to a log file, not to the terminal.

vLLM and torch log, warn and draw loading bars; vLLM's engine-core and worker processes
inherit the parent's descriptors 1 and 2 when they start, and write there for their whole
life (on Ctrl-C, dozens of error lines). While an engine runs, `EngineLog` points descriptors
1 and 2 of this process at the log file, so that everything written there, by any thread or
child process, lands in the file; hymt's own lines use a copy of the original stderr
(output.message_stream). The file is kept: `-v` prints its path, an engine failure prints its
last relevant lines and its path.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from ..outputs.streams import hold_messages, release_messages

_KEEP = 20  # log files of earlier runs kept in the default folder
_PREFIX = re.compile(
    r"^(\(\w+ pid=\d+\)\s*)?(INFO|WARNING|DEBUG|ERROR|CRITICAL)?\s*"
    r"(\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?)?\s*(\[[^\]]*\]\s*)?"
)
_BAR_TAIL = re.compile(r"\s*\|[^|]*\[[^\]]*\]\s*$")  # tqdm's "| 1/1 [00:00<00:00, 39.5it/s]"
_RECORD = re.compile(r"^(\(\w+ pid=\d+\)\s*)?(INFO|WARNING|ERROR|CRITICAL) ")  # a vLLM log record
_BAR = re.compile(r"\d+%\|?|\| \d+/\d+ ")  # tqdm: "40%|####", "| 3/8 ["
_UNINFORMATIVE = ("non-default args", "Using ", "reserved_cpus")
_PROBLEM = re.compile(r"\b(ERROR|CRITICAL|Error|Exception|Traceback)\b|error:")


def default_log_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hymt", appauthor=False)) / "logs"


def new_log_path(folder: Path | None = None) -> Path:
    """`engine-<time>-<pid>.log` in `folder` (default: the user cache dir); older logs beyond
    the last few are removed."""
    folder = folder or default_log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    old = sorted(folder.glob("engine-*.log"))
    for stale in old[: max(0, len(old) - _KEEP + 1)]:
        stale.unlink(missing_ok=True)
    return folder / f"engine-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"


class EngineLog:
    """Descriptors 1 and 2 into `path` between `start` and `stop` (idempotent, any thread)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._saved: tuple[int, int] | None = None

    def start(self) -> None:
        if self._saved is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Engines log to descriptor 2 from now on; INFO is what the file is for (what the
        # engine did, how long each step took). A level the user set is kept.
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "INFO")
        if "stdout" in os.environ.get("VLLM_LOGGING_STREAM", "stdout"):
            os.environ["VLLM_LOGGING_STREAM"] = "ext://sys.stderr"
        os.environ.setdefault("VLLM_LOGGING_COLOR", "0")
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        hold_messages()  # hymt's own lines stay on the terminal
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            self._saved = (os.dup(1), os.dup(2))
            os.dup2(fd, 1)
            os.dup2(fd, 2)
        finally:
            os.close(fd)

    def stop(self) -> None:
        if self._saved is None:
            return
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        out, err = self._saved
        self._saved = None
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        release_messages()

    def lines(self, limit: int = 200) -> list[str]:
        """The last `limit` lines of the file (loading bars split at their carriage returns)."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 64_000))
                data = handle.read().decode("utf-8", "replace")
        except OSError:
            return []
        lines = [part.strip() for line in data.splitlines() for part in line.split("\r")]
        return [line for line in lines if line][-limit:]

    def activity(self) -> str | None:
        """What the engine is doing: its last log record or loading bar ("Loading weights took
        0.12 s", "Capturing CUDA graphs: 40%"); stray prints and warnings' source lines are not."""
        for line in reversed(self.lines(40)):
            if _RECORD.match(line) or _BAR.search(line):
                text = _BAR_TAIL.sub("", _PREFIX.sub("", line)).strip()
                if text and not text.startswith(_UNINFORMATIVE):
                    return text[:80]
        return None

    def problems(self, limit: int = 5) -> list[str]:
        """The last lines that look like an error (for the message of a failed engine start)."""
        found = [_PREFIX.sub("", line).strip() for line in self.lines() if _PROBLEM.search(line)]
        return [line[:300] for line in found if line][-limit:]
