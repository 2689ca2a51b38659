"""The settings of generation, each declared once (hymt_cli/options.py): which model, the engine
that runs it and how, and how it samples."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Literal

from ..engine import ENGINES, Sampling
from ..errors import UsageError
from ..model.prompts import CONTEXT_TOKENS
from ..options import Options, Panel, option

DEFAULT_MODEL = "tencent/HY-MT1.5-1.8B"
Dtype = Literal["auto", "bfloat16", "float16", "float32", "half", "float"]


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
