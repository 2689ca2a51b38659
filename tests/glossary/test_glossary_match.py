"""Matching rules, do-not-translate placeholders and verification."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.glossary import Entry, Glossary, Matcher
from hymt_cli.text.languages import language

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from glossary_matching import make_segments, make_terms, naive_find  # noqa: E402

DE = language("de")


def found(entries, text):
    return [text[m.start : m.end] for m in Matcher(entries).find(text)]


def test_whole_word_for_spaced_scripts():
    entries = [Entry("region", "Region"), Entry("key", "Schlüssel")]
    assert found(entries, "regional keys, region-wide key.") == ["region", "key"]


def test_substring_for_cjk_and_mixed_scripts():
    entries = [Entry("存储桶", "bucket"), Entry("Acme Cloud", "")]
    assert found(entries, "每个存储桶都在使用Acme Cloud服务") == ["存储桶", "Acme Cloud"]
    assert found(entries, "MyAcme Cloud") == []


def test_case_insensitive_unless_the_entry_says_otherwise():
    entries = [
        Entry("cloud storage", "Cloud-Speicher"),
        Entry("Settings", "Einstellungen", case_sensitive=True),
    ]
    assert found(entries, "CLOUD Storage settings Settings") == ["CLOUD Storage", "Settings"]


def test_exact_case_entry_wins_over_case_insensitive_one():
    entries = [Entry("apple", "Apfel"), Entry("Apple", "", case_sensitive=True)]
    matches = Matcher(entries).find("Apple sells apple juice")
    assert [(m.start, m.entry.target) for m in matches] == [(0, ""), (12, "Apfel")]


def test_longest_match_first():
    entries = [
        Entry("Cloud", "Wolke"),
        Entry("Storage", "Speicher"),
        Entry("Cloud Storage", "Cloud-Speicher"),
        Entry("Storage bucket", "Speicher-Bucket"),
    ]
    # the longest of overlapping candidates wins, then the leftmost
    assert found(entries, "Cloud Storage bucket") == ["Cloud", "Storage bucket"]
    assert found(entries, "my Cloud Storage.") == ["Cloud Storage"]


def test_never_inside_inline_tags():
    assert found([Entry("s1", "x"), Entry("bold", "fett")], "<s1>bold</s1> s1") == ["bold", "s1"]


def test_per_language_targets():
    glossary = Glossary([Entry("Sign in", "Anmelden", "de"), Entry("Sign in", "Se connecter", "fr")])
    assert glossary.use("Sign in now", DE).terms[0].target == "Anmelden"
    assert glossary.use("Sign in now", language("fr")).terms[0].target == "Se connecter"
    assert glossary.use("Sign in now", language("ja")) is None


def test_source_language_filter():
    glossary = Glossary([Entry("Kind", "child", "en", "de")], source=language("fr"))
    assert glossary.use("Kind", language("en")) is None
    assert Glossary([Entry("Kind", "child", "en", "de")]).use("Kind", language("en")) is not None


def test_dnt_placeholders_numbered_after_existing_tags_and_restored_verbatim():
    glossary = Glossary([Entry("acme cloud", "", case_sensitive=False), Entry("region", "Region")])
    use = glossary.use("Use <s1>ACME Cloud</s2> in a region, <s3/> Acme cloud", DE)
    assert use.text == "Use <s1><s4/></s2> in a region, <s3/> <s5/>"
    assert use.protected == (("<s4/>", "ACME Cloud"), ("<s5/>", "Acme cloud"))
    assert use.formatted
    restored = use.restore("Nutze <s1><s4/></s2> in einer Region, <s3/> <s5></s5>")
    assert restored == "Nutze <s1>ACME Cloud</s2> in einer Region, <s3/> Acme cloud"
    assert use.misses(restored) == []
    dropped = use.restore("Nutze <s1></s2> in einer Region <s5/>")
    assert [m.source for m in use.misses(dropped)] == ["ACME Cloud"]


def test_verification_respects_case_rules():
    glossary = Glossary([Entry("settings", "Einstellungen", case_sensitive=True), Entry("region", "Region")])
    use = glossary.use("settings per region", DE)
    assert [m.target for m in use.misses("einstellungen pro region")] == ["Einstellungen"]
    assert use.misses("Einstellungen pro REGION") == []


def test_terms_listed_once_in_order_of_first_occurrence():
    glossary = Glossary([Entry("region", "Region"), Entry("bucket", "Bucket"), Entry("Acme", "")])
    use = glossary.use("bucket in region, another bucket, Acme", DE)
    assert [t.source for t in use.terms] == ["bucket", "region"]
    assert use.text == "bucket in region, another bucket, <s1/>"


def test_automaton_agrees_with_naive_loop_on_thousands_of_terms():
    rng = random.Random(3)
    entries = make_terms(3000, rng)
    segments = make_segments(200, rng)
    matcher = Matcher(entries)
    assert sum(len(matcher.find(s)) for s in segments) > 100
    for segment in segments:
        assert matcher.find(segment) == naive_find(entries, segment)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab AB<>/s1存储.", max_size=40))
def test_matches_never_overlap_and_match_their_entry(text):
    entries = [
        Entry("a", "x"),
        Entry("ab", "y"),
        Entry("B a", "z", case_sensitive=True),
        Entry("存储", "w"),
        Entry("s", ""),
    ]
    matches = Matcher(entries).find(text)
    for left, right in zip(matches, matches[1:]):
        assert left.end <= right.start
    for m in matches:
        surface = text[m.start : m.end]
        assert (
            surface == m.entry.source if m.entry.case_sensitive else surface.lower() == m.entry.source.lower()
        )


def test_loosely_written_tags_count_for_numbering_and_are_never_matched():
    # `<s2 />` (a space) is not one of our tags for the validator, but a DNT placeholder must
    # not reuse its number (restore accepts `<s2 />`) and a term must not match inside it.
    glossary = Glossary([Entry("Acme", ""), Entry("s2", "S2")])
    use = glossary.use("Acme <s2 /> text", DE)
    assert use.text == "<s3/> <s2 /> text"
    assert use.formatted
    assert use.restore("<s3/> <s2 /> Text") == "Acme <s2 /> Text"
