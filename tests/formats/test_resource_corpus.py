"""The real-world corpus of PO, XLIFF, Android and Apple files (tests/corpus/SOURCES; gathered
into shared/corpus/ by scripts/gather_corpus.py): identity gives every file back byte for byte
(the splice contract) and, through the whole pipeline, with only the documented target edits;
the pseudo engine's outputs parse with each format's own reader, keep every entry in order,
keep the placeholders of every value and leave every non-translatable part as it was."""

from __future__ import annotations

import plistlib
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from resource_checks import (
    CORPUS,
    files,
    identity,
    inner_xml,
    local,
    placeholders,
    po_entries,
    po_skeleton,
    strings_pairs,
    strings_skeleton,
    translate,
    xml_tree,
)

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.errors import UsageError
from hymt_cli.formats import format_for_path
from hymt_cli.text.languages import language

PO, XLIFF, ANDROID = files("po"), files("xliff"), files("android")
STRINGS, STRINGSDICT = files("strings"), files("stringsdict")
ALL = PO + XLIFF + ANDROID + STRINGS + STRINGSDICT
pytestmark = pytest.mark.skipif(not ALL, reason=f"no corpus in {CORPUS}: run scripts/gather_corpus.py")


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def test_corpus_is_complete_enough():
    """At least 3 files per format, several over 100 KB, UTF-16 among the .strings."""
    for kind in (PO, XLIFF, ANDROID, STRINGS, STRINGSDICT):
        assert len(kind) >= 3
    assert sum(p.stat().st_size > 100_000 for p in ALL) >= 4
    assert any(p.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff") for p in STRINGS)


@pytest.mark.parametrize("path", ALL, ids=_ids(ALL))
def test_splice_contract_is_byte_exact(path: Path):
    fmt = format_for_path(path)
    assert fmt is not None
    data = path.read_bytes()
    decoded = fmt.decode(data)
    doc = fmt.parse(decoded.text)
    assert decoded.encode(doc.reassemble({s.id: s.text for s in doc.segments})) == data


def _declared_target(path: Path) -> str:
    """The target locale the file itself names where HY-MT writes it (a PO file's Language, an
    XLIFF target language that is not its source language: `de-CH`), else German."""
    head = path.read_text(encoding="utf-8", errors="replace")[:20000]  # after long credits
    found = re.search(r'"Language: ([A-Za-z_]+)', head) or re.search(
        r'(?:target-language|trgLang)="([A-Za-z0-9_-]+)"', head
    )
    source = re.search(r'(?:source-language|srcLang)="([A-Za-z]+)', head)
    if found and not (source and source.group(1) == re.split("[-_]", found.group(1))[0]):
        try:
            return language(found.group(1)).code
        except UsageError:
            pass
    return "de"


def _xml_without(element: ET.Element, attributes: set[str]) -> bytes:
    for node in element.iter():
        for name in list(node.attrib):
            if local(name) in attributes:
                del node.attrib[name]
    return ET.tostring(element)


@pytest.mark.parametrize("path", ALL, ids=_ids(ALL))
def test_identity_pipeline_changes_only_the_documented_edits(path: Path, tmp_path: Path):
    lang = _declared_target(path)
    report, outputs = identity([path], tmp_path / "out", lang)
    assert report.files_failed == 0, [f.error for f in report.files]
    [out] = outputs.values()
    before, after = path.read_bytes(), out.read_bytes()
    if path in PO:  # the header's Language, Plural-Forms and charset, a template's fuzzy header
        old, new = po_entries(path), po_entries(out)
        assert po_skeleton(new) == po_skeleton(old)
        assert [(e.msgstr, e.msgstr_plural) for e in new] == [(e.msgstr, e.msgstr_plural) for e in old]
        changed = {
            k for k in set(old.metadata) | set(new.metadata) if old.metadata.get(k) != new.metadata.get(k)
        }
        assert changed <= {"Language", "Plural-Forms", "Content-Type"}
    elif path in XLIFF:  # the target language; ICU plurals get the target's categories
        new_tree = _without_icu_targets(xml_tree(out), xml_tree(path))
        assert _xml_without(
            new_tree, {"target-language", "trgLang", "state", "state-qualifier"}
        ) == _xml_without(xml_tree(path), {"target-language", "trgLang", "state", "state-qualifier"})
    elif path in STRINGSDICT:  # plural keys the target has and the source lacks, or the reverse
        assert _plural_free(plistlib.loads(after)) == _plural_free(plistlib.loads(before))
    elif path in ANDROID:  # quantities German does not have are left out
        old_tree, new_tree = xml_tree(path), xml_tree(out)
        for plurals in old_tree.iter("plurals"):
            for item in [i for i in plurals if i.get("quantity") not in ("one", "other")]:
                plurals.remove(item)
        assert [ET.tostring(e) for e in new_tree.iter("item")] == [
            ET.tostring(e) for e in old_tree.iter("item")
        ]
        assert [ET.tostring(e) for e in new_tree.iter("string")] == [
            ET.tostring(e) for e in old_tree.iter("string")
        ]
        if not any(i.get("quantity") not in ("one", "other") for i in xml_tree(path).iter("item")):
            assert after == before
    else:
        assert after == before


_ICU_PLURAL = re.compile(r"\{\s*\w+\s*,\s*(?:plural|selectordinal)\s*,")


def _without_icu_targets(new: ET.Element, old: ET.Element) -> ET.Element:
    """`new` without the targets written for ICU plural units (the target's new categories)."""
    old_targets = {u.get("id") for u in _units(old) if any(local(c.tag) == "target" for c in u)}
    for unit in _units(new):
        source = next((c for c in unit if local(c.tag) == "source"), None)
        if (
            unit.get("id") in old_targets
            or source is None
            or not _ICU_PLURAL.search("".join(source.itertext()))
        ):
            continue
        for child in [c for c in unit if local(c.tag) == "target"]:
            unit.remove(child)
            source.tail = child.tail
    return new


_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


def _plural_free(node: object) -> object:
    if isinstance(node, dict):
        return {k: _plural_free(v) for k, v in node.items() if k not in _CATEGORIES - {"other"}}
    return node


# -- pseudo: valid files, same entries, placeholders kept, the rest untouched ------------------
@pytest.fixture(scope="module")
def pseudo_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """Every corpus file translated into Russian (four plural categories) by the pseudo engine,
    each in a run of its own (several name the same output in their layout: po/ru.po)."""
    outputs: dict[Path, Path] = {}
    for path in ALL:
        report, found = translate([path], PseudoEngine(), tmp_path_factory.mktemp("pseudo"), "ru")
        assert report.files_failed == 0, [f.error for f in report.files if f.error]
        assert report.untranslated == 0, [p.message for f in report.files for p in f.problems]
        outputs.update(found)
    return outputs


@pytest.mark.parametrize("path", PO, ids=_ids(PO))
def test_pseudo_po(path: Path, pseudo_outputs: dict[Path, Path]):
    old, new = po_entries(path), po_entries(pseudo_outputs[path])  # msgfmt -c passes
    assert po_skeleton(new) == po_skeleton(old)
    names_ru = "Language" in old.metadata and old.metadata["Language"].startswith("ru")
    filled = 0
    for before, after in zip(old, new):
        if before.obsolete:
            assert (after.msgstr, after.obsolete) == (before.msgstr, True)
            continue
        if before.msgid == "":
            continue
        if before.translated() or before.msgstr_plural and any(before.msgstr_plural.values()):
            if names_ru:  # a person's work in the target language: untouched
                assert (after.msgstr, after.msgstr_plural) == (before.msgstr, before.msgstr_plural)
            continue
        braces = "python-brace-format" in after.flags
        if after.msgid_plural:
            for text in after.msgstr_plural.values():
                if text:
                    filled += 1
                    assert placeholders(text, braces=braces) in (
                        placeholders(after.msgid, braces=braces),
                        placeholders(after.msgid_plural, braces=braces),
                    )
        elif after.msgstr:
            filled += 1
            assert placeholders(after.msgstr, braces=braces) == placeholders(after.msgid, braces=braces)
            assert after.msgstr.startswith(_leading(after.msgid)) and after.msgstr.endswith(
                _trailing(after.msgid)
            )
    assert filled or not [e for e in old if not e.translated() and e.msgid and not e.obsolete]


def _leading(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _trailing(text: str) -> str:
    return text[len(text.rstrip()) :]


def _units(root) -> list:
    return [e for e in root.iter() if local(e.tag) in ("trans-unit", "segment")]


def _inline(element) -> Counter[str]:
    return Counter(f"{local(e.tag)}{sorted(e.attrib.items())}" for e in element.iter() if e is not element)


@pytest.mark.parametrize("path", XLIFF, ids=_ids(XLIFF))
def test_pseudo_xliff(path: Path, pseudo_outputs: dict[Path, Path]):
    old, new = xml_tree(path), xml_tree(pseudo_outputs[path])
    old_units, new_units = _units(old), _units(new)
    assert [u.attrib.get("id") for u in new_units] == [u.attrib.get("id") for u in old_units]
    for before, after in zip(old_units, new_units):
        sources = [c for c in before if local(c.tag) == "source"]
        assert [inner_xml(c) for c in after if local(c.tag) == "source"] == [inner_xml(c) for c in sources]
        assert [inner_xml(c) for c in after if local(c.tag) == "note"] == [
            inner_xml(c) for c in before if local(c.tag) == "note"
        ]
        targets = [c for c in after if local(c.tag) == "target"]
        # a target repeats the `<mrk mtype="seg">` segments of a seg-source
        segmented = [
            c for c in before if local(c.tag) == "seg-source" and c.find("{*}mrk[@mtype='seg']") is not None
        ]
        if targets and sources and "⟦" in "".join(targets[0].itertext()):
            reference = (segmented or sources)[0]
            assert _inline(targets[0]) == _inline(reference)
            source_text, target_text = "".join(reference.itertext()), "".join(targets[0].itertext())
            assert placeholders(target_text) == placeholders(source_text)


_RESOURCES = {"string", "string-array", "plurals"}


@pytest.mark.parametrize("path", ANDROID, ids=_ids(ANDROID))
def test_pseudo_android(path: Path, pseudo_outputs: dict[Path, Path]):
    old, new = xml_tree(path), xml_tree(pseudo_outputs[path])
    assert [(e.tag, e.get("name")) for e in new] == [(e.tag, e.get("name")) for e in old]
    for before, after in zip(old, new):
        if before.get("translatable") == "false" or before.tag not in _RESOURCES:
            assert ET.tostring(after) == ET.tostring(before)
            continue
        kept = [c for c in before.iter() if c.tag == "item"] if before.tag != "string" else [before]
        done = (
            {c.get("quantity"): c for c in after.iter() if c.tag == "item"}
            if before.tag == "plurals"
            else None
        )
        for i, item in enumerate(kept):
            if done is not None:
                if item.get("quantity") not in done:  # a quantity Russian does not have
                    continue
                twin = done[item.get("quantity")]
            else:
                twin = [c for c in after.iter() if c.tag == "item"][i] if before.tag != "string" else after
            assert [(g.attrib, g.text) for g in twin.iter() if g.tag.endswith("}g")] == [
                (g.attrib, g.text) for g in item.iter() if g.tag.endswith("}g")
            ]
            assert placeholders("".join(twin.itertext())) == placeholders("".join(item.itertext()))
        if done is not None and any(c.get("quantity") == "other" for c in before):
            assert set(done) == {"one", "few", "many", "other"}  # Russian's quantities


@pytest.mark.parametrize("path", STRINGS, ids=_ids(STRINGS))
def test_pseudo_strings(path: Path, pseudo_outputs: dict[Path, Path]):
    fmt = format_for_path(path)
    assert fmt is not None
    source, output = path.read_bytes(), pseudo_outputs[path].read_bytes()
    assert output[:2] == source[:2] and fmt.decode(output).encoding == fmt.decode(source).encoding
    old, new = fmt.decode(source).text, fmt.decode(output).text
    assert strings_skeleton(new) == strings_skeleton(old)  # keys, comments, layout
    old_pairs, new_pairs = strings_pairs(old), strings_pairs(new)
    assert [k for k, _ in new_pairs] == [k for k, _ in old_pairs]
    changed = 0
    for (_, before), (_, after) in zip(old_pairs, new_pairs):
        assert placeholders(after) == placeholders(before), before
        changed += before != after
    assert changed > len(old_pairs) // 2


def _strings_of(node: object, path: str = "") -> dict[str, str]:
    if isinstance(node, dict):
        out: dict[str, str] = {}
        for key, value in node.items():
            out.update(_strings_of(value, f"{path}/{key}"))
        return out
    return {path: node} if isinstance(node, str) else {}


@pytest.mark.parametrize("path", STRINGSDICT, ids=_ids(STRINGSDICT))
def test_pseudo_stringsdict(path: Path, pseudo_outputs: dict[Path, Path]):
    old = _strings_of(plistlib.loads(path.read_bytes()))
    new = _strings_of(plistlib.loads(pseudo_outputs[path].read_bytes()))
    for key, before in old.items():
        if key.endswith(("NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey")):
            assert new[key] == before
        elif key.rpartition("/")[2] in {"one", "two", "zero"} and key not in new:
            continue  # a category Russian does not have
        else:
            assert placeholders(new[key]) == placeholders(before), key
            assert re.findall(r"%(?:\d+\$)?#@\w+@", new[key]) == re.findall(r"%(?:\d+\$)?#@\w+@", before)
    added = [k for k in new if k not in old]
    assert all(k.rpartition("/")[2] in {"one", "few", "many"} for k in added)  # Russian's categories
