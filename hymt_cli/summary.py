"""The lines a run ends with on stderr: failures, totals, warnings, glossary adherence."""
from __future__ import annotations

from rich.console import Console

from .report import RunReport

_SHOWN_MISSES = 5


def summarize(result: RunReport, console: Console, *, dry_run: bool, quiet: bool) -> None:
    for file in result.files:
        if file.status == "failed" and file.error:  # a file failing in every language: one line
            console.print(f"[red]error:[/] {file.error}")
        elif file.warning:
            console.print(f"[yellow]warning:[/] {file.warning}")
    if quiet:
        return
    if dry_run:
        _plan(result, console)
        return
    console.print(f"hymt: {result.files_ok} file(s) written, {result.files_failed} failed; "
                  f"{result.segments} segments, {result.engine_requests} engine requests, "
                  f"{result.cache_hits} from the memory, "
                  f"{result.output_tokens:,} output tokens in {result.seconds:.1f} s")
    if result.untranslated:
        console.print(f"[yellow]warning:[/] {result.untranslated} segment(s) failed validation and kept "
                      "their source text (details: --report FILE)")
    _glossary(result, console)


def _plan(result: RunReport, console: Console) -> None:
    estimate = " (estimated)" if result.estimated_tokens else ""
    to_engine = result.unique_segments - result.cache_hits
    console.print(f"plan: {len({f.input for f in result.files if f.status != 'failed'})} file(s), "
                  f"{result.segments} segments, {result.unique_segments} unique requests, "
                  f"{result.prompt_tokens:,} prompt tokens{estimate}; to the engine: {to_engine} "
                  f"requests, {result.prompt_tokens - result.cache_hit_tokens:,} prompt tokens; "
                  f"from the memory: {result.cache_hits}; nothing written")


def _glossary(result: RunReport, console: Console) -> None:
    glossary = result.glossary
    if glossary is None:
        return
    console.print(f"glossary: {glossary.expected} term(s) expected, {glossary.found} found, "
                  f"{glossary.missed} missed")
    misses = [(f.input, m) for f in result.files if f.glossary is not None for m in f.glossary.misses]
    for name, miss in misses[:_SHOWN_MISSES]:
        console.print(f"[yellow]warning:[/] glossary miss: {name} segment {miss.segment} ({miss.lang}): "
                      f"{miss.term!r} should be {miss.expected!r}")
    if glossary.missed > _SHOWN_MISSES:
        console.print(f"  ... {glossary.missed - _SHOWN_MISSES} more (details: --report FILE)")
