"""Real string files (tests/corpus, see SOURCES) and the samples, through the pipeline: identity
gives the file back byte for byte; the pseudo engine gives a file that the format's own parser
reads (json, ruamel.yaml, tomllib, javaproperties) with the same keys in the same order, the
same placeholders in every value, every value it did not translate unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pipelines import translate_files
from strings_helpers import (
    FORMAT_OF,
    corpus_files,
    markup,
    read_pairs,
    sample_files,
    source_language,
    without_added_icu_forms,
    without_new_plural_forms,
)

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import OPEN, PseudoEngine
from hymt_cli.formats import ReadSizes

FILES = corpus_files() + sample_files()
SEVERAL_LOCALES = {"minimal-mistakes-ui-text.yml"}  # a Jekyll theme's `_data/ui-text.yml`
BY_LANGUAGE: dict[str, list[Path]] = {}
for _path in FILES:
    BY_LANGUAGE.setdefault(source_language(_path), []).append(_path)


@pytest.mark.skipif(not corpus_files(), reason="no corpus in shared/corpus: run scripts/gather_corpus.py")
def test_the_corpus_has_three_real_files_per_format_and_big_ones() -> None:
    per_format: dict[str, int] = {}
    for path in corpus_files():
        per_format[FORMAT_OF[path.suffix]] = per_format.get(FORMAT_OF[path.suffix], 0) + 1
    assert all(per_format.get(f, 0) >= 3 for f in ("json", "arb", "yaml", "toml", "properties")), per_format
    assert sum(p.stat().st_size > 100_000 for p in corpus_files()) >= 4
    listed = (Path(__file__).parent.parent / "corpus" / "SOURCES").read_text(encoding="utf-8")
    for path in corpus_files():
        assert f"{path.parent.name}/{path.name}\t" in listed, path


def _run(
    paths: list[Path], lang: str, engine: type, out: Path, sizes: ReadSizes | None = None
) -> dict[Path, Path]:
    sized = {"read_sizes": sizes} if sizes is not None else {}
    report, outputs = translate_files(paths, engine, out, lang=lang, **sized)
    assert report.files_failed == 0, [f.error for f in report.files if f.error]
    return outputs


@pytest.mark.parametrize("lang", sorted(BY_LANGUAGE))
def test_identity_gives_every_file_back_byte_for_byte(lang: str, tmp_path: Path) -> None:
    # small units: files are translated and written in many windows, as a huge file is
    small = ReadSizes(segments_per_unit=64)
    for source, output in _run(BY_LANGUAGE[lang], lang, IdentityEngine, tmp_path, small).items():
        data, written = source.read_bytes(), output.read_bytes()
        if written != data:  # a file lacking categories of its own language gets them (documented)
            text = data.decode("utf-8")
            fmt = FORMAT_OF[source.suffix]
            if fmt not in ("json", "arb"):
                assert without_new_plural_forms(text, written.decode("utf-8")) == text, source.name
                continue
            # an ICU plural gains its categories inline: the values less those branches are the source's
            before, after = read_pairs(fmt, data), read_pairs(fmt, written)
            assert [
                (k, without_added_icu_forms(v, old) if isinstance(v, str) else v)
                for (k, v), (_, old) in zip(after, before)
            ] == before, source.name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pseudo_output_parses_with_the_same_keys_and_placeholders(path: Path, tmp_path: Path) -> None:
    if path.name in SEVERAL_LOCALES:
        pytest.skip("every locale in one file: its own language's part is the source (test_merge_yaml)")
    lang = source_language(path)  # the same plural categories: no form is added
    [(source, output)] = _run([path], lang, PseudoEngine, tmp_path).items()
    fmt = FORMAT_OF[path.suffix]
    data = source.read_bytes()
    text = data.decode("utf-8", "replace")
    before, after = read_pairs(fmt, data), read_pairs(fmt, output.read_bytes())
    new_forms = set(_added_plural_keys(before, after))
    after = [(k, v) for k, v in after if k not in new_forms]
    assert [k for k, _ in after] == [k for k, _ in before]
    translated = 0
    for (key, old), (_, new) in zip(before, after):
        if not isinstance(old, str):
            assert new == old, key
            continue
        assert isinstance(new, str), key
        if new == old:
            continue
        translated += 1
        assert OPEN in new, key  # changed only by translation
        assert markup(fmt, text, without_added_icu_forms(new, old), old) == markup(fmt, text, old), key
    assert translated > 0


def _added_plural_keys(before: list[tuple[str, object]], after: list[tuple[str, object]]) -> list[str]:
    """Keys the output adds that name a plural category (a file lacking some of its own)."""
    old = {k for k, _ in before}
    return [k for k, _ in after if k not in old and re.search(r"(?:^|[._])(?:zero|one|two|few|many)$", k)]
