"""The HTML standard's prescan of a page's head for a `<meta>` charset.

https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
Comments and other markup are skipped as a browser skips them, attributes are read with the
standard's attribute algorithm, `<meta charset>` and `<meta http-equiv=content-type
content="...; charset=...">` both count. Labels resolve through webencodings. The standard
stops the prescan after 1024 bytes and lets the parser change the encoding when it meets a
later `<meta>` in the head: here the prescan reads the whole head (it stops at `<body`).
"""

from __future__ import annotations

import webencodings  # type: ignore[import-untyped]

_SPACE = b"\t\n\x0c\r "


def prescan(data: bytes) -> webencodings.Encoding | None:
    """The encoding a page's `<meta>` declares, or None."""
    pos = 0
    while pos < len(data):
        if data.startswith(b"<!--", pos):
            end = data.find(b"-->", pos + 2)
            if end < 0:
                return None
            pos = end + 3
        elif data[pos : pos + 5].lower() == b"<meta" and data[pos + 5 : pos + 6] in (*_SPACE_BYTES, b"/"):
            encoding, pos = _meta(data, pos + 6)
            if encoding is not None:
                return encoding
        elif _is_tag_start(data, pos):
            if data[pos : pos + 5].lower() == b"<body":
                return None
            pos = _skip_tag(data, pos)
        elif data.startswith((b"<!", b"</", b"<?"), pos):
            end = data.find(b">", pos + 2)
            if end < 0:
                return None
            pos = end + 1
        else:
            pos += 1
    return None


_SPACE_BYTES = tuple(bytes([b]) for b in _SPACE)


def _is_tag_start(data: bytes, pos: int) -> bool:
    if data[pos : pos + 1] != b"<":
        return False
    at = pos + 2 if data[pos + 1 : pos + 2] == b"/" else pos + 1
    return data[at : at + 1].isalpha()


def _skip_tag(data: bytes, pos: int) -> int:
    while pos < len(data) and data[pos] not in _SPACE and data[pos] != 0x3E:
        pos += 1
    while True:
        found = _attribute(data, pos)
        if found is None:
            return _after_tag(data, pos)
        pos = found[2]


def _after_tag(data: bytes, pos: int) -> int:
    end = data.find(b">", pos)
    return len(data) if end < 0 else end + 1


def _meta(data: bytes, pos: int) -> tuple[webencodings.Encoding | None, int]:
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: bytes | None = None
    while True:
        found = _attribute(data, pos)
        if found is None:
            break
        name, value, pos = found
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv" and value == b"content-type":
            got_pragma = True
        elif name == b"content" and charset is None:
            charset = _charset_in_content(value)
            if charset is not None:
                need_pragma = True
        elif name == b"charset":
            charset, need_pragma = value, False
    end = _after_tag(data, pos)
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, end
    encoding = webencodings.lookup(charset.decode("ascii", "replace"))
    if encoding is None:
        return None, end
    if encoding.name in ("utf-16be", "utf-16le"):  # bytes that a prescan reads are no UTF-16
        encoding = webencodings.lookup("utf-8")
    elif encoding.name == "x-user-defined":
        encoding = webencodings.lookup("windows-1252")
    return encoding, end


def _attribute(data: bytes, pos: int) -> tuple[bytes, bytes, int] | None:
    """(name, value, position after it) of the attribute at pos, lowercased; None at the
    tag's end or the data's."""
    n = len(data)
    while pos < n and (data[pos] in _SPACE or data[pos] == 0x2F):
        pos += 1
    if pos >= n or data[pos] == 0x3E:
        return None
    name = bytearray()
    while pos < n:
        byte = data[pos]
        if byte == 0x3D and name:  # =
            return _attribute_value(data, pos + 1, bytes(name))
        if byte in _SPACE:
            while pos < n and data[pos] in _SPACE:
                pos += 1
            if pos < n and data[pos] == 0x3D:
                return _attribute_value(data, pos + 1, bytes(name))
            return (bytes(name), b"", pos) if pos < n else None
        if byte in (0x2F, 0x3E):
            return bytes(name), b"", pos
        name.append(byte | 0x20 if 0x41 <= byte <= 0x5A else byte)
        pos += 1
    return None


def _attribute_value(data: bytes, pos: int, name: bytes) -> tuple[bytes, bytes, int] | None:
    n = len(data)
    while pos < n and data[pos] in _SPACE:
        pos += 1
    if pos >= n:
        return None
    if data[pos] in (0x22, 0x27):  # quoted
        end = data.find(data[pos : pos + 1], pos + 1)
        if end < 0:
            return None
        return name, data[pos + 1 : end].lower(), end + 1
    if data[pos] == 0x3E:
        return name, b"", pos
    start = pos
    while pos < n and data[pos] not in _SPACE and data[pos] != 0x3E:
        pos += 1
    return (name, data[start:pos].lower(), pos) if pos < n else None


def _charset_in_content(value: bytes) -> bytes | None:
    """The standard's 'extracting a character encoding from a meta element'."""
    pos = 0
    while True:
        at = value.find(b"charset", pos)
        if at < 0:
            return None
        pos = at + 7
        while pos < len(value) and value[pos] in _SPACE:
            pos += 1
        if pos < len(value) and value[pos] == 0x3D:
            break
    pos += 1
    while pos < len(value) and value[pos] in _SPACE:
        pos += 1
    if pos >= len(value):
        return None
    if value[pos] in (0x22, 0x27):
        end = value.find(value[pos : pos + 1], pos + 1)
        return value[pos + 1 : end] if end >= 0 else None
    end = pos
    while end < len(value) and value[end] not in _SPACE and value[end] != 0x3B:
        end += 1
    return value[pos:end]
