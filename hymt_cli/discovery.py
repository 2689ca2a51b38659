"""Which files to translate and where each translation goes."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .formats import SUFFIXES, FormatSettings, format_for_path, format_named
from .languages import LANGUAGES
from .sources import SourceFile

_LANGUAGE_SUFFIXES = {code.lower() for code in LANGUAGES}


@dataclass(frozen=True, slots=True)
class InputProblem:
    input: str
    message: str


def is_translation_name(path: Path) -> bool:
    """`guide.fr.txt`, `a.zh-Hant.md`: outputs of an earlier run, not sources."""
    inner = Path(path.stem).suffix
    return bool(inner) and inner[1:].lower() in _LANGUAGE_SUFFIXES


def discover(inputs: list[str], *, format_name: str | None, options: FormatSettings | None = None
             ) -> tuple[list[SourceFile], list[InputProblem]]:
    """Expand files and folders into source documents; problems are per input, never fatal."""
    found: list[SourceFile] = []
    problems: list[InputProblem] = []
    for raw in inputs:
        if raw == "-":
            found.append(SourceFile(None, Path("stdin"), format_named(format_name or "txt", options)))
            continue
        path = Path(raw)
        if path.is_dir():
            docs = _walk(path, format_name, options)
            if not docs:
                problems.append(InputProblem(raw, "folder has no supported files "
                                                  f"({', '.join(sorted(SUFFIXES))})"))
            found.extend(docs)
        elif path.is_file():
            fmt = format_named(format_name, options) if format_name else format_for_path(path, options)
            if fmt is None:
                problems.append(InputProblem(raw, f"unsupported file type {path.suffix or '(none)'!r}; "
                                                  "use --format to choose one"))
            else:
                found.append(SourceFile(path, Path(path.name), fmt))
        elif path.exists():
            problems.append(InputProblem(raw, "not a regular file or folder"))
        else:
            problems.append(InputProblem(raw, "no such file or folder"))
    return found, problems


def _walk(root: Path, format_name: str | None, options: FormatSettings | None = None) -> list[SourceFile]:
    docs = []
    for folder, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(folder) / name
            if name.startswith(".") or is_translation_name(path):
                continue
            fmt = format_for_path(path, options)
            if fmt is None or (format_name and fmt.name != format_name):
                continue
            docs.append(SourceFile(path, path.relative_to(root), fmt))
    return docs
