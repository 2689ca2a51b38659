"""A whole repository, as a CI job points hymt at it (issue 27): docs in Markdown, a data CSV,
package.json, mkdocs.yml, locales/en/*.json, Android res/values/, a po/ template, CI and build
files, mkdocs' built site/ (ignored by git). `hymt translate . --to de,ja -o out` exits 0,
translates every document and string file, names what it left alone, and changes, adds or
removes no file outside out/.

The string files and the data CSV are real ones (shared/corpus, tests/corpus/SOURCES), the
Markdown the repository's samples/docs."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import polib
import pytest
from clirun import ROOT, hymt

CORPUS = ROOT / "shared" / "corpus"
REAL = {
    "locales/en/common.json": "json/uptime-kuma-en.json",
    "locales/en/editor.json": "json/excalidraw-en.json",
    "app/src/main/res/values/strings.xml": "android/calculator-strings.xml",
    "po/sphinx.pot": "po/sphinx.pot",
    "docs/data/country-codes.csv": "csv/country-codes.csv",
}
WRITTEN = {
    "package.json": '{\n  "name": "scratch-site",\n  "version": "1.0.0",\n'
    '  "description": "A documentation site",\n  "scripts": {"build": "mkdocs build"}\n}\n',
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "mkdocs.yml": "site_name: Scratch Docs\nnav:\n  - Home: index.md\ntheme:\n  name: material\n",
    "docker-compose.yml": "services:\n  web:\n    image: nginx\n",
    "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\n',
    ".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    ".gitignore": "site/\nout/\n",
    "site/index.html": "<html><body><p>Built by mkdocs.</p></body></html>\n",
    "app/src/main/AndroidManifest.xml": '<?xml version="1.0"?>\n<manifest package="org.example"/>\n',
    "app/src/main/res/values/colors.xml": '<resources>\n  <color name="a">#6200EE</color>\n</resources>\n',
}
LEFT_ALONE = {
    "docs/data/country-codes.csv": "needs a setting: csv needs --columns",
    "package.json": "a .json file outside a strings folder",
    "tsconfig.json": "a .json file outside a strings folder",
    "mkdocs.yml": "a .yml file outside a strings folder",
    "docker-compose.yml": "a .yml file outside a strings folder",
    "pyproject.toml": "a .toml file outside a strings folder",
    ".github": "hidden folder",
    ".git": "hidden folder",
    ".gitignore": "hidden file",
    "site": "ignored by git: .gitignore: site/",
    "app/src/main/AndroidManifest.xml": "not a supported format",
    "app/src/main/res/values/colors.xml": "not a supported format",
}


def _snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(root).parts[:1] and p.parts[len(root.parts)] != "out"
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    missing = [source for source in REAL.values() if not (CORPUS / source).is_file()]
    if missing:
        pytest.skip(f"{missing[0]} is not gathered: run scripts/gather_corpus.py (needs the fetch mirrors)")
    root = tmp_path / "project"
    for target, source in REAL.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / source, root / target)
    for target, text in WRITTEN.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        (root / target).write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "samples" / "docs", root / "docs", dirs_exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_a_whole_repository_translates_and_nothing_else_is_touched(project: Path) -> None:
    before = _snapshot(project)
    docs = sorted(p.relative_to(project).as_posix() for p in (project / "docs").glob("*.md"))
    assert len(docs) >= 5
    report = project.parent / "report.json"
    result = hymt(
        "translate", ".", "--to", "de,ja", "-o", "out", "--engine", "pseudo", "--no-cache",
        "--report", str(report), cwd=project, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert _snapshot(project) == before  # nothing changed, added or removed outside out/

    out = project / "out"
    for lang in ("de", "ja"):
        for doc in docs:
            translated = (out / lang / doc).read_text(encoding="utf-8")
            assert translated != (project / doc).read_text(encoding="utf-8"), doc
        for name in ("common.json", "editor.json"):
            source = json.loads((project / "locales/en" / name).read_text(encoding="utf-8"))
            target = json.loads((out / "locales" / lang / name).read_text(encoding="utf-8"))
            assert target.keys() == source.keys() and target != source
        strings = ElementTree.parse(out / f"app/src/main/res/values-{lang}/strings.xml").getroot()
        assert strings.tag == "resources" and any("⟦" in (e.text or "") for e in strings.iter("string"))
        catalog = polib.pofile(str(out / "po" / f"{lang}.po"))
        assert catalog.percent_translated() > 90
    written = {f["output"] for f in json.loads(report.read_text())["files"]}
    assert len(written) == 2 * (len(docs) + 4)
    assert not any(Path(p).name in {"package.json", "mkdocs.yml", "country-codes.csv"} for p in written)

    skipped = {s["path"]: s["reason"] for s in json.loads(report.read_text())["skipped"]}
    assert skipped.keys() == LEFT_ALONE.keys()
    for path, reason in LEFT_ALONE.items():
        assert skipped[path].startswith(reason), (path, skipped[path])
    # named on stderr: the table on a line of its own, the others by reason
    assert "hymt: skipped docs/data/country-codes.csv: needs a setting: csv needs --columns" in result.stderr
    for name in (
        "package.json",
        "tsconfig.json",
        "mkdocs.yml",
        "docker-compose.yml",
        "pyproject.toml",
        "site",
    ):
        assert name in result.stderr.split("hymt: skipped 12 file(s):")[1], name
