"""Bean Validation messages (Hibernate Validator's ValidationMessages.properties): `{min}`
parameters and `${...}` EL expressions, nested braces and quoted strings included, are one
placeholder each, never sent as text; a `${0}` is still MessageFormat's `$` before `{0}`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engines import STRING_ATTACKS, StringAttack
from pipelines import segment_texts, translate_files, write
from strings_helpers import CORPUS, read_pairs

HIBERNATE = CORPUS / "properties" / "hibernate-ValidationMessages.properties"
EXPRESSION = re.compile(r"\$\{(?:[^{}']|'[^']*')*\}|\{[A-Za-z.]+\}")


def _letters(path: Path, tmp_path: Path) -> dict[str, str]:
    report, outputs = translate_files(
        [path], lambda: StringAttack(STRING_ATTACKS["letters"]), tmp_path / "out", lang="de"
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    return dict(read_pairs("properties", outputs[path].read_bytes()))


@pytest.mark.skipif(not HIBERNATE.is_file(), reason="run scripts/gather_corpus.py")
def test_hibernate_parameters_and_expressions_are_never_sent(tmp_path: Path) -> None:
    sent = "\n".join(segment_texts(HIBERNATE))
    for word in ("${", "{value}", "{min}", "inclusive", "days", "validatedValue"):
        assert word not in sent
    after = _letters(HIBERNATE, tmp_path)
    used = [(k, v) for k, v in read_pairs("properties", HIBERNATE.read_bytes()) if EXPRESSION.search(v)]
    assert len(used) > 20
    for key, value in used:
        assert EXPRESSION.findall(after[key]) == EXPRESSION.findall(value), key
    duration = "org.hibernate.validator.constraints.time.DurationMax.message"
    assert after[duration].startswith(
        "zhfg or fubegre guna${inclusive == true ? ' or equal to' : ''}${days =="
    )


def test_message_format_dollars_and_apostrophes_are_kept(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "messages.properties",
        "price=Price: ${0} (it''s {1})\nnested=Over ${max == 1 ? '{one}' : \"{many}\"} now\n",
    )
    assert segment_texts(path) == ["Price: $<s1/> (it's <s2/>)", "Over <s1/> now"]
    after = _letters(path, tmp_path)
    assert after == {
        "price": "Cevpr: ${0} (vg''f {1})",
        "nested": "Bire ${max == 1 ? '{one}' : \"{many}\"} abj",
    }
