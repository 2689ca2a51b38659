"""The translation memory: a sqlite file of finished translations (store.py), keyed by what made
them (fingerprint.py), bound to one run as the pipeline's hook (_run_memory.py), its one-line errors
(_errors.py), and TMX/JSONL out and back in (exchange.py, importing.py)."""

from ._errors import MemoryFileError
from ._run_memory import PipelineMemory
from .fingerprint import Fingerprint, build_fingerprint, model_digest
from .store import Entry, TranslationMemory, default_memory_path

__all__ = [
    "Entry",
    "Fingerprint",
    "MemoryFileError",
    "PipelineMemory",
    "TranslationMemory",
    "build_fingerprint",
    "default_memory_path",
    "model_digest",
]
