"""The languages HY-MT translates between (model card): code -> English and Chinese names."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    english: str
    chinese: str

    @property
    def is_chinese(self) -> bool:
        """Chinese varieties: prompts use the Chinese instruction when one is on either side."""
        return self.code in CHINESE_CODES


_TABLE = """\
zh Chinese 中文
en English 英语
fr French 法语
pt Portuguese 葡萄牙语
es Spanish 西班牙语
ja Japanese 日语
tr Turkish 土耳其语
ru Russian 俄语
ar Arabic 阿拉伯语
ko Korean 韩语
th Thai 泰语
it Italian 意大利语
de German 德语
vi Vietnamese 越南语
ms Malay 马来语
id Indonesian 印尼语
tl Filipino 菲律宾语
hi Hindi 印地语
zh-Hant Traditional_Chinese 繁体中文
pl Polish 波兰语
cs Czech 捷克语
nl Dutch 荷兰语
km Khmer 高棉语
my Burmese 缅甸语
fa Persian 波斯语
gu Gujarati 古吉拉特语
ur Urdu 乌尔都语
te Telugu 泰卢固语
mr Marathi 马拉地语
he Hebrew 希伯来语
bn Bengali 孟加拉语
ta Tamil 泰米尔语
uk Ukrainian 乌克兰语
bo Tibetan 藏语
kk Kazakh 哈萨克语
mn Mongolian 蒙古语
ug Uyghur 维吾尔语
yue Cantonese 粤语
"""

LANGUAGES: dict[str, Language] = {
    code: Language(code, english.replace("_", " "), chinese)
    for code, english, chinese in (line.split() for line in _TABLE.splitlines())
}
CHINESE_CODES = frozenset({"zh", "zh-Hant", "yue"})
_BY_LOWER = {code.lower(): lang for code, lang in LANGUAGES.items()}


def language(code: str) -> Language:
    """Look up a language code (case-insensitive); a usage error lists the valid codes."""
    found = _BY_LOWER.get(code.strip().lower())
    if found is None:
        raise UsageError(f"unknown language code {code!r}; valid codes: {', '.join(LANGUAGES)}")
    return found


def parse_language_list(value: str) -> list[Language]:
    """`de,ja` -> [German, Japanese], without duplicates, order kept."""
    codes = [part for part in value.split(",") if part.strip()]
    if not codes:
        raise UsageError("no target language given (e.g. --to en or --to de,ja)")
    result: list[Language] = []
    for code in codes:
        lang = language(code)
        if lang not in result:
            result.append(lang)
    return result
