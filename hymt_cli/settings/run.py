"""The run-wide settings, each declared once (hymt_cli/options.py): inputs, languages, outputs,
model and engine choice, sampling, glossary and memory, reporting. Formats and engines declare
their own options beside them (formats/, engine/); settings/schema.py gathers them all."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

from ..engine import ENGINES, Sampling
from ..errors import UsageError
from ..formats import FORMATS, ContextMode
from ..model.prompts import CONTEXT_TOKENS
from ..options import Options, Panel, option
from ..qa import QaOptions

DEFAULT_MODEL = "tencent/HY-MT1.5-1.8B"
Dtype = Literal["auto", "bfloat16", "float16", "float32", "half", "float"]
ProgressMode = Literal["auto", "bar", "plain", "json", "none"]


def _choices(names: object) -> str:
    return "[" + "|".join(str(n) for n in names) + "]"  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class InputSettings(Options):
    inputs: tuple[str, ...] = option(
        (),
        "inputs",
        argument=True,
        env=False,
        paths=True,
        metavar="INPUTS...",
        panel=Panel.IO,
        default_text="inputs in hymt.toml",
        help="Files, folders, or - for standard input.",
    )
    format: str | None = option(
        None,
        "--format",
        metavar=_choices(FORMATS),
        panel=Panel.IO,
        help="Input format; required for -, else by suffix.",
    )
    source_suffix: str | None = option(
        None,
        "--source-suffix",
        metavar="LANG",
        panel=Panel.IO,
        default_text="--from's code",
        help="Names ending in this language code are sources (mkdocs-i18n: index.en.md -> index.de.md).",
    )
    follow_symlinks: bool = option(
        False,
        "--follow-symlinks",
        off_flag="--no-follow-symlinks",
        panel=Panel.IO,
        help="Follow symbolic links that lead outside an input folder.",
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
        help="Target language code(s), comma-separated: en or de,ja.",
    )
    source: str = option(
        "auto", "--from", "-f", metavar="LANG", panel=Panel.IO, help="Source language code, or auto."
    )


@dataclass(frozen=True, slots=True)
class OutputSettings(Options):
    out: Path | None = option(
        None,
        "--out",
        "-o",
        metavar="DIR",
        panel=Panel.IO,
        help="Write DIR/<lang>/<relative path> instead of <stem>.<lang><suffix> beside each input.",
    )
    overwrite: bool = option(
        False,
        "--overwrite",
        off_flag="--no-overwrite",
        panel=Panel.IO,
        help="Replace existing outputs hymt did not write (a person's translation, or hymt's "
        "output edited since).",
    )


@dataclass(frozen=True, slots=True)
class ModelSettings(Options):
    model: str | None = option(
        None,
        "--model",
        metavar="NAME|PATH",
        model_path=True,
        panel=Panel.MODEL,
        default_text=DEFAULT_MODEL,
        help="Hub model id or local folder.",
    )
    revision: str | None = option(
        None, "--revision", metavar="REV", panel=Panel.MODEL, help="Model revision (branch, tag, commit)."
    )
    engine: str = option(
        "vllm",
        "--engine",
        metavar=_choices(ENGINES),
        panel=Panel.MODEL,
        help="; ".join(f"{s.name}: {s.summary}" for s in ENGINES.values()) + ".",
    )
    engine_args: tuple[str, ...] = option(
        (),
        "--engine-arg",
        metavar="KEY=VALUE",
        pairs=True,
        env=False,
        panel=Panel.MODEL,
        help="Passed to the engine (vLLM's LLM(...)); VALUE is JSON where it parses: max_num_seqs=2048. "
        "Repeatable.",
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


_RECOMMENDED = Sampling()  # HY-MT's model card: the defaults are the engine's own


@dataclass(frozen=True, slots=True)
class SamplingSettings(Options):
    """The run's sampling; `sampling()` is what the engine is given."""

    temperature: float = option(
        _RECOMMENDED.temperature,
        "--temperature",
        metavar="T",
        minimum=0.0,
        panel=Panel.SAMPLING,
        help="Sampling temperature, >= 0.",
    )
    top_p: float = option(
        _RECOMMENDED.top_p,
        "--top-p",
        metavar="P",
        above=0.0,
        maximum=1.0,
        panel=Panel.SAMPLING,
        help="Nucleus sampling, (0, 1].",
    )
    top_k: int = option(
        _RECOMMENDED.top_k, "--top-k", metavar="K", panel=Panel.SAMPLING, help="Top-k sampling (-1: off)."
    )
    repetition_penalty: float = option(
        _RECOMMENDED.repetition_penalty,
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

    def sampling(self) -> Sampling:
        """Greedy (`--deterministic`), or the settings of the same names."""
        if self.deterministic:
            return Sampling.deterministic(self.seed or 0)
        return Sampling(**{f.name: getattr(self, f.name) for f in fields(Sampling)})


@dataclass(frozen=True, slots=True)
class MemorySettings(Options):
    glossary: tuple[Path, ...] = option(
        (),
        "--glossary",
        metavar="FILE",
        panel=Panel.MEMORY,
        help="Terminology (.tsv, .csv, .json, .tbx); repeatable. Matched terms go into the prompt and are "
        "checked in the output.",
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
        help="Tell the model what each text belongs to, with HY-MT's context prompt (the context itself is "
        "never "
        "translated): a UI string's key and comment, a table row's --context-columns, a document's title "
        "and nearest heading. auto: where the file says it (strings, tables), not for documents.",
    )


@dataclass(frozen=True, slots=True)
class ReportSettings(Options):
    dry_run: bool = option(
        False,
        "--dry-run",
        panel=Panel.REPORTING,
        help="Plan only: files, segments, tokens, prompts. Loads no engine, writes no document.",
    )
    check: bool = option(
        False,
        "--check",
        env=False,
        config=False,
        panel=Panel.REPORTING,
        help="Exit 5 and list the outputs that are missing or stale (source, glossary, model, "
        "settings); runs no engine.",
    )
    prompts_out: Path | None = option(
        None, "--prompts-out", metavar="FILE", panel=Panel.REPORTING, help="Write every prompt as JSON lines."
    )
    report: Path | None = option(
        None,
        "--report",
        metavar="FILE",
        panel=Panel.REPORTING,
        help="Write the run report (JSON; schemas/report-3.schema.json).",
    )
    review: Path | None = option(
        None,
        "--review",
        metavar="FILE",
        panel=Panel.REPORTING,
        help="Write a review page: one self-contained HTML file with every segment's "
        "source and translation side by side, and what the checks found (opens "
        "offline, in any browser).",
    )
    strict: bool = option(
        False,
        "--strict",
        off_flag="--no-strict",
        panel=Panel.REPORTING,
        help="Exit 4 when a glossary term was missed or a segment stayed untranslated (CI gate). "
        "A QA error keeps the source, so it fails the run; QA warnings do not (make a check an "
        "error with --qa CHECK=error to gate on it).",
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
        help="No progress or chatter; errors, warnings and the reason for a failure stay.",
    )
    verbose: bool = option(
        False,
        "--verbose",
        "-v",
        panel=Panel.REPORTING,
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
