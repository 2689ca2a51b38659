"""Hostile model answers in PO, XLIFF, Android and Apple files (samples/app): whatever the model
writes (tags dropped, added or renamed; quotes, backslashes, `%`, braces, `<`, line breaks,
`]]>`, half an ICU plural), every output parses with its format's own reader (polib and msgfmt
-c, ElementTree, plistlib, a .strings reader), keeps its entries in order, gets no element,
placeholder or escape that was not in the source, and every unusable answer is reported and
never written."""

from __future__ import annotations

import copy
import plistlib
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from engines import (
    ATTACKS,
    STRING_ATTACKS,
    UNUSABLE,
    Adversary,
    FaultEngine,
    StringAttack,
    assert_reported,
)
from resource_checks import (
    SAMPLES,
    local,
    placeholders,
    po_entries,
    po_skeleton,
    strings_pairs,
    strings_skeleton,
    translate,
    xml_tree,
)

from hymt_cli.engine.base import Engine
from hymt_cli.formats import format_for_path
from hymt_cli.reporting.report import RunReport

FILES = sorted(
    p for p in SAMPLES.rglob("*") if p.suffix in (".pot", ".po", ".xlf", ".xml", ".strings", ".stringsdict")
)
ALL = {**ATTACKS, **STRING_ATTACKS}


def _engine(attack: str) -> Engine:
    return Adversary(attack) if attack in ATTACKS else StringAttack(STRING_ATTACKS[attack])


def _reported(report: RunReport, attack: str) -> None:
    assert report.files_failed == 0, [f.error for f in report.files if f.error]
    assert_reported(report, attack)


def _bare(element: ET.Element) -> bytes:
    """An element as ElementTree writes it, without the text that follows it."""
    copied = copy.copy(element)
    copied.tail = None
    return ET.tostring(copied)


def _elements(element: ET.Element) -> Counter[str]:
    """The elements inside a value: what would be live markup."""
    return Counter(f"{local(e.tag)}{sorted(e.attrib.items())}" for e in element.iter() if e is not element)


def _check_po(source: Path, output: Path, attack: str) -> None:
    old, new = po_entries(source), po_entries(output)  # msgfmt -c: format strings match the msgid
    assert po_skeleton(new) == po_skeleton(old)
    for before, after in zip(old, new):
        if attack in UNUSABLE and before.msgid:
            assert (after.msgstr, after.msgstr_plural) == (before.msgstr, before.msgstr_plural)
        texts = list(after.msgstr_plural.values()) if after.msgid_plural else [after.msgstr]
        braces = "python-brace-format" in after.flags
        sources = (placeholders(after.msgid, braces=braces), placeholders(after.msgid_plural, braces=braces))
        for text in texts:
            if text and any(sources):
                assert placeholders(text, braces=braces) in sources, text


def _pairs_of(root: ET.Element) -> list[tuple[ET.Element, ET.Element | None]]:
    """(source, target) of every XLIFF unit or segment."""
    out = []
    for unit in root.iter():
        if local(unit.tag) in ("trans-unit", "segment"):
            source = next((c for c in unit if local(c.tag) == "source"), None)
            target = next((c for c in unit if local(c.tag) == "target"), None)
            if source is not None:
                out.append((source, target))
    return out


def _check_xliff(source: Path, output: Path, attack: str) -> None:
    old, new = _pairs_of(xml_tree(source)), _pairs_of(xml_tree(output))
    assert [_bare(s) for s, _ in new] == [_bare(s) for s, _ in old]
    for (src, before), (_, after) in zip(old, new):
        if before is not None and "".join(before.itertext()).strip():
            assert after is not None and _bare(after) == _bare(before)  # a translation that was there: kept
            continue
        if after is None or not "".join(after.itertext()).strip():
            continue
        assert attack not in UNUSABLE
        text, source_text = "".join(after.itertext()), "".join(src.itertext())
        if re.search(r"\{\w+, (?:plural|selectordinal),", source_text):  # new plural branches repeat codes
            assert set(_elements(after)) == set(_elements(src))
        else:
            assert _elements(after) == _elements(src)
        if "{count, plural" not in source_text and "VAR_PLURAL" not in source_text:
            assert placeholders(text) == placeholders(source_text) or not placeholders(source_text)


# HTML a value's text holds (what Html.fromHtml or a WebView renders where the source has some),
# and references to the entities a file's DTD declares (`&product;`): a translation has the
# source's, no other.
HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
DECLARED = re.compile(r"<!ENTITY\s+([\w.-]+)\s")


def _html(text: str) -> Counter[str]:
    return Counter(HTML_TAG.findall(text))


def _references(text: str) -> Counter[str]:
    return Counter(f"&{name};" for name in DECLARED.findall(text) for _ in range(text.count(f"&{name};")))


def _check_android(source: Path, output: Path, attack: str) -> None:
    old, new = xml_tree(source), xml_tree(output)
    assert [(e.tag, e.get("name")) for e in new] == [(e.tag, e.get("name")) for e in old]
    raw_old, raw_new = source.read_text(encoding="utf-8"), output.read_text(encoding="utf-8")
    assert raw_new.split("<resources")[0] == raw_old.split("<resources")[0]  # the DTD with its entities
    assert _references(raw_new) == _references(raw_old)
    for before, after in zip(old, new):
        if before.get("translatable") == "false" or (attack in UNUSABLE and before.tag != "plurals"):
            assert _bare(after) == _bare(before)
            continue
        if attack in UNUSABLE:  # the target's quantities, each the source's (`other` for new ones)
            by_quantity = {i.get("quantity"): i for i in before}
            for item in after:
                assert _bare(item).replace(b'"' + item.get("quantity", "").encode() + b'"', b'"q"') == _bare(
                    by_quantity.get(item.get("quantity"), by_quantity["other"])
                ).replace(
                    b'"'
                    + (item.get("quantity") if item.get("quantity") in by_quantity else "other").encode()
                    + b'"',
                    b'"q"',
                )
            continue
        values = [before] if before.tag == "string" else list(before)
        done = {c.get("quantity"): c for c in after} if before.tag == "plurals" else None
        for i, value in enumerate(values):
            twin = (
                after if before.tag == "string" else (done.get(value.get("quantity")) if done else after[i])
            )
            if twin is None:
                continue  # a quantity the target does not have
            assert _elements(twin) == _elements(value)
            if _html("".join(value.itertext())):  # rendered as HTML: no tag of the model's
                assert _html("".join(twin.itertext())) == _html("".join(value.itertext()))
            if placeholders("".join(value.itertext())):
                assert placeholders("".join(twin.itertext())) == placeholders("".join(value.itertext()))
            raw = ET.tostring(twin, encoding="unicode")
            assert (
                "\n" not in (twin.text or "").strip()
                or "\\n" in ET.tostring(value, encoding="unicode")
                or raw.count("\n") <= ET.tostring(value, encoding="unicode").count("\n")
            )


def _check_strings(source: Path, output: Path, attack: str) -> None:
    fmt = format_for_path(source)
    assert fmt is not None
    old, new = fmt.decode(source.read_bytes()), fmt.decode(output.read_bytes())
    assert new.encoding == old.encoding and output.read_bytes()[:2] == source.read_bytes()[:2]
    assert strings_skeleton(new.text) == strings_skeleton(old.text)
    for (key, before), (key2, after) in zip(strings_pairs(old.text), strings_pairs(new.text)):
        assert key == key2
        if attack in UNUSABLE:
            assert after == before
        if placeholders(before):
            assert placeholders(after) == placeholders(before), (before, after)
        if _html(before):  # rendered as HTML: no tag of the model's
            assert _html(after) == _html(before), (before, after)


def _check_stringsdict(source: Path, output: Path, attack: str) -> None:
    old, new = plistlib.loads(source.read_bytes()), plistlib.loads(output.read_bytes())
    assert list(new) == list(old)
    for name, entry in old.items():
        for key, value in entry.items():
            if isinstance(value, dict):
                for rule_key, text in value.items():
                    if rule_key.startswith("NSStringFormat"):
                        assert new[name][key][rule_key] == text
                    elif rule_key in new[name][key] and placeholders(text):
                        assert placeholders(new[name][key][rule_key]) == placeholders(text)
            elif attack in UNUSABLE:
                assert new[name][key] == value
            else:
                assert placeholders(new[name][key]) == placeholders(value)


CHECKS: dict[str, Callable[[Path, Path, str], None]] = {
    ".pot": _check_po,
    ".po": _check_po,
    ".xlf": _check_xliff,
    ".xml": _check_android,
    ".strings": _check_strings,
    ".stringsdict": _check_stringsdict,
}


def _run(engine: Engine, attack: str, tmp_path: Path, lang: str = "ja") -> None:
    report, outputs = translate(FILES, engine, tmp_path / "out", lang)
    _reported(report, attack)
    assert set(outputs) == set(FILES)
    for source, output in outputs.items():
        CHECKS[source.suffix](source, output, attack)


def test_the_samples_cover_every_format():
    assert {p.suffix for p in FILES} == set(CHECKS) - {".po"}


@pytest.mark.parametrize("attack", sorted(ALL))
def test_hostile_answers_leave_valid_files(attack: str, tmp_path: Path):
    _run(_engine(attack), attack, tmp_path)


@pytest.mark.parametrize("attack", ["quotes", "backslashes", "percent", "cdata", "newlines", "broken_icu"])
def test_new_plural_forms_of_hostile_answers_are_valid_too(attack: str, tmp_path: Path):
    """Russian adds `few` and `many` forms (PO msgstr[n], Android items, stringsdict keys)."""
    _run(_engine(attack), attack, tmp_path, "ru")


@pytest.mark.parametrize("fault", FaultEngine.FAULTS)
def test_broken_tags_are_retried_repaired_or_reported(fault: str, tmp_path: Path):
    _run(FaultEngine(fault), "", tmp_path)
