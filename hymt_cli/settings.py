"""The settings of a translate run, as the user gave them, and what follows from them.

`TranslateSettings` is a frozen record of the flags; its methods check the values up front
(a usage error before anything is read or loaded) and derive the typed pieces the run is
built from: languages, sampling, engine options, per-format options.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

from .engine import ENGINES, EngineOptions, EngineSpec, Sampling, ServerOptions
from .engine.ray_engine import RayOptions
from .errors import UsageError
from .formats import FORMAT_NAMES, FormatSettings, ParquetOptions, TextOptions, text_format_names
from .languages import Language, language, parse_language_list

DEFAULT_MODEL = "tencent/HY-MT1.5-1.8B"
DTYPES = ("auto", "bfloat16", "float16", "float32", "half", "float")
PROGRESS_MODES = ("auto", "bar", "plain", "json", "none")


@dataclass(frozen=True, slots=True)
class TranslateSettings:
    inputs: tuple[str, ...] = ()
    to: str = ""
    source_lang: str = "auto"
    source_suffix: str | None = None  # index.en.md is a source (default: --from's code)
    format_name: str | None = None
    segment_by: str = "paragraph"
    out: Path | None = None
    follow_symlinks: bool = False
    overwrite: bool = False  # replace existing outputs hymt did not write
    # model and engine
    model: str | None = None
    revision: str | None = None
    engine: str = "vllm"
    engine_args: tuple[str, ...] = ()  # KEY=VALUE, VALUE as JSON where it parses
    max_model_len: int | None = None
    dtype: str = "auto"
    quantization: str | None = None
    gpu_memory_utilization: float | None = None
    tensor_parallel_size: int = 1
    gpus: str | None = None  # "0,1": as CUDA_VISIBLE_DEVICES names them; None: every visible GPU
    replicas: int | None = None  # engine processes per GPU; None: the tuning rule
    enforce_eager: bool = False
    trust_remote_code: bool = False
    batch_tokens: int | None = None
    # a served engine (--engine openai)
    base_url: str | None = None
    api_key_env: str | None = None  # the NAME of the variable holding the key, never the key
    concurrency: int = 2048  # prompts in flight (twice a server's max_num_seqs)
    request_timeout: float = 600.0  # seconds per HTTP request
    # Ray: the address of a cluster ("" = Ray's own choice: RAY_ADDRESS, a running local
    # cluster, else a new local instance); None = no Ray
    ray: str | None = None
    ray_workers: int | None = None  # engine workers (default: one per GPU of the cluster)
    # sampling
    temperature: float = 0.7
    top_p: float = 0.6
    top_k: int = 20
    repetition_penalty: float = 1.05
    seed: int | None = None
    deterministic: bool = False
    # parquet
    columns: str | None = None
    add_columns: bool = False
    cell_format: str = "txt"
    rows_per_batch: int = 8192
    # glossary, memory, reporting
    glossary: tuple[Path, ...] = ()
    cache: Path | None = None
    no_cache: bool = False
    dry_run: bool = False
    prompts_out: Path | None = None
    report: Path | None = None
    strict: bool = False
    check_only: bool = False  # --check: compare the outputs with what a run would write
    progress: str = "auto"  # auto | bar | plain | json | none
    log_file: Path | None = None  # the engine's log (default: a new file in the user cache dir)
    quiet: bool = False
    verbose: bool = False

    def check(self) -> None:
        """Every value that can be judged without reading an input; UsageError otherwise."""
        if not self.inputs:
            raise UsageError("no inputs: name files or folders (or - for standard input)",
                             hint="or set inputs = [\"docs\"] in hymt.toml")
        if not self.to.strip():
            raise UsageError("no target language: pass --to, e.g. --to de,ja", hint="or set to = \"de,ja\" in hymt.toml")
        self.targets()
        self.source()
        if self.source_suffix is not None:
            language(self.source_suffix)
        self.spec()
        self.format_settings()
        self.engine_options()
        self.sampling_values()
        self.server_options()
        self.check_ray()
        if self.format_name is not None and self.format_name not in FORMAT_NAMES:
            raise UsageError(f"unknown format {self.format_name!r}; choose one of {', '.join(FORMAT_NAMES)}")
        if self.progress not in PROGRESS_MODES:
            raise UsageError(f"--progress must be one of {', '.join(PROGRESS_MODES)}, not {self.progress!r}")
        if self.check_only and self.dry_run:
            raise UsageError("--check and --dry-run do not go together: --check already runs no engine")
        if "-" in self.inputs:
            self._check_stdin()

    def _check_stdin(self) -> None:
        if self.format_name is None:
            raise UsageError("reading standard input (-) needs --format, e.g. --format txt")
        if len(self.targets()) != 1:
            raise UsageError("standard input (-) goes to standard output: give exactly one --to language")
        if self.out is not None:
            raise UsageError("standard input (-) is translated to standard output; -o/--out does not apply",
                             hint="redirect standard output instead: ... > translated.txt")
        if self.check_only:
            raise UsageError("--check compares files on disk; standard input (-) has none")

    def sampling_values(self) -> None:
        """Sampling and engine numbers in their ranges (vLLM would fail late, or worse, accept)."""
        _in_range("--temperature", self.temperature, low=0.0)
        _in_range("--top-p", self.top_p, low=0.0, high=1.0, open_low=True)
        if self.top_k != -1 and self.top_k < 1:
            raise UsageError(f"--top-k must be -1 (off) or at least 1, not {self.top_k}")
        _in_range("--repetition-penalty", self.repetition_penalty, low=0.0, open_low=True)
        for flag, value in (("--seed", self.seed), ("--max-model-len", self.max_model_len),
                            ("--tensor-parallel-size", self.tensor_parallel_size),
                            ("--batch-tokens", self.batch_tokens)):
            if value is not None and value < (0 if flag == "--seed" else 1):
                raise UsageError(f"{flag} must be at least {0 if flag == '--seed' else 1}, not {value}")
        if self.gpu_memory_utilization is not None:
            _in_range("--gpu-memory-utilization", self.gpu_memory_utilization, low=0.0, high=1.0, open_low=True)
        if self.dtype not in DTYPES:
            raise UsageError(f"--dtype must be one of {', '.join(DTYPES)}, not {self.dtype!r}")

    def discovery_suffix(self) -> str | None:
        """The language code a source's name may carry: --source-suffix, else --from's."""
        if self.source_suffix is not None:
            return language(self.source_suffix).code
        source = self.source()
        return source.code if source is not None else None

    def targets(self) -> tuple[Language, ...]:
        return tuple(parse_language_list(self.to))

    def source(self) -> Language | None:
        """None: detect per segment (auto)."""
        return None if self.source_lang.strip().lower() == "auto" else language(self.source_lang)

    def spec(self) -> EngineSpec:
        spec = ENGINES.get(self.engine)
        if spec is None:
            raise UsageError(f"unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}")
        return spec

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODEL

    def uses_model(self) -> bool:
        """The run loads a model, or at least its tokenizer (a test engine given --model)."""
        return self.spec().needs_model or self.model is not None

    def sampling(self) -> Sampling:
        if self.deterministic:
            return Sampling.deterministic(self.seed or 0)
        return Sampling(self.temperature, self.top_p, self.top_k, self.repetition_penalty, self.seed)

    def engine_options(self) -> EngineOptions:
        extra = parse_engine_args(self.engine_args)
        if extra and not self.spec().takes_engine_args:
            raise UsageError(f"engine {self.engine!r} takes no --engine-arg")
        gpus = tuple(g.strip() for g in self.gpus.split(",") if g.strip()) if self.gpus is not None else None
        if gpus is not None and not gpus:
            raise UsageError("--gpus needs at least one GPU, e.g. --gpus 0,1")
        if self.replicas is not None and self.replicas < 1:
            raise UsageError("--replicas must be at least 1")
        return EngineOptions(model=self.model_name, revision=self.revision, gpus=gpus, replicas=self.replicas,
                             trust_remote_code=self.trust_remote_code, dtype=self.dtype,
                             max_model_len=self.max_model_len,
                             gpu_memory_utilization=self.gpu_memory_utilization,
                             tensor_parallel_size=self.tensor_parallel_size, quantization=self.quantization,
                             enforce_eager=self.enforce_eager, extra=extra)

    def server_options(self) -> ServerOptions | None:
        """Where a served engine's server is (None for the other engines). The API key is read
        from the variable `--api-key-env` names."""
        if not self.spec().served:
            if self.base_url is not None:
                raise UsageError(f"--base-url is for --engine openai, not --engine {self.engine}")
            return None
        if not self.base_url:
            raise UsageError(f"--engine {self.engine} needs --base-url, e.g. http://HOST:8000/v1")
        if not self.base_url.startswith(("http://", "https://")):
            raise UsageError(f"--base-url must start with http:// or https://, not {self.base_url!r}")
        if self.concurrency < 1:
            raise UsageError("--concurrency must be at least 1")
        if not self.request_timeout > 0:
            raise UsageError("--request-timeout must be more than 0 seconds")
        key = None
        if self.api_key_env is not None:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise UsageError(f"--api-key-env {self.api_key_env}: that environment variable is not set")
        return ServerOptions(self.base_url, model=self.model, api_key=key, concurrency=self.concurrency,
                             request_timeout=self.request_timeout)

    def check_ray(self) -> None:
        if self.ray is None:
            if self.ray_workers is not None:
                raise UsageError("--ray-workers needs --ray")
            return
        if self.spec().served:
            raise UsageError(f"--ray runs an engine on Ray workers; --engine {self.engine} sends to a server")
        if self.ray_workers is not None and self.ray_workers < 1:
            raise UsageError("--ray-workers must be at least 1")

    def ray_options(self) -> RayOptions:
        """How the engine runs on Ray: a GPU per worker (tensor-parallel: that many) for engines
        that load a model, when the cluster has GPUs."""
        spec = self.spec()
        return RayOptions(address=self.ray or "", workers=self.ray_workers,
                          gpus_per_worker=float(self.tensor_parallel_size) if spec.needs_model else 0.0)

    def format_settings(self) -> FormatSettings:
        if self.segment_by not in ("paragraph", "line"):
            raise UsageError(f"--segment-by must be paragraph or line, not {self.segment_by!r}")
        if self.cell_format not in text_format_names():
            raise UsageError(f"--cell-format must be one of {', '.join(text_format_names())}, "
                             f"not {self.cell_format!r}")
        if self.rows_per_batch < 1:
            raise UsageError("--rows-per-batch must be at least 1")
        columns = tuple(c.strip() for c in (self.columns or "").split(",") if c.strip())
        return {"txt": TextOptions(segment_by=self.segment_by),
                "parquet": ParquetOptions(columns=columns, add_columns=self.add_columns,
                                          cell_format=self.cell_format, rows_per_batch=self.rows_per_batch)}


def parse_engine_args(pairs: tuple[str, ...]) -> dict[str, object]:
    """`KEY=VALUE` pairs; a VALUE that parses as JSON is that value (numbers, true/false,
    objects), anything else is a string: `max_num_seqs=2048`, `compilation_config={"mode": 0}`."""
    parsed: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise UsageError(f"--engine-arg must be KEY=VALUE with KEY a Python name, not {pair!r}")
        try:
            parsed[key] = json.loads(raw)
        except ValueError:
            parsed[key] = raw
    return parsed


def _in_range(flag: str, value: float, *, low: float, high: float | None = None, open_low: bool = False) -> None:
    below = value <= low if open_low else value < low
    if math.isnan(value) or below or (high is not None and value > high) or math.isinf(value):
        bounds = (f"{'above' if open_low else 'at least'} {low:g}" if high is None
                  else f"in {'(' if open_low else '['}{low:g}, {high:g}]")
        raise UsageError(f"{flag} must be {bounds}, not {value:g}")
