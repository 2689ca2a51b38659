"""The translation memory: a sqlite file of finished translations (store.py), keyed by what made
them (context.py), bound to one run as the pipeline's hook (run_memory.py), its one-line errors
(errors.py), and TMX/JSONL out and back in (exchange.py, importing.py)."""

from .context import MemoryContext, build_context, model_digest
from .errors import MemoryFileError
from .run_memory import PipelineMemory
from .store import Entry, TranslationMemory, default_memory_path

__all__ = [
    "Entry",
    "MemoryContext",
    "MemoryFileError",
    "PipelineMemory",
    "TranslationMemory",
    "build_context",
    "default_memory_path",
    "model_digest",
]
