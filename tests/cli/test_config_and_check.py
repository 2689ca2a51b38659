"""What a CI job needs (issue 11): a project config file (hymt.toml or [tool.hymt]) with the
precedence flags > HYMT_* > config > defaults and `hymt config` showing each origin;
`hymt translate --check` listing missing or stale outputs without an engine; the report's
JSON Schema in the repository."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from clirun import ROOT, hymt

from hymt_cli.errors import ExitCode

CONFIG = """\
inputs = ["docs"]
to = ["de", "fr"]
engine = "pseudo"
cache = ".hymt/memory.sqlite3"
strict = true
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nRead me first.\n")
    (tmp_path / "docs" / "faq.txt").write_text("Why?\n\nBecause.\n")
    (tmp_path / "hymt.toml").write_text(CONFIG)
    (tmp_path / "sub").mkdir()
    return tmp_path


def _origins(result_stdout: str) -> dict[str, tuple[str, str]]:
    found = {}
    for line in result_stdout.splitlines():
        if line.startswith("#") or "=" not in line:
            continue
        setting, origin = line.split("# ", 1)
        key, value = setting.split(" = ", 1)
        found[key.strip()] = (value.strip(), origin.strip())
    return found


def test_a_ci_step_is_just_hymt_translate(project: Path) -> None:
    result = hymt("translate", cwd=project / "sub", text=True)  # found upward, paths relative to the file
    assert result.returncode == 0, result.stderr
    for name in ("guide.de.md", "guide.fr.md", "faq.de.txt", "faq.fr.txt"):
        assert (project / "docs" / name).is_file()
    assert (project / ".hymt" / "memory.sqlite3").is_file()


def test_precedence_flags_env_config_defaults(project: Path) -> None:
    env = {"HYMT_ENGINE": "identity", "HYMT_TO": "ja", "HYMT_TOP_K": "5"}
    result = hymt("config", "--to", "ko", cwd=project / "sub", env=env, text=True)
    assert result.returncode == 0, result.stderr
    origins = _origins(result.stdout)
    assert origins["to"] == ('"ko"', "flag --to")
    assert origins["engine"] == ('"identity"', "env HYMT_ENGINE")
    assert origins["top-k"] == ("5", "env HYMT_TOP_K")
    assert origins["strict"] == ("true", f"config {Path('..') / 'hymt.toml'}")
    assert origins["inputs"][0] == f'["{Path("..") / "docs"}"]'
    assert origins["temperature"] == ("0.7", "default")
    assert result.stdout.startswith(f"# config file: {project / 'hymt.toml'}")


def test_pyproject_tool_hymt_is_a_config_and_no_config_ignores_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.hymt]\nto = "es"\nstrict = true\n'
    )
    shown = _origins(hymt("config", cwd=tmp_path, text=True).stdout)
    assert shown["to"] == ('"es"', "config pyproject.toml")
    ignored = _origins(hymt("config", "--no-config", cwd=tmp_path, text=True).stdout)
    assert ignored["strict"] == ("false", "default")


@pytest.mark.parametrize(
    "text, words",
    [
        ('"tō" = "de"', "unknown setting"),
        ("tempreature = 0.5", "did you mean 'temperature'?"),
        ('top-k = "many"', "top-k must be a whole number"),
        ('to = "de"\nto = "fr"', "hymt.toml"),
        ("temperature = -2.0", "--temperature must be at least 0"),
    ],
)
def test_config_errors_are_one_line_exit_2(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "hymt.toml").write_text(text + "\n")
    (tmp_path / "a.txt").write_text("Hi.\n")
    result = hymt("translate", "a.txt", "--to", "de", "--engine", "pseudo", cwd=tmp_path, text=True)
    assert result.returncode == ExitCode.USAGE, result.stderr
    assert result.stderr.startswith("error: ") and words in result.stderr
    assert len(result.stderr.splitlines()) <= 2


def test_an_environment_value_of_the_wrong_type_is_a_usage_error(tmp_path: Path) -> None:
    result = hymt("translate", "a.txt", "--to", "de", cwd=tmp_path, env={"HYMT_STRICT": "perhaps"}, text=True)
    assert result.returncode == ExitCode.USAGE
    assert result.stderr.startswith("error: HYMT_STRICT='perhaps': not a valid bool")


def test_check_lists_missing_and_stale_outputs_without_an_engine(project: Path) -> None:
    before = hymt("translate", "--check", cwd=project, text=True)
    assert before.returncode == ExitCode.STALE
    assert (
        before.stderr.count(": missing") == 4 and "error: 4 of 4 output(s) missing or stale" in before.stderr
    )
    assert hymt("translate", cwd=project).returncode == 0
    fresh = hymt("translate", "--check", cwd=project, text=True)
    assert fresh.returncode == 0, fresh.stderr
    assert "all 4 output(s) up to date" in fresh.stderr
    # a source edited, an output deleted, a hand edit (kept, noted), the settings changed
    (project / "docs" / "faq.txt").write_text("Why?\n\nBecause it is so.\n")
    (project / "docs" / "guide.fr.md").unlink()
    de = project / "docs" / "guide.de.md"
    de.write_text(de.read_text() + "\nEdited by a reviewer.\n")
    stale = hymt("translate", "--check", cwd=project, text=True)
    assert stale.returncode == ExitCode.STALE
    lines = stale.stderr.splitlines()
    assert f"stale: {Path('docs') / 'faq.de.txt'}: the source changed ({Path('docs') / 'faq.txt'})" in lines
    assert f"stale: {Path('docs') / 'guide.fr.md'}: missing" in lines
    assert f"note: {Path('docs') / 'guide.de.md'}: edited since hymt wrote it (kept)" in lines
    assert "error: 3 of 4 output(s) missing or stale" in stale.stderr
    other = hymt("translate", "--check", "--engine", "identity", cwd=project, text=True)
    assert "written with another model, glossary, sampling or prompt template" in other.stderr
    terms = project / "terms.tsv"
    terms.write_text("source\ttarget\nGuide\tLeitfaden\n")
    glossary = hymt("translate", "--check", "--glossary", str(terms), cwd=project, text=True)
    assert "written with another model, glossary, sampling or prompt template" in glossary.stderr


def test_check_with_an_output_folder(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("One.\n")
    args = ("docs", "--to", "de", "-o", "out", "--engine", "pseudo", "--no-cache", "--no-config")
    assert hymt("translate", *args, cwd=tmp_path).returncode == 0
    assert hymt("translate", *args, "--check", cwd=tmp_path).returncode == 0
    (tmp_path / "docs" / "b.txt").write_text("Two.\n")
    result = hymt("translate", *args, "--check", cwd=tmp_path, text=True)
    assert result.returncode == ExitCode.STALE
    assert f"stale: {Path('out') / 'de' / 'b.txt'}: missing" in result.stderr


def test_the_report_follows_its_json_schema(tmp_path: Path) -> None:
    schema = json.loads((ROOT / "schemas" / "report-3.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    # the schema of the reports written before QA flags stays, for them
    jsonschema.Draft202012Validator.check_schema(
        json.loads((ROOT / "schemas" / "report-2.schema.json").read_text())
    )
    (tmp_path / "a.txt").write_text("Hello.\n\nWorld.\n")
    (tmp_path / "a.fr.txt").write_text("An old translation.\n")
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9\n")
    terms = tmp_path / "terms.tsv"
    terms.write_text("source\ttarget\nWorld\tMonde\n")
    result = hymt(
        "translate",
        ".",
        "--to",
        "de,fr",
        "--engine",
        "pseudo",
        "--no-cache",
        "--glossary",
        str(terms),
        "--report",
        "r.json",
        cwd=tmp_path,
        text=True,
    )
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED
    report = json.loads((tmp_path / "r.json").read_text())
    jsonschema.validate(report, schema)
    assert report["schema"] == schema["properties"]["schema"]["const"]
    assert report["status"] == "failed" and report["exit_code"] == 1


def test_serve_args_reads_the_settings_translate_reads(tmp_path: Path) -> None:
    """The served fleet gets the engine settings a local run would use: the config file's and the
    environment's too (serve-args read only its flags), flags first."""
    (tmp_path / "hymt.toml").write_text('max-model-len = 4096\nmodel = "org/from-config"\n', encoding="utf-8")
    env = {"HYMT_SEED": "7"}
    words = hymt("serve-args", "--cpu", cwd=tmp_path, env=env, text=True).stdout.split()
    assert words[2] == "org/from-config"
    assert words[words.index("--max-model-len") + 1] == "4096" and words[words.index("--seed") + 1] == "7"
    words = hymt(
        "serve-args", "--cpu", "--max-model-len", "2048", cwd=tmp_path, env=env, text=True
    ).stdout.split()
    assert words[words.index("--max-model-len") + 1] == "2048"
    words = hymt("serve-args", "--cpu", "--no-config", cwd=tmp_path, env=env, text=True).stdout.split()
    assert words[2] == "tencent/HY-MT1.5-1.8B" and "4096" not in words
