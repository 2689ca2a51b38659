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
    "$hymt" translate samples/txt samples/docs samples/site --to en -o out/demo --model "$model" \
        --report out/demo/report.json
    "$hymt" translate samples/catalog/products.parquet --to en -o out/demo --model "$model" \
        --columns title,body_html,option1_value --cell-format html
    echo "done: real translations with $model in out/demo/en/" >&2
    exit 0
fi
echo "No GPU or no model weights here: running the pipeline on a tiny random-weight model." >&2
"$venv/bin/python" -m hymt_cli.model.tiny .cache/tiny-hymt
docs=(samples/txt samples/docs samples/site samples/glossary-demo)
catalog=(samples/catalog/products.parquet --columns title,body_html,option1_value --cell-format html)
# Exit 4 is expected here: not one answer of a random model passes validation, and hymt says so.
status=0
"$hymt" translate "${docs[@]}" --to en -o out/demo/tiny-vllm --model .cache/tiny-hymt --deterministic \
    --enforce-eager --no-cache --report out/demo/tiny-vllm/report.json || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 4 ]
"$hymt" translate "${docs[@]}" --to en -o out/demo/pseudo --engine pseudo --no-cache \
    --glossary glossaries/product-terms.tsv --glossary glossaries/brand.json --report out/demo/pseudo/report.json
"$hymt" translate "${catalog[@]}" --to en,fr -o out/demo/pseudo --engine pseudo --no-cache
cat >&2 <<'NOTE'

NOTE: these outputs are NOT real translations.
  out/demo/tiny-vllm/  the real vLLM engine on a random-weight model: its output is noise, fails
                       validation, and every segment keeps its source text (see report.json).
  out/demo/pseudo/     pseudo-localization: shows which text would be translated and that the
                       layout survives.
For real translations, on a GPU with the model:
  hymt translate samples/txt samples/docs samples/site --to en --model tencent/HY-MT1.5-1.8B
NOTE
