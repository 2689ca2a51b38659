"""The QA number check reads an answer's numbers the way the target locale writes them (CLDR's
symbols): Swiss German writes 1’299.00, German 1.299,00. From a French source (1 299,00), a run
into both keeps the Swiss answer for de-CH and rejects it for de, as it did before locales."""

from __future__ import annotations

from pathlib import Path

from engines import Faulty
from pipelines import run_pipeline

from hymt_cli.engine.base import Generation
from hymt_cli.qa import QaSuite, check_answer

SOURCE = "Prix : 1 299,00 € TTC."
SWISS = "Preis: 1’299.00 € inkl. MwSt."


def test_number_symbols_are_the_locales() -> None:
    assert not [f for f in check_answer(SOURCE, SWISS, "de-CH") if f.check == "number"]
    assert [f for f in check_answer(SOURCE, SWISS, "de") if f.check == "number"]
    assert [f for f in check_answer(SOURCE, SWISS, "fr-CH") if f.check == "number"]  # 1 299,00 there


def test_a_run_checks_each_target_by_its_locale(tmp_path: Path) -> None:
    path = tmp_path / "price.txt"
    path.write_text(SOURCE + "\n", encoding="utf-8")
    engine = Faulty(lambda request: Generation(SWISS, "stop", 9))
    report = run_pipeline([path], engine, to=("de-CH", "de"), out_dir=tmp_path / "out", qa=QaSuite())
    by_lang = {f.lang: f for f in report.files}
    assert (by_lang["de-CH"].translated, by_lang["de-CH"].untranslated) == (1, 0)
    assert (by_lang["de"].translated, by_lang["de"].untranslated) == (0, 1)  # rejected, source kept
    assert (tmp_path / "out/de-CH/price.txt").read_text(encoding="utf-8") == SWISS + "\n"
    assert (tmp_path / "out/de/price.txt").read_text(encoding="utf-8") == SOURCE + "\n"
