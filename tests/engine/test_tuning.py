"""The tuning rule (engine/tuning.py) and how a run's vLLM engines are laid out over GPUs:
pure functions of a model's config and the GPUs' memory, no GPU needed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engines import with_vllm

from hymt_cli.engine import vllm_arguments, vllm_plan
from hymt_cli.engine.base import EngineOptions, Sampling
from hymt_cli.engine.tuning import GIB, Gpu, ModelShape, tune, visible_of
from hymt_cli.errors import EngineUnavailable

HYMT_18B = dict(
    hidden_size=2048,
    intermediate_size=6144,
    num_hidden_layers=32,
    num_attention_heads=16,
    num_key_value_heads=4,
    head_dim=128,
    vocab_size=120818,
    tie_word_embeddings=True,
    torch_dtype="bfloat16",
)
HYMT_7B = dict(
    HYMT_18B,
    hidden_size=4096,
    intermediate_size=14336,
    num_attention_heads=32,
    num_key_value_heads=8,
    vocab_size=128167,
)
H200 = Gpu("0", "NVIDIA H200", 143_771 << 20, 142_000 << 20, (9, 0))


def test_the_shape_comes_from_the_config() -> None:
    small, large = ModelShape.from_config(HYMT_18B), ModelShape.from_config(HYMT_7B)
    assert 1.7e9 < small.params < 1.9e9 and small.weight_bytes == 2 * small.params
    assert 7.0e9 < large.params < 7.8e9 and large.active_params == large.params
    assert small.kv_bytes_per_token == 64 << 10 and large.kv_bytes_per_token == 128 << 10
    assert small.small and not large.small
    fp8 = ModelShape.from_config(dict(HYMT_7B, quantization_config={"quant_method": "fp8"}))
    assert fp8.quantized and fp8.weight_bytes == fp8.params
    moe = ModelShape.from_config(dict(HYMT_18B, num_experts=64, moe_topk=8))
    assert moe.params > 5 * moe.active_params


def test_a_small_model_gets_big_batches_and_two_engines_per_gpu() -> None:
    small = tune(ModelShape.from_config(HYMT_18B), H200)
    assert (
        small.replicas_per_gpu,
        small.max_num_seqs,
        small.max_num_batched_tokens,
        small.cudagraph_capture_size,
    ) == (2, 2048, 32768, 2048)
    assert 0.43 <= small.gpu_memory_utilization <= 0.45
    # the rest of an engine's share (weights and activations off) is its KV cache
    share = small.gpu_memory_utilization * H200.total_bytes
    assert 50 * GIB < small.kv_cache_bytes < share - 3.3 * GIB
    kwargs = small.llm_kwargs()
    assert kwargs["kv_cache_memory_bytes"] == small.kv_cache_bytes
    assert kwargs["enable_prefix_caching"] is True
    graphs = kwargs["compilation_config"]
    assert (graphs["mode"], graphs["cudagraph_mode"], graphs["max_cudagraph_capture_size"]) == (
        3,
        "FULL_AND_PIECEWISE",
        2048,
    )
    sizes = graphs["cudagraph_capture_sizes"]
    # few graphs (each costs start-up time); a padded step wastes at most a third of its rows
    assert sizes == sorted(set(sizes)) and sizes[0] == 1 and sizes[-1] == 2048 and len(sizes) <= 30
    assert all(b - a <= max(8, a // 2) for a, b in zip(sizes, sizes[1:]))
    large = tune(ModelShape.from_config(HYMT_7B), H200)
    assert (large.replicas_per_gpu, large.max_num_seqs) == (1, 1024) and large.gpu_memory_utilization >= 0.88
    assert large.kv_cache_bytes is None and "kv_cache_memory_bytes" not in large.llm_kwargs()  # vLLM profiles


def test_an_80_gb_card_holds_two_engines_of_2048_sequences() -> None:
    """KV for the lengths a running translation request holds (tuning.KV_TOKENS_PER_SEQ): on an
    H100 80GB two engines of 2048 sequences each (measured: 1.51x one engine, host-bound)."""
    h100 = Gpu("0", "NVIDIA H100 80GB HBM3", 81_559 << 20, 81_000 << 20, (9, 0))
    tuned = tune(ModelShape.from_config(HYMT_18B), h100)
    assert (tuned.replicas_per_gpu, tuned.max_num_seqs) == (2, 2048)
    assert tuned.kv_cache_bytes is not None and tuned.kv_cache_bytes > 2048 * 160 * (64 << 10)
    a40 = Gpu("0", "NVIDIA A40", 46_068 << 20, 45_000 << 20, (8, 6))
    assert (tune(ModelShape.from_config(HYMT_18B), a40).replicas_per_gpu, tuned.max_num_seqs) == (1, 2048)


def test_fp8_weights_where_they_won_and_nowhere_else() -> None:
    """FP8 weights for a 7B-class model on a GPU with FP8 (measured: +22% end to end on an H200);
    not for the 1.8B shape (nothing gained), not before Hopper/Ada, not for a checkpoint quantized
    already; never an FP8 KV cache (it fails with this model on vLLM 0.26)."""
    large, small = ModelShape.from_config(HYMT_7B), ModelShape.from_config(HYMT_18B)
    chosen = tune(large, H200)
    assert (chosen.quantization, chosen.kv_cache_dtype) == ("fp8", None)
    assert chosen.llm_kwargs()["quantization"] == "fp8" and "kv_cache_dtype" not in chosen.llm_kwargs()
    assert tune(small, H200).quantization is None
    a100 = Gpu("0", "NVIDIA A100-SXM4-80GB", 81_920 << 20, 80_000 << 20, (8, 0))
    assert tune(large, a100).quantization is None
    assert tune(large, replace(H200, capability=None)).quantization is None  # unknown: no FP8
    quantized = ModelShape.from_config(dict(HYMT_7B, quantization_config={"quant_method": "awq"}))
    assert tune(quantized, H200).quantization is None
    # the user's word wins: --quantization, or --engine-arg quantization=null for bf16
    bf16 = EngineOptions(model="m", extra={"quantization": None})
    kwargs = vllm_arguments.llm_kwargs(bf16, Sampling(), on_cpu=False, tuning=chosen)
    assert kwargs["quantization"] is None
    awq = vllm_arguments.llm_kwargs(
        with_vllm(replace(bf16, extra={}), quantization="awq"), Sampling(), on_cpu=False, tuning=chosen
    )
    assert awq["quantization"] == "awq"


def test_memory_decides_how_many_engines_and_sequences() -> None:
    small = ModelShape.from_config(HYMT_18B)
    l4 = Gpu("0", "NVIDIA L4", 24 * GIB, 22 * GIB)
    assert tune(small, l4).replicas_per_gpu == 1
    busy = replace(H200, free_bytes=40 * GIB)  # others use the card: shares of what is free
    tuned = tune(small, busy)
    assert tuned.replicas_per_gpu == 1 and tuned.gpu_memory_utilization == pytest.approx(0.25, abs=0.01)
    tiny_card = Gpu("0", "small", 12 * GIB, 12 * GIB)
    assert tune(ModelShape.from_config(HYMT_7B), tiny_card).max_num_seqs == 128  # as low as it goes


def test_the_user_decides_over_the_rule() -> None:
    small = ModelShape.from_config(HYMT_18B)
    assert tune(small, H200, replicas=3).replicas_per_gpu == 3
    assert tune(small, H200, fixed={"gpu_memory_utilization": 0.5}).replicas_per_gpu == 1
    assert tune(None, H200).max_num_seqs == 2048  # unknown shape: the small-model settings, no memory check


def test_engine_arguments_override_the_tuning(tiny_engine_options: EngineOptions) -> None:
    tuning = tune(ModelShape.from_config(HYMT_18B), H200)
    plain = with_vllm(tiny_engine_options, enforce_eager=False)
    kwargs = vllm_arguments.llm_kwargs(plain, Sampling(), on_cpu=False, tuning=tuning)
    assert (kwargs["max_num_seqs"], kwargs["gpu_memory_utilization"]) == (2048, tuning.gpu_memory_utilization)
    chosen = replace(
        plain, extra={"max_num_seqs": 512, "max_num_batched_tokens": 4096, "kv_cache_dtype": "fp8"}
    )
    kwargs = vllm_arguments.llm_kwargs(chosen, Sampling(), on_cpu=False, tuning=tuning)
    assert (kwargs["max_num_seqs"], kwargs["max_num_batched_tokens"], kwargs["kv_cache_dtype"]) == (
        512,
        4096,
        "fp8",
    )
    graphs = kwargs["compilation_config"]  # graphs follow the batch
    assert graphs["max_cudagraph_capture_size"] == graphs["cudagraph_capture_sizes"][-1] == 512
    own = replace(plain, extra={"compilation_config": {"mode": 3}})
    assert vllm_arguments.llm_kwargs(own, Sampling(), on_cpu=False, tuning=tuning)["compilation_config"] == {
        "mode": 3
    }
    eager = vllm_arguments.llm_kwargs(
        with_vllm(plain, enforce_eager=True, quantization="awq"),
        Sampling(),
        on_cpu=False,
        tuning=replace(tuning, quantization="fp8"),
    )
    assert "compilation_config" not in eager and eager["quantization"] == "awq"
    cpu = vllm_arguments.llm_kwargs(plain, Sampling(), on_cpu=True, tuning=None)
    assert "max_num_seqs" not in cpu and "compilation_config" not in cpu


def test_cuda_visible_devices_names_the_gpus() -> None:
    gpus = [Gpu(str(i), "H200", 1, 1, uuid=f"GPU-{i}aaaa") for i in range(4)]
    assert [g.device for g in visible_of(gpus, None)] == ["0", "1", "2", "3"]
    assert [(g.device, g.uuid) for g in visible_of(gpus, "2,0")] == [("2", "GPU-2aaaa"), ("0", "GPU-0aaaa")]
    assert [g.device for g in visible_of(gpus, "GPU-3a,7,1")] == ["GPU-3a"]  # CUDA stops at a bad entry
    assert visible_of(gpus, "") == []


def test_every_gpu_gets_its_engines(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    (tmp_path / "config.json").write_text(__import__("json").dumps(HYMT_18B))
    monkeypatch.setattr(vllm_plan, "visible_gpus", lambda: [replace(H200, device=str(i)) for i in range(2)])
    options = EngineOptions(model=str(tmp_path))
    plan = vllm_plan.plan_vllm(options)
    # every engine starts at once: those sharing a GPU have their KV caches sized by the rule
    assert plan.tuning is not None and plan.tuning.kv_cache_bytes is not None
    assert [(s.label, s.env["CUDA_VISIBLE_DEVICES"], s.after) for s in plan.slots] == [
        ("GPU 0 #1", "0", None),
        ("GPU 0 #2", "0", None),
        ("GPU 1 #1", "1", None),
        ("GPU 1 #2", "1", None),
    ]
    # no shape, no KV cache size: each would measure the memory the other takes; one after another
    (tmp_path / "config.json").write_text("{}")
    assert [s.after for s in vllm_plan.plan_vllm(with_vllm(options, replicas=2)).slots] == [None, 0, None, 2]
    sized = replace(with_vllm(options, replicas=2), extra={"kv_cache_memory_bytes": 20 << 30})  # the user's
    assert [s.after for s in vllm_plan.plan_vllm(sized).slots] == [None, None, None, None]
    staggered = vllm_plan.plan_vllm(sized, start_together=False)  # the bench's staggered variant
    assert [s.after for s in staggered.slots] == [None, 0, None, 2]
    (tmp_path / "config.json").write_text(__import__("json").dumps(HYMT_18B))
    one = vllm_plan.plan_vllm(with_vllm(options, gpus="1", replicas=1))
    assert one.slots == () and one.devices == "1" and one.tuning is not None
    assert [s.label for s in vllm_plan.plan_vllm(with_vllm(options, replicas=1)).slots] == ["GPU 0", "GPU 1"]
    pairs = vllm_plan.plan_vllm(with_vllm(options, tensor_parallel_size=2)).slots
    assert [(s.label, s.env["CUDA_VISIBLE_DEVICES"]) for s in pairs] == []  # one engine over both GPUs
    with pytest.raises(EngineUnavailable, match="no GPU 5"):
        vllm_plan.plan_vllm(with_vllm(options, gpus="5"))


def test_a_cpu_machine_runs_the_replicas_it_is_asked_for(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(vllm_plan, "visible_gpus", lambda: [])
    options = EngineOptions(model=str(tmp_path))
    assert vllm_plan.plan_vllm(options) == vllm_plan.VllmPlan(None)
    plan = vllm_plan.plan_vllm(with_vllm(options, replicas=2))
    assert plan.tuning is None and [(s.label, s.after) for s in plan.slots] == [
        ("engine 1", None),
        ("engine 2", None),
    ]


def test_gpus_are_read_from_nvml_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from hymt_cli.engine.tuning import visible_gpus

    class Memory:
        total, free = 143_771 << 20, 140_000 << 20

    fake = types.SimpleNamespace(
        nvmlInit=lambda: None,
        nvmlShutdown=lambda: None,
        nvmlDeviceGetCount=lambda: 2,
        nvmlDeviceGetHandleByIndex=lambda i: i,
        nvmlDeviceGetMemoryInfo=lambda h: Memory(),
        nvmlDeviceGetName=lambda h: b"NVIDIA H200",
        nvmlDeviceGetUUID=lambda h: f"GPU-{h}abc",
        nvmlDeviceGetCudaComputeCapability=lambda h: (9, 0),
    )
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    gpus = visible_gpus()
    assert [(g.device, g.name, g.capability, g.uuid) for g in gpus] == [
        ("0", "NVIDIA H200", (9, 0), "GPU-0abc"),
        ("1", "NVIDIA H200", (9, 0), "GPU-1abc"),
    ]
    assert gpus[0].free_bytes == Memory.free
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    assert [g.device for g in visible_gpus()] == ["1"]

    def no_driver() -> None:
        raise RuntimeError("NVML Shared Library Not Found")

    monkeypatch.setattr(fake, "nvmlInit", no_driver)
    assert visible_gpus() == []


def test_gpus_and_replicas_flags_become_engine_options() -> None:
    from hymt_cli.errors import UsageError
    from hymt_cli.run.config import engine_options
    from hymt_cli.settings import Settings

    options = engine_options(Settings.build(gpus=" 0, 2", replicas=3))
    assert options.vllm_options().gpu_list() == ("0", "2") and options.vllm_options().replicas == 3
    assert engine_options(Settings.build()).vllm_options().gpu_list() is None
    with pytest.raises(UsageError, match="--gpus needs at least one GPU"):
        Settings.build(gpus=",")
    with pytest.raises(UsageError, match="--replicas must be at least 1"):
        Settings.build(replicas=0)


def test_finding_the_gpus_imports_neither_vllm_nor_torch() -> None:
    """The process that plans the engines reads NVML through vLLM's own copy of the binding,
    loaded from its file: importing `vllm.third_party` would run vLLM's package and import torch
    (seconds of a cold start, beside the engine processes importing the same)."""
    import subprocess
    import sys

    probe = (
        "import sys; from hymt_cli.engine.tuning import visible_gpus; visible_gpus(); "
        "print(sorted(m for m in ('vllm', 'torch', 'transformers') if m in sys.modules), "
        "'hymt_vllm_pynvml' in sys.modules or 'pynvml' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[] True", done.stdout + done.stderr  # a binding was loaded


def test_the_engine_says_which_weights_it_loads() -> None:
    from hymt_cli.engine.vllm_engine import weights_of

    assert weights_of({"dtype": "bfloat16"}) == "bfloat16 weights"
    assert weights_of({"dtype": "bfloat16", "quantization": "fp8"}).startswith(
        "fp8 weights, quantized as they load"
    )
    assert weights_of({"dtype": "auto", "quantization": None}) == "weights as the checkpoint has them"
