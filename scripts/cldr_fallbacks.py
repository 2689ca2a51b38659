"""Write hymt_cli/text/fallbacks.json: CLDR's character fallbacks, the conventional substitutes
for a character an encoding (or a font) lacks (’ → ', – → -, œ → oe, ß → ss, € → EUR), each with
its alternatives in CLDR's order of preference (― → — where the encoding has it, else -). Python's
codecs and unicodedata have no such table (NFKC gives … → ... and ﬁ → fi, never œ → oe or ’ → ');
the Unicode CLDR JSON does, in the npm package cldr-core (Unicode License v3). Usage:

    npm pack cldr-core@48.2.0                            # (any npm client)
    python scripts/cldr_fallbacks.py cldr-core-48.2.0.tgz

It writes the package's license (Unicode License v3) beside the data, as fallbacks-LICENSE.txt.
"""

from __future__ import annotations

import json
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "hymt_cli" / "text" / "fallbacks.json"
LICENSE = ROOT / "hymt_cli" / "text" / "fallbacks-LICENSE.txt"  # shipped with the data it covers
MEMBER = "package/supplemental/characterFallbacks.json"


def main(tarball: str) -> None:
    with tarfile.open(tarball) as archive:
        handle = archive.extractfile(MEMBER)
        assert handle is not None
        data = json.load(handle)["supplemental"]
        license_file = archive.extractfile("package/LICENSE")
        assert license_file is not None
        LICENSE.write_bytes(license_file.read())
    table: dict[str, list[str]] = {}
    for key, substitutes in data["characters"]["character-fallback"].items():
        character = chr(int(key[2:], 16)) if key.startswith("U+") else key
        table[character] = [item["substitute"] for item in substitutes]
    version = data["version"]["_cldrVersion"]
    lines = [
        f"{json.dumps(ch, ensure_ascii=False)}: {json.dumps(subs, ensure_ascii=False)}"
        for ch, subs in sorted(table.items())
    ]
    text = f'{{"cldr": "{version}", "fallbacks": {{\n' + ",\n".join(lines) + "\n}}\n"  # a character a line
    OUT.write_text(text, encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: CLDR {version}, {len(table)} characters, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
