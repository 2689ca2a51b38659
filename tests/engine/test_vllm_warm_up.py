"""vLLM's start warms its sampler up with the run's own sampling, not every feature vLLM has:
on a machine without a kernel cache each feature's Triton kernels would be compiled then."""

from __future__ import annotations

import pytest

from hymt_cli.engine.base import GenerationRequest, Sampling
from hymt_cli.engine.vllm_arguments import request_params
from hymt_cli.engine.vllm_engine import sampler_warm_up_as

pytestmark = pytest.mark.vllm


def test_the_sampler_warms_up_with_the_runs_parameters_while_the_engine_starts() -> None:
    vllm = pytest.importorskip("vllm")
    everything = vllm.SamplingParams.for_sampler_warmup()
    assert everything.logprobs and everything.min_p > 0  # vLLM's: every feature, compiled at start
    ours = request_params(Sampling(), GenerationRequest("", (), 2), stop_ids=(7,))
    with sampler_warm_up_as(ours):
        warm = vllm.SamplingParams.for_sampler_warmup()
        assert (warm.temperature, warm.top_p, warm.top_k, warm.repetition_penalty) == (0.7, 0.6, 20, 1.05)
        assert warm.logprobs is None and warm.prompt_logprobs is None and not warm.min_p
        assert not warm.logit_bias and warm is not ours  # a copy each time: vLLM may change it
    assert vllm.SamplingParams.for_sampler_warmup().logprobs == everything.logprobs  # as it was
