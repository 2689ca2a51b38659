#!/usr/bin/env bash
# Install (CPU) and run the whole test suite: the type check (mypy), ruff's lint and format
# check (all configured in pyproject.toml), unit tests, CLI tests and the real vLLM engine on a tiny random-weight
# model built on the fly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-cpu.sh
python="${HYMT_VENV:-.venv}/bin/python"
# The tests drive a real local Ray instance (--ray): the optional extra, for the tests only.
"$python" -c "import ray" 2>/dev/null || "$python" -m pip install -q --disable-pip-version-check -e ".[ray]"
"$python" -m mypy
"${HYMT_VENV:-.venv}/bin/ruff" check . >&2                 # lint (pyproject.toml [tool.ruff])
"${HYMT_VENV:-.venv}/bin/ruff" format --check . >&2        # one format, at the line length there
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
"${HYMT_VENV:-.venv}/bin/lint-imports" --no-cache >&2  # the import contracts of ARCHITECTURE.md (pyproject.toml)
# The last line says how many tests skipped for lack of the real-world corpus (tests/conftest.py):
# a run without it is partial, and says so.
export HYMT_CORPUS_REPORT="$(mktemp)"
status=0
"$python" -m pytest "$@" || status=$?
cat "$HYMT_CORPUS_REPORT"
rm -f "$HYMT_CORPUS_REPORT"
exit "$status"
