"""Every option of `hymt translate` (and `hymt config`, `hymt serve-args`) as an `Annotated`
alias: its flags, help, help panel and value name. Options default to None: a flag the user
did not give leaves the value to the environment, the config file or the default (config.py)."""
from __future__ import annotations

from dataclasses import MISSING, fields
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .engine import ENGINES
from .formats import FORMAT_NAMES, text_format_names
from .settings import DEFAULT_MODEL, DTYPES, PROGRESS_MODES, TranslateSettings

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
