"""Markdown and HTML: identity byte-exact, pseudo structure, fault injection, report counts."""

from __future__ import annotations

import re

import pytest
from engines import BlockSyntaxEngine, FaultEngine
from hypothesis import given, settings
from hypothesis import strategies as st
from markup_helpers import HTML_FILES, MD_FILES, html_structure, md_code, md_structure
from pipelines import translate_files as translate

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine, pseudo_localize
from hymt_cli.formats import DocumentDecodeError, format_for_path, format_named
from hymt_cli.text.tags import tag_problem

ALL = MD_FILES + HTML_FILES


def test_samples_exist():
    assert len(MD_FILES) >= 5 and len(HTML_FILES) >= 5


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_format_identity_round_trip(path):
    fmt = format_for_path(path)
    data = path.read_bytes()
    decoded = fmt.decode(data)
    src = decoded.text
    segments = fmt.segments(src)
    assert decoded.encode(fmt.reassemble(src, {s.id: s.text for s in segments})) == data


def test_identity_engine_whole_pipeline_byte_exact(tmp_path):
    report, outputs = translate(ALL, IdentityEngine(), tmp_path)
    assert report.files_failed == 0
    for src, out in outputs.items():
        data = src.read_bytes()
        if src.name == "empty.md":
            assert out.read_bytes() == b""
            continue
        got = out.read_bytes()
        if src.suffix == ".html" and b"lang=" in data:  # <html lang> is set to the target
            got = re.sub(rb'(<html[^>]*lang=["\']?)fr', lambda m: m.group(1) + b"XX", got)
            data = re.sub(rb'(<html[^>]*lang=["\']?)[A-Za-z-]+', lambda m: m.group(1) + b"XX", data)
        assert got == data, src


def test_pseudo_markdown_structure_code_urls_and_every_segment_changed(tmp_path):
    report, outputs = translate(MD_FILES, PseudoEngine(), tmp_path)
    assert report.files_failed == 0 and report.untranslated == 0
    for src, out in outputs.items():
        before, after = src.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
        assert md_structure(after) == md_structure(before), src
        assert md_code(after) == md_code(before), src
        fmt = format_named("md")
        # every prose segment changed: the pseudo brackets appear once per translated segment
        prose = [
            s for s in fmt.segments(before) if any(c.isalpha() for c in re.sub(r"</?s\d+/?>", "", s.text))
        ]
        assert after.count("⟦") == len(prose), src


def test_pseudo_html_structure_and_opaque_content(tmp_path):
    report, outputs = translate(HTML_FILES, PseudoEngine(), tmp_path)
    assert report.files_failed == 0 and report.untranslated == 0
    for src, out in outputs.items():
        fmt = format_for_path(src)
        before = fmt.decode(src.read_bytes()).text
        after = format_for_path(out).decode(out.read_bytes()).text
        assert html_structure(after) == html_structure(before), src
        prose = [
            s for s in fmt.segments(before) if any(c.isalpha() for c in re.sub(r"</?s\d+/?>", "", s.text))
        ]
        assert after.count("⟦") + after.count("&#10214;") == len(prose), src


def test_html_specifics(tmp_path):
    index = [p for p in HTML_FILES if p.name == "index.html"][0]
    _, outputs = translate([index], PseudoEngine(), tmp_path)
    out = outputs[index].read_text(encoding="utf-8")
    assert '<html lang="fr">' in out
    assert 'const greeting = "Hello, world"; if (a < b && c > d)' in out
    assert '<p class="notranslate">hymt</p>' in out
    assert '<span translate="no">HY-MT Studio</span>' in out
    assert "<code>hymt translate site/ --to en</code>" in out
    assert 'alt="⟦Šçŕééñšĥóţ' in out and 'placeholder="⟦Ţýþé' in out
    assert "width=640>" in out and '<P CLASS="upper">' in out and "<BR>" in out
    assert "<header class=site-header>" in out


def test_real_world_samples_translate_what_they_should(tmp_path):
    names = ("readme.md", "hugo-page.md", "zh-admonitions.md", "product.html")
    paths = [p for p in ALL if p.name in names]
    assert len(paths) == 4
    _, outputs = translate(paths, PseudoEngine(), tmp_path)
    out = {p.name: outputs[p].read_text(encoding="utf-8") for p in paths}
    readme = out["readme.md"]
    assert "> [!NOTE]\n" in readme  # GitHub alert marker kept
    assert "![⟦Šçŕééñšĥóţ óƒ á ŕúñ" in readme and '(docs/assets/run.png "⟦Á ŕúñ' in readme
    assert '[guide]: docs/guide.md "⟦Ţĥé úšéŕ ĝúíđé' in readme and "[license]: LICENSE\n" in readme
    assert "^[⟦Íţ þŕíñţš" in readme and 'alt="⟦ĥýɱţ ĺóĝó' in readme
    assert "](https://img.shields.io/pypi/v/hymt.svg)](https://pypi.org/project/hymt/)" in readme
    hugo = out["hugo-page.md"]
    assert hugo.startswith('+++\ntitle = "⟦Ŕéĺéášé ñóţéš') and "description = '⟦Ŵĥáţ" in hugo
    assert 'date = 2025-03-01\nweight = 30\n[menu.main]\n  name = "Releases"\n+++\n' in hugo
    assert '  <div class="upgrade">\n    <p>⟦Úþĝŕáđé ŵíţĥ <code>pip install -U hymt</code>' in hugo
    zh = out["zh-admonitions.md"]
    assert "title: ⟦部署与性能调优" in zh and "sidebar_label: 性能调优\n" in zh
    assert '!!! note "⟦适用版本' in zh and "$$\nT \\approx \\frac{n + 1.2n}{R}\n$$" in zh
    assert "[^batch]: ⟦批处理参数" in zh and "# 配置文件示例（不会被翻译）" in zh
    page = out["product.html"]
    assert "content='⟦Ķééþš éṽéŕý ƀýţé óƒ ɱáŕķúþ &quot;áš íš&quot; ····•···.⟧'" in page
    assert "Ţáĝš ĺíķé &lt;code&gt; áñđ éñţíţíéš ĺíķé ÁŢ&amp;Ţ" in page
    assert '<p translate="no">hymt.example.com</p>' in page
    assert '<li class="notranslate"><a href="https://github.com/example/hymt">GitHub</a></li>' in page
    assert ">Default text is not translated</textarea>" in page
    assert '{"@context": "https://schema.org", "@type": "SoftwareApplication", "name": "hymt"}' in page


def test_legacy_charsets_round_trip_and_encode_translations(tmp_path):
    legacy = [p for p in HTML_FILES if "legacy" in p.name]
    assert len(legacy) == 2
    _, outputs = translate(legacy, PseudoEngine(), tmp_path)
    gbk = [p for p in legacy if "gbk" in p.name][0]
    text = outputs[gbk].read_bytes().decode("gbk")
    assert "欢迎使用混元翻译" in text and "&#10214;" in text  # ⟦ is not in GBK: a reference
    cp = [p for p in legacy if "1252" in p.name][0]
    assert "Çáƒé" in outputs[cp].read_bytes().decode("cp1252")


def test_undeclared_undecodable_html_is_a_clear_error():
    fmt = format_named("html")
    with pytest.raises(DocumentDecodeError, match="no charset declared.*byte offset 6"):
        fmt.decode(b"<p>ab \xff\xfe</p>")
    with pytest.raises(DocumentDecodeError, match="binary"):
        fmt.decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00")


def test_bad_inputs_through_the_pipeline(tmp_path):
    binary = tmp_path / "in" / "image.html"
    binary.parent.mkdir()
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xd8")
    empty = tmp_path / "in" / "zero.md"
    empty.write_bytes(b"")
    deep = tmp_path / "in" / "deep.md"
    deep.write_text(
        "".join("  " * i + "- level\n" for i in range(400)) + "> " * 300 + "deep quote\n", encoding="utf-8"
    )
    report, outputs = translate([binary, empty, deep], PseudoEngine(), tmp_path / "out")
    by_name = {f.input.rsplit("/", 1)[-1]: f for f in report.files}
    assert by_name["image.html"].status == "failed" and "binary" in by_name["image.html"].error
    assert by_name["zero.md"].status == "ok" and outputs[empty].read_bytes() == b""
    assert by_name["deep.md"].status == "ok"
    assert md_structure(outputs[deep].read_text()) == md_structure(deep.read_text())


@pytest.mark.parametrize("fault", FaultEngine.FAULTS)
def test_fault_injection_keeps_structure_and_counts(tmp_path, fault):
    report, outputs = translate(ALL, FaultEngine(fault), tmp_path)
    assert report.files_failed == 0
    for src, out in outputs.items():
        if src.suffix == ".md":
            before, after = src.read_text(encoding="utf-8-sig"), out.read_text(encoding="utf-8-sig")
            assert md_structure(after) == md_structure(before), (fault, src)
            assert md_code(after) == md_code(before), (fault, src)
        else:
            fmt = format_for_path(src)
            before = fmt.decode(src.read_bytes()).text
            after = format_for_path(out).decode(out.read_bytes()).text
            assert html_structure(after) == html_structure(before), (fault, src)
    files = [f for f in report.files if f.segments]
    assert sum(f.retried for f in files) > 0
    # the inline runs are plain text and translate fine: every broken segment is repaired
    assert sum(f.repaired for f in files) > 0 and sum(f.untranslated for f in files) == 0
    data = report.to_json()
    assert data["repaired"] == sum(f.repaired for f in files)


def test_last_resort_keeps_the_source(tmp_path):
    class Broken(FaultEngine):  # breaks tagged segments and returns nothing for their runs
        def generate(self, requests):
            return [
                g if "<s" in r.source_text else type(g)("", "stop", 1)
                for r, g in zip(requests, super().generate(requests))
            ]

    paths = [p for p in ALL if p.name in ("guide.md", "index.html")]
    report, outputs = translate(paths, Broken("drop"), tmp_path)
    files = [f for f in report.files if f.segments]
    assert sum(f.untranslated for f in files) > 0 and sum(f.repaired for f in files) == 0
    assert report.to_json()["untranslated"] > 0
    guide = [p for p in paths if p.suffix == ".md"][0]
    assert md_structure(outputs[guide].read_text()) == md_structure(guide.read_text())
    assert "hymt translates **Markdown**, HTML" in outputs[guide].read_text()  # source kept


def test_retry_fixes_tags_without_repair(tmp_path):
    report, _ = translate(MD_FILES, FaultEngine("swap", fix_on_retry=True), tmp_path)
    files = [f for f in report.files if f.segments]
    assert sum(f.retried for f in files) > 0
    assert sum(f.repaired for f in files) == 0 and sum(f.untranslated for f in files) == 0


# -- Markdown: alt text, link titles, block-syntax guard -------------------------------------
_LINKS_MD = (
    'See ![A cat on a mat](img/cat.png "The cat") and [the docs](https://x.org/d "Read the docs").\n'
    "\n"
    "![Only an image](img/only.png)\n"
    "\n"
    "| Col | ![Logo alt](logo.png 'Logo | title') |\n"
    "|-----|-----|\n"
    "| a | [ref link][Ref] |\n"
    "\n"
    '[ref]: https://x.org/ref "Reference title"\n'
    "> [quoted]: </q> (Paren title)\n"
    "\n"
    "![*marked* alt](m.png) ![esc \\] alt](e.png 'it\\'s')\n"
)


def _md_links(text: str) -> list[tuple[str, str, str]]:
    """(kind, destination, title) of every link and image, and the reference definitions."""
    from hymt_cli.formats.markdown import markdown_parser

    env: dict = {}
    out = []
    for t in markdown_parser().parse(text, env):
        for c in t.children or []:
            if c.type in ("link_open", "image"):
                out.append((c.type, c.attrs.get("href") or c.attrs.get("src"), c.attrs.get("title", "")))
    for label, ref in sorted(env["references"].items()):
        out.append((label, ref["href"], ref["title"]))
    return out


def test_markdown_alt_text_and_link_titles_are_segments_urls_and_labels_are_not():
    fmt = format_named("md")
    texts = [s.text for s in fmt.segments(_LINKS_MD)]
    for wanted in (
        "A cat on a mat",
        "The cat",
        "Read the docs",
        "Only an image",
        "Logo alt",
        "Logo | title",
        "Reference title",
        "Paren title",
    ):
        assert wanted in texts, wanted
    # markup or escapes inside alt/title: kept as written, never guessed at
    assert not any("marked" in t or "esc" in t or "it" == t[:2] for t in texts)
    assert not any("x.org" in t or "img/" in t or "ref]" in t.lower() for t in texts)


def test_markdown_translated_alt_and_titles_are_escaped_and_urls_kept():
    fmt = format_named("md")
    segments = fmt.segments(_LINKS_MD)
    hostile = " \"q\" 'a' (p) [b] | `c` <i> &copy; \\"
    out = fmt.reassemble(_LINKS_MD, {s.id: s.text + hostile for s in segments})
    assert md_structure(out) == md_structure(_LINKS_MD)
    before, after = _md_links(_LINKS_MD), _md_links(out)
    assert [(k, d) for k, d, _ in after] == [(k, d) for k, d, _ in before]  # URLs untouched
    titles = {t for _, _, t in after}
    for title in ("The cat", "Read the docs", "Reference title", "Paren title"):
        assert title + hostile.replace("&copy;", "&copy;") in titles, title
    assert "Logo | title" + hostile in titles  # `|` inside a table cell escaped, then unescaped
    assert "![A cat on a mat \"q\" 'a' (p) \\[b\\] | \\`c\\` &lt;i> &amp;copy; \\\\](img/cat.png" in out


def test_markdown_block_syntax_in_translations_is_escaped():
    fmt = format_named("md")
    src = "> Quote line one\n> line two\n\n- item one\n  continued\n\nPlain *para*\ngraph.\n\nSetext\n===\n"
    segments = fmt.segments(src)
    raw = {
        s.id: "\n".join(p + line for p, line in zip(("# ", "1. ", "- "), s.text.split("\n")))
        for s in segments
    }
    out = fmt.reassemble(src, raw)
    assert out.startswith("> \\# Quote line one\n> 1\\. line two\n")
    assert "- \\# item one\n  1\\. continued" in out
    assert md_structure(out) == md_structure(src)
    # the test can fail: the same text spliced without the guard changes the structure
    unguarded = "> # Quote line one\n> 1. line two\n\n- # item one\n  1. continued\n"
    assert md_structure(unguarded) != md_structure(src[: len(unguarded)])
    # blank lines and extra lines in a translation do not split or add blocks either
    out = fmt.reassemble(src, {s.id: "    code?\n\n---\n```\n" + s.text for s in segments})
    assert md_structure(out) == md_structure(src)


def test_front_matter_value_with_line_breaks_stays_one_valid_yaml_scalar():
    yaml = pytest.importorskip("yaml")
    fmt = format_named("md")
    src = '---\ntitle: "Getting started"\ndescription: plain words\nslug: keep-me\n---\n\ntext\n'
    segments = fmt.segments(src)
    assert [s.text for s in segments] == ["Getting started", "plain words", "text"]
    out = fmt.reassemble(src, {s.id: '- a: b\n\n# "q" ' + s.text for s in segments})
    meta = yaml.safe_load(out.split("---\n")[1])
    assert meta == {
        "title": '- a: b  # "q" Getting started',
        "description": '- a: b  # "q" plain words',
        "slug": "keep-me",
    }


def test_html_blocks_inside_blockquotes_and_lists_are_translated_with_their_prefixes():
    fmt = format_named("md")
    src = (
        '> <div class="note">\n> <p>Quoted <b>html</b> text\n>   on two lines &amp; more</p>\n'
        '> <img alt="An image" src="x.png">\n> </div>\n\n- item\n\n  <p>List <em>html</em></p>\n'
    )
    segments = fmt.segments(src)
    assert [s.text for s in segments] == [
        "Quoted <s1>html</s1> text\n  on two lines & more",
        "An image",
        "item",
        "List <s1>html</s1>",
    ]
    out = fmt.reassemble(src, {s.id: s.text.replace("html", "HTML").replace("two", "deux") for s in segments})
    assert out == src.replace("html</", "HTML</").replace("two", "deux")  # prefixes kept, & re-escaped
    extra = fmt.reassemble(src, {s.id: s.text + "\n\n# extra\n- x" for s in segments})
    assert md_structure(extra) == md_structure(src)
    assert '> <img alt="An image  # extra - x" src="x.png">\n' in extra


def test_html_block_with_a_line_not_found_stays_untranslated():
    fmt = format_named("md")
    # the parser expands the tab of the second line to spaces: that line is not in the source
    src = "- <div>\n\t<p>tab here</p>\n  </div>\n"
    assert fmt.segments(src) == []
    assert [s.text for s in fmt.segments(src.replace("\t", "  "))] == ["tab here"]


def test_inline_footnotes_are_nested_segments():
    fmt = format_named("md")
    src = "Text^[an *inline* note with [a link](u)] ends. Two^[first\nline] here.\n"
    segments = fmt.segments(src)
    assert [s.text for s in segments] == [
        "Text<s1/> ends. Two<s2/> here.",
        "an <s1>inline</s1> note with <s2>a link</s2>",
    ]
    out = fmt.reassemble(
        src, {0: "Texte<s1/> fin. Deux<s2/> ici.", 1: "une <s1>note</s1> [x] avec <s2>un lien</s2>"}
    )
    assert out == "Texte^[une *note* \\[x\\] avec [un lien](u)] fin. Deux^[first\nline] ici.\n"
    assert md_structure(out) == md_structure(src)


def test_toml_front_matter_keeps_keys_and_translates_title_and_description():
    tomllib = pytest.importorskip("tomllib")
    fmt = format_named("md")
    src = (
        "+++\ntitle = \"Hello\"\ndescription = 'A page' # comment\ndraft = true\n# note\n"
        '[params]\ntitle = "nested"\n+++\n\n# Heading\n'
    )
    segments = fmt.segments(src)
    assert [s.text for s in segments] == ["Hello", "A page", "Heading"]
    out = fmt.reassemble(src, {s.id: s.text + " \"q\" 'a' \\" for s in segments})
    meta = tomllib.loads(out.split("+++\n")[1])
    assert meta == {
        "title": "Hello \"q\" 'a' \\",
        "description": 'A page "q" \u2019a\u2019 \\',
        "draft": True,
        "params": {"title": "nested"},
    }
    assert out.endswith("+++\n\n# Heading \"q\" 'a' \\\\\n")  # a translation's backslash escapes nothing


@pytest.mark.parametrize("inside", ["\n", "\r", "\r\n"])
@pytest.mark.parametrize("after", ["\n", "\r", "\r\n"])
def test_toml_front_matter_with_any_line_breaks_leaves_the_body_where_it_is(inside: str, after: str) -> None:
    """A CR inside the front matter and the LF after it are two line breaks, not one."""
    src = f'+++{inside}title = "Hello"{inside}+++{after}- item one{after}- item two{after}{after}Text.{after}'
    assert [s.text for s in format_named("md").segments(src)] == ["Hello", "item one", "item two", "Text."]


@pytest.mark.parametrize("extra", [False, True], ids=["same-lines", "extra-lines"])
def test_block_syntax_engine_keeps_structure_on_every_sample(tmp_path, extra):
    engine = BlockSyntaxEngine(extra=extra)
    report, outputs = translate(MD_FILES, engine, tmp_path)
    assert report.files_failed == 0 and engine.calls > 0
    escaped = 0
    for src, out in outputs.items():
        before, after = src.read_text(encoding="utf-8-sig"), out.read_text(encoding="utf-8-sig")
        assert md_structure(after) == md_structure(before), src
        assert md_code(after) == md_code(before), src
        escaped += len(re.findall(r"^[ >]*\\[#\->|`~=\[!$:*+]", after, re.M))
    assert escaped > 10


# -- hypothesis: identity on markup-heavy text --------------------------------------------
_MD_ALPHABET = st.sampled_from(
    list("ab é中 \n\n\r\n\t>-*_`#|[]()!<>&;:{}%$\\~^=+.1")
    + [
        "**",
        "](u)",
        "<b>",
        "</b>",
        "\u00a0",
        "\ufeff",
        "e\u0301",
        "😀",
        "```",
        "    ",
        "- ",
        "> ",
        "1. ",
        "| a |",
        "---",
        "$$",
        "&amp;",
        '!!! note "T"\n    ',
        "[^1]",
        "[^1]: ",
        "<!-- c -->",
        "{{ x }}",
    ]
)
_HTML_ALPHABET = st.sampled_from(
    list("ab é中 \n\r\t<>/&;=\"'!-")
    + [
        "<p>",
        "</p>",
        "<b>",
        "</b>",
        "<br>",
        "<li>",
        "<script>",
        "</script>",
        "<code>",
        "</code>",
        "&amp;",
        "&nbsp;",
        "<!--",
        "-->",
        "<img alt=x>",
        "<a title='t'>",
        "</a>",
        "<P>",
        "<html lang=de>",
        "<td>",
        "<pre>",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_MD_ALPHABET, max_size=40).map("".join))
def test_hypothesis_markdown_identity_and_pseudo_safe(text):
    fmt = format_named("md")
    segments = fmt.segments(text)
    assert fmt.reassemble(text, {s.id: s.text for s in segments}) == text
    fmt.reassemble(text, {s.id: pseudo_localize(s.text) for s in segments})  # never raises


@settings(max_examples=150, deadline=None)
@given(st.lists(_HTML_ALPHABET, max_size=40).map("".join))
def test_hypothesis_html_identity_and_pseudo_safe(text):
    fmt = format_named("html")
    segments = fmt.segments(text)
    assert fmt.reassemble(text, {s.id: s.text for s in segments}) == text
    out = fmt.reassemble(text, {s.id: pseudo_localize(s.text) for s in segments})
    assert html_structure(out) == html_structure(text)


def test_html_references_are_spelled_again_in_translations():
    fmt = format_named("html")
    src = (
        "<p>Use &lt;tag&gt; like AT&amp;T does</p>\n<p>Tom & Jerry, 5 > 3</p>\n"
        "<img alt=\"say &quot;hi&quot; &amp; go\" title='a &lt;b&gt;'>"
    )
    segments = fmt.segments(src)
    assert [s.text for s in segments] == [
        "Use <tag> like AT&T does",
        "Tom & Jerry, 5 > 3",
        'say "hi" & go',
        "a <b>",
    ]
    out = fmt.reassemble(src, {s.id: s.text + " &copy <i>" for s in segments})
    assert "<p>Use &lt;tag&gt; like AT&amp;T does &amp;copy &lt;i&gt;</p>" in out
    # the source wrote & and > raw: only what would start a reference or a tag is escaped
    assert "<p>Tom & Jerry, 5 > 3 &amp;copy &lt;i></p>" in out
    assert 'alt="say &quot;hi&quot; &amp; go &amp;copy &lt;i>"' in out
    assert "title='a &lt;b&gt; &amp;copy &lt;i&gt;'" in out
    quoted = "<img title='say &quot;hi&quot;'>"
    assert fmt.reassemble(quoted, {0: 'dis "salut"'}) == "<img title='dis &quot;salut&quot;'>"
    assert html_structure(out) == html_structure(src)
    import html as stdlib_html

    assert stdlib_html.unescape(out.split("\n")[0]) == "<p>Use <tag> like AT&T does &copy <i></p>"


def test_markdown_translations_cannot_spell_entities():
    fmt = format_named("md")
    src = "Use &lt;tag&gt; and AT&amp;T.\n"
    (segment,) = fmt.segments(src)
    assert segment.text == "Use <tag> and AT&T."
    assert fmt.reassemble(src, {0: "Utilisez <tag> &copy; AT&T."}) == "Utilisez &lt;tag> &amp;copy; AT&T.\n"


def test_html_code_closed_implicitly_stays_code_until_its_end_tag():
    # browsers reopen <code> after </p> (a formatting element): the text after it is code
    fmt = format_named("html")
    assert [s.text for s in fmt.segments("<p><code></p>a")] == []
    # the run ends before the code: translated text moved after it would be in it
    assert [s.text for s in fmt.segments("<p>x <code>c</p>a</code> b</p>")] == ["x", "b"]


# Opaque elements (code, kbd, samp, pre, script, textarea ...) left open or mis-nested: no
# translated text may land inside them, wherever a translation moves its text.
_MISNESTED_HTML = [
    "a<code><pre></code>",  # found by hypothesis: the pre is still open after </code>
    "a<code><pre></code>x</pre>y</code>z<p>w",
    "a<code><p></code>x",
    "a<code><script></code>x",
    "a<kbd><pre></kbd>x",
    "a<samp><textarea></samp>x",
    "<p>a<code><pre></p>x",
    "a<b><code><pre></b>x",
    "a<b><pre></b>x",
    "a<b><script></b>x</script>y",
    "a<a title='t'><code></a>",
    "<p><b><pre></p>a",
    "<PRE><kbd></PRE>a",
    "a<code translate=no><kbd></CODE>",
    "<div><textarea></div>x</textarea>y",
    "a<!-->",
]


@pytest.mark.parametrize("src", _MISNESTED_HTML)
def test_html_misnested_opaque_elements_keep_their_structure(src):
    fmt = format_named("html")
    segments = fmt.segments(src)
    assert fmt.reassemble(src, {s.id: s.text for s in segments}) == src
    for move in ("pseudo", "text first", "text last"):
        translated = {}
        for s in segments:
            tags = "".join(re.findall(r"</?s\d+/?>", s.text))
            plain = re.sub(r"</?s\d+/?>", "", s.text)
            translated[s.id] = {
                "pseudo": pseudo_localize(s.text),
                "text first": f"{plain} x {tags}",
                "text last": f"{tags} x {plain}",
            }[move]
        assert html_structure(fmt.reassemble(src, translated)) == html_structure(src), move


def test_html_misnested_opaque_elements_leave_their_text_untranslated():
    fmt = format_named("html")
    assert [s.text for s in fmt.segments("a<code><pre></code>x")] == ["a"]
    assert [s.text for s in fmt.segments("a<code><pre></code>x</pre>y</code>z")] == ["a", "z"]
    assert [s.text for s in fmt.segments("a<b><pre></b>x</pre>y")] == ["a<s1/>", "y"]
    assert [s.text for s in fmt.segments("<p><b><pre></p>a</pre>b")] == ["b"]
    # browsers read a textarea as text up to </textarea>: the </div> in it closes nothing
    assert [s.text for s in fmt.segments("<div><textarea></div>x</textarea>y")] == ["y"]
    # well nested, a block inside code is still one placeholder
    assert [s.text for s in fmt.segments("a<code><pre></pre></code>b")] == ["a<s1/>b"]


def test_tag_problem_cases():
    src = "a <s1>b</s1> c <s2/>"
    assert tag_problem(src, "x <s1>y</s1> z <s2/>") is None
    assert tag_problem(src, "x <s2/> <s1>y</s1>") is None  # reordering is fine
    assert "missing" in tag_problem(src, "x <s1>y</s1>")
    assert "2 times" in tag_problem(src, "<s1>y</s1> <s2/><s2/>")
    assert "not in the source" in tag_problem(src, "<s1>y</s1> <s2/> <s3/>")
    assert "order" in tag_problem(src, "</s1>y<s1> <s2/>")
    assert "stray" in tag_problem(src, "<target><s1>y</s1> <s2/>")
    assert tag_problem("plain", "plain") is None
    assert "not in the source" in tag_problem("plain", "pl<s1/>ain")
