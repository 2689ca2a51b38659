"""Issue 13: the output has the source's structure, always; model output is untrusted input."""

from __future__ import annotations

import html
import re

import pytest
from corpora import commonmark_examples, encoding_records
from markup_helpers import assert_html_structure_kept, assert_md_structure_kept

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import DocumentDecodeError, format_named

MD = format_named("md")
HTML = format_named("html")


def _translate(fmt, src: str, answer) -> str:
    doc = fmt.parse(src)
    return doc.reassemble({s.id: answer(s.text) for s in doc.segments})


def _links(text: str) -> list[tuple[str, str | None]]:
    from hymt_cli.formats.markdown import markdown_parser

    return [
        (c.type, c.attrs.get("href") or c.attrs.get("src"))
        for t in markdown_parser().parse(text)
        for c in t.children or []
        if c.type in ("link_open", "image")
    ]


# -- Markdown: reference links ------------------------------------------------------------
def test_md_shortcut_and_collapsed_reference_links_keep_resolving():
    src = (
        "See [the guide] and [the guide][] or [Other *one*][].\n\n[the guide]: /guide\n[other *one*]: "
        "/other\n"
    )
    out = _translate(MD, src, pseudo_localize)
    assert _links(out) == _links(src) == [("link_open", "/guide")] * 2 + [("link_open", "/other")]
    assert "][the guide]" in out and "][Other *one*]" in out
    assert_md_structure_kept(src, out)
    assert MD.parse(src).reassemble({s.id: s.text for s in MD.segments(src)}) == src


def test_md_reference_label_across_lines_in_a_container():
    src = "> See [the\n> guide] and [more\n> docs][].\n\n[the guide]: /g\n[more docs]: /m\n"
    out = _translate(MD, src, pseudo_localize)
    assert _links(out) == _links(src) == [("link_open", "/g"), ("link_open", "/m")]
    assert_md_structure_kept(src, out)


def test_md_shortcut_reference_image_keeps_its_label():
    src = "An ![logo] here and ![logo][] there.\n\n[logo]: /logo.png\n"
    out = _translate(MD, src, pseudo_localize)
    assert _links(out) == _links(src) and "![logo]" in out


def test_md_links_of_every_commonmark_example_resolve_after_translation():
    failures = []
    for i, src in enumerate(commonmark_examples()):
        out = _translate(MD, src, pseudo_localize)
        if _links(out) != _links(src):
            failures.append((i, src, out))
    assert not failures, failures[:3]


# -- Markdown: escapes, entities, opaque inline HTML, content tabs -----------------------
@pytest.mark.parametrize(
    "answer",
    [lambda t: t.replace("Not", "Pas"), pseudo_localize, lambda t: t.replace("\\", "") + " fin"],
    ids=["edit", "pseudo", "drop-backslash"],
)
def test_md_escapes_and_entities_stay_escaped(answer):
    src = (
        "Not \\*emphasis\\* and &#42;not&#42; either, nor \\_this\\_ or &lowbar;that&lowbar; or \\`code\\`.\n"
    )
    out = _translate(MD, src, answer)
    assert out != src
    assert_md_structure_kept(src, out)  # no em, no code span


def test_md_inline_code_kbd_samp_and_notranslate_are_placeholders():
    src = (
        "Press <kbd>Ctrl</kbd>, run <code>make <b>all</b></code>, see <samp>OK</samp>, "
        'keep <span translate="no">Brand</span> and <em class="x notranslate">Keep</em> here.\n'
    )
    (segment,) = MD.segments(src)
    for word in ("Ctrl", "make", "all", "OK", "Brand", "Keep"):
        assert word not in segment.text
    assert segment.text.count("/>") == 5
    out = _translate(MD, src, pseudo_localize)
    for kept in (
        "<kbd>Ctrl</kbd>",
        "<code>make <b>all</b></code>",
        "<samp>OK</samp>",
        '<span translate="no">Brand</span>',
        '<em class="x notranslate">Keep</em>',
    ):
        assert kept in out


@pytest.mark.parametrize("marker", ["===", "===!", "===+"])
def test_md_content_tabs_translate_only_the_title(marker):
    src = f'{marker} "Linux"\n\n    Install it.\n\n{marker} "macOS"\n    Body line\n'
    texts = [s.text for s in MD.segments(src)]
    assert "Linux" in texts and "macOS" in texts
    assert not any("===" in t for t in texts)
    out = _translate(MD, src, lambda t: "=== " + t.upper() + ' "x"')
    assert out.startswith(f'{marker} "=== LINUX ”x”"\n') and f'\n{marker} "=== MACOS ”x”"\n' in out
    assert_md_structure_kept(src, out)


# -- model output is untrusted --------------------------------------------------------------
HOSTILE = [
    "[click](http://evil.example)",
    "![x](data:image/png;base64,AAAA)",
    "<script>alert(1)</script>",
    '<a href="javascript:alert(1)">x</a>',
    "<http://evil.example>",
    "*em* __strong__ ~~gone~~",
    "`code` $x^2$",
    "[ref][foo] [foo]",
    "&lt;b&gt; &#42;",
    "line\\",
    "trailing \\",
    "<!-- c -->",
    "<img src=x onerror=alert(1)>",
    "[^1]",
    "^[note]",
    "hard  \nbreak",
    "---\n# x\n\n    code",
]
MD_SOURCES = [
    "A *plain* paragraph with [a link](/u) and `code`.\n\n[foo]: /foo\n[^1]: note\n",
    '| a | b |\n|---|---|\n| cell | ![alt](i.png "title") |\n',
    "> quoted\n> text\n\n- item\n  two\n",
    "# Heading\n\nSetext\n---\n",
    '!!! note "Title"\n    body text\n',
    "<div>\n<p>Some <b>html</b> text\nand more</p>\n</div>\n",
    "Two\nlines of *text*.\n",
]


@pytest.mark.parametrize("src", MD_SOURCES, ids=range(len(MD_SOURCES)))
@pytest.mark.parametrize("hostile", HOSTILE)
def test_md_model_output_never_becomes_markup(src, hostile):
    for answer in (lambda t: t + " " + hostile, lambda t: hostile + " " + t, lambda t: hostile):
        out = _translate(MD, src, answer)
        assert_md_structure_kept(src, out)


HTML_SOURCES = [
    "<p>Plain <b>bold</b> text.</p>",
    "<p title=\"double\" data-x='1'><img alt='single' src=i.png><input placeholder=unquoted></p>",
    '<meta name="description" content="Page">',
    "<ul><li>one<li>two</ul>",
]


@pytest.mark.parametrize("src", HTML_SOURCES, ids=range(len(HTML_SOURCES)))
@pytest.mark.parametrize("hostile", HOSTILE + ['" onmouseover="x', "' onload='x", "x onload=y", "</p><p>"])
def test_html_model_output_never_becomes_markup(src, hostile):
    for answer in (lambda t: t + " " + hostile, lambda t: hostile):
        out = _translate(HTML, src, answer)
        assert_html_structure_kept(src, out)


# -- HTML: server code and templates ------------------------------------------------------
def test_html_server_code_and_templates_never_reach_the_model():
    src = (
        "<p>Total: <?php if ($a > 1) { ?>many items<?php } else { ?>one item<?php } ?> today.</p>\n"
        "<p>Hello <?= $name ?>, <% if (x > y) { %>you win<% } %> {{ user.name }} {% if a > b %}ok{% endif "
        "%}</p>\n"
        '<img alt="{{ caption }}" title="<?php echo $t ?>">'
    )
    texts = [s.text for s in HTML.segments(src)]
    joined = " ".join(texts)
    for code in ("$a", "1)", "else", "$name", "x > y", "user.name", "a > b", "caption", "echo"):
        assert code not in joined, code
    assert "many items" in joined and "you win" in joined
    out = _translate(HTML, src, pseudo_localize)
    for code in (
        "<?php if ($a > 1) { ?>",
        "<?php } else { ?>",
        "<?php } ?>",
        "<?= $name ?>",
        "<% if (x > y) { %>",
        "<% } %>",
        "{{ user.name }}",
        "{% if a > b %}",
        "{% endif %}",
        'alt="{{ caption }}"',
        'title="<?php echo $t ?>"',
    ):
        assert code in out, code
    assert_html_structure_kept(src, out)


def test_html_marked_section_is_a_bogus_comment_not_a_crash():
    src = "<p>a <![alt]> b</p><p>c <![ d</p>"
    segments = HTML.segments(src)
    assert HTML.reassemble(src, {s.id: s.text for s in segments}) == src
    assert any("b" in s.text for s in segments)


# -- HTML: charsets ----------------------------------------------------------------------------
def _page(charset: str, body: str, codec: str) -> bytes:
    return f'<html><head><meta charset="{charset}"></head><body><p>{body}</p></body></html>'.encode(codec)


CHARSET_CASES = [
    ("big5", "繁體中文測試，香港", "big5hkscs"),
    ("shift_jis", "日本語のテキスト、ｶﾀｶﾅ", "cp932"),
    ("windows-31j", "日本語の文章", "cp932"),
    ("x-sjis", "日本語", "cp932"),
    ("euc-kr", "한국어 텍스트", "cp949"),
    ("gbk", "简体中文测试", "gbk"),
    ("gb2312", "简体中文", "gbk"),
    ("iso-8859-2", "Zażółć gęślą jaźń", "iso8859-2"),
    ("koi8-r", "Русский текст", "koi8-r"),
]


@pytest.mark.parametrize("label,body,codec", CHARSET_CASES, ids=[c[0] for c in CHARSET_CASES])
def test_legacy_charsets_round_trip_byte_exact(label, body, codec):
    data = _page(label, body, codec)
    decoded = HTML.decode(data)
    assert body in decoded.text
    assert decoded.encode(decoded.text) == data
    doc = HTML.parse(decoded.text)
    assert decoded.encode(doc.reassemble({s.id: s.text for s in doc.segments})) == data
    out = decoded.encode(doc.reassemble({s.id: s.text + " ⟦é⟧" for s in doc.segments}))
    assert html.unescape(HTML.decode(out).text).count("⟦é⟧") == len(doc.segments)  # ⟦ as &#10214;


@pytest.mark.parametrize("label", ["windows-1252", "iso-8859-1", "latin1", "ascii", "us-ascii", "cp1252"])
def test_windows_1252_decodes_every_byte_like_browsers(label):
    body = bytes(range(0x20, 0x7F)).replace(b"<", b"").replace(b"&", b"") + bytes(range(0x80, 0x100))
    data = b'<meta charset="' + label.encode() + b'"><p>' + body + b"</p>"
    decoded = HTML.decode(data)
    assert decoded.encode(decoded.text) == data
    assert all(ch in decoded.text for ch in "\x81\x8d\x8f\x90\x9d€")  # WHATWG's windows-1252


def test_utf16_declared_in_ascii_bytes_means_utf8():
    data = '<meta charset="utf-16"><p>Grüße</p>'.encode()
    decoded = HTML.decode(data)
    assert "Grüße" in decoded.text and decoded.encode(decoded.text) == data
    bom = "\ufeff<p>Grüße</p>".encode("utf-16-le")
    assert HTML.decode(bom).encode(HTML.decode(bom).text) == bom


def test_nul_is_data_and_only_binary_is_refused():
    data = b"<p>a\x00b</p>"
    decoded = HTML.decode(data)
    assert decoded.text == "<p>a\x00b</p>" and decoded.encode(decoded.text) == data
    with pytest.raises(DocumentDecodeError, match="binary.*PNG"):
        HTML.decode(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(DocumentDecodeError, match="binary"):
        HTML.decode(b"%PDF-1.7\n")


def test_undecodable_bytes_are_one_line_with_the_offset():
    data = b'<meta charset="shift_jis"><p>ok \x82</p>'
    with pytest.raises(DocumentDecodeError) as info:
        HTML.decode(data)
    message = str(info.value)
    assert "\n" not in message and re.search(r"byte offset \d+", message)
    assert info.value.offset == data.index(b"\x82")
    with pytest.raises(DocumentDecodeError, match="refuse"):
        HTML.decode(b'<meta charset="iso-2022-kr"><p>x</p>')


def test_meta_prescan_agrees_with_html5lib_encoding_tests():
    import webencodings

    from hymt_cli.formats.html.meta_prescan import prescan

    checked = 0
    for data, expected in encoding_records():
        if data.startswith(b"\xef\xbb\xbf"):
            continue  # a BOM: decided before the prescan (decode_html)
        found = prescan(data)
        assert (found.name if found else "windows-1252") == webencodings.lookup(expected).name, data[:200]
        checked += 1
    assert checked > 70
