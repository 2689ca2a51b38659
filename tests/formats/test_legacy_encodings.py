"""Inputs in an encoding they do not declare (issue 27): a CSV exported by Excel on Chinese
Windows (GBK, CRLF, no BOM), a cp1252 one, and a Big5 page without a charset. `--encoding`
reads them (also per path); the output keeps the input's encoding where the translation fits
it, is refused up front suggesting UTF-8 where the target language does not (never a `?`), and
`--output-encoding utf-8`
writes UTF-8: with a BOM for CSV (Excel), with its `<meta charset>` saying so for HTML."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from clirun import hymt

from hymt_cli.errors import UsageError
from hymt_cli.formats import EncodingOptions

RUN = ("--no-cache", "--no-config")
GBK_CSV = "名称,描述\r\n茶杯,白色陶瓷茶杯，容量三百毫升\r\n筷子,竹制筷子十双装\r\n".encode("gbk")
CP1252_CSV = "name,description\r\nCafé,Crème brûlée – 5 €\r\n".encode("cp1252")
BIG5_PAGE = (
    "<!doctype html>\n<html><head><title>公告</title></head>\n"
    "<body><p>今天天氣很好。</p><p alt='x'>歡迎光臨</p></body></html>\n"
).encode("big5")
DECLARED_PAGE = BIG5_PAGE.replace(
    b"<head>", b'<head><meta http-equiv="Content-Type" content="text/html; charset=big5">'
)


def _run(cwd: Path, *args: str) -> tuple[int, str]:
    result = hymt("translate", *args, *RUN, cwd=cwd, text=True)
    return result.returncode, result.stderr


def test_a_gbk_csv_is_refused_without_encoding_and_read_with_it(tmp_path: Path) -> None:
    (tmp_path / "products.csv").write_bytes(GBK_CSV)
    code, err = _run(tmp_path, "products.csv", "--to", "ja", "--columns", "描述", "--engine", "identity")
    assert code == 1 and "not valid UTF-8" in err and "--encoding" in err
    code, err = _run(
        tmp_path,
        "products.csv",
        "--to",
        "ja",
        "--columns",
        "描述",
        "--engine",
        "identity",
        "--encoding",
        "gbk",
    )
    assert code == 0, err
    assert (tmp_path / "products.ja.csv").read_bytes() == GBK_CSV  # kept in GBK, byte for byte


def test_a_translation_gbk_cannot_hold_is_an_error_then_utf8_with_a_bom(tmp_path: Path) -> None:
    (tmp_path / "products.csv").write_bytes(GBK_CSV)
    args = ("products.csv", "--to", "de", "--columns", "描述", "--engine", "pseudo", "--encoding", "gbk")
    code, err = _run(tmp_path, *args)
    assert code == 1
    # known before any request (issue 34): GBK has no ä, ö, ß (text/exemplars.py)
    assert "products.csv: gbk cannot write German (de): it lacks Ä Ö Ü ä ö" in err
    assert "--output-encoding utf-8" in err
    assert not (tmp_path / "products.de.csv").exists()  # nothing half-written, no `?`
    # Japanese fits GBK, the pseudo engine's ⟦ does not, and has no substitute: each value keeps its
    # source, counted untranslated (exit 4), and the file is written in GBK (output_encoding.py)
    code, err = _run(tmp_path, *args[:2], "ja", *args[3:])
    assert code == 4 and "2 untranslated" in err, err
    assert (tmp_path / "products.ja.csv").read_bytes() == GBK_CSV
    code, err = _run(tmp_path, *args, "--output-encoding", "utf-8")
    assert code == 0, err
    data = (tmp_path / "products.de.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads UTF-8 only with a BOM
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0] == ["名称", "描述"] and rows[1][0] == "茶杯"
    assert rows[1][1].startswith("⟦") and "白色陶瓷茶杯" in rows[1][1]
    assert data.count(b"\r\n") == 3


def test_encoding_per_path(tmp_path: Path) -> None:
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "menu.csv").write_bytes(CP1252_CSV)
    (tmp_path / "modern.csv").write_text("name,description\nTea,Green tea\n")
    (tmp_path / "hymt.toml").write_text(
        'columns = ["description"]\n[[files]]\nglob = "legacy/"\nencoding = "cp1252"\n'
    )
    result = hymt(
        "translate", ".", "--to", "fr", "--engine", "identity", "--no-cache", cwd=tmp_path, text=True
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "legacy" / "menu.fr.csv").read_bytes() == CP1252_CSV
    assert (tmp_path / "modern.fr.csv").read_text() == "name,description\nTea,Green tea\n"


def test_a_big5_page_without_a_charset(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(BIG5_PAGE)
    code, err = _run(tmp_path, "page.html", "--to", "en", "--engine", "pseudo")
    assert code == 1 and "no charset declared" in err and "--encoding" in err
    code, err = _run(tmp_path, "page.html", "--to", "en", "--engine", "pseudo", "--encoding", "big5")
    assert code == 0, err
    page = (tmp_path / "page.en.html").read_bytes().decode("big5")  # still Big5
    # what Big5 lacks is a character reference, which a browser reads as the character
    assert "<title>&#10214;公告" in page and "<p>&#10214;今天天氣很好" in page
    assert "?" not in page.replace("<!doctype", "")
    code, err = _run(
        tmp_path,
        "page.html",
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--encoding",
        "big5",
        "--output-encoding",
        "utf-8",
    )
    assert code == 0, err
    page = (tmp_path / "page.de.html").read_text(encoding="utf-8")
    assert page.startswith('<!doctype html>\n<html><head><meta charset="utf-8"><title>⟦公告')


def test_a_declared_charset_follows_the_output_encoding(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(DECLARED_PAGE)
    code, err = _run(
        tmp_path, "page.html", "--to", "de", "--engine", "identity", "--output-encoding", "utf-8"
    )
    assert code == 0, err
    page = (tmp_path / "page.de.html").read_text(encoding="utf-8")
    assert page == DECLARED_PAGE.decode("big5").replace("charset=big5", "charset=utf-8")
    code, err = _run(tmp_path, "page.html", "--to", "fr", "--engine", "identity")
    assert code == 0, err
    assert (tmp_path / "page.fr.html").read_bytes() == DECLARED_PAGE


def test_an_unknown_encoding_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--encoding: unknown encoding 'klingon'"):
        EncodingOptions(encoding="klingon")
    assert EncodingOptions(encoding="x-mac-cyrillic").encoding  # a WHATWG label Python lacks
