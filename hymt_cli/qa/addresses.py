"""Addresses a translation must keep as they are: URLs, email addresses, file paths, @handles
and #hashtags. Each finder returns (start, end, kind) spans over a text, URLs first, so that
an email inside a URL or a path inside a URL is part of the URL only."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from ._scripts import LETTERS, UNSPACED, WORD
from .punctuation import END_MARKS

AddressKind = Literal["url", "email", "path", "handle", "hashtag"]

# A URL runs until a space, a character URLs never hold bare, general punctuation or a script
# written without spaces (a URL in Chinese, Japanese or Thai prose is often followed by text
# without a space); it starts after anything but a letter of the scripts addresses are written
# in (_scripts.py).
_URL_CHAR = rf"[^\s<>\"'`{{}}|\\^\u2000-\u206f\u00ab\u00bb{UNSPACED}]"
_URL = re.compile(rf"(?<![{WORD}.@/-])((?:https?|ftps?|sftp|file)://|www\.){_URL_CHAR}+", re.IGNORECASE)
# Sentence punctuation after a URL or a path (in any language) is not part of it.
_URL_TRAILING = frozenset(".,;:!?*_~-" + END_MARKS)
_EMAIL = re.compile(
    rf"(?<![{WORD}.+%-])[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    rf"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{{2,}}(?![{WORD}-])"
)
_EXTENSIONS = (
    "md|markdown|txt|rst|json|jsonl|yaml|yml|toml|ini|cfg|conf|xml|html?|css|scss|csv|tsv|"
    "parquet|pdf|docx?|xlsx?|pptx?|odt|zip|gz|tgz|tar|7z|rar|exe|msi|dmg|pkg|deb|rpm|apk|"
    "iso|img|bin|dll|so|dylib|py|js|mjs|ts|tsx|jsx|java|kt|go|rs|rb|php|c|cc|cpp|h|hpp|cs|"
    "swift|sh|bash|ps1|bat|cmd|sql|db|sqlite|log|lock|env|png|jpe?g|gif|svg|webp|ico|bmp|"
    "tiff?|mp3|mp4|wav|flac|ogg|mov|avi|mkv|webm|ttf|otf|woff2?|srt|vtt|po|pot|xliff|xlf|tmx"
)
# A path starts a word: never after a letter, a slash, a currency sign or a percent sign
# (`€/Monat`, `$/mo`, `%/year`: a rate, not a path).
_PATH_START = rf"(?<![{WORD}/.~:@$¢£¤¥\u20a0-\u20cf%‰°-])"
_UNIX_PATH = re.compile(
    rf"{_PATH_START}(?:~|\.\.?)?/(?=[{WORD}.~-])[{WORD}.~@+-]+(?:/[{WORD}.~@+-]+)*/?"
)  # ~/.config, ./x
_WINDOWS_PATH = re.compile(rf"(?<![{WORD}\\])[A-Za-z]:\\[^\s\"'<>|*?\u00ab\u00bb\u2000-\u206f{UNSPACED}]*")
_FILE_NAME = re.compile(  # docs/guide.md, setup.exe
    rf"(?<![{WORD}./@-])(?:[{WORD}.-]+/)*[{WORD}][{WORD}.-]*\.(?:{_EXTENSIONS})(?![{WORD}/-])", re.IGNORECASE
)
_URL_PARTS = re.compile(r"([a-z][a-z0-9+.-]*://)?([^/?#]*)(.*)", re.IGNORECASE | re.DOTALL)
# A handle or hashtag in Latin letters ends where another script starts (`关注@acme获取`); one in
# another script (Weibo's `@张三`) runs through its word characters.
_HANDLE = re.compile(rf"(?<![{WORD}@./+-])@(?:[{WORD}]+(?:[.-][{WORD}]+)*(?![{WORD}])|\w+)")
_HASHTAG = re.compile(rf"(?<![{WORD}&#/])#(?:(?=[0-9_]*[{LETTERS}])[{WORD}]+(?![{WORD}])|(?=\w*[^\W\d_])\w+)")
_EXTENSION_GATE = re.compile(rf"\.(?:{_EXTENSIONS})(?![{WORD}/-])", re.IGNORECASE)
# Each kind, its pattern, and a quick test for what it cannot do without (most texts have no
# address: the full patterns, slower, run only where one may be).
_FINDERS: tuple[tuple[AddressKind, re.Pattern[str], Callable[[str], bool]], ...] = (
    ("url", _URL, lambda t: "://" in t or "www." in t.lower()),
    ("email", _EMAIL, lambda t: "@" in t),
    ("path", _UNIX_PATH, lambda t: "/" in t),
    ("path", _WINDOWS_PATH, lambda t: ":\\" in t),
    ("path", _FILE_NAME, lambda t: "." in t and _EXTENSION_GATE.search(t) is not None),
    ("handle", _HANDLE, lambda t: "@" in t),
    ("hashtag", _HASHTAG, lambda t: "#" in t),
)


@dataclass(frozen=True, slots=True)
class Address:
    kind: AddressKind
    text: str
    start: int
    end: int

    @property
    def key(self) -> str:
        """What must be equal in the source and the answer (URLs and emails: case-insensitive
        scheme and host, percent-encoding decoded)."""
        if self.kind == "url":
            return url_key(self.text)
        if self.kind == "email":
            local, _, domain = self.text.rpartition("@")
            return f"{local}@{host_key(domain)}"
        return self.text


def url_key(url: str) -> str:
    """A URL compared as a browser would: scheme and host in any case, %-escapes decoded, a
    bare trailing slash ignored."""
    match = _URL_PARTS.match(url)
    assert match is not None  # every part is optional
    scheme, host, rest = match.groups()
    return (scheme or "").lower() + host_key(host) + unquote(rest).rstrip("/")


def host_key(host: str) -> str:
    """A host in any case, its internationalized labels as Unicode (`xn--bcher-kva.de` is
    `bücher.de`: the same host, in the form browsers send)."""
    host = host.lower()
    if "xn--" not in host:
        return host
    return ".".join(_unicode_label(label) for label in host.split("."))


def _unicode_label(label: str) -> str:
    if not label.startswith("xn--"):
        return label
    try:
        return label.encode("ascii").decode("idna")
    except UnicodeError:  # not valid punycode: compared as written
        return label


def _url_end(text: str, start: int, end: int) -> int:
    """Where a URL really ends: without trailing sentence punctuation or an unbalanced `)`/`]`."""
    while end > start:
        last = text[end - 1]
        if (
            last in _URL_TRAILING
            or last in ")]"
            and text.count("(" if last == ")" else "[", start, end) < text.count(last, start, end)
        ):
            end -= 1
        else:
            break
    return end


def find_addresses(text: str) -> list[Address]:
    """Every address in `text`, in order. Kinds are found one after the other, each in the text
    with the addresses found before blanked out: a URL's email or path is part of the URL."""
    found: list[Address] = []
    work = text
    for kind, pattern, gate in _FINDERS:
        if not gate(work):
            continue
        spans = []
        for match in pattern.finditer(work):
            start, end = match.start(), match.end()
            if kind in ("url", "path"):
                end = _url_end(work, start, end)
            if end - start >= 2 and (
                kind != "url" or end > start + len(match.group(1))
            ):  # a host after https://
                spans.append((start, end))
        if spans:
            found.extend(Address(kind, text[start:end], start, end) for start, end in spans)
            chars = list(work)
            for start, end in spans:
                chars[start:end] = " " * (end - start)
            work = "".join(chars)
    found.sort(key=lambda a: a.start)
    return found


def spans(addresses: list[Address]) -> Iterator[tuple[int, int]]:
    return ((a.start, a.end) for a in addresses)
