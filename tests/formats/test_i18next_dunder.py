"""i18next's `__name__` interpolation (its `__` prefix and suffix, the first default; node-red's
locale files): a placeholder like `{{name}}`, never sent as text; a file using it (or v3
`_plural` keys) is an i18next file; a `__x__` the model invents is made inert."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engines import STRING_ATTACKS, StringAttack
from pipelines import segment_texts, translate_files, write
from strings_helpers import CORPUS, read_pairs

NODE_RED = [CORPUS / "json" / "node-red-runtime.json", CORPUS / "json" / "node-red-editor.json"]
DUNDER = re.compile(r"__[A-Za-z0-9$][A-Za-z0-9_.$-]*?__")
ERRORS = (
    '{\n  "errors": "Failed to register __count__ node type",\n'
    '  "errors_plural": "Failed to register __count__ node types"\n}\n'
)


@pytest.mark.skipif(not all(p.is_file() for p in NODE_RED), reason="run scripts/gather_corpus.py")
@pytest.mark.parametrize("path", NODE_RED, ids=lambda p: p.name)
def test_node_red_placeholders_are_never_sent_and_come_back_as_written(path: Path, tmp_path: Path) -> None:
    sent = segment_texts(path)
    assert sent and not [text for text in sent if DUNDER.search(text)]
    report, outputs = translate_files(
        [path], lambda: StringAttack(STRING_ATTACKS["letters"]), tmp_path / "out", lang="de"
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    before, after = (
        read_pairs("json", path.read_bytes()),
        dict(read_pairs("json", outputs[path].read_bytes())),
    )
    used = [(key, value) for key, value in before if isinstance(value, str) and DUNDER.search(value)]
    assert len(used) > 50
    for key, value in used:
        assert DUNDER.findall(after[key]) == DUNDER.findall(value), key
        assert after[key] != value, key  # translated (every letter outside the placeholders)


def test_a_file_with_dunder_placeholders_is_i18next_and_invented_ones_are_inert(tmp_path: Path) -> None:
    path = write(tmp_path, "locales/en-US/messages.json", ERRORS)
    assert segment_texts(path) == [
        "Failed to register <s1/> node type",
        "Failed to register <s1/> node types",
    ]
    report, outputs = translate_files(
        [path], lambda: StringAttack(lambda t: t + " __evil__ {{x}}"), tmp_path / "out", lang="de"
    )
    assert report.files_failed == 0
    values = dict(read_pairs("json", outputs[path].read_bytes()))
    assert values["errors"] == "Failed to register __count__ node type _\u200b_evil__ {\u200b{x}}"


def test_a_dunder_key_does_not_make_a_file_i18next(tmp_path: Path) -> None:
    path = write(
        tmp_path, "locales/en/app.json", '{\n  "__comment__": "ICU messages",\n  "hi": "Hello {name}"\n}\n'
    )
    assert segment_texts(path) == ["ICU messages", "Hello <s1/>"]  # {name}: an ICU argument, as before
