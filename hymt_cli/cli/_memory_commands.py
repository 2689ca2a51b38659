"""`hymt tm export|import`: the translation memory to and from TMX / JSON lines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from ..errors import ExitCode, UsageError
from ..memory import TranslationMemory, default_memory_path
from ..memory.exchange import FORMATS, export, export_to_file, read_entries
from ..outputs.streams import StdoutGuard


def export_memory(format_name: str, out: Path | None, cache: Path | None, console: Console) -> ExitCode:
    if format_name not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {format_name!r}")
    path = memory_path(cache)
    if not path.exists():
        raise UsageError(f"cache {path}: no translation memory there yet")
    with TranslationMemory.open(path, readonly=True) as memory:
        if out is None:
            with StdoutGuard() as stdout:
                count = export(memory.entries(), format_name, _TextSink(stdout.write))
        else:
            count = export_to_file(memory.entries(), format_name, out)
    console.print(f"hymt tm: exported {count} entries")
    return ExitCode.OK


def import_memory(file: Path, format_name: str | None, cache: Path | None, console: Console) -> ExitCode:
    result = read_entries(file, format_name)
    with TranslationMemory.open(memory_path(cache)) as memory:
        count = memory.import_entries(result.entries)
    skipped = f"; {result.describe_skipped()}" if result.skipped else ""
    console.print(f"hymt tm: imported {count} entries{skipped}", markup=False)
    return ExitCode.OK


def memory_path(given: Path | None) -> Path:
    """The memory a run would use: --cache, else HYMT_CACHE or the config file's `cache`, else
    the user cache's."""
    from ..settings import resolve

    chosen = resolve({"cache": given} if given is not None else {}).settings.memory.cache
    return chosen or default_memory_path()


class _TextSink:
    """A text stream over the guarded stdout (export streams entries; nothing is buffered)."""

    def __init__(self, write_bytes: Callable[[bytes], None]) -> None:
        self._write = write_bytes

    def write(self, text: str) -> None:
        self._write(text.encode("utf-8"))
