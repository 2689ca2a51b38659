"""The real-world subtitle corpus (tests/corpus/SOURCES: go-astisub, pysrt, aspasia, webvtt-py,
vtt.js, pysubs2 and libjass test data, gathered into shared/corpus/subtitles by
scripts/gather_corpus.py): the identity engine gives every file back byte for byte, in its
encoding; a translation changes the text of every cue and nothing an independent parser reads
as fixed (pysubs2, webvtt-py: timings, numbers, identifiers, settings, styles, fonts), and parses
again, as hymt's own parser and as theirs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipelines import translate_files
from subtitle_checks import ReversingEngine, bom, decoded, has_letters, skeleton, texts

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import EncodingOptions, format_for_path
from hymt_cli.options import OptionSet
from samples import corpus_encoding

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "shared" / "corpus" / "subtitles"
FILES = sorted(p for p in CORPUS.iterdir() if p.is_file()) if CORPUS.is_dir() else []
# Files in a legacy encoding, which they do not declare: read with --encoding.
LEGACY = {p.name: name for p in FILES if (name := corpus_encoding(p)) is not None}
# A language each legacy encoding writes: a target whose letters it lacks is refused before any
# request (text/exemplars.py), so GBK files are translated into Chinese, cp1252 ones into French.
WRITES = {"cp1252": "fr", "gbk": "zh"}
pytestmark = [
    pytest.mark.skipif(not FILES, reason=f"no corpus in {CORPUS}: run scripts/gather_corpus.py"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # pysubs2 on fields it does not read
]


def _options(path: Path) -> OptionSet | None:
    name = LEGACY.get(path.name)
    return OptionSet([EncodingOptions(encoding=name)]) if name else None


def _groups() -> list[tuple[str | None, list[Path]]]:
    """The corpus by the encoding it is read with (one run each)."""
    groups: dict[str | None, list[Path]] = {}
    for path in FILES:
        groups.setdefault(LEGACY.get(path.name), []).append(path)
    return list(groups.items())


def test_corpus_is_complete_enough() -> None:
    """Every format, legacy encodings (cp1252, GBK), UTF-16 with its BOM, CJK text, inline tags."""
    suffixes = [p.suffix for p in FILES]
    assert suffixes.count(".srt") >= 8 and suffixes.count(".vtt") >= 8
    assert suffixes.count(".ass") + suffixes.count(".ssa") >= 6 and ".ssa" in suffixes
    assert set(LEGACY.values()) == {"cp1252", "gbk"}
    assert any(p.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff") for p in FILES)
    text = "".join(decoded(p.read_bytes(), LEGACY.get(p.name)) for p in FILES)
    assert "中文" in text and "日本語" in text
    for markup in (
        "<i>",
        "<font",
        "<v ",
        "<c.",
        "<ruby",
        "<rt",
        "{\\pos(",
        "{\\k",
        "\\N",
        "[Fonts]",
        "[Graphics]",
    ):
        assert markup in text, markup


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_splice_contract_is_byte_exact(path: Path) -> None:
    fmt = format_for_path(path, _options(path))
    assert fmt is not None
    data = path.read_bytes()
    doc = fmt.decode_input(data)  # type: ignore[attr-defined]
    parsed = fmt.parse(doc.text)  # type: ignore[attr-defined]
    assert parsed.reassemble({s.id: s.text for s in parsed.segments}) == doc.text
    assert doc.encode(doc.text) == data


@pytest.mark.parametrize(
    ("encoding", "paths"), _groups(), ids=lambda v: str(v) if not isinstance(v, list) else ""
)
def test_identity_writes_every_file_back(encoding: str | None, paths: list[Path], tmp_path: Path) -> None:
    report, outputs = translate_files(
        paths, IdentityEngine(), tmp_path, lang="en", options=_options(paths[0])
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    assert report.untranslated == 0
    for path in paths:
        assert outputs[path].read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize(
    ("encoding", "paths"), _groups(), ids=lambda v: str(v) if not isinstance(v, list) else ""
)
def test_translation_changes_every_cue_and_nothing_fixed(
    encoding: str | None, paths: list[Path], tmp_path: Path
) -> None:
    # A legacy file keeps its encoding: its answers must be text that encoding holds.
    engine = ReversingEngine() if encoding else PseudoEngine()
    lang = WRITES[encoding] if encoding else "fr"
    report, outputs = translate_files(paths, engine, tmp_path, lang=lang, options=_options(paths[0]))
    assert report.files_failed == 0, [f.error for f in report.files]
    for path in paths:
        source, output = path.read_bytes(), outputs[path].read_bytes()
        assert bom(output) == bom(source), path.name
        before, after = decoded(source, encoding), decoded(output, encoding)
        assert skeleton(path.suffix, after) == skeleton(path.suffix, before), path.name
        old, new = texts(path.suffix, before), texts(path.suffix, after)
        assert len(new) == len(old)
        unchanged = [a for a, b in zip(old, new) if has_letters(a) and a == b]
        assert not unchanged, (path.name, unchanged[:3])
        fmt = format_for_path(path, _options(path))
        assert fmt is not None
        reread = fmt.parse(fmt.decode_input(output).text)  # type: ignore[attr-defined]
        original = fmt.parse(fmt.decode_input(source).text)  # type: ignore[attr-defined]
        assert [c.timing for c in reread.cues] == [c.timing for c in original.cues]
        assert len(reread.segments) == len(original.segments)


def test_a_legacy_file_is_written_in_its_encoding(tmp_path: Path) -> None:
    """cp1252 in, cp1252 out (É is one byte); GBK in, GBK out."""
    for name, codec in LEGACY.items():
        path = CORPUS / name
        report, outputs = translate_files(
            [path], ReversingEngine(), tmp_path / codec, lang=WRITES[codec], options=_options(path)
        )
        assert report.files_failed == 0, [f.error for f in report.files]
        data = outputs[path].read_bytes()
        data.decode(codec)
        with pytest.raises(UnicodeDecodeError):
            data.decode("utf-8")


def test_what_the_legacy_encoding_cannot_hold_keeps_its_cues_never_question_marks(tmp_path: Path) -> None:
    """The pseudo engine's ⟦ ⟧ are in no legacy encoding and have no substitute: each cue keeps
    its source text, counted and named (pipeline/_output_encoding.py); never a `?`."""
    path = CORPUS / "pysrt-windows-1252.srt"
    report, outputs = translate_files([path], PseudoEngine(), tmp_path, options=_options(path))
    [file] = report.files
    assert file.status == "ok" and file.translated == 0 and file.untranslated == file.segments > 1000
    assert "holds '⟦' (U+27E6), which cp1252" in file.problems[0].problem
    assert outputs[path].read_bytes() == path.read_bytes()
