"""How a delimited file writes its fields: the delimiter, and how a field holds the delimiter,
a quote or a line break.

- `quotes` (RFC 4180, and what Excel, Google Sheets, Python's csv module and pyarrow read and
  write): a field may be enclosed in double quotes, a quote inside is doubled, and a quoted
  field may hold delimiters and line breaks. A quote inside an unquoted field is a character
  like any other, and text after a closing quote is read on into the field, as those readers do.
- `backslash` (PostgreSQL's and MySQL's text exports, "linear TSV"): no quoting; `\\t`, `\\n`,
  `\\r`, `\\\\` and a backslash before any other character (the delimiter, a line break) stand
  for that character; `\\N` alone is NULL.
- `none` (IANA text/tab-separated-values): no quoting, no escapes; a field never holds the
  delimiter or a line break.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Escaping = Literal["quotes", "backslash", "none"]
ESCAPINGS: tuple[Escaping, ...] = ("quotes", "backslash", "none")
SNIFFED = (",", ";", "\t", "|")  # the delimiters a CSV file is tried with, in order of preference
QUOTE = '"'


@dataclass(frozen=True, slots=True)
class DelimitedOptions:
    """CSV/TSV options beside the table options (table_cells.TableOptions)."""

    # --delimiter CHAR: "CSV/TSV: the field delimiter (default: the one a first line `sep=;`
    # names, a tab for .tsv files, otherwise found from the file's first lines among , ; tab |)."
    delimiter: str = ""
    # --escaping quotes|backslash|none: "CSV/TSV: how a field holds a delimiter, a quote or a
    # line break: quotes (RFC 4180, Excel), backslash (PostgreSQL/MySQL text exports), none
    # (IANA TSV)."
    escaping: Escaping = "quotes"
    # --header/--no-header: "CSV/TSV: whether the first line names the columns; without one,
    # --columns names them by number (1 is the first)."
    header: bool = True

    def __post_init__(self) -> None:
        if len(self.delimiter) > 1 or self.delimiter in (QUOTE, "\\", "\r", "\n"):
            raise ValueError(
                f"the delimiter must be one character other than a quote, a backslash or a "
                f"line break, not {self.delimiter!r}"
            )
        if self.escaping not in ESCAPINGS:
            raise ValueError(f"escaping must be one of {', '.join(ESCAPINGS)}, not {self.escaping!r}")


@dataclass(frozen=True, slots=True)
class Dialect:
    delimiter: str
    escaping: Escaping

    @property
    def special(self) -> re.Pattern[str]:
        """The characters that end a fast (split) scan of a line."""
        extra = {"quotes": QUOTE, "backslash": "\\\\", "none": ""}[self.escaping]
        return re.compile(f"[{extra}\r\n]")

    @property
    def unquoted(self) -> re.Pattern[str]:
        """A field (or the rest of one) without quoting: up to the delimiter or a line break."""
        d = re.escape(self.delimiter)
        if self.escaping == "backslash":
            return re.compile(rf"[^\\{d}\r\n]*(?:\\[\s\S][^\\{d}\r\n]*)*")
        return re.compile(rf"[^{d}\r\n]*")


QUOTED = re.compile(r'"[^"]*(?:""[^"]*)*"')
