"""CSV and TSV: the columns named by `--columns` translated, every other byte kept.

The formats are in format.py, the reading and splicing in _reader.py, the record scanner with
offsets in scanner.py, the dialects (delimiter, quoting, escapes, and the formats' options) in
dialect.py and fields.py. Every command imports the options (for its flags): this package's
__init__ imports nothing of the format itself.
"""
