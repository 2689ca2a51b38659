#!/usr/bin/env bash
# Install (CPU) and run the whole test suite: unit tests, CLI tests and the real vLLM
# engine on a tiny random-weight model built on the fly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-cpu.sh
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
exec "${HYMT_VENV:-.venv}/bin/python" -m pytest "$@"
