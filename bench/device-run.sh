#!/usr/bin/env bash
# One GPU-machine call: vLLM 0.26 from the carried archive, hymt's missing wheels, the random
# HY-MT model, then bench/run.py with the arguments given. Run from the tree's root:
#     VL=../.vl WHL=.whl bash bench/device-run.sh --contenders hymt,vllm-oob --trace
# VL: the folder with install-vllm.sh, make-random-hymt.py and the archive (../shared/gpu/README.md);
# WHL: wheels of hymt's dependencies the machine lacks (pyahocorasick, mdit-py-plugins, webencodings,
# platformdirs); PRESET (1.8b | 7b); MODEL_CFG: a .tar.xz of model folders without weights
# (config and tokenizer: vLLM's load_format=dummy), unpacked under /tmp; BENCH_LIMIT: seconds
# for bench/run.py (then this script still packs what it has); PRE_BENCH: a command run once
# everything is installed, before bench/run.py (e.g. bench/cli_cold.py: the only run that
# finds a fresh machine's disk caches cold). Results, logs, step traces and vLLM's kernel
# caches go to $OUT (or /tmp/bench-out). SITE_TARS: .tar.xz files of packages unpacked into the
# same folder as the wheels (e.g. babel, whose wheel is too big to carry beside the archive).
#
# vLLM's .py files are compiled to bytecode at install time, as `pip install` does (the archive
# carries none): in the background, while the model is built, so a fresh machine's first import
# is what a pip-installed vLLM's would be.
set -uo pipefail
export PYTHONUNBUFFERED=1 VLLM_LOGGING_LEVEL=${VLLM_LOGGING_LEVEL:-INFO}
VL=${VL:-.vl}; WHL=${WHL:-.whl}; PRESET=${PRESET:-1.8b}; BENCH_LIMIT=${BENCH_LIMIT:-540}
OUTDIR=${OUT:-/tmp/bench-out}; mkdir -p "$OUTDIR"
MODEL=${MODEL:-/tmp/hymt-$PRESET-random}
nvidia-smi --query-gpu=name,memory.used,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "cores: $(nproc), cache: $(du -sh ~/.cache/vllm 2>/dev/null | cut -f1)"
# the host: its CPU, and one core's Python speed (the engine's scheduler and sampler run there),
# fastest and slowest of five loops: on one machine a single loop read 0.15 s and 0.28 s ten minutes
# apart (issue 37, eighth session), so the spread says whether the host is steady
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), python loop: $(python3 -c 'import time
def loop():
    t = time.perf_counter(); sum(i * i for i in range(3_000_000)); return time.perf_counter() - t
runs = sorted(loop() for _ in range(5)); print(f"{runs[0]:.3f} s (slowest of five {runs[-1]:.3f} s)")'), load: $(cut -d" " -f1-3 /proc/loadavg)"
t=$SECONDS
X=$(bash "$VL/install-vllm.sh") || { echo "vLLM install failed"; exit 1; }
eval "$X"
SITE=${VLLM_SITE:-/tmp/vllm-site}
if [ ! -f "$SITE/.compiled" ]; then
  ( python3 -m compileall -q -j 8 "$SITE" > /dev/null 2>&1; touch "$SITE/.compiled" ) &
  COMPILE=$!
fi
python3 -m pip install -q --no-index --no-deps --no-cache-dir --upgrade --target /tmp/site "$WHL"/*.whl \
  || { echo "wheel install failed"; exit 1; }
for tarball in ${SITE_TARS:-}; do tar -C /tmp/site -xJf "$tarball"; done  # packages carried unpacked (babel)
python3 -m compileall -q -j 8 /tmp/site > /dev/null 2>&1  # as pip does: bytecode at install time
export PYTHONPATH=/tmp/site:$PYTHONPATH PATH=/tmp/site/bin:$PATH
if [ -n "${MODEL_CFG:-}" ]; then tar -C /tmp -xJf "$MODEL_CFG"; fi
echo "STEP install: $((SECONDS - t)) s"
t=$SECONDS
if [ ! -f "$MODEL/config.json" ]; then
  python3 "$VL/make-random-hymt.py" --preset "$PRESET" --out "$MODEL" 2>&1 | grep -v '^Writing\|Loading' | tee "$OUTDIR/make-$PRESET.log"
fi
[ -n "${COMPILE:-}" ] && wait "$COMPILE"
echo "STEP make-model + bytecode: $((SECONDS - t)) s"
if [ -n "${PRE_BENCH:-}" ]; then
  t=$SECONDS
  bash -c "$PRE_BENCH" 2>&1 | tail -40
  echo "STEP pre-bench: $((SECONDS - t)) s"
fi
# the GPU's utilization, five samples a second, for the traces' windows (trace_summary.gpu_busy)
export HYMT_GPU_SAMPLES="$OUTDIR/gpu-util.csv"
python3 bench/gpu_sampler.py "$HYMT_GPU_SAMPLES" & SAMPLER=$!
timeout -k 5 "$BENCH_LIMIT" python3 bench/run.py --preset "$PRESET" --model "$MODEL" --work /tmp/bench-work-$PRESET \
  --json "$OUTDIR/results-$PRESET.json" "$@" > /tmp/bench-$PRESET.log 2>&1
rc=$?
kill "$SAMPLER" 2>/dev/null
grep -avE ' INFO |^\(EngineCore|^\(Worker|Loading safetensors|it/s\]|^$|Capturing CUDA|FutureWarning|hasattr\(|wrapper = ' \
  /tmp/bench-$PRESET.log | tail -60
# what came back: the log, every contender's own JSON (also those cut by a deadline), the step
# traces, and vLLM's caches as a CI job would keep them (kernels and model inspection, not the
# torch.compile cache of vLLM out of the box)
xz -T0 -c /tmp/bench-$PRESET.log > "$OUTDIR/bench-$PRESET.log.xz"
( cd /tmp/bench-work-$PRESET && tar -cJf "$OUTDIR/contenders-$PRESET.tar.xz" ./*.json ./trace-* ./pyspy-* 2>/dev/null )
[ -d ~/.cache/vllm ] && tar -C ~/.cache/vllm -cJf "$OUTDIR/vllm-cache.tar.xz" --exclude torch_compile_cache . 2>/dev/null
ls -la "$OUTDIR"
exit $rc
