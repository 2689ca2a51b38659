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

from ...errors import UsageError
from ...options import Options, Panel, option

Escaping = Literal["quotes", "backslash", "none"]
SNIFFED = (",", ";", "\t", "|")  # the delimiters a CSV file is tried with, in order of preference
QUOTE = '"'


@dataclass(frozen=True, slots=True)
class DelimitedOptions(Options):
    """CSV/TSV options beside the table options (table_cells.TableOptions)."""

    delimiter: str = option(
        "",
        "--delimiter",
        metavar="CHAR",
        panel=Panel.FORMATS,
        default_text="a first line sep=; names it, tab for .tsv, else found among , ; tab |",
        help="csv, tsv: the field delimiter.",
    )
    escaping: Escaping = option(
        "quotes",
        "--escaping",
        panel=Panel.FORMATS,
        help="csv, tsv: how a field holds a delimiter, a quote or a line break: quotes "
        "(RFC 4180, Excel), backslash (PostgreSQL/MySQL text exports), none (IANA TSV).",
    )
    header: bool = option(
        True,
        "--header",
        off_flag="--no-header",
        panel=Panel.FORMATS,
        help="csv, tsv: the first line names the columns; without one, --columns names them "
        "by number (1 is the first).",
    )

    def validate(self) -> None:
        if len(self.delimiter) > 1 or self.delimiter in (QUOTE, "\\", "\r", "\n"):
            raise UsageError(
                "--delimiter must be one character other than a quote, a backslash or a line break, "
                f"not {self.delimiter!r}"
            )


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
