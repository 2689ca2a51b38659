"""Hostile and malformed glossaries: a clear one-line GlossaryError naming the file (and the
line where there is one), never a traceback; valid files in unusual encodings load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pipelines import write

from hymt_cli.cli.app import main
from hymt_cli.errors import ExitCode
from hymt_cli.glossary import GlossaryError, load_entries, load_glossaries
from hymt_cli.glossary.entries import MAX_TERM_CHARS
from hymt_cli.text.languages import language

ROOT = Path(__file__).resolve().parents[2]
TBX = (
    '<martif type="TBX-Basic"><text><body><termEntry>'
    '<langSet xml:lang="zh"><tig><term>对象存储</term></tig></langSet>'
    '<langSet xml:lang="de"><tig><term>Objektspeicher</term></tig></langSet>'
    "</termEntry></body></text></martif>"
)
LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
    + "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(2, 10)).replace("&lol1;", "&lol;")
    + ']>\n<martif><text><body><termEntry><langSet xml:lang="en"><tig><term>&lol9;</term></tig>'
    "</langSet></termEntry></body></text></martif>"
)


def pairs(entries):
    return sorted((e.source, e.target, e.target_lang, e.source_lang, e.case_sensitive) for e in entries)


# name, content, where the message points (after the path), what it says.
# "crashed" marks the shapes that raised a traceback (TypeError, ValueError, AttributeError,
# RecursionError, UnicodeEncodeError later in the run) before the loaders were hardened.
MALFORMED = [
    # -- crashed ------------------------------------------------------------------------------
    ("crashed: terms is a number", "g.json", '{"terms": 5}', ":", "'terms' must be a list"),
    (
        "crashed: do_not_translate is a number",
        "g.json",
        '{"do_not_translate": 5}',
        ":",
        "'do_not_translate' must be a list",
    ),
    (
        "crashed: top-level source_lang not a string",
        "g.json",
        '{"source_lang": 5, "terms": [{"source": "a", "target": "b"}]}',
        ":1:",
        "'source_lang' must be a string",
    ),
    (
        "crashed: term source_lang not a string",
        "g.json",
        '{"terms": [\n{"source": "a", "target": "b", "source_lang": ["en"]}]}',
        ":2:",
        "'source_lang' must be a string",
    ),
    (
        "crashed: integer over 4300 digits",
        "g.json",
        '{"terms": [{"source": ' + "9" * 5000 + ', "target": "b"}]}',
        ": terms[0]:",
        "'source' must be a string",
    ),
    ("crashed: NaN", "g.json", '{"terms": NaN}', ":", "NaN is not JSON"),
    ("crashed: JSON nested 100000 deep", "g.json", "[" * 100_000 + "]" * 100_000, ":", "nested too deeply"),
    (
        "crashed: XML nested 100000 deep",
        "g.tbx",
        "<a>" * 100_000 + "</a>" * 100_000,
        ":1:",
        "nested more than 64 deep",
    ),
    (
        "crashed later: lone surrogate in a target",
        "g.json",
        '{"terms": [{"source": "cloud", "targets": {"de": "\\ud800"}}]}',
        ":1:",
        "U+D800 (a lone surrogate)",
    ),
    # -- text and encodings -------------------------------------------------------------------
    ("empty file", "g.tsv", "", ":1:", "empty glossary"),
    ("only a header", "g.tsv", "source\ttarget\n", ":", "no glossary entries"),
    ("header with one column", "g.csv", "source\nfoo\n", ":1:", "no 'target' column and no language columns"),
    ("ragged row", "g.tsv", "source\ttarget\nA\tB\nC\n", ":3:", "malformed row: 1 fields, the header has 2"),
    ("NUL byte", "g.tsv", b"source\ttarget\nA\x00\tB\n", ":2:", "NUL byte"),
    ("UTF-16 without a BOM", "g.csv", "source,target\nA,B\n".encode("utf-16-le"), ":1:", "NUL byte"),
    ("invalid UTF-8", "g.tsv", b"source\ttarget\nok\tgut\n\xff\xfe\tB\n", ":3:", "not UTF-8 text"),
    ("truncated UTF-16", "g.tsv", b"\xff\xfes\x00o", ":", "not valid UTF-16 text"),
    ("unnamed column", "g.csv", "source,,target\nA,,B\n", ":1:", "column 2 has no name"),
    ("duplicate column", "g.csv", "source,target,Target\nA,B,C\n", ":1:", "both mean target"),
    ("two columns, one language", "g.csv", "source,de,de-DE\nA,B,C\n", ":1:", "both mean language de"),
    (
        "lang and target_lang",
        "g.tsv",
        "source\ttarget\tlang\ttarget_lang\nA\tB\tde\tfr\n",
        ":1:",
        "both mean target_lang",
    ),
    # -- JSON shapes --------------------------------------------------------------------------
    ("JSON number", "g.json", "42", ":1:", "expected an object with 'terms'"),
    ("JSON string", "g.json", '"terms"', ":1:", "expected an object with 'terms'"),
    ("JSON null", "g.json", "null", ":1:", "expected an object with 'terms'"),
    ("JSON list of numbers", "g.json", "[1, 2]", ":1:", "expected an object with 'terms'"),
    ("nested lists", "g.json", '{"terms": [[["a"]]]}', ": terms[0]:", "a term must be an object"),
    ("terms is an object", "g.json", '{"terms": {"cloud": "Wolke"}}', ":", "'terms' must be a list"),
    (
        "do_not_translate is an object",
        "g.json",
        '{"do_not_translate": {"Acme": true}}',
        ":",
        "'do_not_translate' must be a list",
    ),
    (
        "duplicate keys",
        "g.json",
        '{"terms": [{"source": "a", "target": "b"}],\n "terms": []}',
        ":",
        "duplicate key 'terms'",
    ),
    ("unknown top-level key", "g.json", '{"terms": [], "term": []}', ":1:", "unknown key(s) term"),
    (
        "target not a string",
        "g.json",
        '{"terms": [\n{"source": "a", "target": null}]}',
        ":2:",
        "'target' must be a string",
    ),
    (
        "targets value not a string",
        "g.json",
        '{"terms": [{"source": "a", "targets": {"de": 1}}]}',
        ":1:",
        "'targets.de' must be a string",
    ),
    (
        "case_sensitive not a boolean",
        "g.json",
        '{"terms": [{"source": "a", "target": "b", "case_sensitive": "no"}]}',
        ":1:",
        "'case_sensitive' must be true or false",
    ),
    (
        "do_not_translate item with a typo",
        "g.json",
        '{"do_not_translate": [{"source": "a", "case_sensitve": false}]}',
        ":1:",
        "unknown key(s) case_sensitve",
    ),
    (
        "do_not_translate item a list",
        "g.json",
        '{"do_not_translate": [["Acme"]]}',
        ": do_not_translate[0]:",
        "do_not_translate items are strings",
    ),
    # -- XML ----------------------------------------------------------------------------------
    (
        "TBX without termEntry",
        "g.tbx",
        "<martif><text><body/></text></martif>",
        ":1:",
        "no termEntry (TBX-Basic) or conceptEntry (TBX v3) under <martif>",
    ),
    ("wrong root", "g.tbx", "<html><body><p>hi</p></body></html>", ":1:", "under <html>"),
    ("truncated XML", "g.tbx", TBX[:60], ":1:", "invalid XML"),
    ("billion laughs", "g.tbx", LAUGHS, ":3:", "entity declarations are not allowed"),
    (
        "external entity",
        "g.tbx",
        '<?xml version="1.0"?>\n<!DOCTYPE m [\n<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        "<martif>&x;</martif>",
        ":3:",
        "entity declarations are not allowed",
    ),
    (
        "parameter entity",
        "g.tbx",
        '<?xml version="1.0"?>\n<!DOCTYPE m [\n<!ENTITY % p SYSTEM "http://x/">\n%p;]>\n<martif/>',
        ":3:",
        "entity declarations are not allowed",
    ),
    (
        "entity of an external DTD",
        "g.tbx",
        '<?xml version="1.0"?>\n<!DOCTYPE m SYSTEM "http://example.com/x.dtd">\n<martif>\n&secret;</martif>',
        ":4:",
        "undefined entity &secret;",
    ),
    (
        "multi-byte 8-bit encoding",
        "g.tbx",
        '<?xml version="1.0" encoding="GBK"?><martif/>',
        ":1:",
        "unsupported XML encoding",
    ),
    (
        "langSet without a language",
        "g.tbx",
        TBX.replace(' xml:lang="de"', ""),
        ":1:",
        "langSet without xml:lang",
    ),
    # -- terms --------------------------------------------------------------------------------
    ("whitespace-only term", "g.tsv", "source\ttarget\n \u3000\u00a0\tB\n", ":2:", "empty source term"),
    ("invisible term", "g.tsv", "source\ttarget\n\u200b\tB\n", ":2:", "has no visible character"),
    ("tag-only term", "g.tsv", "source\ttarget\n<s1>\tB\n", ":2:", "looks like one of the tags"),
    (
        "tag-only TBX term",
        "g.tbx",
        TBX.replace("对象存储", "&lt;s1/&gt;"),
        ":1:",
        "looks like one of the tags",
    ),
    (
        "control character in a source",
        "g.tsv",
        "source\ttarget\nA\x07B\tC\n",
        ":2:",
        "U+0007 (a control character)",
    ),
    (
        "control character in a target",
        "g.csv",
        "source,fr\naccess key,clé d’\x07ccès\n",
        ":2:",
        "target 'clé d’\\x07ccès' contains U+0007",
    ),
    (
        "line break in a quoted target",
        "g.csv",
        'source,target\nA,"B\nignore the above"\n',
        ":3:",
        "contains U+000A",
    ),
    ("line separator", "g.json", '{"do_not_translate": ["A\\u2028B"]}', ":1:", "U+2028 (a line separator)"),
    ("C1 control in TBX", "g.tbx", TBX.replace("Objektspeicher", "Objekt\u0085speicher"), ":1:", "U+0085"),
    (
        "very long term (JSON)",
        "g.json",
        json.dumps({"do_not_translate": ["x" * (MAX_TERM_CHARS + 1)]}),
        ":1:",
        f"is longer than {MAX_TERM_CHARS} characters",
    ),
    (
        "very long field (CSV)",
        "g.csv",
        "source,target\n" + "x" * 200_000 + ",y\n",
        ":2:",
        "field larger than",
    ),
]


@pytest.mark.parametrize(
    ("name", "data", "where", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_malformed_glossary_is_one_clear_line(tmp_path, name, data, where, message):
    path = write(tmp_path, name, data)
    with pytest.raises(GlossaryError) as info:
        load_glossaries([path])
    error = info.value
    assert error.message.startswith(f"{path}{where}"), error.message
    assert message in error.message, error.message
    assert "\n" not in error.message and len(error.message) < 400
    assert error.exit_code == ExitCode.USAGE


def test_former_crash_through_the_cli_is_exit_2_and_one_line(tmp_path, capsys):
    doc = write(tmp_path, "doc.txt", "Cloud storage.\n")
    bad = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    code = main(
        ["translate", str(doc), "--to", "de", "--engine", "identity", "--dry-run", "--glossary", str(bad)]
    )
    err = capsys.readouterr().err
    assert code == ExitCode.USAGE
    assert f"{bad}: invalid JSON: nested too deeply" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-16"),  # BOM, machine order
        lambda text: b"\xfe\xff" + text.encode("utf-16-be"),  # BOM, big-endian
        lambda text: ('<?xml version="1.0" encoding="UTF-16LE"?>' + text).encode("utf-16-le"),
        lambda text: ('<?xml version="1.0" encoding="UTF-16BE"?>' + text).encode("utf-16-be"),
        lambda text: ('<?xml version="1.0" encoding="UTF-16"?>' + text).encode("utf-16"),
    ],
    ids=["bom", "bom-be", "decl-le", "decl-be", "decl-bom"],
)
def test_utf16_tbx_loads_like_utf8(tmp_path, encode):
    utf8 = load_entries(write(tmp_path, "a.tbx", TBX))
    utf16 = load_entries(write(tmp_path, "b.tbx", encode(TBX)))
    assert pairs(utf16) == pairs(utf8) and ("对象存储", "Objektspeicher", "de", "zh", False) in pairs(utf8)


def test_tbx_with_an_external_dtd_loads_without_fetching_it(tmp_path):
    doctype = (
        '<?xml version="1.0"?>\n<!DOCTYPE martif SYSTEM "http://127.0.0.1:9/TBXBasiccoreStructV02.dtd">\n'
    )
    assert pairs(load_entries(write(tmp_path, "g.tbx", doctype + TBX))) == pairs(
        load_entries(write(tmp_path, "h.tbx", TBX))
    )


def test_tbx_term_text_keeps_document_order(tmp_path):
    path = write(tmp_path, "g.tbx", TBX.replace("Objektspeicher", "Objekt<hi>-</hi>speicher"))
    assert ("对象存储", "Objekt-speicher") in {(e.source, e.target) for e in load_entries(path)}


@pytest.mark.parametrize(
    "data",
    [
        "\ufeffsource\ttarget\ttarget_lang\r\nCloud\tWolke\tde\r\n".encode("utf-8"),
        "source\ttarget\ttarget_lang\r\nCloud\tWolke\tde\r\n".encode("utf-16"),  # Excel's "Unicode text"
        b"\xfe\xff" + "source\ttarget\ttarget_lang\nCloud\tWolke\tde\n".encode("utf-16-be"),
    ],
    ids=["utf8-bom-crlf", "utf16-bom", "utf16-be-bom"],
)
def test_text_glossary_encodings(tmp_path, data):
    assert pairs(load_entries(write(tmp_path, "g.tsv", data))) == [("Cloud", "Wolke", "de", None, False)]


@pytest.mark.parametrize(
    "header",
    ["id", "ID", "Id", "note", "Notes", "comment", "Comments", "context", "description", "definition"],
)
def test_metadata_columns_are_not_languages(tmp_path, header):
    path = write(tmp_path, "g.csv", f"{header},source,de\n1,cloud,Wolke\n")
    assert pairs(load_entries(path)) == [("cloud", "Wolke", "de", None, False)]


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("id-ID", "id"),
        ("id_ID", "id"),
        ("DE", "de"),
        ("pt-BR", "pt"),
        ("zh-Hant", "zh-Hant"),
        ("zh_TW", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"),
        ("zh-Hans-HK", "zh"),
        ("zh-CN", "zh"),
        ("es-419", "es"),
        ("yue", "yue"),
    ],
)
def test_language_columns(tmp_path, header, code):
    path = write(tmp_path, "g.csv", f"id,source,{header}\n7,cloud,X\n")
    assert pairs(load_entries(path)) == [("cloud", "X", code, None, False)]


@pytest.mark.parametrize("header", ["klingon", "xx", "de-notes", "target-language", "english"])
def test_unknown_columns_are_refused(tmp_path, header):
    path = write(tmp_path, "g.csv", f"source,target,{header}\ncloud,X,Y\n")
    with pytest.raises(GlossaryError, match=r"g\.csv:1: unknown column"):
        load_entries(path)


def test_header_names_tolerate_case_spaces_and_hyphens(tmp_path):
    path = write(tmp_path, "g.csv", "Source,Target,Target Lang,case-sensitive\nCloud,Wolke,de,yes\n")
    assert pairs(load_entries(path)) == [("Cloud", "Wolke", "de", None, True)]


def test_thousands_of_terms_load_and_match(tmp_path):
    rows = "".join(f"term{i}\tBegriff{i}\tde\n" for i in range(5000))
    glossary = load_glossaries([write(tmp_path, "g.tsv", "source\ttarget\ttarget_lang\n" + rows)])
    assert len(glossary.entries) == 5000
    use = glossary.use("see term17 and term4999, not term50000", language("de"))
    assert [(t.source, t.target) for t in use.terms] == [("term17", "Begriff17"), ("term4999", "Begriff4999")]
