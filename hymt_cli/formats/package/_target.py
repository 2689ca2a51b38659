"""The target language as a package's parts write it: its tag, its direction, its script.

Office and ODF files name languages by language and region (`de-DE`, `zh-TW`: Word's proofing
and font choice go by them); a target given as a bare language (`de`) gets CLDR's likely region
(`de-DE`), one given with a region keeps it (`pt-BR`). `rtl`: written right to left (Arabic,
Hebrew ... scripts); `east_asian`: written in Han, kana or Hangul, which needs an East-Asian
font slot (`east_asian_font`, a format's setting, or a common font of the script).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...text.locales import maximized, parse_locale

RTL_SCRIPTS = frozenset({"Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"})
EAST_ASIAN_SCRIPTS = frozenset({"Hans", "Hant", "Jpan", "Kore", "Hani", "Hira", "Kana", "Hang"})
# A font of each East-Asian script that Windows, macOS and Office have (the setting overrides it).
DEFAULT_EAST_ASIAN_FONTS = {
    "Hans": "Microsoft YaHei",
    "Hant": "Microsoft JhengHei",
    "Jpan": "Yu Gothic",
    "Kore": "Malgun Gothic",
}


@dataclass(frozen=True, slots=True)
class Target:
    code: str  # the locale as given (`de`, `pt-BR`, `zh-Hant`)
    tag: str  # as Office and ODF write it (`de-DE`, `pt-BR`, `zh-TW`)
    language: str  # `de`
    region: str | None  # `DE`
    script: str | None  # `Latn`
    east_asian_font: str = ""

    @property
    def rtl(self) -> bool:
        return self.script in RTL_SCRIPTS

    @property
    def east_asian(self) -> bool:
        return self.script in EAST_ASIAN_SCRIPTS


def target_for(code: str, east_asian_font: str = "") -> Target:
    """The target `code` (a locale) as packages write it; `east_asian_font`: the font for an
    East-Asian target's text where the source names none ("": a common one of its script)."""
    language, script, region = maximized(code)
    parsed = parse_locale(code)
    explicit_script = parsed is not None and parsed.script is not None
    parts = [language]
    if explicit_script and language not in ("zh", "yue") and script:
        parts.append(script)
    if region:
        parts.append(region)
    font = east_asian_font or DEFAULT_EAST_ASIAN_FONTS.get(script or "", "")
    return Target(code, "-".join(parts), language, region, script, font)
