"""Write hymt_cli/text/exemplars.json: CLDR's main exemplar characters (the letters a language
needs) of every HY-MT language, and of each locale of theirs that CLDR gives letters of its own
(de-CH writes no ß). Babel ships no exemplar characters; the Unicode CLDR JSON data does, in the
npm package cldr-misc-full (Unicode License v3). Usage:

    npm pack cldr-misc-full@48.2.0                       # (any npm client)
    python scripts/cldr_exemplars.py cldr-misc-full-48.2.0.tgz

The set `[a ä b … {ch}]` is kept as its characters: ranges expanded, strings split, upper case
added (a translation writes Ä as well as ä).
"""

from __future__ import annotations

import json
import re
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "hymt_cli" / "text" / "exemplars.json"


def characters(unicode_set: str) -> str:
    """The characters of an ICU UnicodeSet as CLDR writes exemplars (`[a-c ä {ch} \\- \\u0301]`)."""
    body = unicode_set.strip()[1:-1]
    out: set[str] = set()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "{":
            end = body.index("}", i)
            out.update(body[i + 1 : end])
            i = end + 1
            continue
        if ch == "\\":
            if body.startswith("\\u", i):
                ch, i = chr(int(body[i + 2 : i + 6], 16)), i + 6
            else:
                ch, i = body[i + 1], i + 2
        else:
            i += 1
        if ch.isspace():
            continue
        if i < len(body) and body[i] == "-" and i + 1 < len(body) and body[i + 1] != "]":
            last = body[i + 1]
            i += 2
            out.update(chr(c) for c in range(ord(ch), ord(last) + 1))
            continue
        out.add(ch)
    upper = {u for c in out for u in c.upper() if len(c.upper()) == 1}
    return "".join(sorted(out | upper))


def main(tarball: str) -> None:
    from hymt_cli.text.languages import LANGUAGES

    wanted = {code.split("-")[0] for code in LANGUAGES}
    table: dict[str, str] = {}
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            found = re.fullmatch(r"package/main/([^/]+)/characters\.json", member.name)
            if found is None or found.group(1).split("-")[0] not in wanted:
                continue
            handle = archive.extractfile(member)
            assert handle is not None
            data = json.load(handle)["main"][found.group(1)]["characters"]
            if "exemplarCharacters" in data:
                table[found.group(1)] = characters(data["exemplarCharacters"])
    languages = {code: chars for code, chars in table.items() if "-" not in code}
    kept = {
        code: chars
        for code, chars in sorted(table.items())
        if "-" not in code or chars != languages.get(code.split("-")[0]) or code in LANGUAGES
    }
    OUT.write_text(json.dumps(kept, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(kept)} locales, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
