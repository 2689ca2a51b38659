"""PO strings: C string literals, read and written the way GNU gettext writes them."""

from __future__ import annotations

import re

_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "?": "?",
}
_ESCAPE = re.compile(r"""\\(?:([ntrabfv\\"'?])|([0-7]{1,3})|x([0-9A-Fa-f]+)|(.?))""", re.DOTALL)
_WRITE = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
}
_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f]')
WIDTH = 79  # msgmerge's default page width


class CStringError(ValueError):
    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.offset = offset


def unquote(line: str, start: int) -> tuple[str, int]:
    """The string literal that starts at `line[start]` (a `"`): its value and where it ends."""
    close = line.find('"', start + 1)
    if close >= 0 and line.find("\\", start + 1, close) < 0:  # no escape: most strings
        return line[start + 1 : close], close + 1
    out: list[str] = []
    pos = start + 1
    while True:
        close = line.find('"', pos)
        slash = line.find("\\", pos)
        if close < 0:
            raise CStringError("string is not closed", len(line))
        if 0 <= slash < close:
            out.append(line[pos:slash])
            match = _ESCAPE.match(line, slash)
            assert match is not None
            simple, octal, hexa, other = match.groups()
            if simple is not None:
                out.append(_ESCAPES[simple])
            elif octal is not None:
                out.append(chr(int(octal, 8)))
            elif hexa is not None:
                out.append(chr(int(hexa[-2:], 16)))
            else:
                raise CStringError(f"invalid escape \\{other}" if other else "invalid escape", slash)
            pos = match.end()
            continue
        out.append(line[pos:close])
        return "".join(out), close + 1


def quote(text: str) -> str:
    """`text` as the inside of a PO string literal."""
    return _SPECIAL.sub(lambda m: _WRITE.get(m.group(0), f"\\{ord(m.group(0)):03o}"), text)


def field_lines(keyword: str, value: str) -> list[str]:
    """`keyword "value"` as gettext writes it: one line when it fits and holds no inner line
    break, else `keyword ""` followed by one line per line of the value, long lines wrapped
    after spaces (`WIDTH` columns, like msgmerge)."""
    whole = quote(value)
    if len(keyword) + len(whole) + 3 <= WIDTH and "\n" not in value[:-1]:
        return [f'{keyword} "{whole}"']
    lines = [f'{keyword} ""']
    for piece in re.findall(r"[^\n]*\n|[^\n]+", value):
        lines.extend(f'"{chunk}"' for chunk in _wrap(quote(piece), WIDTH - 2))
    return lines


def _wrap(quoted: str, width: int) -> list[str]:
    """Quoted text cut after spaces into chunks of at most `width` (a longer word stays whole;
    an escape is never cut)."""
    chunks: list[str] = []
    while len(quoted) > width:
        cut = quoted.rfind(" ", 0, width) + 1
        if cut <= 0:
            cut = quoted.find(" ", width) + 1
            if cut <= 0:
                break
        chunks.append(quoted[:cut])
        quoted = quoted[cut:]
    if quoted or not chunks:
        chunks.append(quoted)
    return chunks
