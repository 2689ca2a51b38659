"""Loading glossaries: every format, and errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipelines import write

from hymt_cli.errors import ExitCode
from hymt_cli.glossary import GlossaryError, load_entries, load_glossaries
from hymt_cli.text.languages import language

ROOT = Path(__file__).resolve().parents[2]


def targets(entries, source):
    return {(e.target_lang, e.target) for e in entries if e.source == source}


def test_tsv_with_target_lang_case_and_dnt(tmp_path):
    path = write(
        tmp_path,
        "g.tsv",
        "source\ttarget\ttarget_lang\tcase_sensitive\tnote\n"
        "Cloud Storage\tCloud-Speicher\tde\tfalse\tproduct\n"
        "\n"
        "Settings\tEinstellungen\tde-DE\tyes\t\n"
        "AcmeSync\t\t\ttrue\tbrand\n",
    )
    entries = load_entries(path)
    assert targets(entries, "Cloud Storage") == {("de", "Cloud-Speicher")}
    settings = next(e for e in entries if e.source == "Settings")
    assert settings.case_sensitive and settings.target_lang == "de" and settings.origin == f"{path}:4"
    brand = next(e for e in entries if e.source == "AcmeSync")
    assert brand.dnt and brand.target_lang is None


def test_csv_language_columns_serve_several_targets(tmp_path):
    path = write(tmp_path, "g.csv", 'source,de,fr,note\nSign in,Anmelden,Se connecter,"button, primary"\n')
    assert targets(load_entries(path), "Sign in") == {("de", "Anmelden"), ("fr", "Se connecter")}


def test_json_targets_and_do_not_translate(tmp_path):
    path = write(
        tmp_path,
        "g.json",
        '{"terms": [{"source": "free tier", "targets": {"de": "Gratis", "fr": "gratuit"}}],\n'
        ' "do_not_translate": ["Acme Cloud", {"source": "kubectl", "case_sensitive": false}]}',
    )
    entries = load_entries(path)
    assert targets(entries, "free tier") == {("de", "Gratis"), ("fr", "gratuit")}
    dnt = {e.source: e.case_sensitive for e in entries if e.dnt}
    assert dnt == {"Acme Cloud": True, "kubectl": False}


def test_tbx_concepts_serve_every_direction_and_skip_deprecated_targets():
    entries = load_entries(ROOT / "glossaries" / "zh-en.tbx")
    assert ("en", "Object Storage") in targets(entries, "对象存储")
    assert ("de", "Objektspeicher") in targets(entries, "对象存储")
    assert ("zh", "对象存储") in targets(entries, "Object Storage")
    # "storage container" is deprecated: a source for 存储桶, never a target
    assert targets(entries, "存储桶") == {("en", "bucket")}
    assert targets(entries, "storage container") == {("zh", "存储桶")}
    acme = [e for e in entries if e.source == "Acme Cloud"]
    assert acme and all(e.dnt for e in acme)


def test_example_glossaries_load_together():
    glossary = load_glossaries(sorted((ROOT / "glossaries").iterdir()))
    assert len(glossary.entries) > 20 and len(glossary.digest) == 16


@pytest.mark.parametrize(
    ("name", "text", "where", "message"),
    [
        ("bad.tsv", "source\ttarget\nA\tB\nC\tD\tE\n", ":3:", "malformed row"),
        (
            "bad.tsv",
            "source\ttarget\ttarget_lang\nA\tB\tde\nC\tD\tklingon\n",
            ":3:",
            "unknown language code 'klingon'",
        ),
        ("bad.tsv", "source\tcible\n", ":1:", "unknown column 'cible'"),
        (
            "bad.tsv",
            "source\ttarget\tcase_sensitive\nA\tB\tmaybe\n",
            ":2:",
            "case_sensitive must be true or false",
        ),
        ("bad.csv", "source,target\nA,B\n,C\n", ":3:", "empty source term"),
        ("bad.csv", 'source,target\nA,B\n"C,D\n', ":3:", "malformed row"),
        (
            "bad.json",
            '{"terms": [\n  {"source": "a", "targets": {"de": "b"}},\n  {"source": "c" "targets": {}}]}',
            ":3:",
            "invalid JSON",
        ),
        (
            "bad.json",
            '{"terms": [\n  {"source": "a", "targets": {"de": "b"}},\n  {"source": "c", "targets": {"xx": '
            '"d"}}]}',
            ":3:",
            "unknown language code 'xx'",
        ),
        (
            "bad.json",
            '{"terms": [\n  {"source": "a", "targets": {"de": "b"}},\n\n  {"source": "c", "tagets": {"de": '
            '"d"}}]}',
            ":4:",
            "unknown key(s) tagets",
        ),
        (
            "bad.tbx",
            "<martif>\n<text><body>\n<termEntry><langSet "
            'xml:lang="en"><tig><term>a</term></tig>\n</body></text></martif>',
            ":4:",
            "invalid XML",
        ),
        (
            "bad.tbx",
            '<martif><text><body>\n<termEntry>\n<langSet xml:lang="qq"><tig><term>a</term></tig></langSet>\n'
            "</termEntry></body></text></martif>",
            ":3:",
            "unknown language code 'qq'",
        ),
        (
            "bomb.tbx",
            '<?xml version="1.0"?>\n<!DOCTYPE m [\n<!ENTITY a "aaaa">\n]>\n<martif/>',
            ":3:",
            "entity declarations are not allowed",
        ),
        ("g.yaml", "a: b\n", "", "unknown glossary format"),
    ],
)
def test_errors_name_file_and_line(tmp_path, name, text, where, message):
    path = write(tmp_path, name, text)
    with pytest.raises(GlossaryError) as info:
        load_glossaries([path])
    assert info.value.message.startswith(f"{path}{where}"), info.value.message
    assert message in info.value.message
    assert info.value.exit_code == ExitCode.USAGE


def test_conflicting_duplicates_name_both_places(tmp_path):
    first = write(tmp_path, "a.tsv", "source\ttarget\ttarget_lang\nCloud\tWolke\tde\n")
    second = write(tmp_path, "b.csv", "source,target,target_lang\nstorage,Speicher,de\ncloud,Cloud,de\n")
    with pytest.raises(GlossaryError) as info:
        load_glossaries([first, second])
    assert info.value.message.startswith(f"{second}:3: 'cloud' (de) -> 'Cloud' conflicts with {first}:2:")


def test_identical_duplicates_and_per_language_rows_are_fine(tmp_path):
    path = write(
        tmp_path,
        "a.tsv",
        "source\ttarget\ttarget_lang\nCloud\tWolke\tde\nCloud\tWolke\tde\nCloud\tnuage\tfr\nCloud\tCloud\t\n",
    )
    glossary = load_glossaries([path])
    assert glossary.use("my Cloud", language("de")).terms[0].target == "Wolke"
    assert glossary.use("my Cloud", language("fr")).terms[0].target == "nuage"
    assert glossary.use("my Cloud", language("ja")).terms[0].target == "Cloud"
