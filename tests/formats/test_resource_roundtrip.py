"""Whatever text a translation is, each format writes it so that the format's own reader gives
that text back: polib for PO, ElementTree for XLIFF, plistlib for stringsdict, Apple's escapes
for .strings and aapt's rules for Android (written out here). Hypothesis draws the text from an
alphabet heavy in what each format escapes: quotes, backslashes, `%`, braces, `<`, `&`, `]]>`,
`@` and `?` first, line breaks, tabs, non-ASCII."""

from __future__ import annotations

import plistlib
import re
import xml.etree.ElementTree as ET

import polib
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hymt_cli.formats.android import AndroidFormat
from hymt_cli.formats.apple import AppleStringsFormat, StringsDictFormat
from hymt_cli.formats.po.format import PoFormat
from hymt_cli.formats.xliff.format import XliffFormat
from hymt_cli.text.tags import looks_like_tag

ALPHABET = st.sampled_from(
    list("aZ \"'`\\%{}<>&;@?$#:/=[]!-\n\t")
    + ["é", "中", "😀", "\u2028", "]]>", "%s", "\\n", "&amp;", "<![CDATA["]
)
TEXTS = st.lists(ALPHABET, min_size=1, max_size=30).map("".join).filter(lambda t: t.strip() != "")
ONE_LINE = TEXTS.map(lambda t: re.sub(r"[\n\u2028]", " ", t))


def _text(text: str) -> str:
    assume(not looks_like_tag(text))
    return text


@settings(max_examples=150, deadline=None)
@given(ONE_LINE)
def test_po_msgstr_reads_back(text: str):
    text = _text(text)
    src = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Hello"\nmsgstr ""\n'
    out = PoFormat().parse(src).reassemble({0: text}, target_language="de")
    assert polib.pofile(out)[0].msgstr == text


@settings(max_examples=150, deadline=None)
@given(ONE_LINE)
def test_xliff_target_reads_back(text: str):
    text = _text(text)
    src = (
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" '
        'datatype="plaintext" original="x"><body><trans-unit id="a"><source>Hello</source></trans-unit>'
        "</body></file></xliff>"
    )
    out = XliffFormat().parse(src).reassemble({0: text}, target_language="de")
    target = next(e for e in ET.fromstring(out).iter() if e.tag.endswith("target"))
    assert "".join(target.itertext()) == text.replace("\r", "")


@settings(max_examples=150, deadline=None)
@given(ONE_LINE)
def test_stringsdict_string_reads_back(text: str):
    text = _text(text)
    src = (
        "<plist><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>Hello</string>"
        "</dict></dict></plist>"
    )
    out = StringsDictFormat().parse(src).reassemble({0: text}, target_language="de")
    assert plistlib.loads(out.encode())["k"]["NSStringLocalizedFormatKey"] == text.replace("\r", "")


def _apple_unescape(raw: str) -> str:
    simple = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
    return re.sub(
        r"\\U([0-9A-Fa-f]{4})|\\(.)",
        lambda m: chr(int(m.group(1), 16)) if m.group(1) else simple.get(m.group(2), m.group(2)),
        raw,
    )


@settings(max_examples=150, deadline=None)
@given(ONE_LINE)
def test_apple_strings_value_reads_back(text: str):
    text = _text(text)
    out = AppleStringsFormat().parse('"k" = "Hello";\n').reassemble({0: text}, target_language="de")
    found = re.fullmatch(r'"k" = "((?:[^"\\]|\\.)*)";\n', out, re.DOTALL)
    assert found is not None and _apple_unescape(found.group(1)) == text


def _aapt(element: ET.Element) -> str:
    """What Android shows for a string resource's text (aapt2's rules, for text without markup)."""
    out, quoted = [], False
    for token in re.findall(
        r"\\u[0-9A-Fa-f]{4}|\\.|\"|[ \t\r\n]+|[^\\\" \t\r\n]+", element.text or "", re.DOTALL
    ):
        if token == '"':
            quoted = not quoted
        elif token.startswith("\\u"):
            out.append(chr(int(token[2:], 16)))  # noqa: FURB166 - "\\u" is no Python prefix
        elif token.startswith("\\"):
            out.append({"n": "\n", "t": "\t"}.get(token[1], token[1]))
        elif not token.strip(" \t\r\n"):  # ASCII white space only (U+2028 is a character)
            out.append(token if quoted else " ")
        else:
            out.append(token)
    return "".join(out)


@settings(max_examples=150, deadline=None)
@given(TEXTS)
def test_android_string_reads_back(text: str):
    text = _text(text)
    src = '<resources>\n    <string name="k">Hello\\nthere</string>\n</resources>\n'
    out = AndroidFormat().parse(src).reassemble({0: text}, target_language="de")
    shown = _aapt(ET.fromstring(out).find("string"))
    expected = re.sub(r"[ \r]+", " ", text.replace("\r\n", "\n")).replace("\r", "")
    # (spaces just before a line break may go: spans never leaves them there)
    assert re.sub(" +", " ", shown).replace(" \n", "\n") == re.sub(" +", " ", expected).replace(" \n", "\n")
