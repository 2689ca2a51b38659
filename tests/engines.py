"""Engines for tests: recorders around real engines, and fault injection.

They follow the real engine contract (`hymt_cli.engine.base.Engine`): engines that answer a
batch at once subclass `BatchEngine`, which streams the batch back in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hymt_cli.engine.base import BatchEngine, Engine, EngineOptions, Generation, GenerationRequest
from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.reporting.report import RunReport


def with_vllm(options: EngineOptions, **changes: Any) -> EngineOptions:
    """`options` with vLLM's own options (`--replicas`, `--enforce-eager` ...) changed."""
    return replace(options, vllm=replace(options.vllm_options(), **changes))


class Recording(BatchEngine):
    """Wraps a real engine, records every request; `close` is left to the owner (shared engines)."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.name = inner.name
        self.requests: list[GenerationRequest] = []
        self.calls = 0

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.calls += 1
        self.requests.extend(requests)
        return self.inner.generate(requests)


class Faulty(BatchEngine):
    """Fault injection: `fault(request) -> Generation | None` (None: answer like identity)."""

    name = "faulty"

    def __init__(self, fault: Callable[[GenerationRequest], Generation | None]) -> None:
        self.fault = fault
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        return [self.fault(r) or Generation(r.source_text, "stop", 1) for r in requests]


class CountingEngine(BatchEngine):
    """Wraps an engine and records every source text it was asked for."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.name = inner.name
        self.requested: list[str] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requested.extend(r.source_text for r in requests)
        return self.inner.generate(requests)

    def close(self) -> None:
        self.inner.close()


class FailingEngine(CountingEngine):
    """Returns an empty output (fails validation) for texts containing `marker`."""

    def __init__(self, inner: Engine, marker: str) -> None:
        super().__init__(inner)
        self.marker = marker

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = super().generate(requests)
        return [
            Generation("", "stop", 0) if self.marker in r.source_text else g for r, g in zip(requests, out)
        ]


# -- replica builders: module-level, so that a replica process (spawned) can unpickle them ------
def identity_replica(on_phase: Callable[[str], None]) -> Engine:
    """An identity engine in a replica process. Environment (the replica slot's):
    HYMT_TEST_DIE_AFTER=N: the process exits hard after answering N requests;
    HYMT_TEST_FAIL_START=1: building fails; HYMT_TEST_LOG=DIR: writes DIR/<pid>.start and
    DIR/<pid>.ready with the time, so that tests can see the start order; HYMT_TEST_STUCK=FILE:
    the engine starts a process of its own (pid written to FILE) and the replica ignores SIGTERM,
    as one whose engine shutdown outlasts the stop's grace period."""
    import os
    import time
    from pathlib import Path

    from hymt_cli.engine.identity import IdentityEngine

    log = os.environ.get("HYMT_TEST_LOG")
    if log:
        Path(log, f"{os.environ.get('HYMT_TEST_NAME', os.getpid())}.start").write_text(repr(time.time()))
    on_phase("building")
    if os.environ.get("HYMT_TEST_FAIL_START"):
        raise RuntimeError("this replica cannot start")
    if os.environ.get("HYMT_TEST_STUCK"):  # an engine with a process of its own that ignores SIGTERM
        _start_stuck_child(Path(os.environ["HYMT_TEST_STUCK"]))
    time.sleep(float(os.environ.get("HYMT_TEST_START_S", "0")))
    if log:
        Path(log, f"{os.environ.get('HYMT_TEST_NAME', os.getpid())}.ready").write_text(repr(time.time()))
    die_after = int(os.environ.get("HYMT_TEST_DIE_AFTER", "0"))
    if os.environ.get("HYMT_TEST_TRICKLE"):
        return _Trickle(int(os.environ["HYMT_TEST_TRICKLE"]))
    return _Dying(IdentityEngine(), die_after) if die_after else IdentityEngine()


def process_running(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie, ended but not yet reaped, does not)."""
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _start_stuck_child(pid_file: Path) -> None:
    import signal
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    pid_file.write_text(str(child.pid))
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class _Trickle(BatchEngine):
    """A feed (as vLLM's engine): takes requests while it works, answers `per_step` of them a
    step, echoing their text. In a replica, it sends answers all the time."""

    name = "trickle"

    def __init__(self, per_step: int) -> None:
        self.per_step = per_step
        self.in_flight = 256
        self.queued: list[tuple[int, GenerationRequest]] = []

    @property
    def pending(self) -> int:
        return len(self.queued)

    def submit(self, tag: int, request: GenerationRequest) -> None:
        self.queued.append((tag, request))

    def step(self) -> list[tuple[int, Generation]]:
        done, self.queued = self.queued[: self.per_step], self.queued[self.per_step :]
        return [(tag, Generation(r.source_text, "stop", 1)) for tag, r in done]

    def abort(self) -> None:
        self.queued = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [Generation(r.source_text, "stop", 1) for r in requests]


class _Dying(BatchEngine):
    name = "dying"

    def __init__(self, inner: Engine, after: int) -> None:
        self.inner, self.left = inner, after

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        import os

        self.left -= len(requests)
        if self.left < 0:
            os._exit(3)
        return self.inner.generate(requests)


class FaultEngine(BatchEngine):
    """Breaks the tags of every output in a different way, by request: drops, duplicates,
    swaps, renames and invents tags, wraps in <target>, returns empty. Plain text passes."""

    name = "fault"
    FAULTS = ("drop", "dup", "swap", "rename", "invent", "target", "empty")

    def __init__(self, fault: str | None = None, fix_on_retry: bool = False) -> None:
        self.fault = fault
        self.fix_on_retry = fix_on_retry
        self.calls = 0

    def _break(self, text: str, fault: str) -> str:
        tags = re.findall(r"</?s\d+/?>", text)
        if fault == "drop" and tags:
            return text.replace(tags[0], "", 1)
        if fault == "dup" and tags:
            return text + tags[0]
        pairs = [t for t in tags if not t.endswith("/>")]
        if fault == "swap" and len(pairs) >= 2:  # an open and its close trade places
            a, b = pairs[0], pairs[0].replace("<", "</")
            return text.replace(a, "\0").replace(b, a).replace("\0", b)
        if fault == "rename" and tags:
            return text.replace(tags[0], tags[0].replace("s", "x", 1), 1)
        if fault == "invent":
            return text + " <s99/>"
        if fault == "target":
            return "<target>" + text
        if fault == "empty":
            return ""
        return text + "<s1"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for i, r in enumerate(requests):
            self.calls += 1
            text = "«" + r.source_text + "»"
            if "<s" in r.source_text and not (self.fix_on_retry and r.deterministic):
                text = self._break(text, self.fault or self.FAULTS[(self.calls + i) % len(self.FAULTS)])
            out.append(Generation(text, "stop", 1))
        return out


class BlockSyntaxEngine(BatchEngine):
    """Answers with text whose lines start with Markdown block syntax (`# `, `- `, `1. `,
    `>`, `|`, `---`, a fence, 4-space indent, a reference definition ...). `extra`: also adds
    lines of its own (then the source's line breaks cannot all be kept)."""

    name = "block-syntax"
    STARTS = (
        "# ",
        "- ",
        "* ",
        "+ ",
        "1. ",
        "2) ",
        "> ",
        "| a | b |",
        "---",
        "```",
        "~~~",
        "    indented",
        "[x]: /u",
        "[^9]: n",
        "===",
        "!!! note",
        "$$",
        ":-- | --",
        "<div>",
    )

    def __init__(self, extra: bool = False) -> None:
        self.extra = extra
        self.calls = 0

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            self.calls += 1
            lines = r.source_text.split("\n")
            text = "\n".join(
                self.STARTS[(self.calls + i) % len(self.STARTS)] + line for i, line in enumerate(lines)
            )
            if self.extra:
                text += "\n\n" + "\n".join(self.STARTS) + "\nend"
            out.append(Generation(text, "stop", 1))
        return out


def _first_tag(text: str) -> str | None:
    match = re.search(r"</?s\d+/?>", text)
    return match.group(0) if match else None


ECHO = "Translate the following segment into French, without additional explanation.\n\n"
# What a hostile or broken model answers, by name: each takes the text it was asked to translate.
ATTACKS: dict[str, Callable[[str], str]] = {
    "extra_tag": lambda t: t + " <s99>more</s99>",
    "drop_tag": lambda t: t.replace(tag, "", 1) if (tag := _first_tag(t)) else t,
    "dup_tag": lambda t: t + (_first_tag(t) or ""),
    "reorder_tags": lambda t: (
        re.sub(r"<(/?)s(\d+)(/?)>", lambda m: f"<{m.group(1)}s{int(m.group(2)) % 9 + 1}{m.group(3)}>", t)
        if _first_tag(t)
        else t
    ),
    "link": lambda t: (
        t + " [click](http://evil.example/x) ![pic](http://evil.example/p.png) <http://evil.example>"
    ),
    "html": lambda t: (
        t + ' <script>alert(1)</script><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)>'
        " <!-- c --> &lt;b&gt; &amp;"
    ),
    "markdown": lambda t: "# Title\n\n- item\n\n```\n" + t + "\n> quote *unclosed _x_ `c` | a | b |\n---",
    "controls": lambda t: t[:1] + "\x00\x07\x1b[31m\x85" + t[1:],
    # a served model's JSON may hold an escaped lone surrogate ("\\udc80"): no UTF-8 text can
    "surrogate": lambda t: t[:1] + "\udc80\ud800" + t[1:],
    "empty": lambda t: "",
    "enormous": lambda t: (t + " ") * 60 + "x" * 5000,
    "echo": lambda t: ECHO + t,
    "loop": lambda t: t + " la" * 40,
    # what a table's or a JSON string's syntax is made of: delimiters, quotes, escapes, line breaks
    "separators": lambda t: t + ' , ; | "q" "" \\ \\n \\" \t tab\nnew line\r\n{"k": "v"}',
}
UNUSABLE = frozenset({"controls", "empty", "enormous", "echo", "loop", "surrogate"})  # must never be written


class Adversary(BatchEngine):
    """A model that answers every request, first try and retries alike, with one attack."""

    name = "adversary"

    def __init__(self, attack: str) -> None:
        self.attack = ATTACKS[attack]
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        return [Generation(self.attack(r.source_text), "stop", 5) for r in requests]


# -- QA faults: plausible answers that are wrong where it matters (hymt_cli/qa) ------------------
# Each fault changes one kind of thing a translation must keep, and only where it finds it.
QA_FAULTS: dict[str, Callable[[str], str]] = {
    "number": lambda t: re.sub(r"(?<![\d,.])24(?![\d,.])", "12", t),  # 24 months -> 12 months
    "price": lambda t: t.replace("1,299.00", "1,399.00"),  # a changed value, not a locale format
    "url": lambda t: t.replace("https://shop.example.com/", "https://shop.example.org/"),
    "email": lambda t: t.replace("support@example.com", "suport@example.com"),
    "sku": lambda t: t.replace("XR-2000", "XR-3000"),
    "bracket": lambda t: t.replace(")", "", 1),  # a dropped closing bracket
}

# A product text every QA fault finds something in: a paragraph per fault.
QA_PRODUCT = """\
Warranty: 24 months on every model.

Price: $1,299.00 including shipping.

Manual and drivers at https://shop.example.com/xr2000/manual for download.

Questions? Write to support@example.com with your order number.

The XR-2000 replaces the older printer models.

Works with any paper (plain or glossy).
"""
# segment id -> (check, severity) the fault of that segment must raise (QaFaultEngine, every fault)
QA_EXPECTED: dict[int, tuple[str, str]] = {
    0: ("number", "error"),
    1: ("number", "error"),
    2: ("url", "error"),
    3: ("email", "error"),
    4: ("sku", "warning"),
    5: ("brackets", "warning"),
}


class QaFaultEngine(BatchEngine):
    """Answers like `inner` (pseudo-localization: every letter changed, numbers, URLs and codes
    kept), then applies `faults` (names of QA_FAULTS) to every answer. `fix_on_retry`: the
    deterministic retry answers without faults."""

    name = "qa-fault"

    def __init__(
        self, inner: Engine, faults: Sequence[str] = tuple(QA_FAULTS), *, fix_on_retry: bool = False
    ) -> None:
        self.inner = inner
        self.faults = [QA_FAULTS[name] for name in faults]
        self.fix_on_retry = fix_on_retry
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        out = []
        for request, answer in zip(requests, self.inner.generate(requests), strict=True):
            text = answer.text
            if not (self.fix_on_retry and request.deterministic):
                for fault in self.faults:
                    text = fault(text)
            out.append(Generation(text, answer.finish_reason, answer.output_tokens))
        return out


class Drifting(BatchEngine):
    """Pseudo-localizes, and answers a text asked again (in a later window) another way."""

    name = "drifting"

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            times = self.seen[r.source_text] = self.seen.get(r.source_text, 0) + 1
            text = pseudo_localize(r.source_text)
            out.append(Generation(text if times == 1 else text.replace("⟦", "⟦ÁĹŢ "), "stop", 1))
        return out


# What string files make dangerous in an answer (quotes, escapes, placeholders of every
# convention, markup, syntax of the file format), on top of ATTACKS.
STRING_ATTACKS: dict[str, Callable[[str], str]] = {
    "quotes": lambda t: t + " \"double\" 'single' `back` “curly” it's '' ''' \"\"\"",
    "backslashes": lambda t: t + r" \ \\ \n \t \u0041 \" C:\path\to \'",
    "percent": lambda t: t + " 100% %s %d %1$s %(name)s %{name} %<name>s %% %Y-%m-%d %",
    "braces": lambda t: t + " {x} {0} {{y}} {{- z}} {n, plural, one {a} other {b}} '{' } { {{ }}",
    "dollars": lambda t: t + " $1 $NAME$ $$ $t(other.key) ${var} $",
    "angles": lambda t: t + " <b>bold</b> <script>x()</script> &amp; & < > <br/> &nbsp;",
    "newlines": lambda t: t + "\nsecond line\r\nthird\n\n  fourth\u2028fifth",
    "cdata": lambda t: t + " ]]> <![CDATA[x]]> --> <!-- c",
    "yaml_syntax": lambda t: "- " + t + ": x # y &a *b !c | > @ ` ---",
    "toml_syntax": lambda t: t + " \"\"\" ''' = [x] # c",
    "broken_icu": lambda t: (
        t.replace(tag, "{count, plural, one {", 1) if (tag := _first_tag(t)) else t + " {x, select,"
    ),
    "only_tags": lambda t: "".join(re.findall(r"</?s\d+/?>", t)),
    # a model that translates every word it is sent, a placeholder's name as well
    "letters": lambda t: _rewritten_letters(t),
}


_ROT13 = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM",
)


def _rewritten_letters(text: str) -> str:
    """Every letter outside the HY-MT tags changed (ROT13): what reaches the model as text comes
    back changed, so a placeholder sent as text shows up changed in the output."""
    pieces = re.split(r"(</?s\d+/?>)", text)
    return "".join(p if i % 2 else p.translate(_ROT13) for i, p in enumerate(pieces))


class StringAttack(BatchEngine):
    """Answers every request with one of STRING_ATTACKS applied to its source."""

    name = "string-attack"

    def __init__(self, attack: Callable[[str], str]) -> None:
        self.attack = attack

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [Generation(self.attack(r.source_text), "stop", 5) for r in requests]


def assert_reported(report: RunReport, attack: str) -> None:
    """Every segment is translated or reported (a problem says why it kept its source), and an
    answer an UNUSABLE attack made is never written."""
    for file in report.files:
        assert file.translated + file.untranslated == file.segments, file
        assert file.untranslated == 0 or file.problems, file
        if attack in UNUSABLE:
            assert file.translated == 0 and file.untranslated == file.segments, file
