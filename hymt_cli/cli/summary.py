"""The lines a run ends with on stderr: failures, totals, skipped files, warnings, glossary
adherence. `-q` drops the totals and chatter, never the line that explains a non-zero exit."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from rich.console import Console

from ..errors import ExitCode
from ..inputs.discovery import NEEDS_SETTING
from ..reporting.report import OutdatedValue, RunReport

_SHOWN_MISSES = 5
_SHOWN_FLAGS = 5
_SHOWN_STALE = 50
_NAMED_SKIPS = 3  # a reason that leaves this many files alone, or fewer, names them


class StaleOutput(Protocol):
    @property
    def output(self) -> str: ...
    @property
    def reason(self) -> str: ...


def summarize(
    result: RunReport,
    console: Console,
    *,
    dry_run: bool,
    quiet: bool,
    verbose: bool = False,
    strict: bool = False,
    code: ExitCode = ExitCode.OK,
) -> None:
    warned: set[str] = set()  # an input's warning, in each of its languages' files: told once
    for file in result.files:
        if file.status == "failed" and file.error:  # a file failing in every language: one line
            console.print(f"[red]error:[/] {_esc(file.error)}")
            if file.hint:
                console.print(f"  hint: {file.hint}", markup=False)
        elif file.warning and file.warning not in warned:
            warned.add(file.warning)
            console.print(f"[yellow]warning:[/] {_esc(file.warning)}")
    if not quiet:
        _skipped(result, console, verbose=verbose)
        if dry_run:
            _plan(result, console)
        else:
            _catalogs(result, console, verbose=verbose)
            _totals(result, console)
            _qa(result, console)
            _glossary(result, console)
    if code == ExitCode.QUALITY_CHECK_FAILED:
        console.print(f"[red]error:[/] {_quality(result, strict)}")


def _totals(result: RunReport, console: Console) -> None:
    translated = sum(f.translated for f in result.files)
    current = sum(f.up_to_date for f in result.files if f.status == "ok")
    written = f"{result.files_ok - current} file(s) written" + (f", {current} up to date" if current else "")
    console.print(
        f"hymt: {written}, {result.files_failed} failed; "
        f"{result.segments} segments: {translated} translated, {result.untranslated} untranslated; "
        f"{result.engine_requests} engine requests, {result.cache_hits} from the memory, "
        f"{result.output_tokens:,} output tokens in {result.seconds:.1f} s"
    )
    if result.engine_retries:
        console.print(
            f"note: {result.engine_retries} request(s) were sent again after a connection error, "
            "timeout, 429 or 5xx (none was lost)"
        )
    if result.untranslated:
        console.print(
            f"[yellow]warning:[/] {result.untranslated} segment(s) failed validation and kept "
            "their source text (details: --report FILE)"
        )


_SHOWN_CATALOGS = 20
_KEY_COUNTS = ("added", "kept", "updated", "removed", "unchanged")


def _catalogs(result: RunReport, console: Console, *, verbose: bool = False) -> None:
    """Each file of strings: its keys by what the run did (added, kept: a person's, updated,
    removed, unchanged); past a few files, their totals. A person's values kept whose source
    changed since are named with -v; those whose placeholders no longer agree with the source
    are warned of in any case (a format change can make the program fail)."""
    files = [f for f in result.files if f.keys is not None and f.status == "ok"]
    for file in files[:_SHOWN_CATALOGS]:
        assert file.keys is not None
        console.print(f"hymt: {file.output}: {_key_counts(file.keys, verbose=verbose)}", markup=False)
        if verbose:
            for value in file.outdated:
                console.print(outdated_line(value), markup=False)
    if len(files) > _SHOWN_CATALOGS:
        total = {name: sum((f.keys or {}).get(name, 0) for f in files) for name in (*_KEY_COUNTS, "outdated")}
        console.print(f"hymt: {len(files)} files of strings in all: {_key_counts(total)}", markup=False)
        if verbose:
            for file in files[_SHOWN_CATALOGS:]:
                for value in file.outdated:
                    console.print(f"  {file.output}:{outdated_line(value).lstrip()}", markup=False)
    changed = [(f.output, v) for f in files for v in f.outdated if v.format_change]
    for output, value in changed[: 0 if verbose else _SHOWN_FLAGS]:
        console.print(
            f"[yellow]warning:[/] {_esc(str(output))}: {_esc(value.key)}: a person's value kept, its "
            f"source changed since and {_esc(value.format_change or '')}"
        )
    if not verbose and len(changed) > _SHOWN_FLAGS:
        console.print(f"  ... {len(changed) - _SHOWN_FLAGS} more (-v names them)", markup=False)


_SHOWN_TEXT = 80
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _quoted(text: str | None) -> str:
    """A value in a message line: quoted, its line breaks escaped, cut at _SHOWN_TEXT characters."""
    if text is None:
        return "(not recorded)"
    shown = text if len(text) <= _SHOWN_TEXT else text[: _SHOWN_TEXT - 1] + "…"
    shown = shown.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')
    # a terminal control, a bidi override or an invisible character is shown as its escape
    return '"' + _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", shown) + '"'


def outdated_line(value: OutdatedValue) -> str:
    """One person's value kept whose source changed since: key, source then and now, the value."""
    line = (
        f"  outdated {value.key}: the source was {_quoted(value.old_source)}, is now "
        f"{_quoted(value.source)}; kept {_quoted(value.value)}"
    )
    return line + (f" ({value.format_change})" if value.format_change else "")


def _key_counts(keys: dict[str, int], *, verbose: bool = True) -> str:
    line = ", ".join(f"{keys.get(name, 0)} {name}" for name in _KEY_COUNTS)
    line = line.replace(" kept", " kept (a person's)", 1) if keys.get("kept") else line
    outdated = keys.get("outdated", 0)
    named = "" if verbose else " (-v names them)"
    return line + (f"; {outdated} kept whose source changed since{named}" if outdated else "")


def _quality(result: RunReport, strict: bool) -> str:
    translated = sum(f.translated for f in result.files)
    if result.untranslated and not translated:
        return (
            f"not one of the {result.untranslated} segment(s) was translated: every output failed "
            "validation and kept its source text (details: --report FILE)"
        )
    parts = []
    if result.untranslated:
        parts.append(f"{result.untranslated} segment(s) stayed untranslated")
    glossary = result.glossary
    if glossary is not None and glossary.missed:
        parts.append(f"{glossary.missed} glossary term(s) were missed")
    return "--strict: " + " and ".join(parts or ["a quality check failed"])


def _skipped(result: RunReport, console: Console, *, verbose: bool) -> None:
    if not result.skipped:
        return
    if verbose:
        for item in result.skipped:
            console.print(f"hymt: skipped {item.path}: {item.reason}", markup=False)
        return
    for item in result.skipped:  # a setting would take these: each is named
        if item.reason.startswith(NEEDS_SETTING):
            console.print(f"hymt: skipped {item.path}: {item.reason}", markup=False)
    groups: dict[str, list[str]] = {}
    for item in result.skipped:
        groups.setdefault(item.reason.split(" (")[0].split(":")[0], []).append(item.path)
    listed = ", ".join(
        f"{len(paths)} {reason}"
        + (f" ({', '.join(paths)})" if len(paths) <= _NAMED_SKIPS and reason != NEEDS_SETTING else "")
        for reason, paths in sorted(groups.items(), key=lambda group: -len(group[1]))
    )
    console.print(f"hymt: skipped {len(result.skipped)} file(s): {listed} (-v lists them)", markup=False)


def _plan(result: RunReport, console: Console) -> None:
    estimate = " (estimated)" if result.estimated_tokens else ""
    to_engine = result.unique_segments - result.cache_hits
    console.print(
        f"plan: {len({f.input for f in result.files if f.status != 'failed'})} file(s), "
        f"{result.segments} segments, {result.unique_segments} unique requests, "
        f"{result.prompt_tokens:,} prompt tokens{estimate}; to the engine: {to_engine} "
        f"requests, {result.prompt_tokens - result.cache_hit_tokens:,} prompt tokens; "
        f"from the memory: {result.cache_hits}; nothing written"
    )


def _qa(result: RunReport, console: Console) -> None:
    """QA flags per check, errors apart from warnings, and the first few flags."""
    counts = result.flag_counts
    if result.qa_levels is None or not counts:
        return
    parts = []
    for severity, meaning in (("error", "answer rejected, source kept"), ("warning", "answer kept")):
        checks = sorted((check, n) for check, n in counts.items() if result.qa_levels.get(check) == severity)
        if checks:
            total = sum(n for _, n in checks)
            listed = ", ".join(f"{check} {n}" for check, n in checks)
            parts.append(f"{total} {severity}(s) ({meaning}): {listed}")
    console.print(f"qa: {'; '.join(parts)} (details: --report FILE)", markup=False)
    shown = [(f, flag) for f in result.files for flag in f.flags][:_SHOWN_FLAGS]
    for file, flag in shown:
        where = flag.label if flag.label is not None else f"segment {flag.segment}"
        style = "red" if flag.severity == "error" else "yellow"
        console.print(
            f"[{style}]{flag.severity}:[/] qa {flag.check}: {_esc(file.input)} {_esc(where)} "
            f"({file.lang}): {_esc(flag.message)}"
        )
    total = sum(counts.values())
    if total > len(shown):
        console.print(f"  ... {total - len(shown)} more (details: --report FILE)")


def _glossary(result: RunReport, console: Console) -> None:
    glossary = result.glossary
    if glossary is None:
        return
    console.print(
        f"glossary: {glossary.expected} term(s) expected, {glossary.found} found, {glossary.missed} missed"
    )
    misses = [(f.input, m) for f in result.files if f.glossary is not None for m in f.glossary.misses]
    for name, miss in misses[:_SHOWN_MISSES]:
        console.print(
            f"[yellow]warning:[/] glossary miss: {_esc(name)} segment {miss.segment} ({miss.lang}): "
            f"{_esc(repr(miss.term))} should be {_esc(repr(miss.expected))}"
        )
    if glossary.missed > _SHOWN_MISSES:
        console.print(f"  ... {glossary.missed - _SHOWN_MISSES} more (details: --report FILE)")


def summarize_interrupted(
    result: RunReport, console: Console, signal_name: str, *, kept: int, report_path: Path | None
) -> None:
    """The one line of a run stopped by SIGINT or SIGTERM."""
    total = result.files_ok + result.files_interrupted
    report = f"; report: {report_path}" if report_path is not None else ""
    console.print(
        f"hymt: interrupted ({signal_name}): {result.files_ok} of {total} output file(s) written, "
        f"each complete, no partial file left; {kept} new translation(s) kept in the memory "
        f"for the next run{report}",
        markup=False,
    )


def summarize_check(
    stale: Sequence[StaleOutput],
    edited: Sequence[StaleOutput],
    console: Console,
    *,
    checked: int,
    quiet: bool,
    verbose: bool = False,
    outdated: Mapping[str, Sequence[OutdatedValue]] | None = None,
) -> ExitCode:
    """`--check`: each missing or stale output on a line; exit 5 when there is any. A person's
    values kept whose source changed since: counted in a note, named with -v (`outdated`: by
    output), a format change warned of in any case."""
    outdated = outdated or {}
    for item in stale[:_SHOWN_STALE]:
        console.print(f"stale: {item.output}: {item.reason}", markup=False)
    if len(stale) > _SHOWN_STALE:
        console.print(f"  ... {len(stale) - _SHOWN_STALE} more", markup=False)
    if not quiet:
        for item in edited:
            named = outdated.get(item.output, ())
            more = " (-v names them)" if named and not verbose else ""
            console.print(f"note: {item.output}: {item.reason}{more}", markup=False)
            for value in named:
                if verbose:
                    console.print(outdated_line(value), markup=False)
                elif value.format_change:
                    where = f"{_esc(item.output)}: {_esc(value.key)}"
                    console.print(f"[yellow]warning:[/] {where}: {_esc(value.format_change)}")
    if stale:
        console.print(
            f"[red]error:[/] {len(stale)} of {checked} output(s) missing or stale; "
            "`hymt translate` (same settings) brings them up to date"
        )
        return ExitCode.STALE
    if not quiet:
        console.print(f"hymt: all {checked} output(s) up to date", markup=False)
    return ExitCode.OK


def _esc(text: str) -> str:
    return text.replace("[", "\\[")
