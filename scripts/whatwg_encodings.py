"""Compare every WHATWG encoding's decoder (the Encoding Standard's index files) with the Python
codec that decodes it, and write the differences as hymt_cli/formats/html/whatwg_differences.json.

Browsers decode a legacy page by the standard's indexes; Python's codecs follow other tables
(big5hkscs refuses the euro sign 0xA3E1 that browsers show, cp932 and cp949 differ in a few
places). For each encoding, every byte sequence the standard's decoder reads as one character
is decoded by both; the differences (a code point, or None where browsers show U+FFFD) are
what hymt needs to decode as browsers do. Usage:

    python scripts/whatwg_encodings.py --indexes DIR          # print the comparison
    python scripts/whatwg_encodings.py --indexes DIR --write  # and write whatwg_differences.json

DIR holds the standard's index-*.txt files, or is a git mirror of github.com/whatwg/encoding
(`fetch github:whatwg/encoding`; the index data is CC BY 4.0).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "hymt_cli" / "formats" / "html" / "whatwg_differences.json"
SINGLE_BYTE = [
    "ibm866",
    "iso-8859-2",
    "iso-8859-3",
    "iso-8859-4",
    "iso-8859-5",
    "iso-8859-6",
    "iso-8859-7",
    "iso-8859-8",
    "iso-8859-10",
    "iso-8859-13",
    "iso-8859-14",
    "iso-8859-15",
    "iso-8859-16",
    "koi8-r",
    "koi8-u",
    "macintosh",
    "windows-874",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "x-mac-cyrillic",
]
BIG5_PAIRS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}
Decoded = dict[bytes, "str | None"]


def index_text(folder: Path, name: str) -> str:
    """An index file, from a folder of them or from a git mirror of the standard (`fetch`)."""
    path = folder / name
    if path.is_file():
        return path.read_text(encoding="utf-8")
    shown = subprocess.run(
        ["git", f"--git-dir={folder}", "show", f"HEAD:{name}"], capture_output=True, check=True
    )
    return shown.stdout.decode("utf-8")


def read_index(folder: Path, name: str) -> dict[int, int]:
    table = {}
    for line in index_text(folder, f"index-{name}.txt").splitlines():
        match = re.match(r"\s*(\d+)\s+0x([0-9A-F]+)", line)
        if match:
            table.setdefault(int(match.group(1)), int(match.group(2), 16))
    return table


def index_identifier(folder: Path, name: str) -> str:
    head = index_text(folder, f"index-{name}.txt")[:600]
    match = re.search(r"Identifier: ([0-9a-f]+)", head)
    return match.group(1) if match else "?"


def single_byte(folder: Path, name: str) -> Decoded:
    table = read_index(folder, name)
    return {bytes([0x80 + p]): (chr(table[p]) if p in table else None) for p in range(128)}


def big5(folder: Path) -> Decoded:
    table = read_index(folder, "big5")
    out: Decoded = {}
    for lead in range(0x81, 0xFF):
        for trail in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            pointer = (lead - 0x81) * 157 + trail - (0x40 if trail < 0x7F else 0x62)
            out[bytes([lead, trail])] = BIG5_PAIRS.get(pointer) or (
                chr(table[pointer]) if pointer in table else None
            )
    return out


def euc_kr(folder: Path) -> Decoded:
    table = read_index(folder, "euc-kr")
    return {
        bytes([lead, trail]): (chr(table[p]) if (p := (lead - 0x81) * 190 + trail - 0x41) in table else None)
        for lead in range(0x81, 0xFF)
        for trail in range(0x41, 0xFF)
    }


def shift_jis(folder: Path) -> Decoded:
    table = read_index(folder, "jis0208")
    out: Decoded = {bytes([0x80]): "\x80"}
    out.update({bytes([b]): chr(0xFF61 + b - 0xA1) for b in range(0xA1, 0xE0)})
    for lead in [*range(0x81, 0xA0), *range(0xE0, 0xFD)]:
        for trail in [*range(0x40, 0x7F), *range(0x80, 0xFD)]:
            pointer = (
                (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 if trail < 0x7F else 0x41)
            )
            if 8836 <= pointer <= 10715:
                out[bytes([lead, trail])] = chr(0xE000 - 8836 + pointer)
            else:
                out[bytes([lead, trail])] = chr(table[pointer]) if pointer in table else None
    return out


def euc_jp(folder: Path) -> Decoded:
    jis0208, jis0212 = read_index(folder, "jis0208"), read_index(folder, "jis0212")
    out: Decoded = {bytes([0x8E, b]): chr(0xFF61 - 0xA1 + b) for b in range(0xA1, 0xE0)}
    for lead in range(0xA1, 0xFF):
        for trail in range(0xA1, 0xFF):
            pointer = (lead - 0xA1) * 94 + trail - 0xA1
            out[bytes([lead, trail])] = chr(jis0208[pointer]) if pointer in jis0208 else None
            out[bytes([0x8F, lead, trail])] = chr(jis0212[pointer]) if pointer in jis0212 else None
    return out


def gb18030_ranges(folder: Path) -> list[tuple[int, int]]:
    ranges = []
    for line in index_text(folder, "index-gb18030-ranges.txt").splitlines():
        match = re.match(r"\s*(\d+)\s+0x([0-9A-F]+)", line)
        if match:
            ranges.append((int(match.group(1)), int(match.group(2), 16)))
    return ranges


def gb18030_four_byte(pointer: int, ranges: list[tuple[int, int]]) -> str | None:
    if (39419 < pointer < 189000) or pointer > 1237575:
        return None
    if pointer >= 189000:
        return chr(0x10000 + pointer - 189000)
    if pointer == 7457:
        return "\ue7c7"
    offset, code = next((o, c) for o, c in reversed(ranges) if o <= pointer)
    return chr(code + pointer - offset)


def gb18030(folder: Path) -> Decoded:
    table = read_index(folder, "gb18030")
    ranges = gb18030_ranges(folder)
    out: Decoded = {b"\x80": "\u20ac"}
    for lead in range(0x81, 0xFF):
        for trail in [*range(0x40, 0x7F), *range(0x80, 0xFF)]:
            pointer = (lead - 0x81) * 190 + trail - (0x40 if trail < 0x7F else 0x41)
            out[bytes([lead, trail])] = chr(table[pointer]) if pointer in table else None
    for first in range(0x81, 0xFF):
        for second in range(0x30, 0x3A):
            for third in range(0x81, 0xFF):
                for fourth in range(0x30, 0x3A):
                    pointer = (
                        ((first - 0x81) * 10 + second - 0x30) * 1260 + (third - 0x81) * 10 + fourth - 0x30
                    )
                    if pointer > 1237575 or 39419 < pointer < 189000:
                        continue  # never a character: nothing to compare
                    out[bytes([first, second, third, fourth])] = gb18030_four_byte(pointer, ranges)
    return out


def iso_2022_jp(folder: Path) -> Decoded:
    """JIS X 0208 pairs after ESC $ B, and katakana after ESC ( I (each sequence back to ASCII)."""
    table = read_index(folder, "jis0208")
    out: Decoded = {}
    for lead in range(0x21, 0x7F):
        for trail in range(0x21, 0x7F):
            pointer = (lead - 0x21) * 94 + trail - 0x21
            out[b"\x1b$B" + bytes([lead, trail]) + b"\x1b(B"] = (
                chr(table[pointer]) if pointer in table else None
            )
    for byte in range(0x21, 0x60):
        out[b"\x1b(I" + bytes([byte]) + b"\x1b(B"] = chr(0xFF61 - 0x21 + byte)
    return out


def python_decode(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def compare(whatwg: Decoded, codec: str) -> Decoded:
    """The sequences Python decodes otherwise than browsers: {bytes: what browsers decode}."""
    return {seq: text for seq, text in whatwg.items() if python_decode(seq, codec) != text}


def encodings(folder: Path) -> Iterator[tuple[str, str, Decoded]]:
    """(WHATWG name, the Python codec hymt decodes it with, the standard's decoding)."""
    import webencodings  # type: ignore[import-untyped]

    for name in SINGLE_BYTE:
        yield name, webencodings.lookup(name).codec_info.name, single_byte(folder, name)
    yield "big5", "big5hkscs", big5(folder)
    yield "euc-kr", "cp949", euc_kr(folder)
    yield "shift_jis", "cp932", shift_jis(folder)
    yield "euc-jp", "euc_jp", euc_jp(folder)
    yield "iso-2022-jp", "iso2022_jp", iso_2022_jp(folder)
    # (browsers decode gbk with gb18030's decoder: hymt does too, so gbk needs no table of its own)
    yield "gb18030", "gb18030", gb18030(folder)


def write_tables(found: dict[str, tuple[str, Decoded]], commit: str, out: Path = OUT) -> None:
    """The differences as JSON (package data, read by whatwg_tables.py): ASCII only, so that no
    C1 control or unassigned character is written raw."""
    table: dict[str, list[object]] = {}
    for name, (codec, diffs) in found.items():
        if name == "iso-2022-jp":  # the JIS X 0208 pairs alone (katakana is decoded by rule)
            diffs = {seq[3:5]: text for seq, text in diffs.items() if seq.startswith(b"\x1b$B")}
        if diffs:
            table[name] = [codec, {seq.hex(): text or "" for seq, text in sorted(diffs.items())}]
    document = {
        "about": (
            "Where browsers decode legacy encodings otherwise than Python's codecs: for each WHATWG "
            "encoding, the Python codec that decodes it and every byte sequence (hex) it decodes "
            'otherwise, with what browsers decode ("" where they show U+FFFD); for iso-2022-jp, the '
            "JIS X 0208 byte pairs (after ESC $ B). Generated by scripts/whatwg_encodings.py; do not edit."
        ),
        "source": f"https://github.com/whatwg/encoding, commit {commit}: the Encoding Standard's index files",
        "license": (
            "CC BY 4.0 (Copyright (c) WHATWG (Apple, Google, Mozilla, Microsoft)); portions in source "
            "code under the BSD 3-Clause License"
        ),
        "encodings": table,
    }
    out.write_text(json.dumps(document, indent=1) + "\n", encoding="ascii")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--indexes", type=Path, required=True, help="a folder with the standard's index-*.txt"
    )
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    parser.add_argument("--out", type=Path, default=OUT, help="where --write writes")
    args = parser.parse_args()
    found: dict[str, tuple[str, Decoded]] = {}
    print(
        f"{'encoding':<15} {'python codec':<18} {'sequences':>10} {'refused':>8} {'other':>6} "
        f"{'not by browsers':>15}"
    )
    for name, codec, whatwg in encodings(args.indexes):
        diffs = compare(whatwg, codec)
        found[name] = (codec, diffs)
        refused = sum(
            1 for seq, text in diffs.items() if text is not None and python_decode(seq, codec) is None
        )
        extra = sum(1 for text in diffs.values() if text is None)
        other = len(diffs) - refused - extra
        print(
            f"{name:<15} {codec:<18} {sum(1 for t in whatwg.values() if t):>10} {refused:>8} {other:>6} "
            f"{extra:>15}"
        )
    if args.write:
        commit = (
            subprocess.run(
                ["git", f"--git-dir={args.indexes}", "rev-parse", "HEAD"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            or "(unknown)"
        )
        write_tables(found, commit, args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
