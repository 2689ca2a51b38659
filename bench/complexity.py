"""Does the cost of parse + reassemble grow linearly with the input? (issue 13)

For each generated input shape, times `fmt.parse(src)` plus `doc.reassemble(...)` (every
segment translated: letters swapped, tags kept) at size N and 2N, and prints both times
and their ratio side by side. Linear code gives t(2N)/t(N) close to 2; anything well above
(say > 2.3) is a super-linear path. Run on demand, not in the tests:

    python bench/complexity.py                 # every case at its default size
    python bench/complexity.py --scale 0.25    # smaller and faster
    python bench/complexity.py --only html     # cases whose name contains "html"

Each timing is the best of `--repeat` runs (default 3) in CPU time of this process (other
processes on the machine disturb it less than wall time), after a warm-up of the parser.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hymt_cli.formats import format_named  # noqa: E402
from hymt_cli.text.tags import TAG  # noqa: E402

from complexity_resources import CASES as RESOURCE_CASES  # noqa: E402

_SWAP = str.maketrans("aeiouAEIOU", "áéíóúÁÉÍÓÚ")


def translate(text: str) -> str:
    """A linear stand-in for a translation: vowels accented, tags kept, a word added."""
    pieces = TAG.split(text)
    # TAG.split yields text, then the tag's three groups: rebuild the tags from the matches
    tags = [m.group(0) for m in TAG.finditer(text)]
    out = [pieces[0].translate(_SWAP)]
    for tag, rest in zip(tags, pieces[4::4]):
        out.append(tag)
        out.append(rest.translate(_SWAP))
    return "".join(out) + " ñ"


@dataclass(frozen=True)
class Case:
    name: str
    fmt: str
    n: int  # the base size; the case is also run at 2n
    make: Callable[[int], str]


def _json_flat(n: int) -> str:
    return "{\n" + ",\n".join(f'  "key.{i}": "Save the \\"file\\" {i} %s now"' for i in range(n)) + "\n}\n"


def _md_table(rows: int, cols: int) -> str:
    head = "|" + "|".join(f" h{c} " for c in range(cols)) + "|\n"
    rule = "|" + "|".join("---" for _ in range(cols)) + "|\n"
    row = "|" + "|".join(f" cell *{c}* text " for c in range(cols)) + "|\n"
    return head + rule + row * rows


CASES = [
    Case("html deep nesting <div>x…</div>", "html", 20_000,
         lambda n: "<div>x " * n + "</div>" * n),
    Case("html unclosed block tags <div>x", "html", 20_000, lambda n: "<div>text " * n),
    Case("html unclosed inline tags <b>x", "html", 20_000, lambda n: "<p>" + "<b>word " * n + "</p>"),
    Case("html inline tags in one paragraph", "html", 20_000,
         lambda n: "<p>" + "<b>bold</b> and <i>it</i> " * n + "</p>\n"),
    Case("html nested alt/title in one paragraph", "html", 10_000,
         lambda n: "<p>" + 'see <img alt="a picture" src=x.png> <a title="a title">link</a> ' * n + "</p>\n"),
    Case("html deep unclosed opaque <code><pre>", "html", 10_000, lambda n: "a<code><pre>" * n + "x"),
    Case("html unterminated start tags <a <a …", "html", 2_000, lambda n: "<p>x " + "<a " * n),
    Case("html unterminated comments <!--x<!--x", "html", 2_000, lambda n: "<p>x " + "<!--x" * n),
    Case("html many server-code placeholders", "html", 10_000,
         lambda n: "<p>" + "Hi <?= $name ?> and {{ user }} " * n + "</p>"),
    Case("html long line of text", "html", 200_000, lambda n: "<p>" + "word " * n + "</p>"),
    Case("html many paragraphs", "html", 50_000, lambda n: "<p>Some <b>text</b> here.</p>\n" * n),
    Case("md long table (rows)", "md", 10_000, lambda n: _md_table(n, 3)),
    Case("md wide table (columns)", "md", 2_000, lambda n: _md_table(3, n)),
    Case("md long line", "md", 100_000, lambda n: "word *em* " * n + "\n"),
    Case("md many inline pieces in one paragraph", "md", 20_000,
         lambda n: "a *b* `c` [d](u) ![alt](i.png \"t\") <b>e</b> &amp;\n" * n),
    Case("md nested alt/title in one paragraph", "md", 10_000,
         lambda n: '![a picture](x.png "a title") and ' * n + "\n"),
    Case("md unclosed templating {{ in a paragraph", "md", 20_000, lambda n: "text {{ " * n + "\n"),
    Case("md shortcut reference links", "md", 10_000, lambda n: "see [a] and [b][] " * n + "\n\n[a]: /a\n[b]: /b\n"),
    Case("md deep blockquote", "md", 2_000, lambda n: "> " * n + "deep quote\n"),
    # (a list n deep needs n indents per line: the input would grow as n^2; lists nested 64
    # deep, n lines in all, keep it linear)
    Case("md deep lists (64 levels)", "md", 20_000,
         lambda n: "".join("  " * (i % 64) + "- level\n" for i in range(n))),
    Case("md deep blockquote lines (64 levels)", "md", 20_000,
         lambda n: "".join("> " * (i % 64) + "quote\n" for i in range(n))),
    Case("json flat i18n keys", "json", 100_000,
         lambda n: _json_flat(n)),
    Case("json nested i18next with plurals", "json", 50_000,
         lambda n: "{\n" + ",\n".join(f'  "s{i}": {{"a_one": "{{{{count}}}} item", "a_other": "{{{{count}}}} items", '
                                         f'"b": "Hello <b>{{{{name}}}}</b> {i}"}}' for i in range(n)) + "\n}\n"),
    Case("json ICU plurals in one file", "json", 20_000,
         lambda n: "{" + ",".join(f'"k{i}": "You have {{n, plural, =0 {{none}} one {{# file}} other {{# files}}}} {i}"'
                                  for i in range(n)) + "}"),
    Case("json deep nesting", "json", 20_000, lambda n: '{"a":' * n + '"text"' + "}" * n),
    Case("json one huge value", "json", 200_000, lambda n: '{"a": "' + "word " * n + '"}'),
    Case("yaml rails locale", "yaml", 10_000,
         lambda n: "en:\n" + "".join(f"  k{i}:\n    title: Hello %{{name}} {i}\n    count:\n      one: one file\n"
                                      f"      other: \"%{{count}} files\"\n" for i in range(n))),
    Case("toml hugo i18n", "toml", 10_000,
         lambda n: "".join(f'[k{i}]\none = "One minute"\nother = "{{{{ .Count }}}} minutes {i}"\n\n' for i in range(n))),
    Case("properties bundle", "properties", 50_000,
         lambda n: "".join(f"key.{i}=Hello {{0}}, it''s {i}\\n\\\n    more text\n" for i in range(n))),
    Case("md million lines (2N)", "md", 500_000, lambda n: "A line of *text*.\n" * n),
    Case("txt million lines (2N)", "txt", 500_000, lambda n: "A line of text.\n" * n),
]
CASES += [Case(c.name, c.fmt, c.n, c.make) for c in RESOURCE_CASES]  # PO, XLIFF, Android, Apple


def _time(fmt_name: str, src: str, repeat: int) -> float:
    fmt = format_named(fmt_name)
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()  # as timeit does: collections of the growing heap blur the ratio
        try:
            start = time.process_time()
            doc = fmt.parse(src)
            doc.reassemble({s.id: translate(s.text) for s in doc.segments})
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case's size")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    args = parser.parse_args(argv)
    for name in ("md", "html", "txt"):  # warm-up: imports, the Markdown parser
        _time(name, "warm *up* <b>x</b>\n", 1)
    _time("json", '{"a": "{n, plural, one {# x} other {# y}}"}', 1)  # Babel's plural rules, once
    _time("yaml", "en:\n  a: x\n", 1)
    print(f"{'case':42} {'N':>9} {'t(N) s':>9} {'t(2N) s':>9} {'ratio':>6}")
    worst = 0.0
    for case in CASES:
        if args.only not in case.name:
            continue
        n = max(1, int(case.n * args.scale))
        small = _time(case.fmt, case.make(n), args.repeat)
        large = _time(case.fmt, case.make(2 * n), args.repeat)
        ratio = large / small if small > 0 else float("nan")
        worst = max(worst, ratio)
        flag = "" if ratio <= 2.3 else "  <- super-linear?"
        print(f"{case.name:42} {n:>9} {small:>9.3f} {large:>9.3f} {ratio:>6.2f}{flag}", flush=True)
    print(f"worst ratio {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
