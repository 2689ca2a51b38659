"""Offline test corpora (tests/fixtures/corpora, see SOURCES.txt there): Markdown and HTML
documents from the CommonMark spec, markdown-it-py, mdit-py-plugins and html5lib-tests."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

CORPORA = Path(__file__).resolve().parent / "fixtures" / "corpora"


@cache
def commonmark_examples() -> tuple[str, ...]:
    """The markdown of every CommonMark spec example."""
    data = json.loads((CORPORA / "commonmark-0.31.2.json").read_text(encoding="utf-8"))
    return tuple(example["markdown"] for example in data)


def _fixture_inputs(path: Path) -> list[str]:
    """Inputs of a markdown-it fixture file: records of `title`, `.`, markdown, `.`, html, `.`
    (read as markdown-it-py's own `read_fixture_file` does)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    out: list[str] = []
    section, last = 0, 0
    for i, line in enumerate(lines):
        if line.rstrip() != ".":
            continue
        if section == 1:
            out.append("".join(lines[last + 1 : i]))
        section, last = (section + 1) % 3, i
    return out


@cache
def markdown_fixture_inputs() -> tuple[str, ...]:
    """Every input of the markdown-it-py and mdit-py-plugins fixture files."""
    paths = sorted(
        [*(CORPORA / "markdown-it").glob("*.fixture"), *(CORPORA / "mdit-plugins").glob("*.fixture")]
    )
    return tuple(text for path in paths for text in _fixture_inputs(path))


def markdown_corpus() -> tuple[str, ...]:
    return commonmark_examples() + markdown_fixture_inputs()


@cache
def html_corpus() -> tuple[str, ...]:
    """Inputs of html5lib's tokenizer tests and the documents of its encoding tests."""
    out: list[str] = []
    for path in sorted((CORPORA / "html5lib").glob("tokenizer-*.test")):
        for test in json.loads(path.read_text(encoding="utf-8")).get("tests", []):
            text = test["input"]
            if test.get("doubleEscaped"):
                text = text.encode("utf-8", "surrogatepass").decode("unicode-escape")
            out.append(text)
    out.extend(data.decode("latin-1") for data, _ in encoding_records())
    return tuple(out)


@cache
def encoding_records() -> tuple[tuple[bytes, str], ...]:
    """(document bytes, expected encoding label) of html5lib's encoding tests."""
    out: list[tuple[bytes, str]] = []
    for path in sorted((CORPORA / "html5lib").glob("encoding-*.dat")):
        for record in path.read_bytes().split(b"#data\n")[1:]:
            data, _, rest = record.partition(b"\n#encoding\n")
            out.append((data, rest.split(b"\n", 1)[0].decode("ascii").strip()))
    return tuple(out)
