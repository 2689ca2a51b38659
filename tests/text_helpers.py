"""Shared helpers for the plain text tests: texts that break naive splitters."""

from __future__ import annotations

from hypothesis import strategies as st

# Heavy in what breaks naive splitters: CR/LF mixes, BOM, NBSP, ideographic space, emoji,
# combining marks, tabs, blank-line runs, CJK, RTL.
ALPHABET = st.sampled_from(
    list("ab yZ.,!?\t\r\n\n\n")
    + [
        "\r\n",
        "\ufeff",
        "\u00a0",
        "\u3000",
        "é",
        "e\u0301",
        "😀",
        "👩‍💻",
        "中",
        "文",
        "。",
        "ש",
        "\u2028",
        "  ",
    ]
)
TEXTS = st.lists(ALPHABET, max_size=80).map("".join)
