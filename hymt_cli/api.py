"""hymt as a library: translate text, files, folders and tables from Python.

    import hymt_cli as hymt

    hymt.translate_text("# Hello\\n", to="de", format="md", engine="pseudo")      # -> str
    report = hymt.translate_files(["docs/"], to="de,ja", out="out", engine="pseudo")
    table = hymt.translate_table(table, columns=["title"], to="de", engine="identity")

    with hymt.Translator(model="tencent/HY-MT1.5-1.8B", deterministic=True) as translator:
        for doc in documents:                   # the model is loaded once, for every call
            translator.text(doc, to="ja", format="html")

Settings are the ones the command line has, by name (`to`, `source` for --from, `format`,
`engine`, `model`, `segment_by`, `columns`, `glossary`, `out` ...: `hymt_cli.all_settings()`
lists them), as keyword arguments or as a `Settings` record; a call's keywords override the
translator's. Nothing here prints or exits: results come back as values (a file run's
`RunReport`, the report as data), a run that cannot start raises a `HymtError` (UsageError,
EngineUnavailable, InputError ...), and progress reaches a `ProgressEvents` subclass you pass.
Messages (errors raised, and the report's per-file errors, hints and warnings) name a setting by
the keyword a caller gives (`qa=`, `context_columns=`), not by its command-line flag.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .errors import HymtError, InputError, UsageError
from .formats import ParquetOptions
from .options import OptionSet
from .reporting.progress import ProgressEvents
from .reporting.report import RunReport
from .run.check_outputs import CheckResult, check_outputs
from .run.config import RunConfig
from .run.engine_setup import EngineKeeper
from .run.session import Extras, run_translation
from .settings import Settings
from .settings.keywords import as_keywords
from .signals import Interrupted, handling_signals

if TYPE_CHECKING:
    import pyarrow as pa

# What `files` and `check` take: one file or folder, or several (str or pathlib.Path; "-": stdin).
Inputs = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]


class Translator:
    """Translates with one set of settings, keeping the engine (and its model) loaded from the
    first call that needs it to `close` (or the end of a `with` block)."""

    def __init__(
        self, settings: Settings | None = None, /, *, progress: ProgressEvents | None = None, **values: Any
    ) -> None:
        with _keywords_in_errors():
            base = settings or Settings.build()
            self.settings = base.replaced(**values) if values else base
        self.progress = progress
        self.last_report: RunReport | None = None
        self._keeper = EngineKeeper()

    def __enter__(self) -> Translator:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the kept engine (its processes, its memory on the GPU)."""
        self._keeper.close()

    def files(self, inputs: Inputs, **values: Any) -> RunReport:
        """Translate files and folders as `hymt translate` does (outputs beside the inputs, or under
        `out`); the report says what happened to each file. Per-file problems are in the report,
        not raised."""
        with _keywords_in_errors():
            config = self._config(inputs=_names(inputs), **values)
            return self._run(config, Extras(keeper=self._keeper))

    def text(self, text: str, *, to: str | None = None, format: str = "txt", **values: Any) -> str:
        """`text` in one target language, in `format` (txt, md, html ...); segments that fail the
        checks keep their source (see `last_report`). InputError when `text` cannot be parsed."""
        if not isinstance(text, str):
            raise TypeError(
                f"the text to translate is a str, not {type(text).__name__}"
                + (" (decode the bytes first)" if isinstance(text, (bytes, bytearray)) else "")
            )
        try:
            encoded = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(
                f"the text is not valid Unicode ({exc.reason} at position {exc.start})"
            ) from None
        with _keywords_in_errors():
            return self._one_document(encoded, format, to, values, name="<text>").decode("utf-8")

    def table(
        self, table: pa.Table, *, columns: list[str] | str, to: str | None = None, **values: Any
    ) -> pa.Table:
        """The table with `columns` translated: replaced, or, with `add_columns=True`, kept and
        `<column>_<lang>` added (several target languages then add a column each)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not isinstance(table, pa.Table):
            raise TypeError(
                f"translate a pyarrow.Table, not {type(table).__name__} (pyarrow.Table.from_pandas, "
                "pyarrow.table(dict) or pyarrow.parquet.read_table make one)"
            )
        with _keywords_in_errors():
            settings = self.settings.replaced(**values)
            languages = [code.strip() for code in (to or settings.languages.to).split(",") if code.strip()]
            add = settings.of(ParquetOptions).add_columns
            if len(languages) > 1 and not add:
                raise UsageError("translating a table into several languages needs add_columns=True")
            for code in languages or [""]:
                buffer = io.BytesIO()
                pq.write_table(table, buffer)
                out = self._one_document(
                    buffer.getvalue(), "parquet", code, {**values, "columns": columns}, name="<table>"
                )
                table = pq.read_table(pa.BufferReader(out))
        return table

    def check(self, inputs: Inputs, **values: Any) -> CheckResult:
        """Which outputs are missing or stale (`hymt translate --check`); runs no engine."""
        with _keywords_in_errors():
            return check_outputs(self._config(inputs=_names(inputs), **values))

    # -- parts ----------------------------------------------------------------------------------
    def _config(self, **values: Any) -> RunConfig:
        return RunConfig.of(self.settings.replaced(**values))

    def _run(self, config: RunConfig, extras: Extras) -> RunReport:
        """A run; Ctrl-C (a notebook's stop button) or SIGTERM (a scheduler's) in the main thread
        ends it as on the command line: `Interrupted` (a KeyboardInterrupt) with `.report`, the
        report and review page written, nothing half-written; `last_report` is that report."""
        with handling_signals():
            try:
                self.last_report = run_translation(config, self.progress or ProgressEvents(), extras)
            except Interrupted as exc:
                if isinstance(exc.report, RunReport):
                    self.last_report = _with_keywords(exc.report)
                raise
        return _with_keywords(self.last_report)

    def _one_document(
        self, data: bytes, format: str, to: str | None, values: dict[str, Any], *, name: str
    ) -> bytes:
        """One document or table through the pipeline, from memory to memory; messages call it `name`."""
        written: list[bytes] = []
        if to is not None:
            values = {**values, "to": to}
        config = self._config(inputs=("-",), format=format, out=None, **values)
        report = self._run(
            config, Extras(stdout=written.append, keeper=self._keeper, stdin=data, stdin_name=name)
        )
        failed = [f for f in report.files if f.status == "failed"]
        if failed:
            raise InputError(failed[0].error or "the text could not be translated")
        return b"".join(written)


def _names(inputs: Inputs) -> tuple[str, ...]:
    """The inputs as the run's settings hold them: one path or several, str or os.PathLike."""
    if isinstance(inputs, (str, os.PathLike)):
        return (os.fspath(inputs),)
    given: object = inputs  # (bytes are iterable, of numbers)
    if isinstance(given, (bytes, bytearray)):
        raise TypeError("inputs are paths (str or pathlib.Path), not bytes")
    return tuple(os.fspath(name) for name in inputs)


@contextmanager
def _keywords_in_errors() -> Iterator[None]:
    """A HymtError raised inside names settings as a Python caller gives them (settings/keywords.py)."""
    try:
        yield
    except HymtError as exc:
        message = as_keywords(exc.message)
        if message != exc.message:
            exc.message = message
            exc.args = (message, *exc.args[1:])
        if exc.hint is not None:
            exc.hint = as_keywords(exc.hint)
        raise


def _with_keywords(report: RunReport) -> RunReport:
    """The report's per-file messages naming settings by their keywords (the report is the API's
    answer; a --report file written during the run keeps the flags)."""
    for file in report.files:
        file.error = None if file.error is None else as_keywords(file.error)
        file.hint = None if file.hint is None else as_keywords(file.hint)
        file.warning = None if file.warning is None else as_keywords(file.warning)
    return report


def translate_text(
    text: str,
    *,
    to: str,
    format: str = "txt",
    settings: Settings | None = None,
    progress: ProgressEvents | None = None,
    **values: Any,
) -> str:
    """`text` translated into one language (see `Translator.text`); `settings`, a `Settings`
    record, stands for keywords (those given win)."""
    with Translator(settings, progress=progress, **values) as translator:
        return translator.text(text, to=to, format=format)


def translate_files(
    inputs: Inputs, *, settings: Settings | None = None, progress: ProgressEvents | None = None, **values: Any
) -> RunReport:
    """Files and folders translated (see `Translator.files`)."""
    with Translator(settings, progress=progress, **values) as translator:
        return translator.files(inputs)


def translate_table(
    table: pa.Table,
    *,
    columns: list[str] | str,
    to: str,
    settings: Settings | None = None,
    progress: ProgressEvents | None = None,
    **values: Any,
) -> pa.Table:
    """A pyarrow table with `columns` translated (see `Translator.table`)."""
    with Translator(settings, progress=progress, **values) as translator:
        return translator.table(table, columns=columns, to=to)


__all__ = ["OptionSet", "Translator", "translate_files", "translate_table", "translate_text"]
