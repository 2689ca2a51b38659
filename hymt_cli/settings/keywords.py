"""A message for a Python caller: the flags it names spelled as the API's keyword arguments.

A setting's message is written once, for everyone, and names the setting by its flag (`--qa`,
`-o/--out`), which is what a command-line user typed. A Python caller typed a keyword
(`qa=[...]`, `out=...`): `as_keywords` rewrites each flag of a declared setting into that keyword,
from the declaration itself (options.py), so every message, today's and tomorrow's, follows:
`--qa` -> `qa=`, `--no-overwrite` -> `overwrite=False`, a switch `--dry-run` -> `dry_run=True`,
`-o/--out` -> `out=`. Words that are no declared flag stay as they are.
"""

from __future__ import annotations

import re
from functools import cache

from .schema import all_settings

# A flag as messages write it: `--context-columns`, `-o`, `-o/--out` (never inside a word or a path).
_FLAG = re.compile(r"(?<![\w./-])(?:-[A-Za-z]/)?--?[A-Za-z][\w-]*(?![\w/-])")


@cache
def _keywords() -> dict[str, str]:
    spelled: dict[str, str] = {}
    for setting in all_settings():
        declared = setting.declared
        if declared.argument:
            continue
        switch = setting.base is bool and not setting.many
        keyword = f"{setting.name}=True" if switch else f"{setting.name}="
        spelled[declared.flag] = keyword
        if declared.off_flag:
            spelled[declared.off_flag] = f"{setting.name}=False"
        if declared.short:
            spelled[declared.short] = keyword
            spelled[f"{declared.short}/{declared.flag}"] = keyword
    return spelled


def as_keywords(message: str) -> str:
    """`message` with each declared flag written as the Python keyword that sets it."""
    if "-" not in message:
        return message
    known = _keywords()
    return _FLAG.sub(lambda m: known.get(m.group(0), m.group(0)), message)
