"""The vLLM engine's own options (its registry entry brings them; the model's name, revision,
dtype and context length are run-wide: settings/generation.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import UsageError
from ..options import Options, Panel, option
from .base import EngineOptions


@dataclass(frozen=True, slots=True)
class VllmOptions(Options):
    quantization: str | None = option(
        None, "--quantization", metavar="METHOD", panel=Panel.MODEL, help="vLLM quantization, e.g. fp8."
    )
    gpu_memory_utilization: float | None = option(
        None,
        "--gpu-memory-utilization",
        metavar="SHARE",
        above=0.0,
        maximum=1.0,
        panel=Panel.MODEL,
        default_text="0.9 on a GPU; on CPU a KV cache size",
        help="vLLM memory share in (0, 1].",
    )
    tensor_parallel_size: int = option(
        1, "--tensor-parallel-size", metavar="N", minimum=1, panel=Panel.MODEL, help="GPUs per model (vLLM)."
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
    enforce_eager: bool = option(
        False,
        "--enforce-eager",
        off_flag="--no-enforce-eager",
        panel=Panel.MODEL,
        help="vLLM: no CUDA graphs (faster start, slower run).",
    )

    def validate(self) -> None:
        if self.gpus is not None and not self.gpu_list():
            raise UsageError("--gpus needs at least one GPU, e.g. --gpus 0,1")

    def applied_to(self, options: EngineOptions) -> EngineOptions:
        """The run's engine options (model, dtype, context length...) with vLLM's own set: an
        option declared above reaches the engine here and nowhere else."""
        return replace(
            options,
            gpus=self.gpu_list(),
            replicas=self.replicas,
            gpu_memory_utilization=self.gpu_memory_utilization,
            tensor_parallel_size=self.tensor_parallel_size,
            quantization=self.quantization,
            enforce_eager=self.enforce_eager,
        )

    def gpu_list(self) -> tuple[str, ...] | None:
        """The GPUs named by --gpus; None: every visible GPU."""
        if self.gpus is None:
            return None
        return tuple(g.strip() for g in self.gpus.split(",") if g.strip())
