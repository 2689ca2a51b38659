"""The chat template and fast tokenizer read without transformers give exactly the ids that
transformers gives, for every kind of text hymt sends; folders it cannot vouch for go to
transformers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hymt_cli.model.light_tokenizer import LightChatTokenizer
from hymt_cli.model.prompts import build_prompt
from hymt_cli.model.tokenizer import ChatTemplateTokenizer
from hymt_cli.text.languages import parse_language_list

TEXTS = [
    "Hello, world.",
    "今天天气很好，我们去公园玩吧。",
    "Save <s1>all</s1> files to <s2/>C:\\Users\\ana</s2> — now!",
    "Ünïcödé ½ €1,299.00 🙂 \u200b tabs\tand\nnew\nlines  ",
    "",
    "{{ raise_exception('no') }} {% if %} </s> <|eos|> <|startoftext|>",
    "x" * 3000,
]


def prompts() -> list[str]:
    de, zh = parse_language_list("de,zh")
    out = [build_prompt(t, de, chinese_source=False) for t in TEXTS]
    out += [build_prompt(t, zh, chinese_source=False, context="A heading") for t in TEXTS]
    out += [build_prompt(t, de, chinese_source=True, formatted=True) for t in TEXTS]
    return out + TEXTS


def test_the_light_tokenizer_gives_the_ids_transformers_gives(tiny_model_dir: Path) -> None:
    light = LightChatTokenizer.load(str(tiny_model_dir))
    assert light is not None, "the tiny model's tokenizer is the generic fast one"
    hf = ChatTemplateTokenizer.load(str(tiny_model_dir))
    every = prompts()
    assert light.prompt_ids_batch(every) == hf.prompt_ids_batch(every)
    for text in every[:8]:
        assert light.prompt_ids(text) == hf.prompt_ids(text)
        assert light.count(text) == hf.count(text)
    assert light.prompt_ids_batch([]) == []


def test_folders_it_cannot_vouch_for_go_to_transformers(tiny_model_dir: Path, tmp_path: Path) -> None:
    def variant(name: str, change) -> str:  # type: ignore[no-untyped-def]
        folder = tmp_path / name
        shutil.copytree(tiny_model_dir, folder)
        config_file = folder / "tokenizer_config.json"
        config = json.loads(config_file.read_text(encoding="utf-8"))
        change(folder, config)
        config_file.write_text(json.dumps(config), encoding="utf-8")
        return str(folder)

    def other_class(folder: Path, config: dict) -> None:
        config["tokenizer_class"] = "LlamaTokenizerFast"  # may rewrite the normalizer on load

    def added_token(folder: Path, config: dict) -> None:
        config["added_tokens_decoder"] = {"999999": {"content": "<|not in the file|>", "special": True}}

    def malformed_token_index(folder: Path, config: dict) -> None:
        config["added_tokens_decoder"] = {"not a number": {"content": "<|eos|>", "special": True}}

    def generation_tag(folder: Path, config: dict) -> None:
        for name in ("chat_template.jinja",):
            (folder / name).unlink(missing_ok=True)
        config["chat_template"] = "{% generation %}{{ messages[0]['content'] }}{% endgeneration %}"

    def no_tokenizer_json(folder: Path, config: dict) -> None:
        (folder / "tokenizer.json").unlink()

    for change in (other_class, added_token, malformed_token_index, generation_tag, no_tokenizer_json):
        assert LightChatTokenizer.load(variant(change.__name__, change)) is None, change.__name__
    assert LightChatTokenizer.load(str(tmp_path / "missing")) is None


def test_a_run_plans_with_the_light_tokenizer_and_never_imports_torch(tiny_model_dir: Path) -> None:
    """A dry run of the command line with the tiny model: transformers (and torch) stay out."""
    import subprocess
    import sys

    from clirun import environment

    probe = (
        "import sys, runpy; sys.argv = ['hymt', 'translate', '-', '--to', 'de', '--model', sys.argv[1], "
        "'--dry-run', '--format', 'txt']; "
        "import atexit; atexit.register(lambda: print('TORCH' if 'torch' in sys.modules else 'NO-TORCH', "
        "'TRANSFORMERS' if 'transformers' in sys.modules else 'NO-TRANSFORMERS', file=sys.stderr)); "
        "runpy.run_module('hymt_cli', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tiny_model_dir)],
        input=b"Hello there.\n",
        capture_output=True,
        env=environment(),
        timeout=120,
    )
    assert b"NO-TORCH NO-TRANSFORMERS" in done.stderr, done.stderr.decode()[-2000:]
