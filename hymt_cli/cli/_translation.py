"""`hymt translate` on the command line: settings -> the library's run -> lines and an exit code.

The progress display is chosen here (reporting/progress.py keeps the state, cli/displays.py
draws it), notices become `note:`/`warning:` lines, the run's report becomes the summary, and
SIGINT/SIGTERM become a clean stop with one line (signals.py). stdout carries documents only
(StdoutGuard): standard input's translation is written there and nothing else is.
"""

from __future__ import annotations

from rich.console import Console

from .. import signals
from ..errors import ExitCode
from ..outputs.streams import StdoutGuard, message_stream
from ..reporting.progress import NoticeKind, ProgressTracker
from ..reporting.report import RunReport
from ..run.config import RunConfig
from ..settings import Settings
from .displays import JsonProgress, LiveProgress, NoDisplay, PlainProgress
from .summary import summarize, summarize_check, summarize_interrupted


def translate_command(settings: Settings, console: Console) -> ExitCode:
    config = RunConfig.of(settings)
    reporting = settings.reporting
    if reporting.check:
        return _check(config, console)
    from ..run.session import Extras, run_translation  # the pipeline, the engine: not for --check

    progress = _progress(settings, console)
    with signals.handling_signals():
        try:
            with StdoutGuard() as stdout:
                report = run_translation(config, progress, Extras(stdout=stdout.write, served=True))
        except signals.Interrupted as exc:
            assert isinstance(exc.report, RunReport)
            signals.reported(True)
            summarize_interrupted(
                exc.report, console, exc.name, kept=exc.report.memory_stored, report_path=reporting.report
            )
            return exc.exit_code
        finally:
            progress.close()
    # With --progress json, the `finished` event has the totals: no second summary.
    code = ExitCode(report.exit_code)
    summarize(
        report,
        console,
        dry_run=reporting.dry_run,
        quiet=reporting.quiet or reporting.progress == "json",
        verbose=reporting.verbose,
        strict=reporting.strict,
        code=code,
    )
    return code


def _check(config: RunConfig, console: Console) -> ExitCode:
    """--check: missing or stale outputs, listed; exit 5 when there is any."""
    from ..run.check_outputs import check_outputs

    result = check_outputs(config)
    for problem in result.problems:
        console.print(f"[red]error:[/] {_esc(problem.input)}: {_esc(problem.message)}")
    reporting = config.settings.reporting
    code = summarize_check(
        result.stale,
        result.edited,
        console,
        checked=result.checked,
        quiet=reporting.quiet,
        verbose=reporting.verbose,
        outdated=result.outdated,
    )
    if result.problems and code == ExitCode.OK:
        code = ExitCode.SOME_INPUTS_FAILED
    report = reporting.report
    if report is not None:
        engine = config.engine
        result.report(engine.runs.name, engine.reported_model, int(code)).write(report)
    return code


def _progress(settings: Settings, console: Console) -> ProgressTracker:
    reporting = settings.reporting
    mode: str = reporting.progress
    if mode == "auto":
        mode = "none" if reporting.quiet or reporting.dry_run else ("bar" if console.is_terminal else "plain")

    def notice(kind: NoticeKind, message: str) -> None:
        _NOTICES[kind](console, message)

    if mode == "json":
        stream = message_stream()
        return ProgressTracker(
            JsonProgress(lambda line: print(line, file=stream, flush=True)), tick=0.5, on_notice=notice
        )
    if mode == "bar":
        return ProgressTracker(LiveProgress(console), tick=0.5, on_notice=notice)
    if mode == "plain":
        return ProgressTracker(PlainProgress(console), tick=1.0, on_notice=notice)
    return ProgressTracker(NoDisplay(), on_notice=notice)


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


_NOTICES = {
    "info": lambda console, message: console.print(f"hymt: {message}", markup=False),
    "note": lambda console, message: console.print(f"note: {message}", markup=False),
    "warning": lambda console, message: console.print(f"[yellow]warning:[/] {_esc(message)}"),
    "engine": lambda console, message: console.print(f"  engine: {message}", markup=False),
    "hint": lambda console, message: console.print(f"  hint: {message}", markup=False),
}
