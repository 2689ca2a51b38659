"""Merging into a YAML target that exists: what a Rails locale file keeps (comments, quoting,
block scalars, CRLF, its own root key), where new keys go, and what a broken target gets (an
error naming it, nothing written)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engines import CountingEngine
from pipelines import make_pipeline, sources_of, write
from ruamel.yaml import YAML

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.engine.pseudo import pseudo_localize as tr
from hymt_cli.reporting.report import FileReport


def run(source: Path, lang: str) -> tuple[FileReport, list[str]]:
    """`source` into `lang` with the pseudo engine; the file's report and the texts requested."""
    engine = CountingEngine(PseudoEngine())
    report = make_pipeline(engine, to=lang).run(sources_of([source]))
    assert len(report.files) == 1
    return report.files[0], engine.requested


def load(path: Path) -> object:
    return YAML(typ="safe", pure=True).load(path.read_bytes())


SOURCE = """\
en:
  # the greeting on the home page
  greeting: "Hello"
  farewell: 'Goodbye'
  about: |
    We make things.
    Since 1999.
  errors:
    blank: "can't be blank"
    taken: "has already been taken"
"""


def test_a_missing_key_goes_after_its_sibling_and_every_other_byte_stays(tmp_path: Path) -> None:
    source = write(tmp_path, "config/locales/en.yml", SOURCE)
    target = write(
        tmp_path,
        "config/locales/de.yml",
        '# Deutsch, von Hand\r\nde:\r\n  # Gruß\r\n  greeting:   "Hallo"   # kurz\r\n'
        "  about: |\r\n    Wir machen Dinge.\r\n\r\n  errors:\r\n    blank: 'muss ausgefüllt werden'\r\n",
    )
    report, requested = run(source, "de")
    assert report.status == "ok", report.error
    assert sorted(requested) == ["Goodbye", "has already been taken"]
    assert report.keys is not None and (report.keys["added"], report.keys["kept"]) == (2, 3)
    text = target.read_bytes().decode()
    # a person's lines stay byte for byte (CRLF, comments, spacing, quoting, the block scalar);
    # the new ones come after their source sibling, indented as the target indents, with CRLF
    assert text == (
        '# Deutsch, von Hand\r\nde:\r\n  # Gruß\r\n  greeting:   "Hallo"   # kurz\r\n'
        f"  farewell: '{tr('Goodbye')}'\r\n"
        "  about: |\r\n    Wir machen Dinge.\r\n\r\n  errors:\r\n    blank: 'muss ausgefüllt werden'\r\n"
        f'    taken: "{tr("has already been taken")}"\r\n'
    )
    assert "\n" not in text.replace("\r\n", "")
    again, requested = run(source, "de")
    assert requested == [] and target.read_bytes().decode() == text


def test_an_empty_value_is_filled_quoted_as_the_values_beside_it(tmp_path: Path) -> None:
    source = write(tmp_path, "locales/en.yml", 'en:\n  a: "Open"\n  b: "Close"\n  c: "Save"\n')
    target = write(tmp_path, "locales/de.yml", 'de:\n  a:\n  b: ~\n  c: "Speichern"\n')
    report, requested = run(source, "de")
    assert report.status == "ok", report.error
    assert requested == ["Open", "Close"]
    assert target.read_text() == f'de:\n  a: "{tr("Open")}"\n  b: "{tr("Close")}"\n  c: "Speichern"\n'


def test_the_target_keeps_its_own_root_key(tmp_path: Path) -> None:
    source = write(tmp_path, "locales/en.yml", "en:\n  a: Open\n  b: Close\n")
    target = write(tmp_path, "locales/pt.yml", "pt-BR:\n  a: Abrir\n")
    report, requested = run(source, "pt")
    assert report.status == "ok", report.error
    assert requested == ["Close"]
    assert target.read_text() == f"pt-BR:\n  a: Abrir\n  b: {tr('Close')}\n"


def test_a_key_the_source_turned_into_a_map_keeps_the_target_s_value(tmp_path: Path) -> None:
    source = write(
        tmp_path,
        "locales/en.yml",
        "en:\n  items:\n    one: one item\n    other: '%{count} items'\n  title: Title\n  menu: Menu\n",
    )
    target = write(
        tmp_path, "locales/de.yml", "de:\n  items: Dinge\n  title:\n    short: Titel\n  menu: Menü\n"
    )
    before = target.read_bytes()
    report, requested = run(source, "de")
    assert report.status == "ok", report.error
    assert requested == []  # the target's value stands for the key, whatever its shape now
    assert target.read_bytes() == before


def test_a_removed_key_takes_its_lines_and_the_comment_above_the_next_stays(tmp_path: Path) -> None:
    source = write(tmp_path, "locales/en.yml", "en:\n  a: One\n  c: Three\n")
    write(tmp_path, "locales/en.yml", "en:\n  a: One\n  b: |\n    Two\n    lines\n  # see c\n  c: Three\n")
    target_path = tmp_path / "locales/de.yml"
    run(source, "de")  # hymt's output: every value hymt's
    assert "b: |" in target_path.read_text()
    source.write_text("en:\n  a: One\n  # see c\n  c: Three\n")
    report, requested = run(source, "de")
    assert report.status == "ok", report.error
    assert report.keys is not None and report.keys["removed"] == 1 and requested == []
    assert target_path.read_text() == f"de:\n  a: {tr('One')}\n  # see c\n  c: {tr('Three')}\n"


def test_a_target_that_does_not_parse_is_an_error_naming_it_and_is_not_written(tmp_path: Path) -> None:
    source = write(tmp_path, "locales/en.yml", "en:\n  a: Open\n")
    target = write(tmp_path, "locales/de.yml", "de:\n  a: [Offen\n")
    other = write(tmp_path, "config/locales/en.yml", "en:\n  b: Close\n")
    engine = CountingEngine(PseudoEngine())
    report = make_pipeline(engine, to="de").run(sources_of([source, other]))
    failed, written = sorted(report.files, key=lambda f: f.status)
    assert failed.status == "failed" and failed.input == str(source)
    assert str(target) in (failed.error or "") and "not valid YAML" in (failed.error or "")
    assert target.read_text() == "de:\n  a: [Offen\n"
    assert written.status == "ok" and written.input == str(other) and Path(written.output).is_file()


def _root_blocks(text: str) -> dict[str, str]:
    """A YAML file's top-level keys and the lines of each (comments go with the key after them)."""
    blocks: dict[str, str] = {}
    key, lines = "", []
    for line in text.splitlines(keepends=True):
        if line[:1] not in ("", " ", "\t", "#", "\n", "\r") and ":" in line:
            blocks[key] = "".join(lines)
            key, lines = line.split(":")[0].strip("\"'"), []
        lines.append(line)
    blocks[key] = "".join(lines)
    return blocks


def test_a_file_of_every_locale_gains_the_target_under_its_own_root_key(tmp_path: Path) -> None:
    """minimal-mistakes' `_data/ui-text.yml` holds every locale under its own root key: its
    translation is a copy of it with the target's part filled (German: the keys `de` lacks) or
    added (Ukrainian: none yet), each root key once, every other locale's lines as they were."""
    corpus = Path(__file__).resolve().parents[2] / "shared/corpus/yaml/minimal-mistakes-ui-text.yml"
    if not corpus.is_file():
        pytest.skip("corpus file missing: yaml/minimal-mistakes-ui-text.yml (scripts/gather_corpus.py)")
    source = write(tmp_path, "_data/ui-text.yml", corpus.read_text(encoding="utf-8"))
    report = make_pipeline(PseudoEngine(), to="de,uk").run(sources_of([source]))
    assert [f.status for f in report.files] == ["ok", "ok"], [f.error for f in report.files]
    original = load(source)
    before = _root_blocks(source.read_text(encoding="utf-8"))
    assert isinstance(original, dict) and "uk" not in original
    for lang in ("de", "uk"):
        out = tmp_path / f"_data/ui-text.{lang}.yml"
        after = _root_blocks(out.read_text(encoding="utf-8"))
        # (the file ends without a line break: a new part at its end starts on a line of its own)
        kept = {k: v.rstrip() for k, v in after.items() if k != lang}
        assert kept == {k: v.rstrip() for k, v in before.items() if k != lang}
        data = load(out)
        assert isinstance(data, dict)
        assert set(data[lang]) >= set(original["en"])  # every key of the source, once (a mapping)
    german = load(tmp_path / "_data/ui-text.de.yml")
    assert isinstance(german, dict)
    people = {k: v for k, v in original["de"].items() if v}
    assert people and {k: german["de"][k] for k in people} == people  # a person's German, as it was
    assert all(german["de"][k] for k in original["en"] if original["en"][k])  # the gaps filled
