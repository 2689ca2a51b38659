"""gettext's POSIX `@modifier` locales (`sr@latin`, `ca@valencia`, `sr_RS@latin`, `en@quot`) are
locales: the script they name, else a variant, so that a catalog named so is a translation (or a
variant of the source language), never a source. Issue 34, item 5."""

from __future__ import annotations

import pytest

from hymt_cli.formats.layout import in_language_of, path_language, same_language
from hymt_cli.text.locales import canonical, parse_locale, posix_spelling


@pytest.mark.parametrize(
    ("written", "tag"),
    [
        ("sr@latin", "sr-Latn"),
        ("sr_RS@latin", "sr-Latn-RS"),
        ("uz@cyrillic", "uz-Cyrl"),
        ("be@latin", "be-Latn"),
        ("ca@valencia", "ca-valencia"),
    ],
)
def test_a_modifier_is_a_script_or_a_variant(written: str, tag: str) -> None:
    assert canonical(written) == tag
    found = path_language(written)
    assert found is not None and found.qualified


def test_rails_custom_locales_are_locales_with_a_variant() -> None:
    """diaspora's root keys: `de_formal`, `en_1337`, `en_pirate`."""
    assert [canonical(key) for key in ("de_formal", "en_1337", "en_pirate")] == [
        "de-formal",
        "en-1337",
        "en-pirate",
    ]
    assert all(path_language(key) is not None for key in ("de_formal", "en_1337", "en_pirate", "en_shaw"))


def test_gettext_writes_its_own_names_back() -> None:
    assert [posix_spelling(t) for t in ("sr-Latn", "ca-valencia", "pt-BR", "zh-Hant-TW", "de")] == [
        "sr@latin",
        "ca@valencia",
        "pt_BR",
        "zh_Hant_TW",
        "de",
    ]


def test_which_are_translations_and_which_variants() -> None:
    assert not in_language_of("sr@latin", "sr") and not in_language_of("sr@latin", "en")
    assert in_language_of("en@quot", "en") and not same_language("en@quot", "en")  # gettext's variant
    assert in_language_of("en_pirate", "en") and not same_language("en_pirate", "en")
    assert same_language("ca@valencia", "ca-valencia")


@pytest.mark.parametrize("text", ["sr@", "sr@l", "@latin", "sr@latin@x", "sr@la-tin"])
def test_what_is_no_modifier(text: str) -> None:
    assert parse_locale(text) is None
    assert path_language(text) is None
