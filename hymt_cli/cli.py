"""The command line: flags -> settings -> pipeline -> exit code. Thin on purpose."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import __version__
from .discovery import discover
from .engine import ENGINE_NAMES, MODEL_FREE_ENGINES, EngineOptions, Sampling, create_engine
from .errors import EngineUnavailable, ExitCode, HymtError, UsageError
from .formats import FORMAT_NAMES, ParquetOptions, TextOptions, text_format_names
from .language_check import wrong_script
from .languages import language, parse_language_list
from .output import StdoutGuard, stderr_console
from .pipeline import Pipeline, RunOptions
from .prompts import TEMPLATE_VERSION
from .progress import LiveProgress, PlainProgress
from .report import RunReport
from .tokenizer import ChatTemplateTokenizer, EstimatingTokenizer, PromptTokenizer

DEFAULT_MODEL = "tencent/HY-MT1.5-1.8B"

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


@app.command()
def translate(
    inputs: Annotated[list[str], typer.Argument(help="Files, folders, or - for standard input.",
                                                show_default=False)],
    to: Annotated[str, typer.Option("--to", "-t", help="Target language code(s), comma-separated: en or de,ja.")],
    source_lang: Annotated[str, typer.Option("--from", "-f", help="Source language code, or auto.")] = "auto",
    format_name: Annotated[Optional[str], typer.Option(
        "--format", help=f"Input format ({', '.join(FORMAT_NAMES)}); required for -, else by suffix.")] = None,
    segment_by: Annotated[str, typer.Option(help="txt: paragraph (blank-line separated) or line.")] = "paragraph",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write DIR/<lang>/<relative path> "
                                                "instead of <stem>.<lang><suffix> beside each input.")] = None,
    model: Annotated[Optional[str], typer.Option(help=f"Model name or local path [default: {DEFAULT_MODEL}].")] = None,
    revision: Annotated[Optional[str], typer.Option(help="Model revision (branch, tag or commit).")] = None,
    engine: Annotated[str, typer.Option(help=f"Engine: {', '.join(ENGINE_NAMES)}. pseudo and identity "
                                             "need no model (pipeline and layout tests).")] = "vllm",
    temperature: Annotated[float, typer.Option(help="Sampling temperature (HY-MT recommends 0.7).")] = 0.7,
    top_p: Annotated[float, typer.Option(help="Nucleus sampling.")] = 0.6,
    top_k: Annotated[int, typer.Option(help="Top-k sampling (-1: off).")] = 20,
    repetition_penalty: Annotated[float, typer.Option(help="Repetition penalty.")] = 1.05,
    seed: Annotated[Optional[int], typer.Option(help="Sampling seed.")] = None,
    deterministic: Annotated[bool, typer.Option(
        "--deterministic", help="Greedy decoding (temperature 0, seed 0): same input, same output.")] = False,
    max_model_len: Annotated[Optional[int], typer.Option(help="Context length per request (prompt + output).")] = None,
    dtype: Annotated[str, typer.Option(help="Weights dtype: auto, bfloat16, float16, float32.")] = "auto",
    quantization: Annotated[Optional[str], typer.Option(help="vLLM quantization, e.g. fp8 (FP8/GPTQ checkpoints).")] = None,
    gpu_memory_utilization: Annotated[Optional[float], typer.Option(
        help="vLLM memory share (GPU; on CPU: share of host RAM). Default: 0.9 GPU, 0.15 CPU.")] = None,
    tensor_parallel_size: Annotated[int, typer.Option(help="GPUs per model (vLLM).")] = 1,
    enforce_eager: Annotated[bool, typer.Option(help="vLLM: no CUDA graphs (faster start, slower run).")] = False,
    trust_remote_code: Annotated[bool, typer.Option(help="Allow the model repo's own code.")] = False,
    batch_tokens: Annotated[Optional[int], typer.Option(
        help="Token budget (prompt + output) per engine call. Default: the engine's choice "
             "(vLLM on a GPU: whole jobs up to 8M tokens; otherwise 262144).")] = None,
    columns: Annotated[Optional[str], typer.Option(
        help="parquet: string columns to translate, comma-separated (e.g. title,description).")] = None,
    add_columns: Annotated[bool, typer.Option(
        "--add-columns", help="parquet: keep the source columns and add <column>_<lang>.")] = False,
    cell_format: Annotated[str, typer.Option(help="parquet: how a cell is parsed (txt, or a markup "
                                             "format such as html/md).")] = "txt",
    rows_per_batch: Annotated[int, typer.Option(help="parquet: rows read, translated and written "
                                                "at a time (bounds memory).")] = 8192,
    cache: Annotated[Optional[Path], typer.Option(
        help="Translation memory file [default: memory.sqlite3 in the user cache dir].")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the translation "
                                           "memory.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Plan only: files, segments, tokens, prompts. "
                                          "Loads no engine, writes no document.")] = False,
    prompts_out: Annotated[Optional[Path], typer.Option(help="Write every prompt as JSON lines to this file.")] = None,
    report: Annotated[Optional[Path], typer.Option(help="Write the run report (JSON) to this file.")] = None,
    glossary: Annotated[Optional[list[Path]], typer.Option(
        "--glossary", metavar="FILE", help="Terminology file (.tsv, .csv, .json, .tbx); repeatable. Matched terms "
        "go into the prompt and are checked in the output; empty targets are kept verbatim.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 4 when a glossary term was missed or a "
                                         "segment stayed untranslated (CI gate).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings on stderr.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="More detail on stderr (engine logs).")] = False,
) -> None:
    """Translate documents. Writes <stem>.<lang><suffix> beside each input, or to --out."""
    console = stderr_console()
    try:
        targets = parse_language_list(to)
        source = None if source_lang.strip().lower() == "auto" else language(source_lang)
        if segment_by not in ("paragraph", "line"):
            raise UsageError(f"--segment-by must be paragraph or line, not {segment_by!r}")
        if engine not in ENGINE_NAMES:
            raise UsageError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINE_NAMES)}")
        if format_name is not None and format_name not in FORMAT_NAMES:
            raise UsageError(f"unknown format {format_name!r}; choose one of {', '.join(FORMAT_NAMES)}")
        if "-" in inputs:
            if format_name is None:
                raise UsageError("reading standard input (-) needs --format, e.g. --format txt")
            if len(targets) != 1:
                raise UsageError("standard input (-) goes to standard output: give exactly one --to language")
        sampling = (Sampling.deterministic(seed or 0) if deterministic else
                    Sampling(temperature, top_p, top_k, repetition_penalty, seed))
        options = EngineOptions(model=model or DEFAULT_MODEL, revision=revision,
                                trust_remote_code=trust_remote_code, dtype=dtype, max_model_len=max_model_len,
                                gpu_memory_utilization=gpu_memory_utilization,
                                tensor_parallel_size=tensor_parallel_size, quantization=quantization,
                                enforce_eager=enforce_eager)
        if not verbose:
            for variable in ("TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY"):
                os.environ.setdefault(variable, "error")
        if rows_per_batch < 1:
            raise UsageError("--rows-per-batch must be at least 1")
        if cell_format not in text_format_names():
            raise UsageError(f"--cell-format must be one of {', '.join(text_format_names())}, not {cell_format!r}")
        format_options = {
            "txt": TextOptions(segment_by=segment_by),
            "parquet": ParquetOptions(columns=tuple(c.strip() for c in (columns or "").split(",") if c.strip()),
                                      add_columns=add_columns, cell_format=cell_format,
                                      rows_per_batch=rows_per_batch)}
        sources, problems = discover(inputs, format_name=format_name, options=format_options)
        if not sources:
            for problem in problems:
                console.print(f"[red]error:[/] {problem.input}: {problem.message}")
            raise typer.Exit(ExitCode.SOME_INPUTS_FAILED)
        terms = None
        if glossary:
            from .glossary import load_glossaries

            terms = load_glossaries(glossary, source=source)
        tokenizer = _tokenizer(engine, model, options, dry_run=dry_run, console=console)
        _warn_if_random(options.model if (model or engine not in MODEL_FREE_ENGINES) else None, console)
        run_options = RunOptions(targets=tuple(targets), source=source, out_dir=out,
                                 context_tokens=max_model_len or 8192, batch_tokens=batch_tokens,
                                 dry_run=dry_run, prompts_out=prompts_out)
        progress = None if (quiet or dry_run) else (
            LiveProgress(console) if console.is_terminal else PlainProgress(console))
        memory = None if no_cache else _open_memory(
            cache, dry_run=dry_run, source=source, engine=engine, model=options.model,
            revision=revision, sampling=sampling, glossary_digest=terms.digest if terms else "")
        with StdoutGuard() as stdout:
            # Test engines (identity, pseudo) keep the source script on purpose.
            checks = () if engine in MODEL_FREE_ENGINES else (wrong_script,)
            pipeline = Pipeline(run_options, tokenizer,
                                lambda: create_engine(engine, options, sampling, verbose=verbose),
                                progress=progress, write_stdout=stdout.write, engine_name=engine,
                                model=options.model if engine not in MODEL_FREE_ENGINES or model else None,
                                validators=checks, glossary=terms, memory=memory)
            try:
                result = pipeline.run(sources)
            finally:
                if progress is not None:
                    progress.close()
                if memory is not None:
                    memory.close()
        if memory is not None and memory.store_error:
            console.print(f"[yellow]warning:[/] {memory.store_error}")
        for problem in problems:
            result.files.insert(0, _failed_input(problem.input, problem.message))
        if report is not None:
            result.write(report)
        _summarize(result, console, dry_run=dry_run, quiet=quiet)
        code = ExitCode.SOME_INPUTS_FAILED if result.files_failed else ExitCode.OK
        if code == ExitCode.OK and strict and not dry_run and (
                result.untranslated or (result.glossary is not None and result.glossary.missed)):
            code = ExitCode.QUALITY_CHECK_FAILED
    except HymtError as exc:
        code = _print_error(console, exc)
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


tm_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                     help="The translation memory: export for review, import reviewed translations.")
app.add_typer(tm_app, name="tm")


@tm_app.command("export")
def tm_export(
    format_name: Annotated[str, typer.Option("--format", help="tmx or jsonl.")] = "tmx",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Output file [default: stdout].")] = None,
    cache: Annotated[Optional[Path], typer.Option(help="Translation memory file [default: user cache].")] = None,
) -> None:
    """Write every entry of the translation memory as TMX or JSON lines."""
    console = stderr_console()
    from .cache import TranslationMemory, default_cache_path
    from .tm_exchange import FORMATS, export, export_to_file

    try:
        if format_name not in FORMATS:
            raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {format_name!r}")
        path = cache or default_cache_path()
        if not path.exists():
            raise UsageError(f"cache {path}: no translation memory there yet")
        with TranslationMemory.open(path, readonly=True) as memory:
            if out is None:
                with StdoutGuard() as stdout:
                    count = export(memory.entries(), format_name, _TextSink(stdout.write))
            else:
                count = export_to_file(memory.entries(), format_name, out)
        console.print(f"hymt tm: exported {count} entries")
        code = ExitCode.OK
    except HymtError as exc:
        code = _print_error(console, exc)
    raise typer.Exit(int(code))


@tm_app.command("import")
def tm_import(
    file: Annotated[Path, typer.Argument(help="A TMX or JSONL file (reviewed translations).")],
    format_name: Annotated[Optional[str], typer.Option("--format", help="tmx or jsonl [default: by suffix].")] = None,
    cache: Annotated[Optional[Path], typer.Option(help="Translation memory file [default: user cache].")] = None,
) -> None:
    """Import reviewed translations; from now on they win over model output."""
    console = stderr_console()
    from .cache import TranslationMemory, default_cache_path
    from .tm_exchange import read_entries

    try:
        result = read_entries(file, format_name)
        with TranslationMemory.open(cache or default_cache_path()) as memory:
            count = memory.import_entries(result.entries)
        skipped = f"; {result.describe_skipped()}" if result.skipped else ""
        console.print(f"hymt tm: imported {count} entries{skipped}", markup=False)
        code = ExitCode.OK
    except HymtError as exc:
        code = _print_error(console, exc)
    raise typer.Exit(int(code))


class _TextSink:
    """A text stream over the guarded stdout (export streams entries; nothing is buffered)."""

    def __init__(self, write_bytes) -> None:
        self._write = write_bytes

    def write(self, text: str) -> None:
        self._write(text.encode("utf-8"))


def _print_error(console, exc: HymtError) -> ExitCode:
    console.print(f"[red]error:[/] {exc.message}")
    if exc.hint:
        console.print(f"  hint: {exc.hint}")
    return exc.exit_code


def _tokenizer(engine: str, model: str | None, options: EngineOptions, *, dry_run: bool,
               console) -> PromptTokenizer:
    """The model's tokenizer; an estimate where no model is needed or only a plan is wanted."""
    if engine in MODEL_FREE_ENGINES and model is None:
        return EstimatingTokenizer()
    try:
        return ChatTemplateTokenizer.load(options.model, revision=options.revision,
                                          trust_remote_code=options.trust_remote_code)
    except EngineUnavailable as exc:
        if engine in MODEL_FREE_ENGINES or dry_run:
            console.print(f"[yellow]warning:[/] {exc.message}; token counts are estimates")
            return EstimatingTokenizer()
        raise


def _warn_if_random(model: str | None, console) -> None:
    from .tiny_model import has_random_weights

    if model and has_random_weights(model):
        console.print(f"[yellow]warning:[/] {model} is a random-weight test model: "
                      "its output is NOT a real translation (untranslatable output keeps the source)")


def _open_memory(path: Path | None, *, dry_run: bool, source, engine: str, model: str,
                 revision: str | None, sampling: Sampling, glossary_digest: str = ""):
    """The translation memory bound to this run's context (a dry run only reads it)."""
    from .cache import PipelineMemory, TranslationMemory, build_context, default_cache_path

    memory = TranslationMemory.open(path or default_cache_path(), readonly=dry_run)
    context = build_context(engine=engine, model=model, revision=revision, sampling=sampling,
                            template_version=TEMPLATE_VERSION, glossary_digest=glossary_digest,
                            model_free=engine in MODEL_FREE_ENGINES)
    return PipelineMemory(memory, context, source.code if source is not None else None)


def _failed_input(input_name: str, message: str):
    from .report import FileReport

    return FileReport(input_name, None, None, "failed", f"{input_name}: {message}")


def _summarize(result: RunReport, console, *, dry_run: bool, quiet: bool) -> None:
    for file in result.files:
        if file.status == "failed" and file.error:  # a file failing in every language: one line
            console.print(f"[red]error:[/] {file.error}")
    if quiet:
        return
    if dry_run:
        estimate = " (estimated)" if result.estimated_tokens else ""
        to_engine = result.unique_segments - result.cache_hits
        console.print(f"plan: {len({f.input for f in result.files if f.status != 'failed'})} file(s), "
                      f"{result.segments} segments, {result.unique_segments} unique requests, "
                      f"{result.prompt_tokens:,} prompt tokens{estimate}; to the engine: {to_engine} "
                      f"requests, {result.prompt_tokens - result.cache_hit_tokens:,} prompt tokens; "
                      f"from the memory: {result.cache_hits}; nothing written")
        return
    console.print(f"hymt: {result.files_ok} file(s) written, {result.files_failed} failed; "
                  f"{result.segments} segments, {result.engine_requests} engine requests, "
                  f"{result.cache_hits} from the memory, "
                  f"{result.output_tokens:,} output tokens in {result.seconds:.1f} s")
    if result.untranslated:
        console.print(f"[yellow]warning:[/] {result.untranslated} segment(s) failed validation and kept "
                      "their source text (details: --report FILE)")
    glossary = result.glossary
    if glossary is not None:
        console.print(f"glossary: {glossary.expected} term(s) expected, {glossary.found} found, "
                      f"{glossary.missed} missed")
        misses = [(f.input, m) for f in result.files if f.glossary is not None for m in f.glossary.misses]
        for name, miss in misses[:5]:
            console.print(f"[yellow]warning:[/] glossary miss: {name} segment {miss.segment} ({miss.lang}): "
                          f"{miss.term!r} should be {miss.expected!r}")
        if glossary.missed > 5:
            console.print(f"  ... {glossary.missed - 5} more (details: --report FILE)")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code instead of exiting (one sys.exit, in __main__)."""
    try:
        app(args=argv, prog_name="hymt", standalone_mode=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0
