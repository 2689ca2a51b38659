"""Glossary matching cost: hymt's Aho-Corasick matcher vs a naive loop over every term.

    PYTHONPATH=. python bench/glossary_matching.py [--terms 500,2000,5000] [--segments 2000]

Both find exactly the same matches (checked on every run); the naive loop scans each segment
once per term, the automaton once per segment.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from hymt_cli.glossary import Entry, Match, Matcher, at_word_edges, fold, select

WORDS = (
    "cloud storage bucket access key region billing console dashboard settings account "
    "project network gateway instance volume snapshot backup policy role user group token "
    "quota limit alert metric log trace cluster node pod service endpoint domain certificate "
    "firewall rule route table subnet zone replica shard index query cache queue topic"
).split()
HAN = "对象存储桶访问密钥地域计费控制台仪表盘设置账号项目网络网关实例卷快照备份策略角色用户组令牌配额"


def naive_find(entries: Sequence[Entry], text: str) -> list[Match]:
    """The obvious way: look for every term in turn."""
    folded = fold(text)
    candidates = []
    for entry in entries:
        key = fold(entry.source)
        pos = folded.find(key)
        while pos >= 0:
            end = pos + len(key)
            if (not entry.case_sensitive or text[pos:end] == entry.source) and at_word_edges(text, pos, end):
                candidates.append(Match(pos, end, entry))
            pos = folded.find(key, pos + 1)
    return select(text, candidates)


def make_terms(n: int, rng: random.Random) -> list[Entry]:
    seen: set[str] = set()
    entries = []
    while len(entries) < n:
        if rng.random() < 0.2:
            source = "".join(rng.choice(HAN) for _ in range(rng.randint(2, 5)))
        else:
            source = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            if rng.random() < 0.3:
                source = source.title()
        if fold(source) not in seen:
            seen.add(fold(source))
            entries.append(Entry(source, f"T{len(entries)}", "de", None, rng.random() < 0.1))
    return entries


def make_segments(n: int, rng: random.Random) -> list[str]:
    segments = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 40))]
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), "".join(rng.choice(HAN) for _ in range(12)))
        segments.append(" ".join(w.title() if rng.random() < 0.1 else w for w in words) + ".")
    return segments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", default="100,1000,5000")
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    segments = make_segments(args.segments, rng)
    chars = sum(map(len, segments))
    print(f"{args.segments} segments, {chars:,} characters")
    print(
        f"{'terms':>6} {'build ms':>9} {'automaton ms':>13} {'naive ms':>10} {'speed-up':>9} {'matches':>8}"
    )
    for n in (int(x) for x in args.terms.split(",")):
        entries = make_terms(n, rng)
        t0 = time.perf_counter()
        matcher = Matcher(entries)
        t1 = time.perf_counter()
        fast = [matcher.find(s) for s in segments]
        t2 = time.perf_counter()
        slow = [naive_find(entries, s) for s in segments]
        t3 = time.perf_counter()
        assert fast == slow, "the matcher and the naive loop disagree"
        print(
            f"{n:>6} {(t1 - t0) * 1e3:>9.1f} {(t2 - t1) * 1e3:>13.1f} {(t3 - t2) * 1e3:>10.1f} "
            f"{(t3 - t2) / (t2 - t1):>8.1f}x {sum(map(len, fast)):>8}"
        )


if __name__ == "__main__":
    main()
