"""How many of hymt's modules one command imports, and how many it enters (a function of theirs
runs, in any thread), as issue 35 counts them:

    python scripts/modules_entered.py translate a.txt --to de --engine pseudo
    hymt modules: 238, imported: 215, entered: 168

`--list FILE` writes the entered modules, one a line. Module-level code (imports, definitions) does
not count as entering; a registration that calls a function at import time does.
"""

from __future__ import annotations

import atexit
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent / "hymt_cli"
sys.path.insert(0, str(PACKAGE.parent))
entered: set[str] = set()


def _profile(frame: FrameType, event: str, _arg: Any) -> None:
    code = frame.f_code
    if event == "call" and code.co_name != "<module>" and code.co_filename.startswith(str(PACKAGE)):
        entered.add(code.co_filename)


def _report(listing: str | None) -> None:
    imported = sorted(name for name in sys.modules if name.split(".")[0] == "hymt_cli")
    total = len(list(PACKAGE.rglob("*.py")))
    print(f"hymt modules: {total}, imported: {len(imported)}, entered: {len(entered)}", file=sys.stderr)
    if listing:
        Path(listing).write_text("".join(f"{Path(f).relative_to(PACKAGE)}\n" for f in sorted(entered)))


def main() -> None:
    args = sys.argv[1:]
    listing = None
    if args[:1] == ["--list"]:
        listing, args = args[1], args[2:]
    atexit.register(_report, listing)
    sys.setprofile(_profile)
    threading.setprofile(_profile)
    sys.argv = ["hymt", *args]
    from hymt_cli.cli.app import main as hymt

    hymt()


if __name__ == "__main__":
    main()
