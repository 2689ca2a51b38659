#!/usr/bin/env bash
# One GPU-machine call: vLLM 0.26 from the carried archive, hymt's missing wheels, the random
# HY-MT model, then bench/run.py with the arguments given. Run from the tree's root:
#     VL=../.vl WHL=../.whl bash bench/device-run.sh --preset 1.8b --contenders hymt,vllm-oob,hf
# VL: the folder with install-vllm.sh, make-random-hymt.py and the archive (../shared/gpu/README.md);
# WHL: wheels of hymt's dependencies the machine lacks (pyahocorasick, mdit-py-plugins);
# PRESET (1.8b | 7b); results and logs go to $OUT (or /tmp/bench-out).
set -uo pipefail
export PYTHONUNBUFFERED=1 VLLM_LOGGING_LEVEL=${VLLM_LOGGING_LEVEL:-INFO}
VL=${VL:-.vl}; WHL=${WHL:-.whl}; PRESET=${PRESET:-1.8b}
OUTDIR=${OUT:-/tmp/bench-out}; mkdir -p "$OUTDIR"
MODEL=/tmp/hymt-$PRESET-random
nvidia-smi --query-gpu=name,memory.used,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
t=$SECONDS
X=$(bash "$VL/install-vllm.sh") || { echo "vLLM install failed"; exit 1; }
eval "$X"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$WHL"/*.whl \
  || { echo "wheel install failed"; exit 1; }
export PYTHONPATH=/tmp/site:$PYTHONPATH
echo "STEP install: $((SECONDS - t)) s"
t=$SECONDS
if [ ! -f "$MODEL/config.json" ]; then
  python3 "$VL/make-random-hymt.py" --preset "$PRESET" --out "$MODEL" 2>&1 | grep -v '^Writing\|Loading' | tee "$OUTDIR/make-$PRESET.log"
fi
echo "STEP make-model: $((SECONDS - t)) s"
python3 bench/run.py --preset "$PRESET" --model "$MODEL" --work /tmp/bench-work --json "$OUTDIR/results.json" "$@" \
  > "$OUTDIR/bench.log" 2>&1
rc=$?
grep -avE ' INFO |^\(EngineCore|^\(Worker|Loading safetensors|it/s\]|^$|Capturing CUDA' "$OUTDIR/bench.log" | tail -45

exit $rc
