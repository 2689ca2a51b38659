"""Values that are no text for people, whatever file they are in: never sent to the model.

A string file holds URLs, e-mail addresses, paths, file names, colours, dates, sizes and key
references (`common.ok`) beside its messages. The model would "translate" them (a path's
words, a key's parts); they stay as they are.
"""

from __future__ import annotations

import re

_NOT_TEXT = re.compile(
    r"""\A\s*(?:
      [a-zA-Z][a-zA-Z0-9+.-]*://\S*              # URL
    | (?:mailto|tel|data|javascript):\S*          # URI schemes without //
    | [\w.+-]+@[\w-]+(?:\.[\w-]+)+                # e-mail address
    | (?:\.{0,2}/|~/)[\w.@/-]*                    # path from a root: /a, ./a/b.png, ../x
    | [\w.@-]+(?:/[\w.@-]+){2,}/?                  # path with two slashes: a/b/c
    | [\w.@-]+(?:/[\w.@-]+)+\.\w{1,5}              # path to a file: img/a.png
    | [\w-]+\.(?:png|jpe?g|gif|svg|webp|ico|css|js|json|html?|pdf|mp[34]|woff2?|ttf|xml|ya?ml|md|txt|zip)
    | \#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})          # colour
    | (?:rgba?|hsla?)\([^()]*\)                   # colour
    | \d{4}-\d{2}-\d{2}(?:[T\s]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?   # date
    | [-+]?\d+(?:[.,]\d+)*\s?(?:px|em|rem|pt|vh|vw|ms|s|%|kb|mb|gb|k|m)?   # number, size
    | [a-z0-9]+(?:[_.][a-z0-9]+)+                 # identifier, key reference: common.ok, foo_bar
    | (?:%[-_0^#:]?[A-Za-z]|[\s/.,:-])+            # a date format only: %Y-%m-%d, %H:%M
    )\s*\Z""",
    re.VERBOSE,
)


def is_text(value: str) -> bool:
    """Worth sending: not a URL, address, path, file name, colour, date, size or key reference."""
    return _NOT_TEXT.match(value) is None
