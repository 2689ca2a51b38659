"""What hymt knows of each value of a file of strings it wrote (kept in the folder's manifest:
manifest.py; how a merge reads them: formats/strings/merge.py)."""

from __future__ import annotations

from typing import NamedTuple


class Record(NamedTuple):  # a tuple: a catalog's manifest holds one per key, read at every run
    """The value at a key: the digest of the source text it stands for ("": a translation that
    failed, stale by construction), of the value, and whether a person wrote it (hymt found it
    there: it is never replaced)."""

    source: str
    output: str
    person: bool = False


class Archived(NamedTuple):
    """The value of a key the source no longer has, kept to come back with the key."""

    source: str  # digest of the source text it stood for ("" when unknown)
    text: str
    person: bool


class KeptRecords(NamedTuple):
    """What a folder's manifest recorded of a target that exists, key by key (manifest.KeptTarget):
    its values (`records`), the values its source lost (`archive`), and the source text each
    person's value was first seen with (`sources`)."""

    records: dict[str, Record]
    archive: dict[str, Archived]
    sources: dict[str, str]
