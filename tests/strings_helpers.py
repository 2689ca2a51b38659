"""What the string-file tests share: each format's own parser (json, ruamel.yaml, tomllib,
javaproperties, polib, ElementTree for XLIFF and Android resources, plistlib for stringsdict, a
reader of Apple's documented `.strings` grammar) flattening a file to its keys and values in order,
and the conventions the format reads each value with (to compare placeholders before and after)."""

from __future__ import annotations

import codecs
import difflib
import json
import plistlib
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import javaproperties
import polib
from resource_checks import strings_pairs
from ruamel.yaml import YAML

from hymt_cli.formats.json_strings.flavor import conventions_of, detect
from hymt_cli.formats.properties import conventions_for
from hymt_cli.formats.strings import Convention, active
from hymt_cli.formats.strings.icu import Complex, IcuError, Message, parse_message
from hymt_cli.formats.strings.values import placeholders
from hymt_cli.formats.toml_strings import CANDIDATES as TOML_CANDIDATES
from hymt_cli.formats.yaml_strings.walk import CANDIDATES as YAML_CANDIDATES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "shared" / "corpus"  # gathered by scripts/gather_corpus.py (kept out of commits)
FORMAT_OF = {
    ".json": "json",
    ".arb": "arb",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".toml": "toml",
    ".properties": "properties",
}
Pairs = list[tuple[str, Any]]


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.suffix in FORMAT_OF)


def sample_files() -> list[Path]:
    return sorted(p for p in (ROOT / "samples" / "app").rglob("*") if p.suffix in FORMAT_OF)


def source_language(path: Path) -> str:
    """The language a corpus file is written in (its name says so when it is not English)."""
    for code in ("ar", "ja", "ru", "fr", "de", "zh-TW"):
        if path.stem.endswith((f"-{code}", f"_{code}")):
            return code
    return "en"


def _flatten(value: Any, path: str, out: Pairs) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _flatten(item, f"{path}[{i}]", out)
    else:
        out.append((path, value))


def _json_pairs(text: str) -> Pairs:
    out: Pairs = []
    _flatten(json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_Members), "", out)
    return out


class _Members(dict[str, Any]):
    """A JSON object with its members in order, duplicates kept (JSON allows them)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.pairs = pairs

    def items(self):  # type: ignore[override]
        return self.pairs


def read_pairs(fmt: str, data: bytes) -> Pairs:
    """(key path, value) of every scalar in order, as the format's own parser reads the file
    (PO and XLIFF: every message or unit, and its translation)."""
    if fmt == "po":
        return _po_pairs(data)
    if fmt == "xliff":
        return _xliff_pairs(data)
    if fmt in ("json", "arb"):
        return _json_pairs(data.decode("utf-8"))
    if fmt == "yaml":
        out: Pairs = []
        for i, doc in enumerate(YAML(typ="safe", pure=True).load_all(data)):
            _flatten(doc, f"#{i}" if i else "", out)
        return out
    if fmt == "toml":
        out = []
        _flatten(tomllib.loads(data.decode("utf-8").removeprefix("\ufeff")), "", out)
        return out
    if fmt == "android":
        return _android_pairs(data)
    if fmt == "stringsdict":
        return _stringsdict_pairs(data)
    if fmt == "strings":
        return _apple_strings_pairs(data)
    text = data.decode("utf-8") if not data.isascii() and _is_utf8(data) else data.decode("latin-1")
    return [(e.key, e.value) for e in javaproperties.parse(text) if isinstance(e, javaproperties.KeyValue)]


def _po_pairs(data: bytes) -> Pairs:
    """Each active message, as gettext keys it (`msgctxt\x04msgid`), and its translation as
    msgfmt takes it: "" when empty or fuzzy; plural forms joined by NUL in index order."""
    po = polib.pofile(data.decode("utf-8" if _is_utf8(data) else "latin-1"))
    out: Pairs = []
    for entry in po:
        if entry.obsolete or (entry.msgid == "" and entry.msgctxt is None):
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
            value = "\x00".join(forms) if any(forms) else ""
        else:
            value = entry.msgstr
        out.append((key, "" if "fuzzy" in entry.flags else value))
    return out


_XLIFF_PLACEHOLDER_STATES = frozenset({"new", "needs-translation", "initial"})


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _xliff_pairs(data: bytes) -> Pairs:
    """Each unit (2.0: each segment, `#n` after its unit's id) as `file/id`, the file named only
    where the document has several, and its target's content; "" for no target, an empty one,
    or one left in a state that still needs translating that repeats its source."""
    root = ET.fromstring(data)
    files = [f for f in root if _local(f.tag) == "file"]
    out: Pairs = []
    for number, file in enumerate(files):
        name = "" if len(files) == 1 else file.get("original") or file.get("id") or f"#{number + 1}"
        _xliff_units(file, name, file.get("translate") != "no", out)
    return out


def _xliff_units(element: ET.Element, name: str, translate: bool, out: Pairs) -> None:
    for child in element:
        tag = _local(child.tag)
        here = translate and child.get("translate") != "no"
        if tag in ("body", "group"):
            _xliff_units(child, name, here, out)
        elif tag in ("trans-unit", "unit") and here:
            unit_id = child.get("id") or child.get("resname") or ""
            segments = [s for s in child if _local(s.tag) == "segment"] or [child]
            for n, segment in enumerate(segments):
                key = f"{name}/{unit_id}"
                if len(segments) > 1:
                    key += f"/{segment.get('id') or f'#{n + 1}'}"
                source = next((c for c in segment if _local(c.tag) == "source"), None)
                target = next((c for c in segment if _local(c.tag) == "target"), None)
                holder = segment if _local(segment.tag) == "segment" else target
                out.append((key, _target_value(source, target, holder)))


def _inner(element: ET.Element | None) -> str:
    if element is None:
        return ""
    return (element.text or "") + "".join(ET.tostring(c, encoding="unicode") for c in element)


def _target_value(source: ET.Element | None, target: ET.Element | None, holder: ET.Element | None) -> str:
    value = _inner(target)
    if not value.strip():
        return ""
    state = holder.get("state", "") if holder is not None else ""
    if state in _XLIFF_PLACEHOLDER_STATES and value.strip() == _inner(source).strip():
        return ""
    return value


def _inner_xml(element: ET.Element) -> str:
    """An element's content as ElementTree writes it (text, children and their tails)."""
    return (element.text or "") + "".join(ET.tostring(child, encoding="unicode") for child in element)


def _android_pairs(data: bytes) -> Pairs:
    """Every resource of strings by its name (`name (product)` where it has a product): a
    string-array's items as `name[0]`, a plural's as `name[few]`; their content as written."""
    out: Pairs = []
    for element in ET.fromstring(data):
        name = element.get("name")
        if name is None:
            continue
        if element.get("product") is not None:
            name = f"{name} ({element.get('product')})"
        if element.tag == "string" or (element.tag == "item" and element.get("type") == "string"):
            out.append((name, _inner_xml(element)))
        elif element.tag == "string-array":
            out.extend((f"{name}[{i}]", _inner_xml(item)) for i, item in enumerate(element.iter("item")))
        elif element.tag == "plurals":
            out.extend((f"{name}[{item.get('quantity')}]", _inner_xml(item)) for item in element.iter("item"))
    return out


# What a stringsdict rule is (its type, its number's format), not what it says: no key.
_RULE_KEYS = frozenset({"NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey"})


def _stringsdict_pairs(data: bytes) -> Pairs:
    """Every string of the plist's dictionaries by its key path (`files-count.files.one`), a
    rule's type keys left out."""
    out: Pairs = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in _RULE_KEYS:
                    walk(item, f"{path}.{key}" if path else key)
        else:
            out.append((path, value))

    walk(plistlib.loads(data), "")
    return out


_STRINGS_ESCAPE = re.compile(r"\\(?:[Uu]([0-9A-Fa-f]{4})|(.))", re.DOTALL)
_STRINGS_SIMPLE = {"n": "\n", "t": "\t", "r": "\r"}


def _apple_strings_pairs(data: bytes) -> Pairs:
    """`"key" = "value";` pairs as Apple reads them: UTF-16 by its byte order mark, else UTF-8;
    escapes (`\\"`, `\\n`, `\\U20AC`) undone."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16")
    else:
        text = data.decode("utf-8")

    def unescape(raw: str) -> str:
        return _STRINGS_ESCAPE.sub(
            lambda m: chr(int(m.group(1), 16)) if m.group(1) else _STRINGS_SIMPLE.get(m.group(2), m.group(2)),
            raw,
        )

    return [(unescape(key), unescape(value)) for key, value in strings_pairs(text)]


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def conventions(fmt: str, file_text: str, value: str) -> frozenset[Convention]:
    """The conventions the format reads `value` with."""
    if fmt in ("json", "arb"):
        candidates, always = conventions_of("arb" if fmt == "arb" else detect(file_text), value)
        return active(value, candidates, always)
    if fmt == "yaml":
        return active(value, YAML_CANDIDATES)
    if fmt == "toml":
        return active(value, TOML_CANDIDATES)
    return conventions_for(value)


def markup(fmt: str, file_text: str, value: str, source: str | None = None) -> Counter[str]:
    """The placeholders of `value` read with the conventions of `source` (the value it translates:
    what the program reads the translation with)."""
    return placeholders(value, conventions(fmt, file_text, value if source is None else source))


_NEW_FORM = re.compile(r'^\s*(?:"[^"]*_)?(?:zero|one|two|few|many)"?\s*[:=]')


def without_new_plural_forms(source: str, output: str) -> str:
    """`output` less the lines that add plural categories (a key `few`, `x_few`): what is left
    must be the source."""
    a, b = source.splitlines(keepends=True), output.splitlines(keepends=True)
    kept: list[str] = []
    for op, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "insert" and all(_NEW_FORM.match(line) for line in b[j1:j2]):
            continue
        kept.extend(b[j1:j2])
    return "".join(kept)


_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


def without_added_icu_forms(new: str, old: str) -> str:
    """`new` less the ICU plural branches (`one {...}`) whose category `old` lacks: the target's
    categories a file gains (documented), which repeat the placeholders of `other`."""
    try:
        new_message, old_message = parse_message(new), parse_message(old)
    except IcuError:
        return new
    had = {(c.name, b.selector) for c in _complexes(old_message) for b in c.branches}
    cuts = [
        (b.start, b.end)
        for c in _complexes(new_message)
        if c.kind in ("plural", "selectordinal")
        for b in c.branches
        if b.selector in _CATEGORIES and (c.name, b.selector) not in had
    ]
    for start, end in sorted(cuts, reverse=True):
        new = new[:start] + new[end:].lstrip(" ")
    return new


def _complexes(message: Message) -> list[Complex]:
    found: list[Complex] = []
    for node in message.nodes:
        if isinstance(node, Complex):
            found.append(node)
            for branch in node.branches:
                found.extend(_complexes(branch.message))
    return found
