#!/usr/bin/env bash
# Install and translate samples/ into English under out/demo/.
#
# With a CUDA GPU and the model at hand this is a real translation with
# tencent/HY-MT1.5-1.8B (or $HYMT_MODEL). Without them (as on the project's CPU
# development and CI machines) it runs the same pipeline through the CPU vLLM on a tiny
# random-weight model built locally, and through the pseudo engine: the files come out,
# but they are NOT real translations.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HYMT_VENV:-.venv}
if [ ! -x "$venv/bin/hymt" ]; then
    if command -v nvidia-smi >/dev/null 2>&1; then
        python3 -m venv "$venv" && "$venv/bin/python" -m pip install -q -e ".[gpu,test]"
    else
        bash scripts/setup-cpu.sh
    fi
fi
hymt="$venv/bin/hymt"
model=${HYMT_MODEL:-tencent/HY-MT1.5-1.8B}
if "$venv/bin/python" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null \
   && "$venv/bin/python" -c "from transformers import AutoConfig; AutoConfig.from_pretrained('$model')" 2>/dev/null; then
    "$hymt" translate samples/ --to en -o out/demo --model "$model" --report out/demo/report.json
    echo "done: real translations with $model in out/demo/en/" >&2
    exit 0
fi
echo "No GPU or no model weights here: running the pipeline on a tiny random-weight model." >&2
"$venv/bin/python" -m hymt_cli.tiny_model .cache/tiny-hymt
"$hymt" translate samples/ --to en -o out/demo/tiny-vllm --model .cache/tiny-hymt --deterministic \
    --report out/demo/tiny-vllm/report.json || true
"$hymt" translate samples/ --to en -o out/demo/pseudo --engine pseudo --report out/demo/pseudo/report.json
cat >&2 <<'NOTE'

NOTE: these outputs are NOT real translations.
  out/demo/tiny-vllm/  the real vLLM engine on a random-weight model: its output is noise, fails
                       validation, and every segment keeps its source text (see report.json).
  out/demo/pseudo/     pseudo-localization: shows which text would be translated and that the
                       layout survives.
For real translations run on a GPU with the model: hymt translate samples/ --to en --model tencent/HY-MT1.5-1.8B
NOTE
