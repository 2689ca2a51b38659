"""hymt: batch document translation with Tencent's HY-MT models on vLLM."""

__version__ = "0.1.0"
