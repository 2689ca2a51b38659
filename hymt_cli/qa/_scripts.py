"""Character classes (regex bodies) for where addresses and codes begin and end.

Addresses and codes are written in Latin letters (Greek and Cyrillic look alike and stand
in for them), and scripts written without spaces (Chinese, Japanese, Korean particles, Thai)
put them right against their words: `详情请访问https://example.com/docs。`,
`info@example.comまで`. So a letter of another script is where an address or a code ends,
never part of it: `\\w` (every script's letters) is the wrong boundary."""

from __future__ import annotations

# Letters of the scripts codes and addresses are written in: Latin (all its blocks, IPA and
# phonetic ones too), Greek and Cyrillic.
LETTERS = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u0370-\u037d\u037f-\u0386\u0388-\u03ff\u0400-\u052f\u1d00-\u1dbf"
    "\u1e00-\u1fff\u2c60-\u2c7f\ua720-\ua7ff\uab30-\uab6f"
)
WORD = LETTERS + "0-9_"  # a word character of those scripts (the boundary of an address)
# Scripts written without spaces between words: Thai and Lao, Myanmar, Khmer, CJK punctuation,
# kana, Bopomofo, Hangul (jamo and syllables), CJK ideographs, full-width forms.
UNSPACED = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u1100-\u11ff\u3000-\u9fff\ua960-\ua97f\uac00-\ud7ff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff"
)
