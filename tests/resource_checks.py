"""Format-native readers for the resource formats (PO, XLIFF, Android, Apple), independent of
hymt's own parsers: what a test uses to say an output is still a valid file of its kind.

- PO: polib (and GNU msgfmt -c where it is installed: format strings checked against msgid);
- XLIFF and Android: ElementTree; stringsdict: plistlib;
- Apple `.strings`: a small reader written here from Apple's documented grammar (Python has none).
Placeholders are counted with a regex of their own, not the grammar under test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import polib
from pipelines import run_pipeline

from hymt_cli.engine.base import Engine
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import RunReport

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "shared" / "corpus"  # gathered by scripts/gather_corpus.py (kept out of commits)
SAMPLES = ROOT / "samples" / "app"
MSGFMT = shutil.which("msgfmt")

# Live placeholders: printf (with positions, %@, %lu, %,d, inttypes), Python %(name)s, stringsdict
# variables; `%%` is a literal percent and is taken out first. Braces (`{name}`) only where the
# value is a brace format (a PO python-brace-format message, an ICU argument).
PRINTF = re.compile(
    r"%(?:\d+\$)?#@\w+@|%\([A-Za-z_]\w*\)[-+ 0#]*\d*(?:\.\d+)?[sdifxXr]"
    r"|%(?:\d+\$)?[-+0#',]*\d*(?:\.\d+)?(?:ll|l|h|z|q)?[sdiufxXcp@]|%<PRI\w+>"
)
BRACES = re.compile(r"\{[A-Za-z_0-9]+\}")


def placeholders(text: str, *, braces: bool = False) -> Counter[str]:
    """The printf placeholders of a value, or (`braces`) those of a brace format."""
    if braces:
        return Counter(BRACES.findall(text.replace("{{", "").replace("}}", "")))
    return Counter(PRINTF.findall(text.replace("%%", "")))


def files(kind: str) -> list[Path]:
    folder = CORPUS / kind
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def translate(
    paths: list[Path], engine: Engine, out: Path, lang: str = "de", options: OptionSet | None = None
) -> tuple[RunReport, dict[Path, Path]]:
    """Runs the real pipeline on `paths` into `out`; (report, input -> output)."""
    report = run_pipeline(paths, engine, options=options, to=lang, out_dir=out)
    outputs = {Path(f.input): Path(f.output) for f in report.files if f.output is not None}
    return report, outputs


def identity(paths: list[Path], out: Path, lang: str = "de") -> tuple[RunReport, dict[Path, Path]]:
    return translate(paths, IdentityEngine(), out, lang)


# -- PO ----------------------------------------------------------------------------------------
def po_entries(path: Path) -> polib.POFile:
    """polib's reading, and msgfmt's check of every format string where msgfmt is installed."""
    parsed = polib.pofile(str(path))
    if MSGFMT is not None:
        done = subprocess.run(
            [MSGFMT, "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
    return parsed


def po_skeleton(po: polib.POFile) -> list[tuple[object, ...]]:
    """What a translation never changes: every entry's source side, comments and references."""
    return [
        (
            e.msgctxt,
            e.msgid,
            e.msgid_plural,
            e.comment,
            e.tcomment,
            tuple(e.occurrences),
            e.obsolete,
            tuple(f for f in e.flags if f != "fuzzy"),
        )
        for e in po
    ]


# -- XML ---------------------------------------------------------------------------------------
def xml_tree(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())


def local(tag: str) -> str:
    return tag.rpartition("}")[2]


def inner_xml(element: ET.Element) -> str:
    """An element's content as ElementTree writes it (text, children, tails)."""
    text = element.text or ""
    return text + "".join(ET.tostring(child, encoding="unicode") for child in element)


# -- Apple .strings -----------------------------------------------------------------------------
_STRINGS_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;', re.DOTALL)
_STRINGS_REST = re.compile(r"/\*.*?\*/|//[^\n]*|\s+", re.DOTALL)


def strings_pairs(text: str) -> list[tuple[str, str]]:
    """Quoted `"key" = "value";` pairs (raw, escapes as written); AssertionError on anything else."""
    pairs: list[tuple[str, str]] = []
    pos = 1 if text.startswith("\ufeff") else 0
    while pos < len(text):
        rest = _STRINGS_REST.match(text, pos)
        if rest is not None and rest.end() > pos:
            pos = rest.end()
            continue
        pair = _STRINGS_PAIR.match(text, pos)
        assert pair is not None, f"not a .strings pair at {pos}: {text[pos : pos + 60]!r}"
        pairs.append((pair.group(1), pair.group(2)))
        pos = pair.end()
    return pairs


def strings_skeleton(text: str) -> str:
    """The file with every value emptied: keys, comments and layout."""
    return _STRINGS_PAIR.sub(lambda m: f'"{m.group(1)}" = "";', text)
