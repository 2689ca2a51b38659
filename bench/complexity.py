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

Tables (CSV, TSV, JSON Lines, Parquet) are read and written a batch at a time through the
format's reader and writer (every selected cell translated); for them the peak of memory
allocated while reading and writing (tracemalloc) is printed at N and 2N too: bounded memory
keeps it flat as the rows double. The `context` cases tell each cell its row's title
(`--context-columns`): a cell per (value, context) pair, each row its own. A long text file
(`documents:`) goes the same way, a part of about 256 KiB at a time; `bench/text_scale.py`
runs it end to end (the CLI, the memory, a million lines and more).

    python bench/complexity.py --only tables:     # the table cases only
    python bench/complexity.py --only documents:  # the long text file, read and written in parts
"""

from __future__ import annotations

import argparse
import csv
import gc
import io
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from complexity_resources import CASES as RESOURCE_CASES  # noqa: E402

from hymt_cli.formats import DelimitedOptions, TableOptions, TextOptions, format_named  # noqa: E402
from hymt_cli.options import Options, OptionSet  # noqa: E402
from hymt_cli.text.tags import TAG  # noqa: E402

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
    Case("html deep nesting <div>x…</div>", "html", 20_000, lambda n: "<div>x " * n + "</div>" * n),
    Case("html unclosed block tags <div>x", "html", 20_000, lambda n: "<div>text " * n),
    Case("html unclosed inline tags <b>x", "html", 20_000, lambda n: "<p>" + "<b>word " * n + "</p>"),
    Case(
        "html inline tags in one paragraph",
        "html",
        20_000,
        lambda n: "<p>" + "<b>bold</b> and <i>it</i> " * n + "</p>\n",
    ),
    Case(
        "html nested alt/title in one paragraph",
        "html",
        10_000,
        lambda n: "<p>" + 'see <img alt="a picture" src=x.png> <a title="a title">link</a> ' * n + "</p>\n",
    ),
    Case("html deep unclosed opaque <code><pre>", "html", 10_000, lambda n: "a<code><pre>" * n + "x"),
    Case("html unterminated start tags <a <a …", "html", 2_000, lambda n: "<p>x " + "<a " * n),
    Case("html unterminated comments <!--x<!--x", "html", 2_000, lambda n: "<p>x " + "<!--x" * n),
    Case(
        "html many server-code placeholders",
        "html",
        10_000,
        lambda n: "<p>" + "Hi <?= $name ?> and {{ user }} " * n + "</p>",
    ),
    Case("html long line of text", "html", 200_000, lambda n: "<p>" + "word " * n + "</p>"),
    Case("html many paragraphs", "html", 50_000, lambda n: "<p>Some <b>text</b> here.</p>\n" * n),
    Case("md long table (rows)", "md", 10_000, lambda n: _md_table(n, 3)),
    Case("md wide table (columns)", "md", 2_000, lambda n: _md_table(3, n)),
    Case("md long line", "md", 100_000, lambda n: "word *em* " * n + "\n"),
    Case(
        "md many inline pieces in one paragraph",
        "md",
        20_000,
        lambda n: 'a *b* `c` [d](u) ![alt](i.png "t") <b>e</b> &amp;\n' * n,
    ),
    Case(
        "md nested alt/title in one paragraph",
        "md",
        10_000,
        lambda n: '![a picture](x.png "a title") and ' * n + "\n",
    ),
    Case("md unclosed templating {{ in a paragraph", "md", 20_000, lambda n: "text {{ " * n + "\n"),
    Case(
        "md shortcut reference links",
        "md",
        10_000,
        lambda n: "see [a] and [b][] " * n + "\n\n[a]: /a\n[b]: /b\n",
    ),
    Case("md deep blockquote", "md", 2_000, lambda n: "> " * n + "deep quote\n"),
    # (a list n deep needs n indents per line: the input would grow as n^2; lists nested 64
    # deep, n lines in all, keep it linear)
    Case(
        "md deep lists (64 levels)",
        "md",
        20_000,
        lambda n: "".join("  " * (i % 64) + "- level\n" for i in range(n)),
    ),
    Case(
        "md deep blockquote lines (64 levels)",
        "md",
        20_000,
        lambda n: "".join("> " * (i % 64) + "quote\n" for i in range(n)),
    ),
    Case("json flat i18n keys", "json", 100_000, lambda n: _json_flat(n)),
    Case(
        "json nested i18next with plurals",
        "json",
        50_000,
        lambda n: (
            "{\n"
            + ",\n".join(
                f'  "s{i}": {{"a_one": "{{{{count}}}} item", "a_other": "{{{{count}}}} items", '
                f'"b": "Hello <b>{{{{name}}}}</b> {i}"}}'
                for i in range(n)
            )
            + "\n}\n"
        ),
    ),
    Case(
        "json ICU plurals in one file",
        "json",
        20_000,
        lambda n: (
            "{"
            + ",".join(
                f'"k{i}": "You have {{n, plural, =0 {{none}} one {{# file}} other {{# files}}}} {i}"'
                for i in range(n)
            )
            + "}"
        ),
    ),
    Case("json deep nesting", "json", 20_000, lambda n: '{"a":' * n + '"text"' + "}" * n),
    Case("json one huge value", "json", 200_000, lambda n: '{"a": "' + "word " * n + '"}'),
    Case(
        "yaml rails locale",
        "yaml",
        10_000,
        lambda n: (
            "en:\n"
            + "".join(
                f"  k{i}:\n    title: Hello %{{name}} {i}\n    count:\n      one: one file\n"
                f'      other: "%{{count}} files"\n'
                for i in range(n)
            )
        ),
    ),
    Case(
        "toml hugo i18n",
        "toml",
        10_000,
        lambda n: "".join(
            f'[k{i}]\none = "One minute"\nother = "{{{{ .Count }}}} minutes {i}"\n\n' for i in range(n)
        ),
    ),
    Case(
        "yaml many anchors",  # a search of the whole text per anchor was quadratic
        "yaml",
        10_000,
        lambda n: "".join(f"k{i}: &a{i} Value number {i}\nr{i}: *a{i}\n" for i in range(n)),
    ),
    Case(
        "properties one value of many lines",  # each continuation copied the rest: quadratic
        "properties",
        50_000,
        lambda n: "key = " + "".join(f"word {i} \\\n    " for i in range(n)) + "end\n",
    ),
    Case(
        "properties bundle",
        "properties",
        50_000,
        lambda n: "".join(f"key.{i}=Hello {{0}}, it''s {i}\\n\\\n    more text\n" for i in range(n)),
    ),
    Case("md million lines (2N)", "md", 500_000, lambda n: "A line of *text*.\n" * n),
    Case("txt million lines (2N)", "txt", 500_000, lambda n: "A line of text.\n" * n),
]
CASES += [Case(c.name, c.fmt, c.n, c.make) for c in RESOURCE_CASES]  # PO, XLIFF, Android, Apple


@dataclass(frozen=True)
class TableCase:
    name: str
    fmt: str
    n: int  # rows; the case is also run at 2n
    make: Callable[[int], bytes]
    columns: tuple[str, ...]
    context_columns: tuple[str, ...] = ()
    add_columns: bool = False
    options: tuple[Options, ...] = ()  # the format's options besides the table's


_WORDS = "soft warm light durable classic modern compact handmade organic recycled bright quiet".split()


def _row(i: int) -> tuple[str, str, str]:
    """A product: a title that repeats every 500 rows, a description unique to the row."""
    title = f"{_WORDS[i % 12].capitalize()} {_WORDS[(i // 12) % 12]} lamp {i % 500}"
    body = " ".join(_WORDS[(i * 7 + k) % 12] for k in range(12)) + f", item {i}."
    return f"SKU-{i:08d}", title, body


def _csv(n: int, delimiter: str = ",", quoting: int = csv.QUOTE_MINIMAL, multiline: bool = False) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator="\r\n")
    writer.writerow(["sku", "title", "description", "price"])
    for i in range(n):
        sku, title, body = _row(i)
        if multiline:
            body = body.replace(", ", ',\n"quoted" ', 1)
        writer.writerow([sku, title, body, f"{i % 977}.99"])
    return out.getvalue().encode()


def _jsonl(n: int) -> bytes:
    lines = []
    for i in range(n):
        sku, title, body = _row(i)
        lines.append(
            json.dumps(
                {
                    "sku": sku,
                    "title": title,
                    "seo": {"description": body},
                    "price": i % 977,
                    "tags": ["lamp", _WORDS[i % 12]],
                },
                ensure_ascii=False,
            )
        )
    return ("\n".join(lines) + "\n").encode()


def _jsonl_wide_line(n: int) -> bytes:
    """One line: n items, each a member to add a sibling to (--add-columns)."""
    items = ", ".join(json.dumps({"name": _row(i)[1], "n": i}) for i in range(n))
    return f'{{"items": [{items}]}}\n'.encode()


def _jsonl_deep_line(n: int) -> bytes:
    """One line: an array nested n deep beside the field to translate."""
    return f'{{"x": {"[" * n}{"]" * n}, "title": "Soft lamp"}}\n'.encode()


def _parquet(n: int) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [_row(i) for i in range(n)]
    table = pa.table(
        {
            "sku": [r[0] for r in rows],
            "title": [r[1] for r in rows],
            "description": [r[2] for r in rows],
            "price": [i % 977 + 0.99 for i in range(n)],
        }
    )
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


TABLE_CASES = [
    TableCase("tables: csv, one line a row", "csv", 100_000, _csv, ("title", "description")),
    TableCase(
        "tables: csv, every field quoted",
        "csv",
        100_000,
        lambda n: _csv(n, quoting=csv.QUOTE_ALL),
        ("title", "description"),
    ),
    TableCase(
        "tables: csv, quoted multi-line cells",
        "csv",
        50_000,
        lambda n: _csv(n, multiline=True),
        ("title", "description"),
    ),
    TableCase(
        "tables: tsv, one line a row",
        "tsv",
        100_000,
        lambda n: _csv(n, delimiter="\t"),
        ("title", "description"),
    ),
    TableCase(
        "tables: jsonl, nested field and array", "jsonl", 50_000, _jsonl, ("title", "seo.description", "tags")
    ),
    TableCase(
        "tables: jsonl, one line of n items, added",
        "jsonl",
        20_000,
        _jsonl_wide_line,
        ("items.name",),
        (),
        True,
    ),
    TableCase("tables: jsonl, one line nested n deep", "jsonl", 200_000, _jsonl_deep_line, ("title",)),
    TableCase("tables: parquet, two string columns", "parquet", 100_000, _parquet, ("title", "description")),
    TableCase(
        "tables: csv, context column title", "csv", 100_000, _csv, ("title", "description"), ("title",)
    ),
    TableCase(
        "tables: jsonl, context field title",
        "jsonl",
        50_000,
        _jsonl,
        ("title", "seo.description", "tags"),
        ("title",),
    ),
    TableCase(
        "tables: parquet, context column title",
        "parquet",
        100_000,
        _parquet,
        ("title", "description"),
        ("title",),
    ),
    # A long document streams as a table does: read, translated and written a part at a time.
    TableCase(
        "documents: txt million lines, in parts (2N)",
        "txt",
        500_000,
        lambda n: "".join(f"Line {i} of a long file.\n" for i in range(n)).encode(),
        (),
        options=(TextOptions(segment_by="line"),),
    ),
    TableCase(
        "documents: md paragraphs, in parts (2N)",
        "md",
        100_000,
        lambda n: "".join(
            (f"## Part {i}\n\n" if i % 50 == 0 else "") + f"Paragraph {i} with *emphasis* and `code`.\n\n"
            for i in range(n)
        ).encode(),
        (),
    ),
]


class _Source:
    def __init__(self, data: bytes) -> None:
        self.data, self.display = data, "<bench>"

    def read_bytes(self) -> bytes:
        return self.data

    def open_binary(self) -> io.BytesIO:
        return io.BytesIO(self.data)


class _Sink(io.RawIOBase):
    """Counts what is written and keeps none of it (the output must not grow memory)."""

    written = 0

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        size = len(data)  # type: ignore[arg-type]
        self.written += size
        return size


def _run_table(case: TableCase, data: bytes) -> int:
    table = TableOptions(
        columns=case.columns, context_columns=case.context_columns, add_columns=case.add_columns
    )
    settings = OptionSet([table, DelimitedOptions(), *case.options])
    reader = format_named(case.fmt, settings).open(_Source(data))
    sink = _Sink()
    writer = None
    for unit in reader.units():
        writer = writer or reader.writer("fr", sink)  # type: ignore[arg-type]
        writer.write(unit, {s.id: translate(s.text) for s in unit.segments})
    if writer is not None:
        writer.close()
    return sink.written


def _time_table(case: TableCase, data: bytes, repeat: int) -> tuple[float, float]:
    """(best CPU seconds, peak MiB allocated while reading and writing)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        written = _run_table(case, data)
        best = min(best, time.process_time() - start)
        assert written > len(data), "every selected cell is translated"
    gc.collect()
    tracemalloc.start()
    try:
        _run_table(case, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return best, peak / (1 << 20)


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
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
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
    tables = [case for case in TABLE_CASES if args.only in case.name]  # and long documents
    if tables:
        print(
            f"\n{'streamed case':42} {'rows N':>9} {'t(N) s':>9} {'t(2N) s':>9} {'ratio':>6} "
            f"{'MiB(N)':>7} {'MiB(2N)':>7} {'MB/s':>6}"
        )
    for case in tables:
        n = max(1, int(case.n * args.scale))
        small_data, large_data = case.make(n), case.make(2 * n)
        small, small_mib = _time_table(case, small_data, args.repeat)
        large, large_mib = _time_table(case, large_data, args.repeat)
        ratio = large / small if small > 0 else float("nan")
        worst = max(worst, ratio)
        flag = "" if ratio <= 2.3 and large_mib <= small_mib * 1.3 + 1 else "  <- super-linear or growing?"
        print(
            f"{case.name:42} {n:>9} {small:>9.3f} {large:>9.3f} {ratio:>6.2f} {small_mib:>7.1f} "
            f"{large_mib:>7.1f} {len(large_data) / large / 1e6:>6.1f}{flag}",
            flush=True,
        )
    print(f"worst ratio {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
