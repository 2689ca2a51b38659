"""A `.properties` file that is not valid UTF-8 is read as ISO-8859-1 (what Java 9+ falls back to
and Java 8 reads) and written so, and the run says so: a warning on stderr, through the file's
report, naming the file and the first byte that is not UTF-8. A UTF-8 or ASCII file is read
without a word."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import hymt
from pipelines import run_pipeline, write
from strings_helpers import CORPUS

from hymt_cli.engine.pseudo import PseudoEngine

ITALIAN = CORPUS / "properties" / "jenkins-latin1-Messages_it.properties"


def test_latin1_bytes_are_read_as_iso_8859_1_with_a_warning(tmp_path: Path) -> None:
    path = write(
        tmp_path, "src/Messages.properties", "save=Save\ntitle=Caf\u00e9 cr\u00e8me\n".encode("latin-1")
    )
    report = run_pipeline([path], PseudoEngine, to="de", out_dir=tmp_path / "out")
    [file] = report.files
    assert file.status == "ok" and file.warning == (
        f"{path}: not valid UTF-8 (line 2, byte offset 19: invalid continuation byte): read as "
        "ISO-8859-1, as Java reads such a bundle, and written so (\\uXXXX for what it lacks); if it is "
        "in another encoding, convert it to UTF-8 first"
    )
    assert Path(file.output or "").read_bytes().startswith(b"save=\\u27E6\\u0160\xe1\\u1E7D\xe9 ")
    result = hymt(
        "translate", str(path), "--to", "de,fr", "--engine", "pseudo", "-o", str(tmp_path / "cli"), text=True
    )
    assert result.returncode == 0 and result.stdout == ""
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: {file.warning}"
    ]


@pytest.mark.parametrize("text", ["save=Save\n", "title=Caf\u00e9 cr\u00e8me \u65e5\u672c\n"])
def test_ascii_and_utf8_files_are_read_without_a_word(text: str, tmp_path: Path) -> None:
    path = write(tmp_path, "src/Messages.properties", text)
    [file] = run_pipeline([path], PseudoEngine, to="de", out_dir=tmp_path / "out").files
    assert file.status == "ok" and file.warning is None


@pytest.mark.skipif(not ITALIAN.is_file(), reason="run scripts/gather_corpus.py")
def test_jenkins_italian_bundle_is_named_in_a_warning(tmp_path: Path) -> None:
    [file] = run_pipeline([ITALIAN], PseudoEngine, to="it", out_dir=tmp_path / "out").files
    assert file.status == "ok"
    assert file.warning is not None and file.warning.startswith(f"{ITALIAN}: not valid UTF-8 (line ")
    assert "read as ISO-8859-1" in file.warning
