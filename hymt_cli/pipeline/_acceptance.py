"""Output checks the pipeline runs on every answer (besides acceptance.answers.problem_with)."""

from __future__ import annotations

from ..acceptance.answers import Problem
from ..text.tags import tag_problem
from .planning import PlannedRequest


def tags_kept(request: PlannedRequest, output: str) -> Problem | None:
    """The output keeps the source's inline tags (retryable)."""
    problem = tag_problem(request.core, output)
    return Problem(f"inline tags broken: {problem}", check="tags") if problem else None


def glossary_terms_used(request: PlannedRequest, output: str) -> Problem | None:
    """The glossary's target terms are in the output (a soft problem)."""
    from ..glossary import check_terms  # a run without a glossary never imports it

    return check_terms(request.glossary, output)


def target_script(request: PlannedRequest, output: str) -> Problem | None:
    """The output is written in the target language's script (engines that translate)."""
    from ..acceptance.scripts import wrong_script  # a test engine's run never imports it

    return wrong_script(request, output)


CONTEXT_ECHO_CHARS = 12  # a context line this long found in an answer (and not in the source) was copied


def context_left_out(request: PlannedRequest, output: str) -> Problem | None:
    """The answer does not carry the context it was given (the model reads it, never writes it)."""
    for line in request.context.splitlines():
        line = line.strip()
        if len(line) >= CONTEXT_ECHO_CHARS and line in output and line not in request.core:
            return Problem(f"output repeats the context {line[:40]!r}", check="context")
    return None
