"""Through the real memory: pt-BR and pt-PT never share a translation (neither a model answer nor
a reviewed one, and one run asks for each), while pt-BR is pt (CLDR: Portuguese as written in
Brazil) and reuses what pt stored."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import hymt

from hymt_cli.memory import TranslationMemory

TEXT = "Save the file.\n\nOpen the folder.\n"


def _translate(folder: Path, to: str, memory: Path, name: str) -> dict[str, object]:
    report = folder / f"{name}.json"
    result = hymt(
        "translate", "a.txt", "--to", to, "--engine", "pseudo", "--cache", str(memory),
        "--report", str(report), "--overwrite", text=True, cwd=folder,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))
    return found


def test_brazil_and_portugal_never_share_a_translation(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    memory = tmp_path / "memory.sqlite"
    reviewed = tmp_path / "reviewed.jsonl"
    reviewed.write_text(
        json.dumps(
            {
                "source": "Save the file.",
                "target": "Guardar o ficheiro.",
                "src_lang": "en",
                "tgt_lang": "pt_PT",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    imported = hymt("tm", "import", str(reviewed), "--cache", str(memory), text=True)
    assert imported.returncode == 0, imported.stderr

    first = _translate(tmp_path, "pt-BR,pt-PT", memory, "first")
    assert first["engine_requests"] == 3  # two texts for pt-BR, one for pt-PT: never one request for both
    portugal = (tmp_path / "a.pt-PT.txt").read_text(encoding="utf-8")
    brazil = (tmp_path / "a.pt-BR.txt").read_text(encoding="utf-8")
    assert portugal.startswith("Guardar o ficheiro.\n\n") and "ficheiro" not in brazil

    with TranslationMemory.open(memory, readonly=True) as stored:
        kept = {(e.tgt_lang, e.source, e.origin) for e in stored.entries()}
    assert ("pt", "Save the file.", "model") in kept and ("pt-PT", "Open the folder.", "model") in kept
    assert ("pt-PT", "Save the file.", "import") in kept and ("pt", "Save the file.", "import") not in kept

    again = _translate(tmp_path, "pt,pt-BR,pt_PT", memory, "again")  # pt is pt-BR: one memory
    assert again["engine_requests"] == 0
    assert (tmp_path / "a.pt.txt").read_text(encoding="utf-8") == brazil
    assert (tmp_path / "a.pt-PT.txt").read_text(encoding="utf-8") == portugal
