"""The model's answers are untrusted in string files too: whatever it writes (tags dropped,
added or renamed; quotes, backslashes, `%`, braces, `$`, `<`, line breaks, `]]>`, half an ICU
plural), every output still parses with its format's own parser, has the source's keys in
order, and reads with exactly the source's placeholders (nothing the model wrote becomes live);
every answer that could not be used is reported, and an unusable one is never written."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from engines import ATTACKS, STRING_ATTACKS, UNUSABLE, Adversary, FaultEngine, StringAttack, assert_reported
from pipelines import translate_files
from strings_helpers import FORMAT_OF, markup, read_pairs, sample_files

from hymt_cli.engine.base import Engine
from hymt_cli.reporting.report import RunReport

ALL = {**ATTACKS, **STRING_ATTACKS}
FILES = sample_files()


def _engine(attack: str) -> Callable[[], Engine]:
    if attack in ATTACKS:
        return lambda: Adversary(attack)
    return lambda: StringAttack(STRING_ATTACKS[attack])


def _translate(
    engine: Callable[[], Engine], tmp_path: Path, lang: str = "ja"
) -> tuple[RunReport, dict[Path, Path]]:
    report, outputs = translate_files(FILES, engine, tmp_path / "out", lang=lang)
    assert report.files_failed == 0, [f.error for f in report.files if f.error]
    return report, outputs


def _key(key: str, lang: str) -> str:
    return re.sub(rf"^{lang}(?=\.)", "en", key)  # Rails' root key names the target


# What a program reads as syntax, counted by regexes of their own (not the grammar under test):
# HTML tags, Bean Validation's `{min}` and `${...}` EL expressions (properties), i18next's
# `__name__` (JSON). Where a source value has some, its translation has the same, whatever the
# model answered.
INDEPENDENT = {
    "all": re.compile(r"</?[A-Za-z][^<>{}]*>"),
    "properties": re.compile(r"\$\{(?:[^{}'\"]|'[^']*'|\"[^\"]*\"|\{[^{}]*\})*\}|(?<!\$)\{[A-Za-z][\w.]*\}"),
    "json": re.compile(r"__[A-Za-z0-9][\w.-]*?__"),
}


def _syntax_kept(fmt: str, old: str, new: str) -> bool:
    """Each kind of syntax the source value has, the translation has as well, and no more."""
    for kind in ("all", fmt):
        pattern = INDEPENDENT.get(kind)
        if pattern is not None and pattern.search(old):
            if Counter(pattern.findall(new)) != Counter(pattern.findall(old)):
                return False
    return True


def _assert_kept(outputs: dict[Path, Path], attack: str, lang: str = "ja") -> None:
    for source, output in outputs.items():
        fmt = FORMAT_OF[source.suffix]
        data = source.read_bytes()
        text = data.decode("utf-8")
        before, after = read_pairs(fmt, data), read_pairs(fmt, output.read_bytes())
        assert [_key(k, lang) for k, _ in after] == [k for k, _ in before], source.name
        for (key, old), (_, new) in zip(before, after):
            if not isinstance(old, str):
                assert new == old, (source.name, key)
                continue
            if key.endswith("@@locale"):
                continue
            assert isinstance(new, str), (source.name, key)
            assert markup(fmt, text, new, old) == markup(fmt, text, old), (source.name, key, new)
            assert _syntax_kept(fmt, old, new), (source.name, key, new)
            if attack in UNUSABLE:
                assert new == old, (source.name, key)


@pytest.mark.parametrize("attack", sorted(ALL))
def test_every_output_parses_and_keeps_its_placeholders(attack: str, tmp_path: Path) -> None:
    report, outputs = _translate(_engine(attack), tmp_path)
    assert_reported(report, attack)
    _assert_kept(outputs, attack)


@pytest.mark.parametrize("fault", FaultEngine.FAULTS)
def test_broken_tags_are_retried_repaired_or_reported(fault: str, tmp_path: Path) -> None:
    report, outputs = _translate(lambda: FaultEngine(fault), tmp_path)
    assert_reported(report, "")
    _assert_kept(outputs, "")
    tagged = sum(f.segments for f in report.files)
    assert sum(f.retried for f in report.files) > 0 or fault == "empty" or tagged == 0


@pytest.mark.parametrize("attack", ["quotes", "backslashes", "braces", "yaml_syntax", "newlines"])
def test_new_plural_forms_survive_hostile_answers(attack: str, tmp_path: Path) -> None:
    """Russian adds `few` and `many` forms: they are written from the (hostile) answers too."""
    report, outputs = _translate(_engine(attack), tmp_path, "ru")
    assert_reported(report, attack)
    for source, output in outputs.items():
        fmt = FORMAT_OF[source.suffix]
        after = read_pairs(fmt, output.read_bytes())  # parses
        before = read_pairs(fmt, source.read_bytes())
        keys = [_key(k, "ru") for k, _ in after]
        assert [k for k in keys if not re.search(r"[._](?:few|many)$", k)] == [k for k, _ in before]


def test_yaml_complex_keys_aliases_and_crlf_stay_as_they_are() -> None:
    from ruamel.yaml import YAML

    from hymt_cli.formats.yaml_strings import YamlStringsFormat

    src = (
        "base: &x A key\r\n? [a, b]\r\n: complex value here\r\n*x : aliased key\r\nq:\r\n  one: One "
        "file\r\n  other: Files\r\n"
    )
    doc = YamlStringsFormat().parse(src)
    # (`A key` is aliased as a key: translating it would rename that key)
    assert sorted(s.text for s in doc.segments if s.targets is None) == [
        "Files",
        "One file",
        "aliased key",
        "complex value here",
    ]
    out = doc.reassemble({s.id: s.text.upper() for s in doc.segments}, target_language="ru")
    loaded = YAML(typ="safe", pure=True).load(out)
    assert loaded[("a", "b")] == "COMPLEX VALUE HERE" and loaded["q"]["few"] == "FILES"
    assert loaded["A key"] == "ALIASED KEY"
    assert "\r\r" not in out and out.count("\r\n") == out.count("\n")
