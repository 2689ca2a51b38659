"""Reading a glossary file's bytes and text."""
from __future__ import annotations

from pathlib import Path

from .entries import GlossaryError


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise GlossaryError(f"{path}: cannot read glossary: {exc.strerror or exc}") from None


def read_text(path: Path) -> str:
    """The file as text: UTF-8, with or without a BOM."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise GlossaryError(f"{path}:{line}: not UTF-8 text") from None
