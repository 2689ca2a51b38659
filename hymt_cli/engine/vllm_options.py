"""The vLLM engine's own options (its registry entry brings them; the model's name, revision,
dtype and context length are run-wide: settings/_generation.py). The engine gets the record itself
(`EngineOptions.vllm`); an option declared `engine_arg=True` reaches `vllm.LLM(...)` under its
own name and `hymt serve-args` with no other edit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import UsageError
from ..options import Options, Panel, option, settings_of


@dataclass(frozen=True, slots=True)
class VllmOptions(Options):
    quantization: str | None = option(
        None,
        "--quantization",
        metavar="METHOD",
        engine_arg=True,
        panel=Panel.MODEL,
        help="vLLM quantization, e.g. fp8.",
    )
    gpu_memory_utilization: float | None = option(
        None,
        "--gpu-memory-utilization",
        metavar="SHARE",
        above=0.0,
        maximum=1.0,
        engine_arg=True,
        panel=Panel.MODEL,
        default_text="0.9 on a GPU; on CPU a KV cache size",
        help="vLLM memory share in (0, 1].",
    )
    tensor_parallel_size: int = option(
        1,
        "--tensor-parallel-size",
        metavar="N",
        minimum=1,
        engine_arg=True,
        panel=Panel.MODEL,
        help="GPUs per model (vLLM).",
    )
    gpus: str | None = option(
        None,
        "--gpus",
        metavar="IDS",
        panel=Panel.MODEL,
        default_text="every visible GPU",
        help="vLLM: the GPUs to use, as CUDA_VISIBLE_DEVICES names them (0,1).",
    )
    replicas: int | None = option(
        None,
        "--replicas",
        metavar="N",
        minimum=1,
        panel=Panel.MODEL,
        default_text="2 for a small model the memory holds, else 1",
        help="vLLM: engine processes per GPU (CPU: in all).",
    )
    sampler: Literal["auto", "topk-first", "vllm"] = option(
        "auto",
        "--sampler",
        panel=Panel.MODEL,
        default_text="auto: topk-first on a CPU or where engines share a GPU",
        help="vLLM: hymt's sampler (vLLM's distribution, top-k first) or vLLM's own.",
    )
    enforce_eager: bool = option(
        False,
        "--enforce-eager",
        off_flag="--no-enforce-eager",
        engine_arg=True,
        panel=Panel.MODEL,
        help="vLLM: no CUDA graphs (faster start, slower run).",
    )

    def validate(self) -> None:
        if self.gpus is not None and not self.gpu_list():
            raise UsageError("--gpus needs at least one GPU, e.g. --gpus 0,1")

    def llm_args(self) -> dict[str, object]:
        """The options declared `engine_arg` that are set: keyword arguments of `vllm.LLM`."""
        return {
            s.name: value
            for s in settings_of(VllmOptions)
            if s.declared.engine_arg and (value := getattr(self, s.name)) is not None
        }

    def gpu_list(self) -> tuple[str, ...] | None:
        """The GPUs named by --gpus; None: every visible GPU."""
        if self.gpus is None:
            return None
        return tuple(g.strip() for g in self.gpus.split(",") if g.strip())
