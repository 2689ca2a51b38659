"""The run's plan: everything a pipeline run is asked to do (target languages, output folder,
batch limits and order, a dry run, the checks, the glossary, what the outputs are recorded as
written with), derived once from the settings (`RunConfig.plan`, run/config.py) and handed
whole to every layer below: the driver, the dispatcher, the output jobs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..formats import output_provenance
from ..formats.base import READ_SIZES, ReadSizes
from ..inputs.sources import SourceFile
from ..model.prompts import CONTEXT_TOKENS
from ..options import OptionSet
from ..outputs.paths import OutputRules
from ..text.languages import Language
from ._outcomes import AnswerCheck
from .dispatch import SUBMIT_BUCKET
from .held_answers import MAX_HELD

if TYPE_CHECKING:
    from ..glossary import Glossary


@dataclass(frozen=True, slots=True)
class RunPlan:
    """One run's plan, immutable. A dry run (`dry_run`) reads, plans and reports, and stops
    before the engine (`Pipeline`'s stages)."""

    targets: tuple[Language, ...]
    source: Language | None = None  # None: detect per segment (only Chinese-or-not matters)
    out_dir: Path | None = None
    context_tokens: int = CONTEXT_TOKENS
    # Per engine call. None: the engine's own limits (vLLM on a GPU takes whole jobs), else
    # the dispatcher's defaults.
    batch_tokens: int | None = None
    batch_requests: int | None = None
    dry_run: bool = False
    prompts_out: Path | None = None
    window_segments: int = 65_536  # segments planned and translated together (bounds memory)
    # Requests go to the engine in document order, length-sorted within runs of this many
    # (dispatch.SUBMIT_BUCKET); None: each pass sorted as a whole (files wait for the job).
    submit_bucket: int | None = SUBMIT_BUCKET
    # The longest requests of a pass go to the engine first (batching.LONG_LEAD_FACTOR): the
    # job's tail. False: plain document order (benchmarks compare the two).
    long_first: bool = True
    overwrite: bool = False  # replace existing files hymt did not write (manifest.py)
    # A string file merged into (formats/strings/merge.py): keys its source lost stay.
    keep_removed: bool = False
    allow_mass_removal: bool = False  # a merge may remove most of a target's values
    # Each target under its own name only, never where the project keeps its locale in another
    # spelling (outputs/locale_places.py: `locales/de_DE/` for de).
    exact_locales: bool = False
    # Segments' contexts (HY-MT's context prompt): "on" every format's, "off" none, "auto" those of
    # formats that give them by default (FormatSpec.context_by_default).
    context: Literal["auto", "on", "off"] = "auto"
    # What decides a translation besides its text (model, prompts, glossary, sampling): kept in
    # the output folder's manifest with every file written, with the settings of its format
    # (`format_settings`: the run's options, formats/_provenance.py).
    provenance: str = ""
    format_settings: OptionSet | None = None
    # What the report names: the engine that answers, and the model it loads (None: none).
    engine_name: str = ""
    model: str | None = None
    # Checks every answer must pass besides the pipeline's own (driver.py: `target_script` where
    # the engine translates), and the glossary whose terms the answers must use (None: none).
    validators: tuple[AnswerCheck, ...] = ()
    glossary: Glossary | None = None
    # How much of an input its reader takes at a time (formats/base.ReadSizes), and how many
    # answers are held for the memory at most (held_answers.py): tests make them small.
    read_sizes: ReadSizes = READ_SIZES
    max_held: int = MAX_HELD

    def output_rules(self, sources: Sequence[SourceFile]) -> OutputRules:
        """Where this run's outputs go, and which it may not write."""
        return OutputRules(
            list(sources), self.out_dir, overwrite=self.overwrite, exact_locales=self.exact_locales
        )

    def provenance_of(self, format_name: str, own: OptionSet | None = None) -> str:
        """What an output of format `format_name` is recorded as written with (`own`: the input's
        own options, where a config file's [[files]] entries gave it some)."""
        options = own or self.format_settings
        if options is None:
            return self.provenance
        return output_provenance(self.provenance, format_name, options)
