"""ICU MessageFormat and java.text.MessageFormat, parsed with the offset of every piece.

`parse_message(text, java=False)` gives a `Message`: literal runs (quoting undone in `shown`),
simple arguments (`{name}`, `{n, number, ::currency/EUR}`, `{0,date,short}`) and `#` as
placeholders, and complex arguments (`plural`, `selectordinal`, `select`, and `choice`)
whose branches are messages of their own. Nothing is rewritten: the formats splice
translations of the branch texts back between the untouched argument syntax.

Quoting (ICU's default, DOUBLE_OPTIONAL, as FormatJS): `''` is an apostrophe; an apostrophe
before `{`, `}`, `|` (and `#` inside a plural) starts quoted literal text up to the next single
apostrophe; any other apostrophe is literal. Java MessageFormat: every single apostrophe
quotes, and argument names are numbers. `IcuError` says why a text is no such message (then a
format treats the value as plain text).
"""

from __future__ import annotations

from dataclasses import dataclass

COMPLEX_KINDS = frozenset({"plural", "selectordinal", "select", "choice"})
_SPACE = " \t\r\n\u00a0\u2028\u2029"
_NAME_STOP = set(_SPACE) | set("{},#'<>|")
_MAX_DEPTH = 64


class IcuError(ValueError):
    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(f"{reason} at offset {offset}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Literal:
    """Literal text; `shown` is what it reads as when quoting changed it (`'{'` -> `{`)."""

    start: int
    end: int
    shown: str | None = None


@dataclass(frozen=True, slots=True)
class Placeholder:
    """A simple argument (`{name}`, `{n, number}`) or a plural's `#`."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Branch:
    """`selector {message}` (or a choice's `limit#message`)."""

    selector: str
    start: int  # where the selector starts
    message: Message
    end: int  # after the closing brace (choice: after the message)


@dataclass(frozen=True, slots=True)
class Complex:
    """`{name, plural, [offset:n] one {...} other {...}}` and its kin."""

    start: int
    end: int
    name: str
    kind: str
    branches: tuple[Branch, ...]


Node = Literal | Placeholder | Complex


@dataclass(frozen=True, slots=True)
class Message:
    start: int
    end: int
    nodes: tuple[Node, ...]
    in_plural: bool = False  # `#` is the number here
    in_choice: bool = False  # a choice branch: `|` ends it


def parse_message(text: str, *, java: bool = False) -> Message:
    """The whole of `text` as one message; IcuError when it is not one."""
    parser = _Parser(text, java)
    message = parser.message(0, in_plural=False, in_choice=False, depth=0)
    if parser.pos != len(text):
        raise IcuError("unmatched '}'", parser.pos)
    return message


class _Parser:
    def __init__(self, text: str, java: bool) -> None:
        self.text = text
        self.java = java
        self.pos = 0

    def message(self, start: int, *, in_plural: bool, in_choice: bool, depth: int) -> Message:
        """Nodes from `start` up to an unmatched `}` (or `|` in a choice), or the end."""
        if depth > _MAX_DEPTH:
            raise IcuError("arguments nested too deep", start)
        text = self.text
        nodes: list[Node] = []
        self.pos = start
        run = start  # start of the current unquoted literal run
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "}" or (in_choice and ch == "|"):
                break
            if ch == "'":
                quoted = self._quote(in_plural, in_choice)
                if quoted is not None:
                    if self.pos > run:
                        nodes.append(Literal(run, self.pos))
                    nodes.append(quoted)
                    run = self.pos = quoted.end
                    continue
                self.pos += 1
                continue
            if ch == "{":
                if self.pos > run:
                    nodes.append(Literal(run, self.pos))
                nodes.append(self.argument(in_plural, depth))
                run = self.pos
                continue
            if ch == "#" and in_plural:
                if self.pos > run:
                    nodes.append(Literal(run, self.pos))
                nodes.append(Placeholder(self.pos, self.pos + 1))
                self.pos += 1
                run = self.pos
                continue
            self.pos += 1
        if self.pos > run:
            nodes.append(Literal(run, self.pos))
        return Message(start, self.pos, tuple(nodes), in_plural, in_choice)

    def _quote(self, in_plural: bool, in_choice: bool) -> Literal | None:
        """An apostrophe at `pos`: `''`, or quoted text (None: a literal apostrophe)."""
        text, i = self.text, self.pos
        if text.startswith("''", i):
            return Literal(i, i + 2, "'")
        following = text[i + 1 : i + 2]
        specials = "{}" + ("#" if in_plural else "") + ("|" if in_choice else "")
        if not self.java and (not following or following not in specials):
            return None
        shown: list[str] = []
        j = i + 1
        while j < len(text):
            if text[j] == "'":
                if text.startswith("''", j):
                    shown.append("'")
                    j += 2
                    continue
                return Literal(i, j + 1, "".join(shown))
            shown.append(text[j])
            j += 1
        return Literal(i, j, "".join(shown))  # unterminated: quoted to the end (as ICU reads it)

    def _space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _SPACE:
            self.pos += 1

    def _word(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _NAME_STOP:
            self.pos += 1
        return self.text[start : self.pos]

    def _expect(self, ch: str) -> None:
        if self.pos >= len(self.text) or self.text[self.pos] != ch:
            found = repr(self.text[self.pos]) if self.pos < len(self.text) else "the end"
            raise IcuError(f"expected {ch!r}, found {found}", self.pos)
        self.pos += 1

    def argument(self, in_plural: bool, depth: int) -> Node:
        start = self.pos
        self.pos += 1  # {
        self._space()
        name = self._word()
        if not name or (self.java and not name.isdigit()):
            raise IcuError("bad argument name", self.pos)
        self._space()
        if self.pos < len(self.text) and self.text[self.pos] == "}":
            self.pos += 1
            return Placeholder(start, self.pos)
        self._expect(",")
        self._space()
        kind = self._word()
        if not kind:
            raise IcuError("missing argument type", self.pos)
        self._space()
        if kind in COMPLEX_KINDS and not (self.java and kind != "choice"):
            if kind == "choice":
                self._expect(",")
                branches = self.choice(in_plural, depth)
            else:
                self._expect(",")
                branches = self.branches(kind, depth)
            self._expect("}")
            return Complex(start, self.pos, name, kind, branches)
        if self.pos < len(self.text) and self.text[self.pos] == ",":
            self.pos += 1
            self._skip_style()
        self._expect("}")
        return Placeholder(start, self.pos)

    def _skip_style(self) -> None:
        """A simple argument's style (`::currency/EUR`, `'#'##0.00`): balanced braces, quotes."""
        text, level = self.text, 0
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise IcuError("unterminated quote in a style", self.pos)
                self.pos = end + 1
                continue
            if ch == "{":
                level += 1
            elif ch == "}":
                if level == 0:
                    return
                level -= 1
            self.pos += 1
        raise IcuError("unterminated argument", self.pos)

    def branches(self, kind: str, depth: int) -> tuple[Branch, ...]:
        text = self.text
        in_plural = kind in ("plural", "selectordinal")
        branches: list[Branch] = []
        self._space()
        if in_plural and text.startswith("offset:", self.pos):
            self.pos += len("offset:")
            self._space()
            if not self._word().isdigit():
                raise IcuError("bad plural offset", self.pos)
        while True:
            self._space()
            if self.pos >= len(text) or text[self.pos] == "}":
                break
            start = self.pos
            if text[self.pos] == "=":
                self.pos += 1
            selector = text[start : self.pos] + self._word()
            if selector in ("", "="):
                raise IcuError("bad selector", start)
            self._space()
            self._expect("{")
            message = self.message(self.pos, in_plural=in_plural, in_choice=False, depth=depth + 1)
            self._expect("}")
            branches.append(Branch(selector, start, message, self.pos))
        if not branches:
            raise IcuError(f"{kind} without branches", self.pos)
        if "other" not in (b.selector for b in branches):
            raise IcuError(f"{kind} without an 'other' branch", self.pos)
        return tuple(branches)

    def choice(self, in_plural: bool, depth: int) -> tuple[Branch, ...]:
        """`0#no files|1#one file|1<{0} files` (limits are numbers, `∞`, `-∞`)."""
        text = self.text
        branches: list[Branch] = []
        while True:
            self._space()
            start = self.pos
            while self.pos < len(text) and text[self.pos] not in "#<\u2264}|":
                self.pos += 1
            if self.pos >= len(text) or text[self.pos] in "}|":
                raise IcuError("bad choice limit", start)
            self.pos += 1
            selector = text[start : self.pos]
            message = self.message(self.pos, in_plural=in_plural, in_choice=True, depth=depth + 1)
            branches.append(Branch(selector, start, message, self.pos))
            if self.pos < len(text) and text[self.pos] == "|":
                self.pos += 1
                continue
            return tuple(branches)
