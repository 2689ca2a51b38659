"""The run-wide settings, each declared once (hymt_cli/options.py): inputs, languages, outputs,
model and engine choice, sampling, glossary and memory, reporting. Formats and engines declare
their own options beside them (formats/, engine/); settings/schema.py gathers them all."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..engine import ENGINES
from ..errors import UsageError
from ..formats import FORMATS, ContextMode
from ..model.prompts import CONTEXT_TOKENS
from ..options import Options, Panel, option
from ..qa import QaOptions
from ..text.languages import locale_table

DEFAULT_MODEL = "tencent/HY-MT1.5-1.8B"
Dtype = Literal["auto", "bfloat16", "float16", "float32", "half", "float"]
ProgressMode = Literal["auto", "bar", "plain", "json", "none"]
LocalePaths = Literal["existing", "exact"]


@dataclass(frozen=True, slots=True)
class InputSettings(Options):
    inputs: tuple[str, ...] = option(
        (),
        "inputs",
        argument=True,
        env=False,
        paths=True,
        metavar="INPUTS",
        panel=Panel.IO,
        default_text="inputs in hymt.toml",
        common=True,
        help="Files, folders, or - for standard input.",
    )
    format: str | None = option(
        None,
        "--format",
        metavar="FORMAT",
        per_path=True,
        panel=Panel.IO,
        common=True,
        help="Input format (default: by suffix): " + ", ".join(FORMATS) + ".",
    )
    include: tuple[str, ...] = option(
        (),
        "--include",
        metavar="GLOB",
        globs=True,
        env=False,
        panel=Panel.IO,
        common=True,
        help="In folders, only files matching GLOB (.gitignore syntax); repeatable.",
    )
    exclude: tuple[str, ...] = option(
        (),
        "--exclude",
        metavar="GLOB",
        globs=True,
        env=False,
        panel=Panel.IO,
        common=True,
        help="In folders, leave files and folders matching GLOB alone; repeatable.",
    )
    gitignore: bool = option(
        True,
        "--gitignore",
        off_flag="--no-gitignore",
        panel=Panel.IO,
        help="In folders, leave alone what git ignores (.gitignore files).",
    )
    source_suffix: str | None = option(
        None,
        "--source-suffix",
        metavar="LANG",
        panel=Panel.IO,
        default_text="--from's code",
        help="Names ending in this code are sources: index.en.md -> index.de.md.",
    )
    follow_symlinks: bool = option(
        False,
        "--follow-symlinks",
        off_flag="--no-follow-symlinks",
        panel=Panel.IO,
        help="Follow symbolic links that lead out of an input folder.",
    )

    def validate(self) -> None:
        if self.format is not None and self.format not in FORMATS:
            raise UsageError(f"unknown format {self.format!r}; choose one of {', '.join(FORMATS)}")


@dataclass(frozen=True, slots=True)
class LanguageSettings(Options):
    to: str = option(
        "",
        "--to",
        "-t",
        metavar="LANGS",
        comma_list=True,
        panel=Panel.IO,
        common=True,
        help="Target language(s) or locales, comma-separated: de,ja or pt-BR,zh_TW,es-419 (BCP 47 or "
        "POSIX; each is written by the HY-MT language of its language and script: pt-BR by pt).",
    )
    source: str = option(
        "auto",
        "--from",
        "-f",
        metavar="LANG",
        panel=Panel.IO,
        common=True,
        help="Source language, or auto (per segment).",
    )
    locales: tuple[str, ...] = option(
        (),
        "--locales",
        metavar="LOCALE=LANG",
        comma_list=True,
        pairs=True,
        panel=Panel.IO,
        help="Which HY-MT language writes a locale where CLDR's choice is not the one wanted: "
        "--locales zh-HK=yue (hymt.toml: a [locales] table).",
    )

    def validate(self) -> None:
        """Every entry is LOCALE=LANG with a HY-MT language; written the one way (`zh-HK=yue`)."""
        object.__setattr__(self, "locales", tuple(f"{k}={v}" for k, v in self.locale_table.items()))

    @property
    def locale_table(self) -> dict[str, str]:
        """{locale: HY-MT code} of --locales / [locales]."""
        return locale_table(self.locales)


@dataclass(frozen=True, slots=True)
class OutputSettings(Options):
    out: Path | None = option(
        None,
        "--out",
        "-o",
        metavar="DIR",
        panel=Panel.IO,
        common=True,
        help="Write DIR/<lang>/... (the same tree) instead of beside each input.",
    )
    overwrite: bool = option(
        False,
        "--overwrite",
        off_flag="--no-overwrite",
        panel=Panel.IO,
        help="Replace outputs hymt did not write (a person's, or edited since).",
    )
    keep_removed: bool = option(
        False,
        "--keep-removed",
        off_flag="--no-keep-removed",
        panel=Panel.IO,
        help="Merging into a string file: keep the keys its source no longer has.",
    )
    locale_paths: LocalePaths = option(
        "existing",
        "--locale-paths",
        panel=Panel.IO,
        help="existing: a target goes where the project keeps that locale in another spelling "
        "(locales/de_DE/ for --to de, values-pt-rBR/ for pt); exact: always the target's own name.",
    )

    @property
    def exact_locales(self) -> bool:
        return self.locale_paths == "exact"


@dataclass(frozen=True, slots=True)
class ModelSettings(Options):
    model: str | None = option(
        None,
        "--model",
        metavar="NAME|PATH",
        model_path=True,
        panel=Panel.MODEL,
        default_text=DEFAULT_MODEL,
        common=True,
        help="Hub model id or local folder.",
    )
    revision: str | None = option(
        None, "--revision", metavar="REV", panel=Panel.MODEL, help="Model revision (branch, tag, commit)."
    )
    engine: str = option(
        "vllm",
        "--engine",
        metavar="NAME",
        panel=Panel.MODEL,
        common=True,
        help="One of: " + ", ".join(ENGINES) + " (the README says what each is).",
    )
    engine_args: tuple[str, ...] = option(
        (),
        "--engine-arg",
        metavar="KEY=VALUE",
        pairs=True,
        env=False,
        panel=Panel.MODEL,
        help="An argument of vLLM's LLM(...), VALUE as JSON where it parses; repeatable.",
    )
    max_model_len: int | None = option(
        None,
        "--max-model-len",
        metavar="TOKENS",
        minimum=1,
        panel=Panel.MODEL,
        default_text=f"{CONTEXT_TOKENS} or the model's",
        help="Context per request (prompt + output).",
    )
    dtype: Dtype = option("auto", "--dtype", panel=Panel.MODEL, help="Weights dtype.")
    trust_remote_code: bool = option(
        False,
        "--trust-remote-code",
        off_flag="--no-trust-remote-code",
        panel=Panel.MODEL,
        help="Allow the model repo's own code.",
    )
    batch_tokens: int | None = option(
        None,
        "--batch-tokens",
        metavar="TOKENS",
        minimum=1,
        panel=Panel.MODEL,
        default_text="the engine's",
        help="Token budget per engine call.",
    )

    def validate(self) -> None:
        if self.engine not in ENGINES:
            raise UsageError(f"unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}")
        self.engine_arguments()

    def engine_arguments(self) -> dict[str, object]:
        """`--engine-arg KEY=VALUE` pairs; a VALUE that parses as JSON is that value (numbers,
        true/false, objects), anything else is a string: `max_num_seqs=2048`,
        `compilation_config={"mode": 0}`."""
        parsed: dict[str, object] = {}
        for pair in self.engine_args:
            key, sep, raw = pair.partition("=")
            key = key.strip()
            if not sep or not key.isidentifier():
                raise UsageError(f"--engine-arg must be KEY=VALUE with KEY a Python name, not {pair!r}")
            try:
                parsed[key] = json.loads(raw)
            except ValueError:
                parsed[key] = raw
        return parsed

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODEL


@dataclass(frozen=True, slots=True)
class SamplingSettings(Options):
    temperature: float = option(
        0.7,
        "--temperature",
        metavar="T",
        minimum=0.0,
        panel=Panel.SAMPLING,
        help="Sampling temperature, >= 0.",
    )
    top_p: float = option(
        0.6,
        "--top-p",
        metavar="P",
        above=0.0,
        maximum=1.0,
        panel=Panel.SAMPLING,
        help="Nucleus sampling, (0, 1].",
    )
    top_k: int = option(20, "--top-k", metavar="K", panel=Panel.SAMPLING, help="Top-k sampling (-1: off).")
    repetition_penalty: float = option(
        1.05,
        "--repetition-penalty",
        metavar="X",
        above=0.0,
        panel=Panel.SAMPLING,
        help="Repetition penalty, > 0.",
    )
    seed: int | None = option(
        None, "--seed", metavar="N", minimum=0, panel=Panel.SAMPLING, help="Sampling seed."
    )
    deterministic: bool = option(
        False,
        "--deterministic",
        off_flag="--sampled",
        panel=Panel.SAMPLING,
        help="Greedy decoding (temperature 0, seed 0): same input, same output.",
    )

    def validate(self) -> None:
        if self.top_k != -1 and self.top_k < 1:
            raise UsageError(f"--top-k must be -1 (off) or at least 1, not {self.top_k}")


@dataclass(frozen=True, slots=True)
class MemorySettings(Options):
    glossary: tuple[Path, ...] = option(
        (),
        "--glossary",
        metavar="FILE",
        panel=Panel.MEMORY,
        common=True,
        help="Terminology (.tsv, .csv, .json, .tbx), prompted and checked; repeatable.",
    )
    cache: Path | None = option(
        None,
        "--cache",
        metavar="FILE",
        panel=Panel.MEMORY,
        default_text="memory.sqlite3 in the user cache dir",
        help="Translation memory.",
    )
    no_cache: bool = option(
        False, "--no-cache", panel=Panel.MEMORY, help="Neither read nor write the memory."
    )
    context: ContextMode = option(
        "auto",
        "--context",
        panel=Panel.MEMORY,
        help="Tell the model what a text belongs to (a string's key, a row's context columns); "
        "auto: strings and tables.",
    )


@dataclass(frozen=True, slots=True)
class ReportSettings(Options):
    dry_run: bool = option(
        False,
        "--dry-run",
        panel=Panel.REPORTING,
        common=True,
        help="Plan only (files, segments, tokens): no engine, nothing written.",
    )
    check: bool = option(
        False,
        "--check",
        env=False,
        config=False,
        panel=Panel.REPORTING,
        common=True,
        help="Exit 5 listing outputs missing or stale; runs no engine (CI).",
    )
    prompts_out: Path | None = option(
        None, "--prompts-out", metavar="FILE", panel=Panel.REPORTING, help="Write every prompt as JSON lines."
    )
    report: Path | None = option(
        None,
        "--report",
        metavar="FILE",
        panel=Panel.REPORTING,
        common=True,
        help="Write the run report (JSON; schemas/report-3.schema.json).",
    )
    review: Path | None = option(
        None,
        "--review",
        metavar="FILE",
        panel=Panel.REPORTING,
        common=True,
        help="Write a review page: every segment's source, translation and findings (HTML).",
    )
    strict: bool = option(
        False,
        "--strict",
        off_flag="--no-strict",
        panel=Panel.REPORTING,
        common=True,
        help="Exit 4 on a missed glossary term or an untranslated segment (CI gate).",
    )
    progress: ProgressMode = option(
        "auto",
        "--progress",
        panel=Panel.REPORTING,
        help="bar on a terminal, plain lines otherwise; json: one event per line on stderr.",
    )
    log_file: Path | None = option(
        None,
        "--log-file",
        metavar="FILE",
        panel=Panel.REPORTING,
        default_text="a new file in the user cache dir",
        help="The engine's log (vLLM, torch).",
    )
    quiet: bool = option(
        False,
        "--quiet",
        "-q",
        panel=Panel.REPORTING,
        common=True,
        help="No progress or chatter; errors and warnings stay.",
    )
    verbose: bool = option(
        False,
        "--verbose",
        "-v",
        panel=Panel.REPORTING,
        common=True,
        help="More detail: skipped files, the engine log's path.",
    )

    def validate(self) -> None:
        if self.check and self.dry_run:
            raise UsageError("--check and --dry-run do not go together: --check already runs no engine")


RUN_GROUPS: tuple[type[Options], ...] = (
    LanguageSettings,
    InputSettings,
    OutputSettings,
    ModelSettings,
    SamplingSettings,
    MemorySettings,
    QaOptions,
    ReportSettings,
)
