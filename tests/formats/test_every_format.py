"""Every registered format, over every sample of it (samples/): the identity engine writes it back
(byte for byte, but for the edits the format documents), and a registered format without a sample
fails here, so that the identity and hostile-answer tests cover every format."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipelines import translate_files

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import FORMATS
from samples import samples, samples_of, unchanged


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_registered_format_has_a_sample(name: str) -> None:
    assert samples_of(name), f"format {name!r} has no sample under samples/"


# The real-world corpus (shared/corpus) has its own identity tests, one family of formats each
# (test_string_files, test_resource_corpus, test_table_corpus), with the edits each documents.
@pytest.mark.parametrize("sample", samples(corpus=False), ids=lambda s: s.name)
def test_identity_writes_every_sample_back(sample, tmp_path: Path) -> None:
    report, outputs = translate_files(
        [sample.path], IdentityEngine(), tmp_path / "out", options=sample.options, lang=sample.identity_target
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    assert report.untranslated == 0
    assert unchanged(sample, outputs[sample.path]), sample.name


def test_a_table_cell_is_parsed_as_a_registered_document_format() -> None:
    """--cell-format's choices are declared once (its Literal) and each is a registered format."""
    from hymt_cli.formats import document_format, text_format_names
    from hymt_cli.settings.schema import setting_named

    assert setting_named("cell_format").choices == text_format_names() == ("txt", "md", "html")
    for name in text_format_names():
        assert document_format(name).name == name
