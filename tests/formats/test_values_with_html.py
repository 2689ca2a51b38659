"""Values with HTML inside (`.properties`, `.strings`, JSON): a translation writes `&`, `<` and `>`
as the source does. A bare `Save <b>all</b> & close` or `5 > 3` stays bare (users would read
`&amp;` in the app); a source that writes `&amp;` gets `&amp;`; what would read as markup (`<b`,
`&name;`) is escaped whatever the source. A tag whose attribute holds an argument (Jenkins'
`<a href="{0}" rel="noopener noreferrer" target="_blank">`) is one placeholder: its attribute
names are never sent, its `<` never becomes `&lt;`."""

from __future__ import annotations

from pathlib import Path

import pytest
from engines import STRING_ATTACKS, StringAttack
from pipelines import sources_of, translate_files, write
from resource_checks import strings_pairs
from strings_helpers import CORPUS, read_pairs

BARE = "Save <b>all</b> & close"
GREATER = "<b>Note:</b> 5 > 3, and 2 < 4"
ESCAPED = "Tom &amp; Jerry &gt; <i>the rest</i>"
LINK = 'Read <a href="{url}" target="_blank">the guide</a> first'
FILES = {
    "messages.properties": f"bare={BARE}\ngreater={GREATER}\nescaped={ESCAPED}\n",
    "en.lproj/Localizable.strings": (
        f'"bare" = "{BARE}";\n"greater" = "{GREATER}";\n"escaped" = "{ESCAPED}";\n'
    ),
    "locales/en/app.json": (
        f'{{\n  "bare": "{BARE}",\n  "greater": "{GREATER}",\n  "escaped": "{ESCAPED}",\n'
        f'  "link": "{LINK.replace(chr(34), chr(92) + chr(34))}"\n}}\n'
    ),
}


def _values(path: Path) -> dict[str, str]:
    data = path.read_bytes()
    if path.suffix == ".strings":
        return dict(strings_pairs(data.decode("utf-8")))
    return dict(read_pairs("json" if path.suffix == ".json" else "properties", data))


def _translated(path: Path, tmp_path: Path, attack: str = "letters") -> dict[str, str]:
    report, outputs = translate_files(
        [path], lambda: StringAttack(STRING_ATTACKS[attack]), tmp_path / "out", lang="de"
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    return _values(outputs[path])


@pytest.mark.parametrize("name", sorted(FILES))
def test_bare_ampersands_and_angle_brackets_stay_bare(name: str, tmp_path: Path) -> None:
    path = write(tmp_path / "src", name, FILES[name])
    values = _translated(path, tmp_path)
    assert values["bare"] == "Fnir <b>nyy</b> & pybfr"
    assert values["greater"] == "<b>Abgr:</b> 5 > 3, naq 2 < 4"
    assert values["escaped"] == "Gbz &amp; Wreel &gt; <i>gur erfg</i>"  # the source's own style
    if "link" in values:
        assert values["link"] == 'Ernq <a href="{url}" target="_blank">gur thvqr</a> svefg'


@pytest.mark.parametrize("name", sorted(FILES))
def test_what_would_read_as_markup_is_escaped_whatever_the_source_writes(name: str, tmp_path: Path) -> None:
    path = write(tmp_path / "src", name, FILES[name])
    values = _translated(
        path, tmp_path, "angles"
    )  # ` <b>bold</b> <script>x()</script> &amp; & < > <br/> &nbsp;`
    bare = " &lt;b>bold&lt;/b> &lt;script>x()&lt;/script> &amp;amp; & < > &lt;br/> &amp;nbsp;"
    assert values["bare"] == BARE + bare
    escaped = (
        " &lt;b&gt;bold&lt;/b&gt; &lt;script&gt;x()&lt;/script&gt;"
        + " &amp;amp; &amp; < &gt; &lt;br/&gt; &amp;nbsp;"
    )
    assert values["escaped"] == ESCAPED + escaped


def test_the_style_is_read_per_character() -> None:
    from hymt_cli.formats.strings.html_text import escape_html, html_escaped

    assert html_escaped(BARE) == frozenset()
    assert html_escaped(ESCAPED) == {"&", ">"}
    assert html_escaped("a &amp; b & c") == frozenset()  # a bare one anywhere: bare
    assert escape_html("AT&T &copy; &#169; <3 <b", frozenset()) == "AT&T &amp;copy; &amp;#169; <3 &lt;b"


@pytest.mark.skipif(
    not (CORPUS / "properties/jenkins-hudson-Messages.properties").is_file(),
    reason="run scripts/gather_corpus.py",
)
def test_a_tag_holding_an_argument_is_one_placeholder(tmp_path: Path) -> None:
    """Jenkins (hudson/Messages.properties): `<a href="{0}" rel="noopener noreferrer"
    target="_blank">` is a tag, whatever argument its attribute holds."""
    path = CORPUS / "properties/jenkins-hudson-Messages.properties"
    key = "PluginManager.deprecationWarning"
    [source] = sources_of([path])
    sent = [s.text for unit in source.format.open(source).units() for s in unit.segments if key in s.role]
    assert sent == [
        "<s1>This plugin is deprecated.</s1> In general, this means that it is either obsolete, no longer "
        "being developed, or may no longer work. <s2>Learn more.</s2>"
    ]
    value = _translated(path, tmp_path)[key]
    assert value.startswith("<strong>Guvf cyhtva vf qrcerpngrq.</strong> ")
    assert value.endswith('<a href="{0}" rel="noopener noreferrer" target="_blank">Yrnea zber.</a>')
