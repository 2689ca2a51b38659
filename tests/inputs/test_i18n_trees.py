"""Real i18n trees (tests/corpus/SOURCES, `trees/<project>/`: an Android app, a macOS app, a
Flutter app, a Rails app, a gettext/meson project, a Django + Angular app, a Magento module),
each with its source, translations people wrote (one with a region, one with a script or a
gettext `@modifier`), the variants of the source language and the non-translatables the project
carries. For every tree: a folder run (pseudo engine) into a locale the project has and into a
new one; no value a person wrote changes or goes away, no variant or non-translatable becomes a
source, `--check` then says 0; a second run sends no request and writes nothing."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clirun import hymt
from strings_helpers import read_pairs

TREES = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "trees"
KINDS = {
    ".xml": "android",
    ".strings": "strings",
    ".arb": "arb",
    ".yml": "yaml",
    ".po": "po",
    ".xlf": "xliff",
    ".csv": "csv",
}


@dataclass(frozen=True)
class Tree:
    name: str
    folders: tuple[str, ...]  # what the folder run is given, relative to the tree
    existing: str  # a locale the project has: merged into
    new: str  # one it has not: written anew
    sources: frozenset[str]  # the files the run must read as sources (relative to the tree)
    # Files the project lists its catalogs in, which a new catalog joins (gettext's LINGUAS).
    listings: frozenset[str] = frozenset()
    merges: bool = True  # a catalog; False: a table, whose file a person wrote is left alone
    variant: bool = True  # the project keeps a variant of the source language (en_GB, values-en-rGB)


TREE_RUNS = (
    Tree(
        "android-clock",
        ("app/src/main/res",),
        "de",
        "ja",
        frozenset({"app/src/main/res/values/strings.xml", "app/src/main/res/values/cities.xml"}),
    ),
    Tree(
        "xcode-iina",
        ("iina",),
        "de",
        "ja",
        frozenset(
            f"iina/en.lproj/{name}.strings"
            for name in ("InfoPlist", "Localizable", "FilterPresets", "KeyBinding")
        ),
    ),
    Tree("flutter-every-door", ("lib/l10n",), "de", "ja", frozenset({"lib/l10n/app_en.arb"})),
    Tree(
        "rails-diaspora",
        ("config/locales",),
        "de",
        "ja",
        frozenset({"config/locales/devise/devise.en.yml"}),
    ),
    Tree(
        "meson-protonplus",
        ("po",),
        "de",
        "ja",
        frozenset({"po/com.vysp3r.ProtonPlus.pot"}),
        listings=frozenset({"po/LINGUAS"}),
        variant=False,  # (ProtonPlus has none; its LINGUAS holds sr@latin)
    ),
    Tree(
        "django-angular-paperless",
        ("src-ui", "src/locale"),
        "de",
        "ja",
        frozenset({"src-ui/messages.xlf", "src/locale/en_US/LC_MESSAGES/django.po"}),
    ),
    Tree("magento-pinterest", ("i18n",), "fr", "ja", frozenset({"i18n/en_US.csv"}), merges=False),
)


def _tree(tree: Tree, tmp_path: Path) -> Path:
    origin = TREES / tree.name
    if not origin.is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    root = tmp_path / tree.name
    shutil.copytree(origin, root)
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _stamps(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in sorted(root.rglob("*")) if p.is_file()}


_UNQUOTED = re.compile(r'(?m)^(\s*)([A-Za-z0-9_$+/:.-]+)(\s*=\s*")')


def values_of(path: Path, data: bytes) -> dict[str, Any]:
    """The values people wrote in a file, by key, as the format's own reader reads them (an empty
    value, or one gettext and XLIFF tools show as untranslated, is none)."""
    kind = KINDS.get(path.suffix)
    if kind == "csv":
        return {row[0]: row[1] for row in csv.reader(io.StringIO(data.decode("utf-8"))) if len(row) >= 2}
    if kind == "strings":  # Apple's unquoted keys (`NSHumanReadableCopyright = "..."`) quoted
        data = _UNQUOTED.sub(r'\1"\2"\3', data.decode("utf-8")).encode("utf-8")
    if kind is None or (kind == "android" and b"<resources" not in data):
        return {}
    return {key: value for key, value in read_pairs(kind, data) if value not in ("", None)}


def _run(root: Path, tree: Tree, memory: Path, report: Path, *more: str) -> Any:
    return hymt(
        "translate",
        *tree.folders,
        "--to",
        f"{tree.existing},{tree.new}",
        "--engine",
        "pseudo",
        "--cache",
        str(memory),
        "--report",
        str(report),
        *more,
        cwd=root,
        text=True,
    )


@pytest.mark.parametrize("tree", TREE_RUNS, ids=lambda t: t.name)
def test_a_folder_run_keeps_every_persons_value_and_a_second_run_does_nothing(
    tree: Tree, tmp_path: Path
) -> None:
    root = _tree(tree, tmp_path)
    before = _files(root)
    memory, report = tmp_path / "memory.sqlite3", tmp_path / "first.json"

    done = _run(root, tree, memory, report)
    assert done.returncode == 0, done.stderr
    first = json.loads(report.read_text(encoding="utf-8"))
    written = [f for f in first["files"] if f["status"] == "ok"]
    assert {f["input"] for f in first["files"]} == set(tree.sources), done.stderr
    assert {f["lang"] for f in written} == ({tree.existing, tree.new} if tree.merges else {tree.new})
    for name, data in before.items():  # no person's value changed or went away, anywhere
        now = (root / name).read_bytes()
        if now == data:
            continue
        if name in tree.listings:  # the new catalog joins the list, nothing else changes
            assert now.decode().split() == [*data.decode().split(), tree.new], name
            continue
        kept, after = values_of(root / name, data), values_of(root / name, now)
        lost = {key: value for key, value in kept.items() if after.get(key) != value}
        assert not lost, f"{name}: {len(lost)} value(s) a person wrote changed or went away: {list(lost)[:5]}"
        assert any(f["output"] in (name, str(root / name)) for f in written), f"{name} was changed"
    new = [Path(f["output"]) for f in written if f["lang"] == tree.new]
    assert new and all((root / p).is_file() and str(p) not in before for p in new)

    check = hymt(
        "translate",
        *tree.folders,
        *("--to", f"{tree.existing},{tree.new}", "--engine", "pseudo", "--check"),
        cwd=root,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr

    files, stamps = _files(root), _stamps(root)
    again = _run(root, tree, memory, tmp_path / "second.json")
    assert again.returncode == 0, again.stderr
    second = json.loads((tmp_path / "second.json").read_text(encoding="utf-8"))
    assert second["engine_requests"] == 0
    assert _files(root) == files
    if tree.name != "magento-pinterest":  # (a table is written again, the same bytes: it is no catalog)
        assert _stamps(root) == stamps, "a second run rewrote a file"


def test_every_tree_carries_what_the_issue_names() -> None:
    """Each tree has 3+ translations written by people, one with a region and one with a script
    (or a gettext @modifier), and a variant of the source language."""
    if not TREES.is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    assert {t.name for t in TREE_RUNS} == {p.name for p in TREES.iterdir() if p.is_dir()}
    region = re.compile(r"[-_]r?[A-Z]{2}\b")
    script = re.compile(r"[-_+](?:Latn|Hans|Hant|Cyrl)(?![a-z])|@latin|sr_CS|zh-TW|en_shaw")
    variant = re.compile(r"(?:^|[./_-])en[-_](?:r?GB|rAU|US|pirate)\b|en-GB\.lproj")
    for tree in TREE_RUNS:
        names = [str(p.relative_to(TREES / tree.name)) for p in (TREES / tree.name).rglob("*") if p.is_file()]
        translations = [n for n in names if n not in tree.sources and Path(n).suffix in KINDS]
        assert len(translations) >= 3, tree.name
        assert any(region.search(n) for n in translations), tree.name
        assert any(script.search(n) for n in translations), tree.name
        assert any(variant.search(n) for n in translations) or not tree.variant, tree.name


def test_the_trees_are_small() -> None:
    if not TREES.is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    total = sum(p.stat().st_size for p in TREES.rglob("*") if p.is_file())
    assert total < 8 * 1024 * 1024, total
    assert not any(p.name == ".git" for p in TREES.rglob("*")), "whole repositories are no trees"
    assert os.sep + "node_modules" not in str(list(TREES.rglob("*")))
