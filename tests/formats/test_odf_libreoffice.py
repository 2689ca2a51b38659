"""LibreOffice, where the system has it, opens what hymt writes: every translated ODF sample and
corpus file is converted headless (text documents to text, spreadsheets to CSV, presentations to
PDF), and the text it reads is the translation. Skipped where `soffice` is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pipelines import translate_files

from hymt_cli.engine.pseudo import PseudoEngine

ROOT = Path(__file__).resolve().parents[2]
SOFFICE = shutil.which("soffice")
FILES = sorted((ROOT / "samples" / "office").glob("*.od?")) + sorted(
    (ROOT / "shared" / "corpus" / "odf").glob("*.od?")
)
CONVERSIONS = {
    ".odt": "txt:Text (encoded):UTF8",
    ".ods": "csv:Text - txt - csv (StarCalc):44,34,76",
    ".odp": "pdf",
}

pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")


@pytest.mark.parametrize("lang", ["de", "ar"])
def test_libreoffice_converts_every_translated_file(lang: str, tmp_path: Path) -> None:
    report, outputs = translate_files(FILES, PseudoEngine(), tmp_path / "out", lang=lang)
    assert report.files_failed == 0
    converted = tmp_path / "converted"
    for suffix, target in CONVERSIONS.items():
        inputs = [str(outputs[p]) for p in FILES if p.suffix == suffix]
        subprocess.run(
            [SOFFICE, "--headless", "--norestore", f"-env:UserInstallation=file://{tmp_path}/profile",
             "--convert-to", target, "--outdir", str(converted), *inputs],
            check=True, capture_output=True, timeout=600,
        )  # fmt: skip
    for path in FILES:
        extension = {".odt": ".txt", ".ods": ".csv", ".odp": ".pdf"}[path.suffix]
        result = converted / (outputs[path].stem + extension)
        assert result.is_file() and result.stat().st_size > 0, path.name
        if extension != ".pdf" and path.name not in (
            "odftoolkit-annotation.odt",
            "odftoolkit-testEmbeddedDoc.odt",
        ):
            assert "⟦" in result.read_text(encoding="utf-8", errors="replace"), path.name
