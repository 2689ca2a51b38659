"""What Android lint never asks to translate, read as lint reads it (TranslationDetector):

- a file whose name starts with `donottranslate` (`donottranslate.xml`,
  `donottranslate_events.xml`): all of it;
- a file whose `<resources>` says `translatable="false"`: all of it;
- a resource marked `translatable="false"`;
- the keys of Google's services plugin (`google_app_id`, `gcm_defaultSenderId` ...) and the
  templates' `google_maps_key`: lint treats them as non-translatable whatever they say.

Besides lint, a file whose header says it is not translated (a comment before `<resources>`:
`<!-- These keys should not be translated -->`: API keys, preference keys, analytics
parameters) is left alone, and so is a file with nothing to translate (`arrays.xml` holding only
`@string/` references, `fonts.xml`, `colors.xml`): copying it into `values-de/` would only
overlay the default resources. `tools:ignore="MissingTranslation"` is no such mark: it lets a
translation lack a string (lint stops reporting it missing), so such strings are translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from ..base import FormatError
from ..xmlscan import decode_xml, scan

# lint's SdkUtils.isServiceKey and TranslationDetector: names that are never translated.
SERVICE_KEYS = frozenset(
    {
        "com.crashlytics.android.build_id",
        "default_web_client_id",
        "firebase_database_url",
        "gcm_defaultSenderId",
        "google_api_key",
        "google_app_id",
        "google_crash_reporting_api_key",
        "google_maps_key",
        "google_maps_key_instructions",
        "google_storage_bucket",
        "project_id",
    }
)
# A header comment saying the file is not to be translated.
_NOT_TRANSLATED = re.compile(
    r"\b(?:do\s*n[o']t|should\s*n[o']t|should\s+not|must\s+not|must\s*n't|never|not\s+to)\s+(?:be\s+)?"
    r"translat|\bnot\s+translatable\b|\buntranslatable\b|\bnon-?translatable\b",
    re.IGNORECASE,
)
_HEAD = 1 << 16


def untranslatable_name(path: Path) -> bool:
    """lint's convention: `donottranslate*.xml` holds nothing to translate."""
    return path.name.lower().startswith("donottranslate")


def says_not_translated(comment: str) -> bool:
    """Does a file's header comment say its resources are not to be translated?"""
    return _NOT_TRANSLATED.search(comment) is not None


def translatable_resource(name: str, attrs: Mapping[str, str]) -> bool:
    """A resource lint would ask to translate (by its own marks: the file's are above)."""
    return attrs.get("translatable", "true") != "false" and name not in SERVICE_KEYS


def untranslatable_file(path: Path, has_entries: Callable[[str], bool]) -> str | None:
    """Why the resource file `path` holds nothing to translate (module docstring), or None;
    `has_entries(text)`: whether the format finds a value to translate in it. A file that
    cannot be read or parsed is no business of this: the run says what is wrong with it."""
    if untranslatable_name(path):
        return "lint's donottranslate*.xml: never translated"
    try:
        text = decode_xml(path.read_bytes()).text
        events = scan(text)
    except (OSError, FormatError, ValueError):
        return None
    root = next((i for i, e in enumerate(events) if e.kind == "start"), None)
    if root is None or events[root].name != "resources":
        return None
    if events[root].attrs.get("translatable") == "false":
        return 'its <resources> is translatable="false" (lint: none of it is translated)'
    for event in events[:root]:  # the file's header: a comment inside is its first resource's
        if event.kind == "comment" and says_not_translated(event.data):
            said = " ".join(event.data.split())
            return f"its header says it is not translated ({said[:60]})"
    if not has_entries(text):
        return 'nothing to translate in it (references, translatable="false" and other resources only)'
    return None
