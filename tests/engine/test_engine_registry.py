"""Engines declare themselves; --engine-arg reaches the engine's constructor."""

from __future__ import annotations

from dataclasses import replace

import pytest
from clirun import hymt
from engines import with_vllm

from hymt_cli.engine import ENGINES, EngineSetup, Sampling
from hymt_cli.errors import ExitCode, UsageError
from hymt_cli.run.config import RunConfig
from hymt_cli.settings import ModelSettings, Settings, all_settings


def test_engine_args_are_json_where_they_parse() -> None:
    parsed = ModelSettings(
        engine_args=(
            "max_num_seqs=2048",
            'compilation_config={"mode": 0}',
            "kv_cache_dtype=fp8",
            "enable_prefix_caching=false",
            "note=a=b",
        )
    ).engine_arguments()
    assert parsed == {
        "max_num_seqs": 2048,
        "compilation_config": {"mode": 0},
        "kv_cache_dtype": "fp8",
        "enable_prefix_caching": False,
        "note": "a=b",
    }
    for bad in ("novalue", "=1", "two words=1", "1x=2"):
        with pytest.raises(UsageError, match="KEY=VALUE"):
            ModelSettings(engine_args=(bad,))


def test_engine_args_override_hymt_defaults_for_vllm(tiny_engine_options) -> None:
    from hymt_cli.engine.vllm_arguments import llm_kwargs

    options = replace(
        with_vllm(tiny_engine_options, enforce_eager=False),
        extra={"max_num_seqs": 7, "compilation_config": {"mode": 3}, "swap_space": 1},
    )
    kwargs = llm_kwargs(options, Sampling(), on_cpu=False)
    assert (
        kwargs["max_num_seqs"] == 7
        and kwargs["compilation_config"] == {"mode": 3}
        and kwargs["swap_space"] == 1
    )


def test_engine_args_reach_transformers_from_pretrained(tiny_engine_options) -> None:
    pytest.importorskip("transformers")
    options = replace(tiny_engine_options, extra={"attn_implementation": "eager"})
    engine = ENGINES["transformers"].build(EngineSetup(options, Sampling.deterministic()))
    try:
        assert engine.model.config._attn_implementation == "eager"  # type: ignore[attr-defined]
    finally:
        engine.close()


def test_engines_without_arguments_refuse_them_in_one_line(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("Hello.\n")
    result = hymt(
        "translate",
        str(tmp_path / "a.txt"),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--engine-arg",
        "max_num_seqs=8",
        text=True,
    )
    assert result.returncode == ExitCode.USAGE
    assert result.stderr.strip() == "error: engine 'identity' takes no --engine-arg"
    assert not (tmp_path / "a.fr.txt").exists()


def test_the_cli_offers_every_registered_engine_and_asks_the_registry() -> None:
    help_text = hymt("translate", "--help", text=True).stdout
    for name, spec in ENGINES.items():
        assert name in help_text
        # what the pipeline is told follows the declaration, never the name
        if spec.served or spec.wraps:
            continue
        config = RunConfig.of(Settings.build(inputs=("x",), to="fr", engine=name))
        assert config.engine.uses_model is spec.needs_model
    assert RunConfig.of(Settings.build(inputs=("x",), to="fr", engine="pseudo", model="m")).engine.uses_model
    with pytest.raises(UsageError, match="unknown engine 'nope'"):
        Settings.build(inputs=("x",), to="fr", engine="nope")


def test_ray_flag_takes_an_optional_address() -> None:
    from hymt_cli.cli.options import bare_values

    def _ray_flag(argv: list[str]) -> list[str]:
        return bare_values(argv, all_settings())

    assert _ray_flag(["translate", "docs", "--ray", "--to", "de"]) == [
        "translate",
        "docs",
        "--ray=",
        "--to",
        "de",
    ]
    assert _ray_flag(["translate", "--ray", "docs/", "--to", "de"])[1] == "--ray="  # a path is no address
    for address in ("10.0.0.1:6379", "ray://head:10001", "auto", "local", "head-node.internal:6379"):
        assert _ray_flag(["translate", "a", "--ray", address]) == ["translate", "a", "--ray", address]
    assert _ray_flag(["translate", "a", "--ray"]) == ["translate", "a", "--ray="]
    assert _ray_flag(["translate", "--", "--ray"]) == ["translate", "--", "--ray"]


def test_a_wrapper_runs_the_engine_its_declaration_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that runs another one elsewhere names, in its registry entry, the one it runs when
    --engine names the wrapper itself: the run asks the declaration, never an engine's name."""
    from dataclasses import replace

    wrapper = replace(ENGINES["ray"], name="elsewhere", wraps="identity", prepare=None)
    monkeypatch.setitem(ENGINES, "elsewhere", wrapper)
    engine = RunConfig.of(Settings.build(inputs=("x",), to="fr", engine="elsewhere")).engine
    assert (engine.spec.name, engine.runs.name) == ("elsewhere", "identity")
    with pytest.raises(
        UsageError, match=r"^the ray engine runs another engine \(.*\); --engine openai sends"
    ):
        RunConfig.of(
            Settings.build(inputs=("x",), to="fr", engine="openai", base_url="http://h/v1", address="auto")
        )
