"""Translated Office files open in LibreOffice (headless): each pseudo-translated sample and
corpus file converts to PDF without error, and the PDF is not empty. Skipped where LibreOffice
is not installed (Debian: libreoffice-writer-nogui, -calc-nogui, -impress-nogui); also the
`--help` of `hymt translate` names the Office suffixes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import hymt
from pipelines import translate_files

from hymt_cli.engine.pseudo import PseudoEngine

ROOT = Path(__file__).resolve().parent.parent.parent
OFFICE = shutil.which("soffice") or shutil.which("libreoffice")
FILES = sorted(
    [*(ROOT / "samples" / "office").glob("*.*")]
    + [
        p
        for kind in ("docx", "pptx", "xlsx")
        for p in (ROOT / "shared" / "corpus" / "ooxml" / kind).glob("*.*")
    ][::6]  # (a sample of each family: LibreOffice takes seconds a file)
)


def test_translate_help_names_the_office_suffixes() -> None:
    result = hymt("translate", "--help")
    assert result.returncode == 0
    for word in (b"docx", b"pptx", b"xlsx", b".docm"):
        assert word in result.stdout


@pytest.mark.skipif(OFFICE is None, reason="LibreOffice is not installed")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_libreoffice_converts_the_translation(path: Path, tmp_path: Path) -> None:
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    assert report.files_failed == 0
    converted = tmp_path / "pdf"
    assert OFFICE is not None
    done = subprocess.run(
        [OFFICE, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to", "pdf",
         "--outdir", str(converted), str(outputs[path])],
        capture_output=True,
        timeout=180,
        check=False,
    )  # fmt: skip
    pdf = converted / (outputs[path].stem + ".pdf")
    assert done.returncode == 0 and pdf.is_file() and pdf.stat().st_size > 500, done.stderr.decode()
