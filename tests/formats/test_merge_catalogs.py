"""Merging into the target catalogs a team keeps (issue 26), on real files of the corpus, for
every format that merges: (a) a person's complete target is left as it is, with no request;
(b) only the keys a person's target lacks are translated, and every byte of it is kept;
(c) a value a person edited in hymt's output is kept, a value whose source changed is sent
again, nothing else; (d) a key the source lost leaves the target (kept with --keep-removed),
and comes back with the key. Each format's own parser (strings_helpers.read_pairs) judges."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from merge_helpers import (
    Catalog,
    change_source,
    edit_value,
    file_text,
    forget_hymt,
    key_of,
    only_inserted,
    remove_member,
    strings_format,
    text_leaves,
    translate,
)
from strings_helpers import read_pairs

from hymt_cli.outputs.manifest import MANIFEST_NAME, settle

CATALOGS = [
    Catalog(
        "json",
        "json/uptime-kuma-en.json",
        "src/lang/en/app.json",
        "src/lang/ja/app.json",
        "ja",
        "json/uptime-kuma-ja.json",
    ),
    Catalog(
        "json",
        "json/react-i18next-icu-en.json",
        "public/locales/en/translations.json",
        "public/locales/ru/translations.json",
        "ru",
        "json/react-i18next-icu-ru.json",
    ),
    Catalog(
        "json", "json/next-i18next-client-page.json", "locales/en/page.json", "locales/de/page.json", "de"
    ),
    Catalog(
        "arb",
        "arb/gallery-intl_en.arb",
        "lib/l10n/intl_en.arb",
        "lib/l10n/intl_ja.arb",
        "ja",
        "arb/gallery-intl_ja.arb",
    ),
    Catalog(
        "arb",
        "arb/smooth-app_en.arb",
        "lib/l10n/app_en.arb",
        "lib/l10n/app_ru.arb",
        "ru",
        "arb/smooth-app_ru.arb",
    ),
    Catalog(
        "po",
        "po/sphinx.pot",
        "sphinx/locale/sphinx.pot",
        "sphinx/locale/ru/LC_MESSAGES/sphinx.po",
        "ru",
        "po/sphinx-ru.po",
    ),
    Catalog(
        "po",
        "po/allauth-en.po",
        "allauth/locale/en/LC_MESSAGES/django.po",
        "allauth/locale/fr/LC_MESSAGES/django.po",
        "fr",
        "po/allauth-fr.po",
    ),
    Catalog(
        "po",
        "po/allauth-en.po",
        "allauth/locale/en/LC_MESSAGES/django.po",
        "allauth/locale/ru/LC_MESSAGES/django.po",
        "ru",
        "po/allauth-ru.po",
    ),
    Catalog("po", "po/xz-pl.po", "po/xz.pot", "po/cs.po", "cs", "po/xz-cs.po", template=True),
    Catalog(
        "po",
        "po/godot-extractable.pot",
        "extractable/extractable.pot",
        "extractable/ja.po",
        "ja",
        "po/godot-extractable-ja.po",
    ),
    Catalog(
        "xliff",
        "xliff/symfony-validators.en.xlf",
        "translations/validators.en.xlf",
        "translations/validators.my.xlf",
        "my",
        "xliff/symfony-validators.my.xlf",
    ),
    Catalog(
        "xliff",
        "xliff/k8s-dashboard-messages.xlf",
        "i18n/messages.xlf",
        "i18n/messages.ja.xlf",
        "ja",
        "xliff/k8s-dashboard-messages.ja.xlf",
    ),
    Catalog(
        "yaml",
        "yaml/rails-i18n-en.yml",
        "config/locales/en.yml",
        "config/locales/ru.yml",
        "ru",
        "yaml/rails-i18n-ru.yml",
    ),
    Catalog(
        "yaml",
        "yaml/solidus-core-en.yml",
        "config/locales/en.yml",
        "config/locales/ru.yml",
        "ru",
        "yaml/solidus-i18n-ru.yml",
    ),
    Catalog("yaml", "yaml/devise-en.yml", "config/locales/en.yml", "config/locales/de.yml", "de"),
    Catalog("yaml", "yaml/docsy-en.yaml", "i18n/en.yaml", "i18n/ja.yaml", "ja"),
    Catalog("yaml", "yaml/id-core.yaml", "data/core.yaml", "data/core.de.yaml", "de"),
    Catalog("toml", "toml/loveit-en.toml", "i18n/en.toml", "i18n/ru.toml", "ru", "toml/loveit-ru.toml"),
    Catalog(
        "toml", "toml/hugo-coder-en.toml", "i18n/en.toml", "i18n/ru.toml", "ru", "toml/hugo-coder-ru.toml"
    ),
    Catalog("toml", "toml/fixit-en.toml", "i18n/en.toml", "i18n/de.toml", "de"),
    Catalog("toml", "toml/ananke-en.toml", "i18n/en.toml", "i18n/ja.toml", "ja"),
    Catalog(
        "properties",
        "properties/jmeter-messages.properties",
        "resources/messages.properties",
        "resources/messages_fr.properties",
        "fr",
        "properties/jmeter-messages_fr.properties",
    ),
    Catalog(
        "properties",
        "properties/petclinic-messages.properties",
        "messages/messages.properties",
        "messages/messages_ru.properties",
        "ru",
        "properties/petclinic-messages_ru.properties",
    ),
    Catalog(
        "properties",
        "properties/jenkins-Messages.properties",
        "hudson/model/Messages.properties",
        "hudson/model/Messages_ja.properties",
        "ja",
        "properties/jenkins-escaped-Messages_ja.properties",
    ),
    Catalog(
        "properties",
        "properties/jenkins-Messages.properties",
        "hudson/model/Messages.properties",
        "hudson/model/Messages_it.properties",
        "it",
        "properties/jenkins-latin1-Messages_it.properties",
    ),
    Catalog(
        "android",
        "android/packageinstaller-strings.xml",
        "res/values/strings.xml",
        "res/values-ru/strings.xml",
        "ru",
        "android/packageinstaller-strings-ru.xml",
    ),
    Catalog(
        "android",
        "android/thunderbird-legacy-strings.xml",
        "src/main/res/values/strings.xml",
        "src/main/res/values-ru/strings.xml",
        "ru",
        "android/thunderbird-legacy-strings-ru.xml",
    ),
    Catalog(
        "android",
        "android/wikipedia-strings.xml",
        "app/src/main/res/values/strings.xml",
        "app/src/main/res/values-ja/strings.xml",
        "ja",
    ),
    Catalog(
        "android",
        "android/calculator-strings.xml",
        "res/values/strings.xml",
        "res/values-de/strings.xml",
        "de",
    ),
    Catalog(
        "strings",
        "strings/sequelpro-Localizable.strings",  # UTF-16 LE with its byte order mark
        "Resources/English.lproj/Localizable.strings",
        "Resources/de.lproj/Localizable.strings",
        "de",
    ),
    Catalog(
        "strings",
        "strings/onionbrowser-Localizable.strings",  # UTF-8; the Russian is UTF-16 LE
        "Resources/en.lproj/Localizable.strings",
        "Resources/ru.lproj/Localizable.strings",
        "ru",
        "strings/onionbrowser-ru-Localizable.strings",
    ),
    Catalog(
        "strings",
        "strings/sparkle-Base.strings",  # UTF-8; an older German, UTF-16 BE
        "Sparkle/Base.lproj/Sparkle.strings",
        "Sparkle/de.lproj/Sparkle.strings",
        "de",
        "strings/sparkle-de-utf16be.strings",
    ),
    Catalog(  # Vienna's English is in its keys (Base.lproj is empty): its Russian as the source
        "strings",
        "strings/vienna-ru-Localizable.strings",
        "Vienna/Resources/ru.lproj/Localizable.strings",
        "Vienna/Resources/de.lproj/Localizable.strings",
        "de",
    ),
    Catalog(
        "stringsdict",
        "stringsdict/coteditor-Base.stringsdict",
        "CotEditor/Base.lproj/Localizable.stringsdict",
        "CotEditor/fr.lproj/Localizable.stringsdict",
        "fr",
        "stringsdict/coteditor-fr.stringsdict",
    ),
    Catalog(
        "stringsdict",
        "stringsdict/vienna-Base.stringsdict",
        "Vienna/Resources/Base.lproj/Localizable.stringsdict",
        "Vienna/Resources/ru.lproj/Localizable.stringsdict",
        "ru",
        "stringsdict/vienna-ru.stringsdict",
    ),
    Catalog(  # one key: too few values to edit one and change another (cases c and d)
        "stringsdict",
        "stringsdict/onionbrowser-en.stringsdict",
        "Resources/en.lproj/Localizable.stringsdict",
        "Resources/ar.lproj/Localizable.stringsdict",
        "ar",
        "stringsdict/onionbrowser-ar.stringsdict",
    ),
]
ids = [c.id for c in CATALOGS]
EDITABLE = [c for c in CATALOGS if c.id != "stringsdict:onionbrowser-en.stringsdict"]
editable_ids = [c.id for c in EDITABLE]


def _available(catalog: Catalog) -> None:
    if not catalog.available():
        pytest.skip(f"corpus file missing: {catalog.source} (python scripts/gather_corpus.py)")


def _pairs(catalog: Catalog, path: Path) -> dict[str, object]:
    pairs = dict(read_pairs(catalog.fmt, path.read_bytes()))
    roots = {re.split(r"[.\[]", key)[0] for key in pairs}
    if catalog.fmt == "yaml" and len(roots) == 1 and len(pairs) > 1:  # Rails' root key, its language
        return {key.split(".", 1)[1]: value for key, value in pairs.items()}
    return pairs


def _keys(catalog: Catalog, pairs: dict[str, object]) -> set[str]:
    """The keys of a catalog (ARB's `@key` metadata describes a key: it is none)."""
    if catalog.fmt != "arb":
        return set(pairs)
    return {k for k in pairs if not k.startswith("@") or k.startswith("@@")}


def _other_form(key: str) -> str | None:
    """The `other` form of a plural form's key (`items[few]`, `x.few`, `x_few`), None for a key
    that is no plural form."""
    other = re.sub(r"(?<=[\[._])(?:zero|one|two|few|many)(?=\]?$)", "other", key)
    return other if other != key else None


def _new_form(key: str, source: dict[str, object]) -> bool:
    """A plural form the target language needs that the source lacks."""
    return _other_form(key) in source


def _words(value: str) -> bool:
    """Words outside a stringsdict's variables (`%#@files@` alone says nothing)."""
    return _worded(re.sub(r"%(?:\d+\$)?#@\w+@", "", value))


def _worded(value: object) -> bool:
    """A value with words to translate (not an Android reference such as `@string/ok`)."""
    return (
        isinstance(value, str)
        and sum(ch.isalpha() for ch in value) > 3
        and re.fullmatch(r"\s*[@?][\w.:/+-]+\s*", value) is None
    )


def _hymt_output(catalog: Catalog, project: Path) -> tuple[Path, Path]:
    source, target = Catalog(
        catalog.fmt,
        catalog.source,
        catalog.source_at,
        catalog.target_at,
        catalog.lang,
        template=catalog.template,
    ).lay_out(project)
    # PO and XLIFF leave out a translation identical to its source (gettext shows the msgid):
    # every word changed, so that the catalog is full of translations
    first = translate(source, catalog.lang, pseudo=catalog.fmt in ("po", "xliff"))
    assert first.requested and target.is_file()
    settle(target.parent)
    return source, target


@pytest.mark.parametrize("catalog", CATALOGS, ids=ids)
def test_a_person_s_complete_target_gets_no_request_and_keeps_its_bytes(
    catalog: Catalog, tmp_path: Path
) -> None:
    _available(catalog)
    source, target = _hymt_output(catalog, tmp_path)
    forget_hymt(target.parent)  # every value there is a person's now
    before = target.read_bytes()
    run = translate(source, catalog.lang)
    assert run.requested == []
    assert target.read_bytes() == before
    assert run.report.keys is not None
    assert run.report.keys["added"] == run.report.keys["updated"] == run.report.keys["removed"] == 0
    assert run.report.keys["kept"] > 0
    again = translate(source, catalog.lang)  # the person's values are recorded as theirs: still kept
    assert again.requested == [] and target.read_bytes() == before


@pytest.mark.parametrize("catalog", CATALOGS, ids=ids)
def test_b_only_the_keys_missing_from_a_person_s_target_are_translated(
    catalog: Catalog, tmp_path: Path
) -> None:
    _available(catalog)
    if catalog.person is not None:  # a real translation, as far as its people took it
        source, target = catalog.lay_out(tmp_path)
    else:
        source, target = _hymt_output(catalog, tmp_path)
        forget_hymt(target.parent)
    source_pairs = _pairs(catalog, source)
    missing = _keys(catalog, source_pairs) - _keys(catalog, _pairs(catalog, target))
    if not any(_worded(source_pairs[k]) and _other_form(k) is None for k in missing):
        # complete (but the plural forms its language lacks): it loses three values with words
        worded = [leaf for leaf in text_leaves(target, catalog.fmt) if _words(leaf.text)]
        if len(worded) < 4:  # a stringsdict's words are in its plural forms
            worded = [leaf for leaf in text_leaves(target, catalog.fmt, forms=True) if _words(leaf.text)]
        for leaf in worded[1:4]:
            remove_member(target, catalog.fmt, leaf)
    before_text = file_text(target, catalog.fmt)
    before = _pairs(catalog, target)
    source_pairs = _pairs(catalog, source)
    run = translate(source, catalog.lang, keep_removed=True, pseudo=catalog.fmt in ("po", "xliff"))
    after = _pairs(catalog, target)
    after_text = file_text(target, catalog.fmt)
    for key, value in before.items():  # a person's values, byte for byte
        if value not in ("", None):  # (an empty value, a YAML null: a missing translation)
            assert after[key] == value, key
    added = [
        k
        for k in _keys(catalog, after)
        if k not in before or (before[k] in ("", None) and after[k] not in ("", None))
    ]
    assert all(k in source_pairs or _new_form(k, source_pairs) for k in added)
    assert run.report.keys is not None and run.report.keys["added"] == len(added) > 0
    assert run.report.keys["removed"] == 0
    assert 0 < len(run.requested) <= sum(1 for k in added if isinstance(after[k], str)) * 8
    if catalog.fmt in ("po", "xliff"):  # a message or unit without a translation is written whole
        before_text = _without_members(catalog, before_text, {k for k, v in before.items() if v == ""})
    assert only_inserted(before_text, after_text)  # nothing of the target moved or changed
    rerun = translate(source, catalog.lang, keep_removed=True)
    assert rerun.requested == [] and file_text(target, catalog.fmt) == after_text


def _without_members(catalog: Catalog, text: str, keys: set[str]) -> str:
    """`text` less the members at `keys` (bilingual entries translated in place)."""
    outline = strings_format(catalog.fmt).outline(text)
    assert outline is not None
    for leaf in sorted(outline.leaves(), key=lambda leaf: -leaf.start):
        if key_of(catalog.fmt, leaf.path) in keys:
            text = text[: leaf.start] + text[leaf.end :]
    return text


@pytest.mark.parametrize("catalog", EDITABLE, ids=editable_ids)
def test_c_a_person_s_edit_is_kept_and_a_changed_source_is_sent_again(
    catalog: Catalog, tmp_path: Path
) -> None:
    _available(catalog)
    source, target = _hymt_output(catalog, tmp_path)
    leaves = text_leaves(target, catalog.fmt)
    edited, changed = leaves[len(leaves) // 3], leaves[2 * len(leaves) // 3]
    edit_value(target, catalog.fmt, edited, "Von einer Person übersetzt")
    source_leaf = next(leaf for leaf in text_leaves(source, catalog.fmt) if leaf.path == changed.path)
    change_source(source, catalog.fmt, source_leaf, "Entirely new wording here")
    old = _pairs(catalog, target)
    run = translate(source, catalog.lang)
    assert run.requested == ["Entirely new wording here"]
    assert run.report.keys is not None
    counts = (run.report.keys["updated"], run.report.keys["added"], run.report.keys["removed"])
    new = _pairs(catalog, target)
    assert "Von einer Person übersetzt" in new.values()
    changed_keys = [k for k in old if old[k] != new.get(k)]
    if catalog.keyed_by_source:  # another msgid is another message: the old one goes obsolete
        assert counts == (0, 1, 1)
        assert changed_keys == [key_of(catalog.fmt, changed.path)] and changed_keys[0] not in new
        assert set(new) - set(old) == {"Entirely new wording here"}
    else:
        assert counts == (1, 0, 0)
        assert len(changed_keys) == 1 and new[changed_keys[0]] != old[changed_keys[0]]


@pytest.mark.parametrize("catalog", EDITABLE, ids=editable_ids)
def test_d_a_key_the_source_lost_leaves_the_target_and_comes_back_with_it(
    catalog: Catalog, tmp_path: Path
) -> None:
    _available(catalog)
    source, target = _hymt_output(catalog, tmp_path)
    original_source = source.read_bytes()
    gone = [leaf for leaf in text_leaves(source, catalog.fmt) if isinstance(leaf.path[-1], str)][3]
    before = _pairs(catalog, target)
    remove_member(source, catalog.fmt, gone)
    run = translate(source, catalog.lang)
    after = _pairs(catalog, target)
    assert run.requested == []
    assert run.report.keys is not None and run.report.keys["removed"] == 1
    assert len(after) == len(before) - 1 and all(before[k] == v for k, v in after.items())
    settle(target.parent)
    manifest = json.loads((target.parent / MANIFEST_NAME).read_text())
    assert len(manifest["files"][target.name]["removed"]) == 1
    source.write_bytes(original_source)  # the key is back: its translation too, with no request
    back = translate(source, catalog.lang)
    assert back.requested == [] and _pairs(catalog, target) == before


@pytest.mark.parametrize("catalog", CATALOGS[:1], ids=ids[:1])
def test_keep_removed_leaves_a_lost_key_in_place(catalog: Catalog, tmp_path: Path) -> None:
    _available(catalog)
    source, target = _hymt_output(catalog, tmp_path)
    before = target.read_bytes()
    remove_member(source, catalog.fmt, text_leaves(source, catalog.fmt)[3])
    run = translate(source, catalog.lang, keep_removed=True)
    assert run.requested == [] and target.read_bytes() == before
