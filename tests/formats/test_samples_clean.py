"""Samples and example glossaries are what people copy: no control characters (tab, LF and CR
aside), text that decodes (UTF-8, UTF-16 with a BOM, or the charset an HTML page declares), Parquet string
cells and the text members of zip packages (Office, ODF, EPUB)
just as clean, and every example glossary loads."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from hymt_cli.glossary import load_entries, load_glossaries

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    p
    for folder in ("samples", "glossaries")
    for p in (ROOT / folder).rglob("*")
    if p.is_file() and not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
)
GLOSSARIES = sorted((ROOT / "glossaries").iterdir())
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 but tab, LF, CR; DEL; C1
CHARSET = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
WHATWG = {"gb2312": "gbk", "iso-8859-1": "cp1252", "latin1": "cp1252"}  # what browsers decode them as


def control_problems(text: str, where: str) -> list[str]:
    found = []
    for match in CONTROL.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
        found.append(f"{where}:{line}:{column}: control character U+{ord(match.group()):04X}")
    return found


def decoded(path: Path, data: bytes) -> str:
    """UTF-8 (BOM allowed), UTF-16 with its BOM (Apple .strings), or the charset an HTML page
    declares near its start."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    declared = CHARSET.search(data[:2048]) if path.suffix.lower() in (".html", ".htm") else None
    if declared:
        name = declared.group(1).decode("ascii").lower()
        return data.decode(WHATWG.get(name, name))
    return data.decode("utf-8-sig")


def parquet_problems(path: Path, label: str) -> list[str]:
    table = pq.read_table(path)
    problems = []
    for name in table.column_names:
        column = table.column(name)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            for row, value in enumerate(column.to_pylist()):
                if value is not None:
                    problems += control_problems(value, f"{label} column {name} row {row}")
    return problems


def package_problems(path: Path, label: str) -> list[str]:
    """A zip package's (ODF, EPUB) text members, each clean: what people copy is inside."""
    problems = []
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name == "mimetype" or name.endswith((".xml", ".xhtml", ".opf", ".ncx", ".css", ".html")):
                text = archive.read(name).decode("utf-8-sig")
                problems += control_problems(text, f"{label}!{name}")
    return problems


def test_the_walk_sees_every_kind_of_sample():
    suffixes = {p.suffix for p in FILES}
    assert {".parquet", ".txt", ".md", ".html", ".tsv", ".csv", ".json", ".tbx"} <= suffixes


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_sample_is_clean_text(path):
    data = path.read_bytes()
    if data.startswith(b"PAR1"):
        assert parquet_problems(path, str(path.relative_to(ROOT))) == []
        return
    if data.startswith(b"PK\x03\x04"):
        assert package_problems(path, str(path.relative_to(ROOT))) == []
        return
    try:
        text = decoded(path, data)
    except (UnicodeDecodeError, LookupError) as exc:
        pytest.fail(f"{path.relative_to(ROOT)}: does not decode: {exc}")
    assert control_problems(text, str(path.relative_to(ROOT))) == []


@pytest.mark.parametrize("path", GLOSSARIES, ids=[p.name for p in GLOSSARIES])
def test_example_glossary_loads_cleanly(path):
    assert load_entries(path)


def test_example_glossaries_load_together_without_conflict():
    assert load_glossaries(GLOSSARIES).digest


def test_the_checks_catch_what_they_look_for(tmp_path):
    """Not vacuous: the BEL that product-terms.tsv had, invalid UTF-8, a dirty Parquet cell."""
    bel = "access key\tclé d’\x07ccès\tfr\n"
    assert control_problems(bel, "g.tsv") == ["g.tsv:1:18: control character U+0007"]
    with pytest.raises(UnicodeDecodeError):
        decoded(tmp_path / "a.txt", b"caf\xe9")
    assert decoded(tmp_path / "a.html", b'<meta charset="windows-1252">caf\xe9').endswith("café")
    dirty = tmp_path / "dirty.parquet"
    pq.write_table(pa.table({"title": ["ok", "bad\x1b[31m"], "n": [1, 2]}), dirty)
    assert parquet_problems(dirty, "dirty") == ["dirty column title row 1:1:4: control character U+001B"]
    package = tmp_path / "dirty.odt"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("content.xml", "<p>bad\x07</p>")
    assert package_problems(package, "d.odt") == ["d.odt!content.xml:1:7: control character U+0007"]
