"""What a legacy encoding lacks is written as its conventional substitute (issue 34, item 13):
French goes into a Latin-1 catalog as French was always typed there (œ as oe), and the model's
typographic apostrophes, quotes, ellipses, dashes and no-break spaces never fail a Latin-1,
cp1252, GBK or KOI8-R file: each output counts what it wrote as substitutes (a warning, its line
of the report); a character with no substitute keeps that one segment's source, after its retry.
A language whose letters have none (German in GBK, Russian in Latin-1) is still refused up front.

Real files: GNU Wget's catalogs in the charsets their headers declare (French 1.12 in ISO-8859-1,
Russian 1.7 in KOI8-R and German 1.7 in ISO-8859-1, with the entries msgmerge left untranslated),
a cp1252 and a GBK subtitle (tests/corpus/SOURCES)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import jsonschema
import pytest
from pipelines import run_pipeline, translate_files
from resource_checks import CORPUS, po_entries

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import EncodingOptions
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import FileReport, RunReport, Substitution
from hymt_cli.review import RecordSpool
from hymt_cli.text.exemplars import refusal, unwritable
from hymt_cli.text.substitutes import fit

ROOT = Path(__file__).resolve().parents[2]
LEGACY = CORPUS / "legacy"
FRENCH_LATIN1 = LEGACY / "wget-1.12-latin1-fr.po"
RUSSIAN_KOI8R = LEGACY / "wget-1.7-koi8r-ru.po"
GERMAN_LATIN1 = LEGACY / "wget-1.7-latin1-de.po"
CP1252_SRT = CORPUS / "subtitles" / "pysrt-windows-1252.srt"
GBK_SRT = CORPUS / "subtitles" / "aspasia-gbk.srt"
corpus = pytest.mark.skipif(
    not FRENCH_LATIN1.is_file(), reason=f"no corpus in {CORPUS}: run scripts/gather_corpus.py"
)


class Typographer(BatchEngine):
    """A model that writes as typographers do: `answer(source, retry)` is the answer to a
    request (tags and placeholders of the source kept); every request is recorded."""

    name = "typographer"

    def __init__(self, answer: Callable[[str, bool], str]) -> None:
        self.answer = answer
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        return [Generation(self.answer(r.source_text, r.deterministic), "stop", 5) for r in requests]


def wrapped(before: str, after: str) -> Typographer:
    return Typographer(lambda text, retry: f"{before}{text}{after}")


def legacy(encoding: str) -> OptionSet:
    return OptionSet([EncodingOptions(encoding=encoding)])


def substituted(file: FileReport) -> dict[str, int]:
    return {f"{s.character}→{s.written}": s.count for s in file.substituted}


# -- the substitutes ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("codec", "text", "written"),
    [
        (
            "iso-8859-1",
            "L’œuvre « complète »\u202f: c’est “fini”… – Œdipe — L’HAŸ-LES-ROSES ﬁn",
            "L'oeuvre « complète » : c'est \"fini\"... - OEdipe - L'HAY-LES-ROSES fin",
        ),
        ("cp1252", "Prix\u202f: 5\u00a0€ ‑ Datei → Speichern", "Prix : 5\u00a0€ - Datei -> Speichern"),
        ("gbk", "«你好»\u00a0— 〜", '"你好" — ～'),  # GBK has — and ～ (JIS's wave dash as GB writes it)
        ("koi8-r", "«Файл» — готово… Straße", '"Файл" - готово... Strasse'),  # ß: German's own fallback
        ("shift_jis", "東京—大阪", "東京―大阪"),  # JIS X 0208's dash is U+2015 in Shift_JIS
        ("iso-8859-2", "„Plik” zapisany", '"Plik" zapisany'),  # Polish quotes in Latin-2
    ],
)
def test_what_an_encoding_lacks_is_written_as_its_conventional_substitute(
    codec: str, text: str, written: str
) -> None:
    fitted = fit(text, codec)
    assert fitted.lacking is None and fitted.text == written
    fitted.text.encode(codec)


def test_a_canonical_form_is_the_same_text_and_no_substitute() -> None:
    """Vietnamese in windows-1258: ế is ê and a combining acute there (Windows writes it so)."""
    fitted = fit("Tiếng Việt: ặ", "cp1258")
    assert fitted.lacking is None and fitted.substituted == ()
    assert fitted.text != "Tiếng Việt: ặ" and fitted.text.encode("cp1258").decode("cp1258") == fitted.text
    import unicodedata

    assert unicodedata.normalize("NFC", fitted.text) == "Tiếng Việt: ặ"


@pytest.mark.parametrize(
    ("codec", "text", "lacking"),
    [
        ("gbk", "Größe", "ö"),  # a letter is never stripped of its marks
        ("iso-8859-1", "Привет", "П"),  # nor romanized
        ("iso-8859-1", "fertig ✓", "✓"),
        ("cp1252", "😀", "😀"),
    ],
)
def test_a_character_with_no_substitute_is_named(codec: str, text: str, lacking: str) -> None:
    assert fit(text, codec).lacking == lacking


def test_a_language_is_refused_only_where_its_letters_have_no_substitute() -> None:
    assert refusal("fr", "iso-8859-1") is None  # œ Œ Ÿ: oe OE Y
    assert refusal("vi", "cp1258") is None  # its letters, decomposed as windows-1258 writes them
    assert unwritable("de", "gbk") == "ÄÖÜäö"  # ß is ss; ä is no a
    assert unwritable("de", "koi8-r") == "ÄÖÜäöü"
    for lang, codec in (("ru", "iso-8859-1"), ("pl", "iso-8859-1"), ("tr", "cp1252"), ("de", "gbk")):
        assert refusal(lang, codec) is not None, (lang, codec)


# -- real catalogs -----------------------------------------------------------------------------
@corpus
def test_french_into_its_latin1_catalog_is_written_and_round_trips(tmp_path: Path) -> None:
    """GNU Wget 1.12's French catalog (ISO-8859-1, no `Language` header: older than gettext
    0.18) into French: refused for œ before; now the identity engine gives its bytes back, and a
    typographer's answer is written in Latin-1 with its œ and ’ as oe and '."""
    catalog = tmp_path / "po" / "fr.po"
    catalog.parent.mkdir()
    catalog.write_bytes(FRENCH_LATIN1.read_bytes())
    report, _ = translate_files([catalog], IdentityEngine, tmp_path / "same", lang="fr")
    [file] = report.files
    assert file.status == "ok" and file.error is None, file.error
    assert Path(file.output or "").read_bytes() == FRENCH_LATIN1.read_bytes()  # byte for byte

    engine = wrapped("L’œuvre « ", " »\u202f: c’est “fini”…")
    report, _ = translate_files([catalog], engine, tmp_path / "out", lang="fr")
    [file] = report.files
    assert file.status == "ok" and file.translated == 1 and len(engine.requests) == 1
    out = Path(file.output or "")
    old, new = po_entries(catalog), po_entries(out)  # polib reads it in its charset; msgfmt -c passes
    assert new.metadata["Content-Type"] == "text/plain; charset=ISO-8859-1"
    assert len(new) == len(old)
    [(before, added)] = [
        (o, n) for o, n in zip(old, new) if o.msgstr != n.msgstr
    ]  # the one left untranslated
    core = before.msgid.strip()
    assert before.msgstr == "" and core.startswith("%s: certificate common name is invalid")
    assert added.msgstr == before.msgid.replace(core, f"L'oeuvre « {core} » : c'est \"fini\"...")
    assert substituted(file) == {"’→'": 2, "œ→oe": 1, '“→"': 1, '”→"': 1, "…→...": 1, "\u202f→ ": 1}
    assert file.warning is not None and file.warning.endswith(
        "fr.po (fr): 7 character(s) ISO-8859-1 lacks were written as substitutes: "
        '’→\' ×2, œ→oe ×1, “→" ×1, ”→" ×1, …→... ×1, U+202F→space ×1'
    )


@corpus
def test_a_new_french_catalog_from_a_latin1_german_one(tmp_path: Path) -> None:
    """Wget 1.7's German catalog (ISO-8859-1, its language said only by `Language-Team: German`,
    7 entries untranslated) into a new French one, in its charset: its German translations are
    not carried into the French catalog (they were, as French, before), the untranslated entries
    are filled, each answer's œ and ’ written as oe and ' and counted."""
    engine = wrapped("L’œil : ", "")
    report, _ = translate_files([GERMAN_LATIN1], engine, tmp_path / "out", lang="fr")
    [file] = report.files
    assert file.status == "ok" and file.translated == 7 and file.untranslated == 0
    assert substituted(file) == {"’→'": 7, "œ→oe": 7}
    po = po_entries(Path(file.output or ""))
    assert po.metadata["Content-Type"] == "text/plain; charset=iso-8859-1"
    assert po.metadata["Language"] == "fr" and po.metadata["Language-Team"] == "French"
    german = po_entries(GERMAN_LATIN1)
    written = [e.msgstr for e in po if e.msgid and not e.obsolete and e.msgstr]
    assert len(written) == 7 and all(m.startswith("L'oeil : ") for m in written)
    assert not {e.msgstr for e in german if e.msgstr} & {e.msgstr for e in po if not e.obsolete}


@corpus
def test_a_koi8r_catalog_writes_russian_typography_and_refuses_german(tmp_path: Path) -> None:
    """Wget 1.7's Russian catalog (KOI8-R, 8 entries msgmerge left untranslated) into Russian and
    German in one run: the model's « » — … written as " " - ..., German refused before any
    request (KOI8-R has no ä ö ü, and ä is no a), in one line naming file, language, encoding."""
    catalog = tmp_path / "po" / "ru.po"
    catalog.parent.mkdir()
    catalog.write_bytes(RUSSIAN_KOI8R.read_bytes())
    engine = wrapped("«", "» — готово…")
    report = run_pipeline([catalog], engine, to="ru,de", out_dir=tmp_path / "out")
    files = {f.lang: f for f in report.files}
    assert files["de"].status == "failed" and files["de"].error == (
        f"{catalog}: koi8-r cannot write German (de): it lacks Ä Ö Ü ä ö ü; nothing was translated into "
        "de; convert the file to UTF-8 to translate it into this language"
    )
    assert files["de"].segments == 0 and len(engine.requests) == files["ru"].translated == 8
    assert substituted(files["ru"]) == {'«→"': 8, '»→"': 8, "—→-": 8, "…→...": 8}
    new = po_entries(Path(files["ru"].output or ""))
    filled = [e.msgstr for e in new if '" - готово...' in e.msgstr]
    assert len(filled) == 8 and all(m.startswith('"') for m in filled)


# -- documents: substitutes, and one segment kept where there is none -------------------------
@corpus
def test_a_cp1252_subtitle_gets_substitutes_for_what_cp1252_lacks(tmp_path: Path) -> None:
    engine = wrapped("→ ", "\u202f!")  # a menu arrow, French spacing: cp1252 has neither
    report, _ = translate_files([CP1252_SRT], engine, tmp_path, lang="fr", options=legacy("cp1252"))
    [file] = report.files
    assert file.status == "ok" and file.untranslated == 0 and file.translated > 1000
    assert substituted(file) == {"→→->": file.translated, "\u202f→ ": file.translated}
    text = Path(file.output or "").read_bytes().decode("cp1252")
    assert "\r\n-> CE FILM RELATE DES" in text and "EXISTÉ. !\r\n" in text  # (its lines laid out again)


@corpus
def test_a_character_with_no_substitute_fails_one_segment_not_the_file(tmp_path: Path) -> None:
    """A GBK subtitle into Chinese and German: German refused up front; the model's no-break
    space and guillemets written as a space and ", and one cue whose answer holds an emoji on
    its first try and on its retry keeps its source text, counted and named; the file is written.
    The review page shows that cue as untranslated, with the reason."""

    def answer(text: str, retry: bool) -> str:
        return f"{text}🙂" if text == "还有更多的中文" else f"«{text}»\u00a0！"

    engine = Typographer(answer)
    with RecordSpool() as spool:
        report = run_pipeline(
            [GBK_SRT], engine, to="zh,de", out_dir=tmp_path, options=legacy("gbk"), review=spool
        )
        files = {f.lang: f for f in report.files}
        records = [json.loads(line) for line in spool.lines(files["zh"])]
    assert files["de"].status == "failed" and "gbk cannot write German (de): it lacks Ä Ö Ü ä ö" in (
        files["de"].error or ""
    )
    zh = files["zh"]
    assert zh.status == "ok" and (zh.translated, zh.untranslated) == (2, 1)
    assert [p.problem for p in zh.problems] == [
        "cue 2 (line 6): the translation holds '🙂' (U+1F642), which gbk (the output's encoding) "
        "cannot write, not even as a substitute: kept as in the source"
    ]
    assert len([r for r in engine.requests if r.source_text == "还有更多的中文"]) == 2  # retried once
    written = Path(zh.output or "").read_bytes().decode("gbk")
    assert '"这是中文" ！' in written and "还有更多的中文\n" in written.replace("\r\n", "\n")
    assert substituted(zh) == {'«→"': 2, '»→"': 2, "\u00a0→ ": 2}
    kept = [r for r in records if r["source"] == "还有更多的中文"]
    assert kept and kept[0]["status"] == "untranslated"
    assert [(f["check"], f["severity"]) for f in kept[0]["flags"]] == [("encoding", "error")]


def test_the_retry_helps_and_a_request_serves_each_output_as_it_can(tmp_path: Path) -> None:
    """One paragraph in a GBK text and in a UTF-8 one (its BOM says so): one request. An answer
    with ✓ is retried; where the retry is clean both outputs have it; where it is not, the
    UTF-8 output writes it and the GBK one keeps that paragraph's source."""
    gbk = tmp_path / "a.txt"
    gbk.write_bytes("今天天气很好。\n\n欢迎光临。\n".encode("gbk"))
    utf8 = tmp_path / "b.txt"
    utf8.write_bytes("\ufeff今天天气很好。\n".encode())

    engine = Typographer(lambda text, retry: text if retry else f"{text} ✓")
    report = run_pipeline([gbk, utf8], engine, to="ja", out_dir=tmp_path / "once", options=legacy("gbk"))
    assert [(f.translated, f.untranslated) for f in report.files] == [(2, 0), (1, 0)]
    assert len(engine.requests) == 4  # two, and each again (both ✓ on their first try)

    engine = Typographer(lambda text, retry: f"{text} ✓")
    report = run_pipeline([gbk, utf8], engine, to="ja", out_dir=tmp_path / "always", options=legacy("gbk"))
    by_name = {Path(f.input).name: f for f in report.files}
    assert (by_name["a.txt"].translated, by_name["a.txt"].untranslated) == (0, 2)
    assert (by_name["b.txt"].translated, by_name["b.txt"].untranslated) == (1, 0)
    assert Path(by_name["b.txt"].output or "").read_text(encoding="utf-8-sig") == "今天天气很好。 ✓\n"
    assert Path(by_name["a.txt"].output or "").read_bytes() == gbk.read_bytes()


def test_the_report_lists_substitutes_per_output(tmp_path: Path) -> None:
    """Each output's substitutes in the JSON report (schemas/report-3.schema.json) and its one
    warning line; an output that needed none has neither."""
    (tmp_path / "a.txt").write_bytes("Il est prêt.\n\nC'est fini.\n".encode("latin-1"))
    (tmp_path / "b.txt").write_bytes("Bonjour.\n".encode("latin-1"))
    engine = Typographer(lambda text, retry: text.replace("'", "’") + "…" if "fini" in text else text)
    report = run_pipeline(
        [tmp_path / "a.txt", tmp_path / "b.txt"], engine, to="fr", out_dir=tmp_path / "out",
        options=legacy("latin-1"),
    )  # fmt: skip
    data = _validated(report)
    by_name = {Path(f["input"]).name: f for f in data["files"]}
    assert by_name["a.txt"]["substituted"] == [
        {"character": "’", "written": "'", "count": 1},
        {"character": "…", "written": "...", "count": 1},
    ]
    assert by_name["a.txt"]["warning"].endswith(
        "a.txt (fr): 2 character(s) iso8859-1 lacks were written as substitutes: ’→' ×1, …→... ×1"
    )
    assert by_name["b.txt"]["substituted"] == [] and by_name["b.txt"]["warning"] is None
    out = Path(report.files[0].output or "").read_bytes()
    assert out == "Il est prêt.\n\nC'est fini....\n".encode("latin-1")
    assert [Substitution("’", "'", 1), Substitution("…", "...", 1)] == report.files[0].substituted


def _validated(report: RunReport) -> dict[str, object]:
    data = json.loads(json.dumps(report.to_json(), ensure_ascii=False))
    schema = json.loads((ROOT / "schemas" / "report-3.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    return data  # type: ignore[no-any-return]
