#!/usr/bin/env bash
# FP8 on the 7B shape, in the same GPU-machine call after bench/device-run.sh (vLLM and the
# wheels installed): bare vLLM with hymt's 7B settings in bf16, with FP8 weights (vLLM's
# online quantization of the bf16 checkpoint), with an FP8 KV cache, and both. Random
# weights: speed only, nothing about translation quality. Run from the tree's root:
#     VL=../.vl bash bench/device-fp8.sh --deadline 200
set -uo pipefail
export PYTHONUNBUFFERED=1 VLLM_LOGGING_LEVEL=${VLLM_LOGGING_LEVEL:-INFO}
VL=${VL:-.vl}; OUTDIR=${OUT:-/tmp/bench-out}; mkdir -p "$OUTDIR"
MODEL=/tmp/hymt-7b-random
X=$(bash "$VL/install-vllm.sh") || { echo "vLLM install failed"; exit 1; }
eval "$X"
export PYTHONPATH=/tmp/site:$PYTHONPATH
t=$SECONDS
[ -f "$MODEL/config.json" ] || python3 "$VL/make-random-hymt.py" --preset 7b --out "$MODEL" > "$OUTDIR/make-7b.log" 2>&1
echo "STEP make-model 7b: $((SECONDS - t)) s"
python3 bench/run.py --preset 7b --model "$MODEL" --work /tmp/bench-7b --json "$OUTDIR/results-7b.json" \
  --contenders vllm --variants '{"7b fp8 weights": {"_hymt": true, "quantization": "fp8"},
  "7b fp8 kv cache": {"_hymt": true, "kv_cache_dtype": "fp8"},
  "7b fp8 both": {"_hymt": true, "quantization": "fp8", "kv_cache_dtype": "fp8"}}' "$@" > "$OUTDIR/bench-7b.log" 2>&1
rc=$?
grep -avE ' INFO |^\(EngineCore|^\(Worker|Loading safetensors|it/s\]|^$|Capturing CUDA' "$OUTDIR/bench-7b.log" | tail -25
exit $rc
