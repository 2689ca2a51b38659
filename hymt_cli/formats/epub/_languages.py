"""Which language attributes of a book say its source language (and so the target's, once
translated): those whose language is the book's, by its primary subtag (`en` is `en-US`); an
attribute naming another language (a quotation in Latin, an author's name in Japanese script)
stays."""

from __future__ import annotations

from ..package import Target

RTL_LANGUAGES = frozenset({"ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb", "syr"})


def primary(tag: str) -> str:
    return tag.strip().replace("_", "-").split("-")[0].lower()


def says_source(value: str, source: str) -> bool:
    """Does the language attribute `value` name the book's language `source`?"""
    return bool(value.strip()) and bool(source) and primary(value) == primary(source)


def direction(target: Target) -> str:
    return "rtl" if target.rtl else "ltr"


def source_is_rtl(source: str) -> bool:
    return primary(source) in RTL_LANGUAGES
