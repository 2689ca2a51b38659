"""Choosing files in folders (issue 27): --include and --exclude globs (.gitignore syntax, from
the command line or a config file, relative to where they are written), what git ignores, and a
table without --columns, which a folder walk names and leaves alone instead of failing the run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.inputs.discovery import DiscoveryRules, find_inputs

PSEUDO = ("--engine", "pseudo", "--no-cache")


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _found(rules: DiscoveryRules, *inputs: str) -> tuple[list[str], dict[str, str]]:
    found = find_inputs(list(inputs) or ["."], rules)
    assert not found.problems, found.problems
    return sorted(Path(s.path).as_posix() for s in found.sources if s.path), {
        Path(s.path).as_posix(): s.reason for s in found.skipped
    }


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _tree(
        tmp_path,
        {
            "README.md": "# Project\n",
            "docs/guide.md": "# Guide\n",
            "docs/drafts/wip.md": "# Draft\n",
            "docs/api/ref.md": "# Reference\n",
            "docs/notes.txt": "Notes.\n",
            "node_modules/pkg/readme.md": "# A package\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_exclude_prunes_folders_and_names_the_glob(project: Path) -> None:
    found, skipped = _found(DiscoveryRules(exclude=("drafts/", "node_modules/", "*.txt")))
    assert found == ["README.md", "docs/api/ref.md", "docs/guide.md"]
    assert skipped["docs/drafts"] == "excluded: exclude 'drafts/'"
    assert skipped["node_modules"] == "excluded: exclude 'node_modules/'"
    assert skipped["docs/notes.txt"] == "excluded: exclude '*.txt'"


def test_include_with_double_star_and_a_negated_exclude(project: Path) -> None:
    found, skipped = _found(DiscoveryRules(include=("docs/**/*.md",), exclude=("*.md", "!ref.md")))
    assert found == ["docs/api/ref.md"]
    assert skipped["README.md"] == "excluded: exclude '*.md'"
    assert skipped["docs/notes.txt"] == "not included: no include glob matches it"


def test_globs_are_relative_to_the_current_folder_whatever_the_input(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "docs")
    found, _ = _found(DiscoveryRules(exclude=("/api/",)), "..")
    assert "../docs/api/ref.md" not in found and "../docs/guide.md" in found


def test_what_git_ignores_is_left_alone_unless_asked(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("node_modules/\n")
    (project / "docs" / ".gitignore").write_text("drafts/\n*.md\n!keep.md\n")
    (project / "docs" / "keep.md").write_text("# Kept\n")
    found, skipped = _found(DiscoveryRules())
    assert found == ["README.md", "docs/keep.md", "docs/notes.txt"]
    assert skipped["node_modules"] == "ignored by git: .gitignore: node_modules/ (--no-gitignore takes it)"
    assert skipped["docs/guide.md"].startswith("ignored by git: docs/.gitignore: *.md")
    # git itself agrees
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=project, capture_output=True, text=True
    ).stdout.split()
    assert sorted(p for p in listed if not p.endswith(".gitignore")) == found
    everything, _ = _found(DiscoveryRules(gitignore=False))
    assert len(everything) == 7
    # a folder that git ignores, named as the input, is read (git add -f takes it too)
    named, _ = _found(DiscoveryRules(), "node_modules")
    assert named == ["node_modules/pkg/readme.md"]


def test_a_folder_run_names_a_table_without_columns_and_goes_on(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "docs/index.md": "# Welcome\n",
            "docs/data/developers.csv": "name,role\nAda,Maintainer\n",
        },
    )
    report = tmp_path / "report.json"
    result = hymt(
        "translate", "docs", "--to", "de", *PSEUDO, "--no-config", "--report", str(report),
        cwd=tmp_path, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "docs" / "index.de.md").is_file()
    assert not (tmp_path / "docs" / "data" / "developers.de.csv").exists()
    assert (
        "hymt: skipped docs/data/developers.csv: needs a setting: csv needs --columns "
        "(or columns in a [[files]] entry)" in result.stderr
    )
    skipped = json.loads(report.read_text())["skipped"]
    assert [s["path"] for s in skipped] == ["docs/data/developers.csv"]
    named = hymt(
        "translate", "docs/data/developers.csv", "--to", "de", *PSEUDO, "--no-config", cwd=tmp_path, text=True
    )
    assert named.returncode == 1 and "csv needs --columns" in named.stderr


def test_config_globs_are_relative_to_the_config_file(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "hymt.toml": 'exclude = ["docs/drafts/", "*.txt"]\ninclude = ["docs/**"]\n',
            "docs/guide.md": "# Guide\n",
            "docs/notes.txt": "Notes.\n",
            "docs/drafts/wip.md": "# Draft\n",
            "other/x.md": "# Other\n",
        },
    )
    # run from a subfolder: the file's globs still mean the file's folder
    result = hymt(
        "translate", "..", "--to", "de", *PSEUDO, "--dry-run", "-v", cwd=tmp_path / "docs", text=True
    )
    assert result.returncode == 0, result.stderr
    assert "plan: 1 file(s)" in result.stderr  # docs/guide.md
    assert "skipped ../docs/drafts: excluded: exclude '../docs/drafts/'" in result.stderr
    assert "skipped ../docs/notes.txt: excluded: exclude '../**/*.txt'" in result.stderr
    assert "skipped ../other/x.md: not included" in result.stderr
    shown = hymt("config", cwd=tmp_path / "docs", text=True).stdout
    assert 'exclude = ["../docs/drafts/", "../**/*.txt"]' in shown


def test_a_config_file_in_a_strings_folder_is_never_an_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`i18n/hymt.toml` says how the CSV dictionaries beside it are read (Magento's layout): a
    folder that shows strings takes `.toml` files as catalogs, but never hymt's own config."""
    _tree(
        tmp_path,
        {"i18n/en_US.csv": '"Hello","Hello"\n', "i18n/hymt.toml": 'columns = ["2"]\nheader = false\n'},
    )
    monkeypatch.chdir(tmp_path)
    sources, skipped = _found(DiscoveryRules(), ".")
    assert "i18n/hymt.toml" not in sources
    assert skipped["i18n/hymt.toml"] == "hymt's config file"
