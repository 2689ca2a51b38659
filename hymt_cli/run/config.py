"""A run's settings parsed once into the typed records the run consumes: the languages, the
discovery rules, the engine (which one, where it runs, built from what, sampling), the served
engine's server, and the pipeline's plan (`RunConfig.plan`: every setting the pipeline reads).
Every check that needs no input, no file and no model happens here, so that a usage error comes
before anything is read or loaded; nothing is derived twice."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import (
    ENGINES,
    SERVED_OPTIONS,
    VLLM_OPTIONS,
    EngineOptions,
    EngineSetup,
    EngineSpec,
    Sampling,
    ServerOptions,
    StartGate,
)
from ..errors import UsageError
from ..inputs.discovery import DiscoveryRules
from ..options import OptionSet, flag_of
from ..settings import MemorySettings, OutputSettings, ReportSettings, Settings
from ..text.languages import Language, language, model_language, parse_language_list

if TYPE_CHECKING:
    from ..glossary import Glossary
    from ..pipeline import RunPlan


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """The engine of a run: `spec` builds it (a wrapper such as Ray runs `inner`), from `options`
    and `sampling`; `server` is a served engine's server; `model` the model's name (the default
    applied), which `uses_model` says the run loads or at least tokenizes with."""

    spec: EngineSpec
    inner: EngineSpec | None
    options: EngineOptions
    sampling: Sampling
    server: ServerOptions | None
    declared: OptionSet
    uses_model: bool

    @property
    def model(self) -> str:
        return self.options.model

    @property
    def runs(self) -> EngineSpec:
        """The engine that produces the answers (the wrapped one under a wrapper)."""
        return self.inner or self.spec

    @property
    def reported_model(self) -> str | None:
        return self.model if self.uses_model else None

    def setup(
        self,
        *,
        verbose: bool,
        on_phase: Callable[[str], None] | None = None,
        prepared: object | None = None,
        gate: StartGate | None = None,
    ) -> EngineSetup:
        return EngineSetup(
            self.options,
            self.sampling,
            verbose=verbose,
            server=self.server,
            on_phase=on_phase,
            declared=self.declared,
            inner=self.inner,
            prepared=prepared,
            gate=gate,
        )

    def served_by(self, model: str, server: ServerOptions) -> EngineChoice:
        """This choice once the server said which model it serves."""
        return replace(self, options=replace(self.options, model=model), server=server)


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Everything a run is made of, checked and derived once from its `Settings`."""

    settings: Settings
    targets: tuple[Language, ...]
    source: Language | None  # None: detect per segment
    discovery: DiscoveryRules
    engine: EngineChoice

    @classmethod
    def of(cls, settings: Settings) -> RunConfig:
        """UsageError for anything wrong that needs no input, file or model to tell."""
        run_inputs, langs = settings.inputs, settings.languages
        if not run_inputs.inputs:
            raise UsageError(
                "no inputs: name files or folders (or - for standard input)",
                hint='or set inputs = ["docs"] in hymt.toml',
            )
        if not langs.to.strip():
            raise UsageError(
                "no target language: pass --to, e.g. --to de,ja", hint='or set to = "de,ja" in hymt.toml'
            )
        table = langs.locale_table
        targets = tuple(parse_language_list(langs.to, table))
        source = None if langs.source.strip().lower() == "auto" else language(langs.source, table)
        suffix = (
            language(run_inputs.source_suffix).code
            if run_inputs.source_suffix is not None
            else (source.code if source is not None else None)
        )
        out = settings.output.out
        rules = DiscoveryRules(
            run_inputs.format,
            _with_context(settings),
            suffix,
            run_inputs.follow_symlinks,
            tuple(out / lang.code for lang in targets) if out is not None else (),
            run_inputs.include,
            run_inputs.exclude,
            run_inputs.gitignore,
            settings.path_rules,
        )
        if "-" in run_inputs.inputs:
            _check_standard_input(settings, targets)
        return cls(settings, targets, source, rules, engine_choice(settings))

    def plan(self, *, context_tokens: int, provenance: str, glossary: Glossary | None) -> RunPlan:
        """The pipeline's plan, derived from these settings once, with what only the run's start
        knows: the tokens a request may take (the server's window), what decides a translation
        besides its text (`_provenance.py`), the glossary loaded."""
        from ..pipeline import RunPlan, target_script  # (the pipeline is imported where a run starts)

        settings, engine = self.settings, self.engine
        return RunPlan(
            targets=self.targets,
            source=self.source,
            out_dir=settings.output.out,
            context_tokens=context_tokens,
            batch_tokens=settings.model.batch_tokens,
            dry_run=settings.reporting.dry_run,
            prompts_out=settings.reporting.prompts_out,
            overwrite=settings.output.overwrite,
            keep_removed=settings.output.keep_removed,
            allow_mass_removal=settings.output.allow_mass_removal,
            exact_locales=settings.output.exact_locales,
            provenance=provenance,
            format_settings=self.discovery.options,
            context=settings.memory.context,
            engine_name=engine.runs.name,
            model=engine.reported_model,
            validators=(target_script,) if engine.runs.translates else (),
            glossary=glossary,
        )

    def with_engine(self, engine: EngineChoice) -> RunConfig:
        return replace(self, engine=engine)

    def written_places(self, *, memory: bool = False) -> list[tuple[str, Path, bool]]:
        """Every place the run writes to, besides the outputs beside their inputs (and the memory):
        (the flag that names it, the path, whether it is a folder)."""
        settings = self.settings
        places: list[tuple[str, Path, bool]] = []
        if memory and settings.memory.cache is not None and not settings.memory.no_cache:
            places.append((flag_of(MemorySettings, "cache"), settings.memory.cache, False))
        if settings.output.out is not None and not settings.reporting.check:
            places.append((flag_of(OutputSettings, "out"), settings.output.out, True))
        for name in ("report", "prompts_out", "log_file", "review"):
            path = getattr(settings.reporting, name)
            if path is not None:
                places.append((flag_of(ReportSettings, name), path, False))
        return places  # the translation memory is opened (and judged) before the model is looked for

    @property
    def source_code(self) -> str | None:
        return self.source.code if self.source is not None else None

    @property
    def remapped(self) -> str:
        """The targets whose model language the [locales] table chose other than CLDR's default
        (`zh-HK=yue`; "" for none): what they are translated with decides their translations."""
        return ",".join(
            f"{lang.code}={lang.model}" for lang in self.targets if lang.model != model_language(lang.code)
        )


def _with_context(settings: Settings) -> OptionSet:
    """The formats' options, with the run's --context as a table reads it (it picks its rows'
    context columns by it): where it is not auto, for `ContextOptions()` is auto."""
    if settings.memory.context == "auto":
        return settings.records
    from ..formats import ContextOptions

    return settings.records.with_records(ContextOptions(settings.memory.context))


def _check_standard_input(settings: Settings, targets: tuple[Language, ...]) -> None:
    if len(targets) != 1:
        raise UsageError("standard input (-) goes to standard output: give exactly one --to language")
    if settings.output.out is not None:
        raise UsageError(
            "standard input (-) is translated to standard output; -o/--out does not apply",
            hint="redirect standard output instead: ... > translated.txt",
        )
    if settings.reporting.check:
        raise UsageError("--check compares files on disk; standard input (-) has none")


def engine_options(settings: Settings) -> EngineOptions:
    """What an engine loads and how: the run-wide model settings, and vLLM's own options (None
    where the settings hold none: their defaults, EngineOptions.vllm_options)."""
    model = settings.model
    return EngineOptions(
        model=model.model_name,
        revision=model.revision,
        trust_remote_code=model.trust_remote_code,
        dtype=model.dtype,
        max_model_len=model.max_model_len,
        vllm=settings.records.held(VLLM_OPTIONS),
        extra=model.engine_arguments(),
    )


def engine_choice(settings: Settings) -> EngineChoice:
    """The engine a run of these settings builds (and `hymt serve` keeps)."""
    model = settings.model
    chosen = ENGINES[model.engine]
    wrapper = next(
        (
            spec
            for spec in ENGINES.values()
            if spec.wraps and spec.active is not None and spec.active(settings.records)
        ),
        None,
    )
    inner: EngineSpec | None = None
    if chosen.wraps:
        wrapper, chosen = chosen, ENGINES[chosen.wraps]
    if wrapper is not None:
        if chosen.served:
            raise UsageError(
                f"the {wrapper.name} engine runs another engine ({wrapper.summary}); "
                f"--engine {chosen.name} sends to a server"
            )
        inner = chosen
    spec = wrapper or chosen
    options = engine_options(settings)
    if options.extra and not chosen.takes_engine_args:
        raise UsageError(f"engine {chosen.name!r} takes no --engine-arg")
    server = None
    if chosen.served:
        server = settings.records.of(SERVED_OPTIONS).server(chosen.name, model.model)
    elif (served := settings.records.held(SERVED_OPTIONS)) is not None and served.base_url is not None:
        raise UsageError(f"--base-url is for --engine openai, not --engine {chosen.name}")
    uses_model = chosen.needs_model or model.model is not None
    # the engines' options records held (the others' are their defaults: OptionSet.of)
    held = (settings.records.held(e.options) for e in ENGINES.values() if e.options is not None)
    declared = OptionSet(record for record in dict.fromkeys(held) if record is not None)
    return EngineChoice(spec, inner, options, settings.sampling.sampling(), server, declared, uses_model)
