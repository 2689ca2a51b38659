"""The strings core: the placeholder grammar, ICU messages, CLDR plurals and a value's
segments and rendering (hymt_cli/formats/strings)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.formats.json_strings.format import JsonStringsFormat
from hymt_cli.formats.strings import (
    Convention,
    Entry,
    IcuError,
    StringsFormat,
    active,
    escaper,
    gettext_plurals,
    missing_categories,
    parse_message,
    parse_value,
    plural_rules,
)
from hymt_cli.formats.strings.icu import Complex
from hymt_cli.formats.strings.values import placeholders
from hymt_cli.formats.toml_strings import TomlStringsFormat
from hymt_cli.formats.yaml_strings import YamlStringsFormat
from hymt_cli.text.languages import LANGUAGES

C = Convention


@pytest.mark.parametrize(
    ("text", "conventions", "tags"),
    [
        ("Hello %1$s, %2$d new %@ and %lu, 100%% done", {C.PRINTF}, ["%1$s", "%2$d", "%@", "%lu"]),
        ("%#@files@ in %@", {C.PRINTF}, ["%#@files@", "%@"]),
        ("Hi %(name)s, %s and %d%%", {C.PYTHON_PERCENT}, ["%(name)s", "%s", "%d"]),
        ("Hi {name}, {0} {} {0:>8} {{literal}}", {C.PYTHON_BRACE}, ["{name}", "{0}", "{}", "{0:>8}"]),
        (
            'Hi {{name}}, {{- html}}, {{val, number}} $t(other.key, {"count": 2})',
            {C.I18NEXT},
            ["{{name}}", "{{- html}}", "{{val, number}}", '$t(other.key, {"count": 2})'],
        ),
        ("Hi %{name}, %<count>d, 100%%", {C.RUBY}, ["%{name}", "%<count>d"]),
        ("Clipped $TITLE$ from $1, $$5", {C.WEBEXT}, ["$TITLE$", "$1"]),
        ("Hi {{ user.name }} {% if x %}", {C.TEMPLATE}, ["{{ user.name }}", "{% if x %}"]),
        ("view on {domain}", {C.BRACE}, ["{domain}"]),
        ("%B %d, %Y at %H:%M", {C.STRFTIME}, ["%B", "%d", "%Y", "%H", "%M"]),
        ("A <b>bold</b> <br/> &nbsp; &amp; &copy;", {C.HTML}, ["<b>", "</b>", "<br/>", "&nbsp;", "&copy;"]),
    ],
)
def test_each_convention_makes_its_placeholders_tags(
    text: str, conventions: set[Convention], tags: list[str]
) -> None:
    value = parse_value(text, frozenset(conventions))
    assert sorted(placeholders(text, frozenset(conventions)).elements()) == sorted(tags)
    [segment] = value.segments
    assert "%%" not in segment.text and "$$" not in segment.text and "&amp;" not in segment.text
    assert value.render({0: segment.text}) == text


def test_active_detects_by_content_and_keeps_what_the_format_declares() -> None:
    assert active("100% sure, 20%off", [C.PRINTF]) == frozenset()
    assert active("%d files", [C.PRINTF]) == {C.PRINTF}
    assert active("Hello", [C.HTML], [C.ICU]) == {C.ICU}
    assert active("a <b>b</b>", [C.HTML, C.RUBY]) == {C.HTML}


@pytest.mark.parametrize(
    ("conventions", "model", "reads_as"),
    [
        ({C.PRINTF}, "100% %s", "100% %s"),
        ({C.RUBY}, "%{x} 5%", "%{x} 5%"),
        ({C.PYTHON_BRACE}, "{x} {", "{x} {"),
        ({C.WEBEXT}, "$5 $X$", "$5 $X$"),
        ({C.HTML}, "<b> & <", "<b> & <"),
        ({C.ICU}, "{x} it's '{'", "{x} it's '{'"),
    ],
)
def test_text_from_the_model_stays_literal(conventions: set[Convention], model: str, reads_as: str) -> None:
    """A translation's syntax characters are escaped: the value reads as the model's text, with
    no placeholder of its own."""
    conv = frozenset(conventions)
    escape = escaper(conv)
    assert escape is not None
    value = escape(model)
    assert not placeholders(value, conv)
    shown = "".join(p.shown if p.shown is not None else value[p.start : p.end] for p in _literal(value, conv))
    assert shown == reads_as


def _literal(value: str, conv: frozenset[Convention]):  # type: ignore[no-untyped-def]
    from hymt_cli.formats.strings.conventions import STRUCTURED, literal_parts

    if conv & STRUCTURED:
        message = parse_message(value)
        from hymt_cli.formats.spans import Span

        return [Span(n.start, n.end, "text", shown=n.shown) for n in message.nodes]  # type: ignore[union-attr]
    return literal_parts(value, 0, len(value), conv)


def test_i18next_and_brace_placeholders_from_the_model_are_made_inert() -> None:
    for conv in ({C.I18NEXT}, {C.BRACE}, {C.TEMPLATE}):
        escape = escaper(frozenset(conv))
        assert escape is not None
        assert not placeholders(escape("{{x}} $t(k) {y} {% z %}"), frozenset(conv))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab '{}#|%$<>&;\\\n\"", max_size=30))
def test_icu_text_from_the_model_reads_back_exactly(text: str) -> None:
    source = "{n, plural, one {# <s1/> item} other {# items}}"
    value = parse_value(source, frozenset({C.ICU}))
    other = next(i for i, s in enumerate(value.segments) if s.label == "[other]")
    out = value.render({other: "<s1/> " + text}, "de")
    tree = parse_message(out)
    assert placeholders(out, frozenset({C.ICU})) == placeholders(source, frozenset({C.ICU}))
    branch = next(b for b in tree.nodes[0].branches if b.selector == "other")  # type: ignore[union-attr]
    shown = "".join(
        n.shown if getattr(n, "shown", None) is not None else out[n.start : n.end]
        for n in branch.message.nodes
    )
    assert shown == "# " + text.replace("\n", " ")  # a one-line message stays on one line


def test_icu_messages_keep_arguments_keywords_and_pound() -> None:
    text = "{count, plural, offset:1 =0 {no one} one {# other} other {{name} and # others}} '{x}' it''s"
    message = parse_message(text)
    [plural, *_] = message.nodes
    assert plural.kind == "plural" and [b.selector for b in plural.branches] == ["=0", "one", "other"]  # type: ignore[union-attr]
    value = parse_value(text, frozenset({C.ICU}), plural_languages=("de",))
    texts = [s.text for s in value.segments]
    assert texts == ["<s1/> {x} it's", "no one", "<s1/> other", "<s1/> and <s2/> others"]


@pytest.mark.parametrize(
    "bad", ["{a", "a}", "{n, plural, one {x}}", "{n, plural, other {y}", "{}", "{n, select}"]
)
def test_what_is_not_icu_is_refused(bad: str) -> None:
    with pytest.raises(IcuError):
        parse_message(bad)


def test_java_message_format_quotes_every_apostrophe_and_parses_choice() -> None:
    message = parse_message("It''s {0,choice,0#no files|1#one file|1<{0,number,integer} files}", java=True)
    [choice] = [n for n in message.nodes if isinstance(n, Complex)]
    assert [b.selector for b in choice.branches] == ["0#", "1#", "1<"]
    with pytest.raises(IcuError):
        parse_message("Hello {name}", java=True)  # Java names arguments by number


def test_plural_categories_from_cldr() -> None:
    assert plural_rules("ru").categories() == ("one", "few", "many", "other")
    assert plural_rules("ja").categories() == ("other",)
    assert plural_rules("ar").categories() == ("zero", "one", "two", "few", "many", "other")
    assert plural_rules("en").categories("ordinal") == ("one", "two", "few", "other")
    assert plural_rules("ru").examples("few")[:3] == ("2", "3", "4")
    assert all(plural_rules(code).categories()[-1] == "other" for code in LANGUAGES)


def test_gettext_plural_forms() -> None:
    ru = gettext_plurals("ru")
    assert ru.nplurals == 3 and ru.categories == ("one", "few", "many")
    assert [ru.index(n) for n in (1, 2, 5, 21, 22, 25, 11)] == [0, 1, 2, 0, 1, 2, 2]
    assert gettext_plurals("ja").header == "nplurals=1; plural=0;"
    assert gettext_plurals("ar").nplurals == 6
    assert all(gettext_plurals(code).nplurals >= 1 for code in LANGUAGES)


def test_missing_categories_count_explicit_selectors() -> None:
    missing = missing_categories(["one", "other"])
    assert missing["ru"] == ("few", "many") and "de" not in missing and "ja" not in missing
    assert "one" not in missing_categories(["=1", "other"]).get("de", ())  # =1 is all of German `one`
    assert "one" in missing_categories(["=1", "other"])["ru"]  # Russian `one` is 1, 21, 31 ...


def test_new_plural_forms_are_segments_for_their_language_only() -> None:
    value = parse_value("{n, plural, one {# file} other {# files}}", frozenset({C.ICU}))
    ru = [s for s in value.segments if s.targets == {"ru"}]
    assert [s.text for s in ru] == ["<s1/> files", "<s1/> files"]
    assert "few" in ru[0].note and "2, 3, 4" in ru[0].note
    translated = {i: s.text.replace("files", "X") for i, s in enumerate(value.segments)}
    assert value.render(translated, "ru") == "{n, plural, one {# file} few {# X} many {# X} other {# X}}"
    assert value.render(translated, "de") == "{n, plural, one {# file} other {# X}}"
    missing_few = {i: t for i, t in translated.items() if value.segments[i].note.find("few") < 0}
    assert "few" not in value.render(missing_few, "ru")  # no translation: ICU falls back to other


def test_a_translation_with_wrong_tags_keeps_the_source_message() -> None:
    value = parse_value("Hi %s, you have %d files", frozenset({C.PRINTF}))
    assert value.render({0: "Salut <s2/>"}) == value.text


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        (JsonStringsFormat(), '{"files_one": "{{count}} file", "files_other": "{{count}} files"}\n'),
        (TomlStringsFormat(), '[files]\none = "{{count}} file"\nother = "{{count}} files"\n'),
        (YamlStringsFormat(), 'en:\n  files:\n    one: "%{count} file"\n    other: "%{count} files"\n'),
        (JsonStringsFormat(), '{"files": "{count, plural, one {# file} other {# files}}"}\n'),
    ],
    ids=["i18next", "toml", "rails", "icu"],
)
def test_a_scan_makes_plural_forms_for_the_languages_it_is_given(fmt: StringsFormat, text: str) -> None:
    """The languages a scan makes new plural forms for are its argument (plural codes), not
    state around it: for Russian alone, only Russian forms; for none named, every language's."""

    def new_forms(languages: tuple[str, ...] | None) -> set[str]:
        found: set[str] = set()
        for item in fmt.scan(text, languages):
            if isinstance(item, Entry):
                found |= set(item.targets or ())
                found |= {t for s in item.value.segments for t in (s.targets or ())}
        return found

    assert new_forms(("ru",)) == {"ru"}
    assert new_forms(("de",)) == set()  # German has English's categories: nothing to add
    assert {"ru", "pl", "ar"} <= new_forms(None)
