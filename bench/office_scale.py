"""Office files at scale (issue 36): a Word document of N paragraphs with formatting in every one
(bold, italics, a hyperlink, a language hint, split runs), or an Excel workbook of about N MB
(rows of shared strings, numbers and dates), through `hymt translate --engine identity` in a
child process, with a fresh translation memory (on, as by default) unless `--no-cache`:

    PYTHONPATH=. python bench/office_scale.py docx --size 20000
    PYTHONPATH=. python bench/office_scale.py xlsx --size 100

Prints the input's size, the wall time, the child's CPU time (user + sys), its peak RSS (from
`wait4`, that child alone), the segments per second, and whether every member of the output is
the input's but for its language attributes. Issue 36 asks ≤ 60 s and ≤ 1 GB RSS for 20,000
paragraphs, and bounded memory for a 100 MB workbook. Not a test: minutes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_WORDS = "save open the file window settings user name quick brown fox jumps over lazy dog".split()
_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_X = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"


def _words(i: int) -> str:
    return f"{_WORDS[i % 15]} {_WORDS[(i // 15) % 15]} {_WORDS[(i // 225) % 15]}"


def _paragraph(i: int) -> str:
    words = _words(i)
    return (
        f'<w:p w:rsidR="00{i % 97:02d}1A2B" w:rsidRDefault="00C3D4E5">'
        '<w:pPr><w:spacing w:after="120"/></w:pPr>'
        f'<w:r w:rsidRPr="00A1{i % 89:02d}"><w:rPr><w:lang w:val="en-US"/></w:rPr>'
        f'<w:t xml:space="preserve">Paragraph {i} tells how to </w:t></w:r>'
        '<w:proofErr w:type="spellStart"/>'
        f'<w:r><w:rPr><w:lang w:val="en-GB"/></w:rPr><w:t>{words}</w:t></w:r><w:proofErr w:type="spellEnd"/>'
        f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve"> carefully</w:t></w:r>'
        f'<w:r><w:t xml:space="preserve"> and </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>quickly</w:t></w:r>'
        f'<w:r><w:t xml:space="preserve">, as the </w:t></w:r><w:hyperlink r:id="rIdL">'
        f'<w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>guide</w:t></w:r></w:hyperlink>'
        f'<w:r><w:t xml:space="preserve"> says.</w:t></w:r></w:p>'
    )


def make_docx(path: Path, paragraphs: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "[Content_Types].xml",
            f'{_DECL}<Types xmlns="{_TYPES}"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        )
        zf.writestr(
            "_rels/.rels",
            f'{_DECL}<Relationships xmlns="{_PKG_RELS}"><Relationship Id="rId1" '
            f'Type="{_RELS}/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        zf.writestr(
            "word/_rels/document.xml.rels",
            f'{_DECL}<Relationships xmlns="{_PKG_RELS}"><Relationship Id="rIdL" Type="{_RELS}/hyperlink" '
            'Target="https://example.com/guide" TargetMode="External"/></Relationships>',
        )
        with zf.open("word/document.xml", "w") as out:
            out.write(f"{_DECL}<w:document {_W}><w:body>".encode())
            for start in range(0, paragraphs, 1000):
                out.write(
                    "".join(_paragraph(i) for i in range(start, min(paragraphs, start + 1000))).encode()
                )
            out.write(b"<w:sectPr/></w:body></w:document>")


def make_xlsx(path: Path, megabytes: int) -> int:
    """A workbook of about `megabytes` MB: rows of a shared string, two numbers and a date;
    returns the number of shared strings."""
    rows = megabytes * 28_000  # (about 37 packed bytes a row, its shared string included)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        sml = "application/vnd.openxmlformats-officedocument.spreadsheetml"
        zf.writestr(
            "[Content_Types].xml",
            f'{_DECL}<Types xmlns="{_TYPES}"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{sml}.sheet.main+xml"/>'
            f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{sml}.worksheet+xml"/>'
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{sml}.sharedStrings+xml"/></Types>',
        )
        zf.writestr(
            "_rels/.rels",
            f'{_DECL}<Relationships xmlns="{_PKG_RELS}"><Relationship Id="rId1" '
            f'Type="{_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        zf.writestr(
            "xl/workbook.xml",
            f'{_DECL}<workbook {_X}><sheets><sheet name="Catalog" sheetId="1" r:id="rId1"/>'
            "</sheets></workbook>",
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'{_DECL}<Relationships xmlns="{_PKG_RELS}"><Relationship Id="rId1" Type="{_RELS}/worksheet" '
            f'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{_RELS}/sharedStrings" '
            'Target="sharedStrings.xml"/></Relationships>',
        )
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            out.write(f"{_DECL}<worksheet {_X}><sheetData>".encode())
            for start in range(0, rows, 10_000):
                out.write(
                    "".join(
                        f'<row r="{i + 1}"><c r="A{i + 1}" t="s"><v>{i}</v></c>'
                        f'<c r="B{i + 1}"><v>{(i * 7919) % 100_003 / 100}</v></c>'
                        f'<c r="C{i + 1}"><v>{i * 13 % 977}</v></c>'
                        f'<c r="D{i + 1}" s="0"><v>{40000 + i % 3650}</v></c></row>'
                        for i in range(start, min(rows, start + 10_000))
                    ).encode()
                )
            out.write(b"</sheetData></worksheet>")
        with zf.open("xl/sharedStrings.xml", "w", force_zip64=True) as out:
            out.write(f'{_DECL}<sst {_X} count="{rows}" uniqueCount="{rows}">'.encode())
            for start in range(0, rows, 10_000):
                out.write(
                    "".join(
                        f"<si><t>Item {i}: {_words(i)} {_words(i * 31 + 7)}, size {i % 47}</t></si>"
                        if i % 10
                        else "<si><r><rPr><b/></rPr><t>New</t></r>"
                        f'<r><t xml:space="preserve"> item {i}: {_words(i)}</t></r></si>'
                        for i in range(start, min(rows, start + 10_000))
                    ).encode()
                )
            out.write(b"</sst>")
    return rows


def run(path: Path, out: Path, *, memory: bool) -> dict[str, float]:
    argv = [sys.executable, "-m", "hymt_cli", "translate", str(path), "--to", "de", "--engine", "identity"]
    argv += ["--cache", str(out.parent / "memory.sqlite3")] if memory else ["--no-cache"]
    argv += ["-o", str(out), "-q", "--report", str(out.parent / "report.json")]
    start = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        raise SystemExit(child.stderr.read().decode() if child.stderr else "hymt failed")
    return {
        "seconds": round(seconds, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_mib": round(usage.ru_maxrss / 1024),
    }


_LANGUAGE = re.compile(rb"""<(?:[\w.-]+:)?lang\b[^>]*>|\slang\s*=\s*"[^"]*\"""")


def same_members(a: Path, b: Path) -> bool:
    with zipfile.ZipFile(a) as before, zipfile.ZipFile(b) as after:
        if before.namelist() != after.namelist():
            return False
        for name in before.namelist():
            with before.open(name) as x, after.open(name) as y:
                while True:
                    left, right = x.read(1 << 24), y.read(1 << 24)
                    if _LANGUAGE.sub(b"", left) != _LANGUAGE.sub(b"", right):
                        return False
                    if not left:
                        break
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("kind", choices=("docx", "xlsx"))
    parser.add_argument("--size", default="", help="paragraphs (docx) or MB (xlsx), comma-separated")
    parser.add_argument("--no-cache", action="store_true", help="no translation memory")
    parser.add_argument("--json", type=Path, help="append each result to this JSON file")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in (args.size or ("20000" if args.kind == "docx" else "100")).split(",")]
    print(
        f"{'size':>8} {'MiB':>7} {'segments':>9} {'wall s':>7} {'CPU s':>7} {'seg/s':>7} "
        f"{'RSS MiB':>8} {'same':>5}"
    )
    results = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, f"big.{args.kind}")
            make_docx(path, size) if args.kind == "docx" else make_xlsx(path, size)
            mib = path.stat().st_size / 2**20
            result = run(path, Path(tmp, "out"), memory=not args.no_cache)
            segments = json.loads(Path(tmp, "report.json").read_text())["segments"]
            same = same_members(path, Path(tmp, "out", "de", path.name))
        print(
            f"{size:>8,} {mib:>7.1f} {segments:>9,} {result['seconds']:>7} {result['cpu_seconds']:>7} "
            f"{segments / result['cpu_seconds']:>7,.0f} {result['peak_rss_mib']:>8,} {same!s:>5}",
            flush=True,
        )
        results.append(
            {
                "kind": args.kind,
                "size": size,
                "mib": round(mib, 1),
                "segments": segments,
                "identical": same,
                **result,
            }
        )
    if args.json is not None:
        previous = json.loads(args.json.read_text()) if args.json.exists() else []
        args.json.write_text(json.dumps(previous + results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    io.DEFAULT_BUFFER_SIZE = 1 << 16
    sys.exit(main())
