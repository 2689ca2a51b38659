"""Magento translation dictionaries (`i18n/en_US.csv`, `app/locale/en_US/Mage_*.csv`): read
without `--columns` as Magento reads them (the second column translated, the phrase kept), their
placeholders never sent as text: Magento 2's `%1` and `%customer_name`, Magento 1's `%s`,
`%1$s` and `%%`, Zend_Validate's `%value%`, HTML."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from engines import ATTACKS, STRING_ATTACKS, UNUSABLE, Adversary, StringAttack, assert_reported
from pipelines import segment_texts, write
from table_helpers import csv_rows, run_files, settings

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "csv"
PLACEHOLDER = re.compile(r"%[A-Za-z_]\w+%|%\d+\$[a-z]|%\d+|%[sd]|%[A-Za-z_]\w*|</?[A-Za-z][^<>]*>")


def _placeholders(value: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(value.replace("%%", "")))


PHRASES = (
    '"Hello %customer_name,","Hello %customer_name,"\n'
    '"Order #%1 of %2 (%value%)","Order #%1 of %2 (%value%)"\n'
    '"%s item(s), 100%% <b>done</b>","%s item(s), 100%% <b>done</b>"\n'
    '"50% off","50% off"\n'
)


def _sent(path: Path, columns: tuple[str, ...] = (), **options: object) -> list[str]:
    return segment_texts(path, settings(columns, **options))


def _translated(path: Path, out: Path, attack: str = "letters", **options: object) -> list[list[str]]:
    report = run_files([path], lambda: StringAttack(STRING_ATTACKS[attack]), out=out, **options)
    assert report.files_failed == 0, [f.error for f in report.files]
    (written,) = [Path(f.output) for f in report.files]  # i18n/en_US.csv: de.csv (locales)
    return csv_rows(written.read_bytes(), ",")


def test_a_dictionary_needs_no_columns_and_keeps_its_placeholders(tmp_path: Path) -> None:
    path = write(tmp_path, "app/code/Acme/Shop/i18n/en_US.csv", PHRASES)
    assert _sent(path) == [
        "Hello <s1/>,",
        "Order #<s1/> of <s2/> (<s3/>)",
        "<s1/> item(s), 100% <s2>done</s2>",
        "50% off",
    ]
    rows = _translated(path, tmp_path / "out")
    assert rows == [
        ["Hello %customer_name,", "Uryyb %customer_name,"],
        ["Order #%1 of %2 (%value%)", "Beqre #%1 bs %2 (%value%)"],
        ["%s item(s), 100%% <b>done</b>", "%s vgrz(f), 100%% <b>qbar</b>"],
        ["50% off", "50% bss"],
    ]


def test_a_percent_the_model_writes_stays_a_percent(tmp_path: Path) -> None:
    path = write(tmp_path, "app/code/Acme/Shop/i18n/en_US.csv", PHRASES)
    rows = _translated(path, tmp_path / "out", "percent")  # adds ` 100% %s %d %1$s %(name)s ... %`
    magento2, magento1 = rows[0][1], rows[2][1]
    assert magento2.startswith("Hello %customer_name, 100% %\u200bs %\u200bd %\u200b1$s")  # no escape: inert
    assert " 100%% %%s %%d %%1$s " in magento1  # sprintf's own escape


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("elasticsuite-core-en_US.csv", "vendor/smile/module-elasticsuite-core/i18n/en_US.csv"),
        ("openmage-Mage_Customer.csv", "app/locale/en_US/Mage_Customer.csv"),
    ],
)
def test_real_dictionaries_keep_every_placeholder(name: str, where: str, tmp_path: Path) -> None:
    if not (CORPUS / name).is_file():
        pytest.skip("run scripts/gather_corpus.py")
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    shutil.copyfile(CORPUS / name, path)
    assert not [text for text in _sent(path) if re.search(r"%[A-Za-z0-9]", text)]
    before = csv_rows(path.read_bytes(), ",")
    after = _translated(path, tmp_path / "out")
    assert [row[0] for row in after] == [row[0] for row in before]  # the phrases are the keys
    with_placeholders = [(a, b) for a, b in zip(before, after) if _placeholders(a[1])]
    assert len(with_placeholders) > 10
    for old, new in with_placeholders:
        assert _placeholders(new[1]) == _placeholders(old[1]), old


def test_named_columns_are_the_users_and_other_csv_files_are_plain_tables(tmp_path: Path) -> None:
    path = write(tmp_path, "app/code/Acme/Shop/i18n/en_US.csv", PHRASES)
    assert _sent(path, columns=("1",), header=False)[0] == "Hello <s1/>,"  # still phrases
    other = write(tmp_path, "data/en_US.csv", PHRASES)
    assert _sent(other, columns=("2",), header=False)[0] == "Hello %customer_name,"


SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "magento" / "i18n" / "en_US.csv"


@pytest.mark.parametrize("attack", sorted({**ATTACKS, **STRING_ATTACKS}))
def test_hostile_answers_keep_phrases_rows_and_placeholders(attack: str, tmp_path: Path) -> None:
    engine = (
        (lambda: Adversary(attack)) if attack in ATTACKS else (lambda: StringAttack(STRING_ATTACKS[attack]))
    )
    report = run_files([SAMPLE], engine, out=tmp_path / "out")
    assert report.files_failed == 0
    assert_reported(report, attack)
    before = csv_rows(SAMPLE.read_bytes(), ",")
    after = csv_rows(Path(report.files[0].output).read_bytes(), ",")
    assert [row[0] for row in after] == [row[0] for row in before]
    for old, new in zip(before, after):
        assert _placeholders(new[1]) == _placeholders(old[1]), (old, new)
        if attack in UNUSABLE:
            assert new == old
