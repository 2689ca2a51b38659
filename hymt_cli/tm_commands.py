"""`hymt tm export|import`: the translation memory to and from TMX / JSON lines."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from .atomic import open_atomically
from .cache import TranslationMemory, default_cache_path
from .errors import ExitCode, UsageError
from .output import StdoutGuard
from .tm_exchange import FORMATS, read_entries, write_jsonl, write_tmx


def export_memory(format_name: str, out: Path | None, cache: Path | None, console: Console) -> ExitCode:
    if format_name not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {format_name!r}")
    path = cache or default_cache_path()
    if not path.exists():
        raise UsageError(f"cache {path}: no translation memory there yet")
    with TranslationMemory.open(path, readonly=True) as memory:
        write = write_tmx if format_name == "tmx" else write_jsonl
        if out is None:
            with StdoutGuard() as stdout:
                count = write(memory.entries(), _TextSink(stdout.write))
        else:
            with open_atomically(out, "w", encoding="utf-8", newline="\n") as handle:
                count = write(memory.entries(), handle)
    console.print(f"hymt tm: exported {count} entries")
    return ExitCode.OK


def import_memory(file: Path, format_name: str | None, cache: Path | None, console: Console) -> ExitCode:
    result = read_entries(file, format_name)
    with TranslationMemory.open(cache or default_cache_path()) as memory:
        count = memory.import_entries(result.entries)
    skipped = f", skipped {result.skipped} (unknown language, empty or inline markup)" if result.skipped else ""
    console.print(f"hymt tm: imported {count} entries{skipped}")
    return ExitCode.OK


class _TextSink:
    """A text stream over the guarded stdout (export streams entries; nothing is buffered)."""

    def __init__(self, write_bytes: Callable[[bytes], None]) -> None:
        self._write = write_bytes

    def write(self, text: str) -> None:
        self._write(text.encode("utf-8"))
