"""The tokenizer a run plans with: the model's own (its chat template), or, where that cannot be
had, the server's (a served engine) or an estimate (a plan, a test engine)."""

from __future__ import annotations

from ..engine import ServedModel
from ..errors import EngineUnavailable
from ..model.files import check_model_reachable, model_folder
from ..model.tokenizer import ChatTemplateTokenizer, EstimatingTokenizer, PromptTokenizer
from ..reporting.progress import ProgressEvents
from .config import EngineChoice


def choose_tokenizer(
    engine: EngineChoice,
    served: ServedModel | None,
    progress: ProgressEvents,
    *,
    dry_run: bool,
    quiet: bool,
    reachable_checked: bool,
) -> tuple[PromptTokenizer, str | None]:
    """The tokenizer and where it loaded from (None: not on this machine). A served engine's
    model is looked for under its served name, then where the server loaded it from; when it is
    not on this machine, the server tokenizes."""
    if not engine.uses_model:
        return EstimatingTokenizer(), None
    trust = engine.options.trust_remote_code
    try:
        if not reachable_checked and not engine.runs.served:
            check_model_reachable(engine.model, engine.options.revision)
        folder = model_folder(engine.model) if not trust and not engine.options.revision else None
        from ..model.light_tokenizer import LightChatTokenizer  # an engine of a model's only

        light = LightChatTokenizer.load(folder) if folder is not None else None
        if light is not None:  # the generic fast tokenizer, in a folder or the hub cache: no transformers
            return light, engine.model
        return ChatTemplateTokenizer.load(
            engine.model, revision=engine.options.revision, trust_remote_code=trust
        ), engine.model
    except EngineUnavailable as exc:
        also = served.root if served is not None else None
        if also is not None and also != engine.model:
            try:
                return ChatTemplateTokenizer.load(also, trust_remote_code=trust), also
            except EngineUnavailable:
                pass
        spec = engine.runs
        if spec.server_tokenizer is not None and engine.server is not None:
            if not quiet:
                progress.notice("note", f"{exc.message}; the server tokenizes the prompts")
            return spec.server_tokenizer(engine.server, engine.model), None
        if not spec.needs_model or dry_run:
            progress.notice("warning", f"{exc.message}; token counts are estimates")
            return EstimatingTokenizer(), None
        raise
