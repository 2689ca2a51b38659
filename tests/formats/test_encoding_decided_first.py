"""Legacy encodings are decided before any request (issue 34, item 13): a target language whose
letters (CLDR's exemplar characters) the output's encoding lacks fails that output up front in one
line naming the file, the language and the encoding, and nothing is sent for it; the other
languages and files go on. HTML and XML write what their declared encoding lacks as character
references, whatever the model writes (its output is untrusted: `⟦` is in no language's letters)."""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from clirun import hymt

from hymt_cli.text.exemplars import exemplars, refusal, unwritable

GBK_CSV = "名称,描述\r\n茶杯,白色陶瓷茶杯，容量三百毫升\r\n筷子,竹制筷子十双装\r\n".encode("gbk")
GBK_TEXT = "今天天气很好。\n\n欢迎光临。\n".encode("gbk")
GBK_PAGE = (
    '<!doctype html>\n<html><head><meta charset="gbk"><title>公告</title></head>\n'
    "<body><p>欢迎光临</p></body></html>\n"
).encode("gbk")
LATIN1_XLIFF = """<?xml version="1.0" encoding="ISO-8859-1"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="x">
    <body>
      <trans-unit id="a"><source>Open the file</source></trans-unit>
    </body>
  </file>
</xliff>
""".encode("iso-8859-1")


def test_the_letters_of_a_language_against_an_encoding() -> None:
    assert set("äöüßÄÖÜ") <= set(exemplars("de")) and "ß" not in exemplars("de-CH")
    assert exemplars("pt-BR") == exemplars("pt") and exemplars("zh-TW") == exemplars("zh-Hant")
    assert unwritable("de", "gbk") == "ÄÖÜäö"  # (GBK has pinyin's ü; ß is written ss, as German allows)
    assert unwritable("ja", "gbk") == "" and unwritable("ru", "koi8-r") == ""
    assert refusal("zh-TW", "big5") is None  # a few of CLDR's variants aside, Big5 writes it
    assert refusal("zh", "big5") is not None and refusal("ru", "latin-1") is not None
    assert refusal("fr", "latin-1") is None  # œ Œ Ÿ are written oe OE Y, as French was typed in Latin-1
    assert refusal("de", "utf-8") is None


def test_a_language_gbk_cannot_write_fails_before_any_request(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_bytes(GBK_CSV)
    (tmp_path / "t.txt").write_bytes(GBK_TEXT)
    (tmp_path / "p.html").write_bytes(GBK_PAGE)
    run = hymt(
        "translate", "a.csv", "t.txt", "p.html", "--to", "de,ja", "--columns", "描述", "--encoding", "gbk",
        "--engine", "pseudo", "--no-cache", "--no-config", "-o", "out", "--report", "r.json",
        cwd=tmp_path, text=True,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    for name in ("a.csv", "t.txt"):
        line = f"error: {name}: gbk cannot write German (de): it lacks Ä Ö Ü ä ö; nothing was translated"
        assert line in run.stderr, run.stderr
    files = {
        (Path(f["input"]).name, f["lang"]): f for f in json.loads((tmp_path / "r.json").read_text())["files"]
    }
    for name in ("a.csv", "t.txt"):
        assert files[(name, "de")]["status"] == "failed" and files[(name, "de")]["segments"] == 0  # none sent
        assert not (tmp_path / "out/de" / name).exists()
    for name in ("a.csv", "t.txt", "p.html"):
        assert files[(name, "ja")]["status"] == "failed" or files[(name, "ja")]["segments"] > 0
    # the page writes what GBK lacks as character references, the model's `⟦` included
    page = (tmp_path / "out/de/p.html").read_bytes()
    text = page.decode("gbk")  # GBK throughout
    assert "&#" in text and "⟦" in html.unescape(text)
    assert files[("p.html", "de")]["status"] == "ok"


def test_xml_writes_references_where_its_declared_encoding_lacks_a_character(tmp_path: Path) -> None:
    (tmp_path / "messages.xlf").write_bytes(LATIN1_XLIFF)
    run = hymt(
        "translate", "messages.xlf", "--to", "ru", "--engine", "pseudo", "--no-cache", "--no-config",
        cwd=tmp_path, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr  # Russian in ISO-8859-1 XML: references, not a refusal
    written = (tmp_path / "messages.ru.xlf").read_bytes()
    assert written.startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>')
    written.decode("iso-8859-1")
    target = ET.fromstring(written).find(".//{urn:oasis:names:tc:xliff:document:1.2}target")
    assert target is not None and target.text is not None and target.text.startswith("⟦")
