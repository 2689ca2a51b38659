"""Planning: segments become pieces, pieces point at unique requests, requests are tokenized once.

A request is planned once per (target language, text) and fixed from then on: its prompt,
token ids and output budget never change. What comes back is recorded elsewhere
(_outcomes.py), so the plan (what we ask) and the outcome (what we got) never mix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.prompts import build_prompt, source_is_chinese
from ..model.tokenizer import PromptTokenizer
from ..text.languages import Language
from ..text.segments import is_translatable, sendable
from ..text.sentences import split_long
from ..text.tags import has_tags
from .batching import max_new_tokens, max_source_tokens

if TYPE_CHECKING:
    from ..glossary import Glossary, GlossaryUse

# (target, source text, context): what makes a request unique. The target is its memory code
# (Language.memory_code: pt-BR and pt are one, pt-PT another); the context is what the model is
# told besides the text ("" for none): the same text in another context is another request.
RequestKey = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Ask:
    """What one request asks, before its tokens are counted."""

    core: str  # the source text (whitespace at its edges stays in the document)
    lang: Language
    prompt: str
    first_use: tuple[str, int]  # (input, segment id) where the text first appeared: for reports
    formatted: bool = False  # carries <sN> tags: HY-MT's formatted-translation prompt
    glossary: GlossaryUse | None = None  # matched terms, do-not-translate placeholders
    context: str = ""  # read by the model, never translated (HY-MT's context prompt)
    chinese_source: bool = False  # the prompt's form: the source is (or looks) Chinese
    key: RequestKey = field(init=False, repr=False, compare=False)  # read at every step: kept

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (self.lang.memory_code, self.core, self.context))

    @property
    def model_text(self) -> str:
        """The text the model translates (do-not-translate terms replaced by placeholders)."""
        return self.glossary.text if self.glossary is not None else self.core


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedRequest(Ask):
    """One unique request, as it goes to the engine: the ask with its tokens and output budget."""

    prompt_ids: tuple[int, ...]
    prompt_tokens: int
    source_tokens: int
    max_tokens: int


@dataclass(frozen=True, slots=True)
class Piece:
    """Part of a segment: surrounding whitespace stays as in the source; `key` None: nothing
    to translate (kept as is)."""

    lead: str
    core: str
    trail: str
    key: RequestKey | None


def _split_whitespace(text: str) -> tuple[str, str, str]:
    core = text.strip()
    if len(core) == len(text):
        return "", text, ""  # (most texts)
    if not core:
        return text, "", ""
    start = text.index(core)
    return text[:start], core, text[start + len(core) :]


class Planner:
    """Builds the unique requests of a window of work and tokenizes every prompt exactly once.

    `pieces_for` registers asks; `finish` tokenizes all new ones together (one batch call of
    the fast tokenizer where there is one) and fixes them as `PlannedRequest`s."""

    def __init__(
        self,
        tokenizer: PromptTokenizer,
        *,
        context_tokens: int,
        source: Language | None,
        glossary: Glossary | None = None,
    ) -> None:
        self.tokenizer = tokenizer
        self.context_tokens = context_tokens
        self.source = source
        self.glossary = glossary
        self.asks: dict[RequestKey, Ask] = {}
        self._order: list[Ask] = []  # self.asks' values, for slicing
        self.planned: dict[RequestKey, PlannedRequest] = {}
        self.uses: Counter[RequestKey] = Counter()
        self._overhead: dict[tuple[str, bool, bool, str], int] = {}
        self._longest = max_source_tokens(context_tokens, 64)

    def pieces_for(self, text: str, lang: Language, where: tuple[str, int], context: str = "") -> list[Piece]:
        limit = self._longest
        # A token is at least one UTF-8 byte (a character at most four): shorter texts need no counting.
        short = len(text) * 4 <= limit or len(text.encode("utf-8")) <= limit
        parts = [text] if short else split_long(text, limit, self.tokenizer.count)
        pieces = []
        for part in parts:
            lead, core, trail = _split_whitespace(part)
            key = self.ask(core, lang, where, context).key if is_translatable(core) else None
            pieces.append(Piece(lead, core, trail, key))
        return pieces

    def ask(self, core: str, lang: Language, where: tuple[str, int], context: str = "") -> Ask:
        """The request for `core` in `lang` (and `context`), registered once; counted at every use."""
        if context:
            context = sendable(context)  # a key or comment read from untrusted bytes
        key = (lang.memory_code, core, context)
        ask = self.asks.get(key)
        if ask is None:
            # Prompt form, glossary use and tags all follow from the text and the language: a
            # repeated text is looked up, not matched and detected again.
            chinese_source = source_is_chinese(self.source, core)
            use = self.glossary.use(core, lang) if self.glossary is not None else None
            model_text = use.text if use is not None else core
            formatted = has_tags(model_text)  # inline markup or do-not-translate placeholders
            prompt = build_prompt(
                model_text,
                lang,
                chinese_source=chinese_source,
                terms=use.terms if use is not None else (),
                formatted=formatted,
                context=context,
            )
            ask = self.asks[key] = Ask(core, lang, prompt, where, formatted, use, context, chinese_source)
            self._order.append(ask)
        self.uses[key] += 1
        return ask

    def registered_since(self, count: int) -> list[Ask]:
        """The asks registered after the first `count` (in order)."""
        return self._order[count:]

    def unplanned(self) -> list[Ask]:
        return [ask for key, ask in self.asks.items() if key not in self.planned]

    def finish(self) -> list[PlannedRequest]:
        """Tokenize the asks registered since the last call; return their planned requests."""
        asks = self.unplanned()
        if not asks:
            return []
        all_ids = self.tokenizer.prompt_ids_batch([a.prompt for a in asks])
        # Without a model's tokenizer there are no ids, only estimated counts.
        counts = [
            len(ids) if self.tokenizer.exact else self.tokenizer.prompt_count(a.prompt)
            for a, ids in zip(asks, all_ids, strict=True)
        ]
        done = [self._planned(ask, ids, count) for ask, ids, count in zip(asks, all_ids, counts, strict=True)]
        for request in done:
            self.planned[request.key] = request
        return done

    def plan_now(
        self, core: str, lang: Language, where: tuple[str, int], context: str = ""
    ) -> PlannedRequest:
        """One request planned and tokenized at once (the runs of a tag repair)."""
        ask = self.ask(core, lang, where, context)
        if ask.key not in self.planned:
            self.finish()
        return self.planned[ask.key]

    def _planned(self, ask: Ask, ids: tuple[int, ...], prompt_tokens: int) -> PlannedRequest:
        overhead = self._overhead_tokens(ask.lang, ask.chinese_source, ask.formatted, ask.context)
        source_tokens = max(1, prompt_tokens - overhead)
        return PlannedRequest(
            ask.core,
            ask.lang,
            ask.prompt,
            ask.first_use,
            ask.formatted,
            ask.glossary,
            ask.context,
            ask.chinese_source,
            prompt_ids=ids,
            prompt_tokens=prompt_tokens,
            source_tokens=source_tokens,
            max_tokens=max_new_tokens(source_tokens, prompt_tokens, self.context_tokens),
        )

    def _overhead_tokens(self, lang: Language, chinese_source: bool, formatted: bool, context: str) -> int:
        key = (lang.model, chinese_source, formatted, context)
        if key not in self._overhead:
            # An empty source under the same template (and context): what every prompt of this kind pays.
            probe = build_prompt(
                "", lang, chinese_source=chinese_source, formatted=formatted, context=context
            )
            self._overhead[key] = self.tokenizer.prompt_count(probe)
        return self._overhead[key]
