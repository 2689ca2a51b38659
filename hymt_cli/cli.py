"""The command line: flags -> settings -> a command -> exit code. Thin on purpose.

Every command runs through `_run`, so errors look the same everywhere: one `error:` line (and a
`hint:`), the exit code of the error's kind; a traceback only with HYMT_DEBUG=1.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from rich.console import Console

from . import __version__
from .engine import ENGINES
from .errors import ExitCode, HymtError
from .formats import FORMAT_NAMES, text_format_names
from .output import stderr_console
from .settings import DEFAULT_MODEL, TranslateSettings

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Batch document translation with Tencent's HY-MT models on vLLM.")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hymt {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """hymt: translate files, folders and pipelines with HY-MT."""


# -- translate: one alias per option keeps the command's signature one line per flag -------------
Inputs = Annotated[list[str], typer.Argument(help="Files, folders, or - for standard input.", show_default=False)]
To = Annotated[str, typer.Option("--to", "-t", help="Target language code(s), comma-separated: en or de,ja.")]
From = Annotated[str, typer.Option("--from", "-f", help="Source language code, or auto.")]
Format = Annotated[Optional[str], typer.Option(
    "--format", help=f"Input format ({', '.join(FORMAT_NAMES)}); required for -, else by suffix.")]
SegmentBy = Annotated[str, typer.Option(help="txt: paragraph (blank-line separated) or line.")]
Out = Annotated[Optional[Path], typer.Option("--out", "-o", help="Write DIR/<lang>/<relative path> "
                                             "instead of <stem>.<lang><suffix> beside each input.")]
Overwrite = Annotated[bool, typer.Option("--overwrite", help="Replace existing outputs that hymt did not "
                                         "write (a person's translation, or hymt's output edited since).")]
Model = Annotated[Optional[str], typer.Option(help=f"Model name or local path [default: {DEFAULT_MODEL}].")]
Revision = Annotated[Optional[str], typer.Option(help="Model revision (branch, tag or commit).")]
EngineName = Annotated[str, typer.Option("--engine", help="Engine: " + "; ".join(
    f"{spec.name}: {spec.summary}" for spec in ENGINES.values()) + ".")]
EngineArgs = Annotated[Optional[list[str]], typer.Option(
    "--engine-arg", metavar="KEY=VALUE", help="Passed straight to the engine (vLLM's LLM(...)); VALUE is "
    "JSON where it parses, e.g. max_num_seqs=2048 or compilation_config='{\"mode\": 0}'. Repeatable.")]
Temperature = Annotated[float, typer.Option(help="Sampling temperature (HY-MT recommends 0.7).")]
TopP = Annotated[float, typer.Option(help="Nucleus sampling.")]
TopK = Annotated[int, typer.Option(help="Top-k sampling (-1: off).")]
RepetitionPenalty = Annotated[float, typer.Option(help="Repetition penalty.")]
Seed = Annotated[Optional[int], typer.Option(help="Sampling seed.")]
Deterministic = Annotated[bool, typer.Option(
    "--deterministic", help="Greedy decoding (temperature 0, seed 0): same input, same output.")]
MaxModelLen = Annotated[Optional[int], typer.Option(help="Context length per request (prompt + output).")]
Dtype = Annotated[str, typer.Option(help="Weights dtype: auto, bfloat16, float16, float32.")]
Quantization = Annotated[Optional[str], typer.Option(help="vLLM quantization, e.g. fp8 (FP8/GPTQ checkpoints).")]
GpuMemory = Annotated[Optional[float], typer.Option(
    help="vLLM memory share (GPU; on CPU: share of host RAM). Default: 0.9 GPU, 0.15 CPU.")]
TensorParallel = Annotated[int, typer.Option(help="GPUs per model (vLLM).")]
Gpus = Annotated[Optional[str], typer.Option(help="vLLM: the GPUs to use, as CUDA_VISIBLE_DEVICES names them "
                                             "(e.g. 0,1). Default: every visible GPU, one engine or more each.")]
Replicas = Annotated[Optional[int], typer.Option(help="vLLM: engine processes per GPU (CPU: in all). Default: "
                                                 "2 for a small model when the memory holds them, else 1.")]
EnforceEager = Annotated[bool, typer.Option(help="vLLM: no CUDA graphs (faster start, slower run).")]
TrustRemoteCode = Annotated[bool, typer.Option(help="Allow the model repo's own code.")]
BatchTokens = Annotated[Optional[int], typer.Option(
    help="Token budget (prompt + output) per engine call. Default: the engine's choice "
         "(vLLM on a GPU: whole jobs up to 8M tokens; otherwise 262144).")]
Columns = Annotated[Optional[str], typer.Option(
    help="parquet: string columns to translate, comma-separated (e.g. title,description).")]
AddColumns = Annotated[bool, typer.Option("--add-columns", help="parquet: keep the source columns and add "
                                          "<column>_<lang>.")]
CellFormat = Annotated[str, typer.Option(help=f"parquet: how a cell is parsed ({', '.join(text_format_names())}).")]
RowsPerBatch = Annotated[int, typer.Option(help="parquet: rows read, translated and written at a time "
                                           "(bounds memory).")]
Cache = Annotated[Optional[Path], typer.Option(
    help="Translation memory file [default: memory.sqlite3 in the user cache dir].")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the translation memory.")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Plan only: files, segments, tokens, prompts. "
                                      "Loads no engine, writes no document.")]
PromptsOut = Annotated[Optional[Path], typer.Option(help="Write every prompt as JSON lines to this file.")]
Report = Annotated[Optional[Path], typer.Option(help="Write the run report (JSON) to this file.")]
Glossary = Annotated[Optional[list[Path]], typer.Option(
    "--glossary", metavar="FILE", help="Terminology file (.tsv, .csv, .json, .tbx); repeatable. Matched terms "
    "go into the prompt and are checked in the output; empty targets are kept verbatim.")]
Strict = Annotated[bool, typer.Option("--strict", help="Exit 4 when a glossary term was missed or a "
                                      "segment stayed untranslated (CI gate).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings on stderr.")]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="More detail on stderr (engine logs).")]


@app.command()
def translate(
    inputs: Inputs, to: To, source_lang: From = "auto", format_name: Format = None,
    segment_by: SegmentBy = "paragraph", out: Out = None, overwrite: Overwrite = False, model: Model = None,
    revision: Revision = None, engine: EngineName = "vllm", engine_arg: EngineArgs = None,
    temperature: Temperature = 0.7, top_p: TopP = 0.6, top_k: TopK = 20, repetition_penalty: RepetitionPenalty = 1.05, seed: Seed = None,
    deterministic: Deterministic = False, max_model_len: MaxModelLen = None, dtype: Dtype = "auto",
    quantization: Quantization = None, gpu_memory_utilization: GpuMemory = None,
    tensor_parallel_size: TensorParallel = 1, gpus: Gpus = None, replicas: Replicas = None,
    enforce_eager: EnforceEager = False, trust_remote_code: TrustRemoteCode = False, batch_tokens: BatchTokens = None, columns: Columns = None,
    add_columns: AddColumns = False, cell_format: CellFormat = "txt", rows_per_batch: RowsPerBatch = 8192,
    cache: Cache = None, no_cache: NoCache = False, dry_run: DryRun = False, prompts_out: PromptsOut = None,
    report: Report = None, glossary: Glossary = None, strict: Strict = False, quiet: Quiet = False,
    verbose: Verbose = False,
) -> None:
    """Translate documents. Writes <stem>.<lang><suffix> beside each input, or to --out."""
    settings = TranslateSettings(
        inputs=tuple(inputs), to=to, source_lang=source_lang, format_name=format_name, segment_by=segment_by,
        out=out, overwrite=overwrite, model=model, revision=revision, engine=engine,
        engine_args=tuple(engine_arg or ()),
        max_model_len=max_model_len, dtype=dtype, quantization=quantization,
        gpu_memory_utilization=gpu_memory_utilization, tensor_parallel_size=tensor_parallel_size,
        gpus=gpus, replicas=replicas, enforce_eager=enforce_eager, trust_remote_code=trust_remote_code, batch_tokens=batch_tokens,
        temperature=temperature, top_p=top_p, top_k=top_k, repetition_penalty=repetition_penalty, seed=seed,
        deterministic=deterministic, columns=columns, add_columns=add_columns, cell_format=cell_format,
        rows_per_batch=rows_per_batch, glossary=tuple(glossary or ()), cache=cache, no_cache=no_cache,
        dry_run=dry_run, prompts_out=prompts_out, report=report, strict=strict, quiet=quiet, verbose=verbose)

    def command(console: Console) -> ExitCode:
        from .translate import translate as run_translation

        return run_translation(settings, console)

    _run(command)


# -- the translation memory ------------------------------------------------------------------
tm_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                     help="The translation memory: export for review, import reviewed translations.")
app.add_typer(tm_app, name="tm")
MemoryFile = Annotated[Optional[Path], typer.Option("--cache", help="Translation memory file "
                                                    "[default: user cache].")]


@tm_app.command("export")
def tm_export(
    format_name: Annotated[str, typer.Option("--format", help="tmx or jsonl.")] = "tmx",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Output file [default: stdout].")] = None,
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
    format_name: Annotated[Optional[str], typer.Option("--format", help="tmx or jsonl [default: by suffix].")] = None,
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
    except KeyboardInterrupt:
        console.print("[red]interrupted[/]: files already written are complete; no partial file was left")
        code = ExitCode.INTERRUPTED
    except Exception as exc:
        if os.environ.get("HYMT_DEBUG"):
            raise
        console.print(f"[red]error:[/] unexpected {type(exc).__name__}: {exc}")
        console.print("  hint: set HYMT_DEBUG=1 for the traceback")
        code = ExitCode.SOME_INPUTS_FAILED
    raise typer.Exit(int(code))


def print_error(console: Console, exc: HymtError) -> ExitCode:
    console.print(f"[red]error:[/] {exc.message}")
    if exc.hint:
        console.print(f"  hint: {exc.hint}")
    return exc.exit_code


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code instead of exiting (one sys.exit, in __main__)."""
    try:
        app(args=argv, prog_name="hymt", standalone_mode=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0

