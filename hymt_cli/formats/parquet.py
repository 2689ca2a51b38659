"""Parquet tables (product catalogs): selected string columns translated, streamed.

Not a text document: the file is read with `iter_batches` and written with `ParquetWriter`,
one batch of rows at a time, so memory does not grow with the file. Per batch, the unique
values of the selected columns become requests for every target language (one engine pass,
one length-sorted stream), through the same Planner, translation memory, engine and
validation as documents. A cell is parsed by a text format (`--cell-format`): its segments
are translated and spliced back by that format's `reassemble`.

Output: same schema and key/value metadata, same row order, other columns untouched, nulls
stay null, empty strings stay empty. Every language's output is written to a temp file and
renamed only when the whole input is done; on any error nothing is left under the final name.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..atomic import commit_temp, temp_beside
from ..errors import InputError
from ..segments import Segment
from .base import DocumentFormat

if TYPE_CHECKING:
    import pyarrow as pa

    from ..discovery import SourceFile
    from ..languages import Language
    from ..pipeline import Piece, Pipeline

_MAX_PROBLEMS = 100  # per output file: the report must not grow with the table


@dataclass(frozen=True, slots=True)
class ParquetOptions:
    columns: tuple[str, ...] = ()  # string columns to translate
    add_columns: bool = False  # keep the source columns, add <column>_<lang>
    cell_format: str = "txt"  # the text format a cell is parsed with
    rows_per_batch: int = 8192


class ParquetFormat:
    """Registry entry for `.parquet`; `streamed` tells the pipeline to hand the file over."""

    name = "parquet"
    suffixes = (".parquet",)
    streamed = True

    def __init__(self, options: ParquetOptions, cell_format: DocumentFormat) -> None:
        self.options = options
        self.cell_format = cell_format

    def translate_stream(self, source: SourceFile, pipeline: Pipeline) -> None:
        """Translate one parquet file into every target language; reports go to pipeline.report."""
        _CatalogRun(self.options, self.cell_format, source, pipeline).run()


def _string_type(t: pa.DataType) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    return pa.types.is_string(t) or pa.types.is_large_string(t)


@dataclass(slots=True)
class _Cell:
    """One unique cell value in one language: its segments' pieces (None: kept as is)."""

    segments: list[tuple[int, list[Piece]]]
    whole: bool  # a single segment spanning the whole value (the fast path)


class _CatalogRun:
    def __init__(self, options: ParquetOptions, cell_format: DocumentFormat, source: SourceFile,
                 pipeline: Pipeline) -> None:
        self.options = options
        self.source = source
        self.pipeline = pipeline
        self.display = source.display
        self.langs: tuple[Language, ...] = pipeline.options.targets
        self.cell_format = cell_format
        self._plain = options.cell_format == "txt"

    # -- driver -----------------------------------------------------------------------------
    def run(self) -> None:
        from ..discovery import output_path
        from ..report import FileReport

        report = self.pipeline.report
        outputs = {lang: output_path(self.source, lang, self.pipeline.options.out_dir) for lang in self.langs}
        try:
            parquet_file = self._open()
            columns, out_schema = self._check_columns(parquet_file.schema_arrow)
            for lang, out in outputs.items():
                if out is None or out.resolve() == self.source.path.resolve():
                    raise InputError(f"{self.display}: output {out} is the input; refusing to overwrite it")
        except InputError as exc:
            report.files.append(FileReport(self.display, None, None, "failed", exc.message, format="parquet"))
            return
        files = {lang: FileReport(self.display, str(out), lang.code, format="parquet")
                 for lang, out in outputs.items()}
        report.files.extend(files.values())
        dry_run = self.pipeline.options.dry_run
        if dry_run:
            for file in files.values():
                file.status = "skipped"
        else:
            rows = parquet_file.metadata.num_rows
            self.pipeline.progress.planned(files=len(files), requests=rows * len(columns) * len(self.langs),
                                           prompt_tokens=0)
        writers: dict[Language, _AtomicParquet] = {}
        writing = next(iter(outputs.values()))
        try:
            if not dry_run:
                for lang, writing in outputs.items():
                    writers[lang] = _AtomicParquet(writing, out_schema[lang], parquet_file)
            for index, batch in enumerate(self._batches(parquet_file)):
                translated = self._translate_batch(index, batch, columns, files)
                for lang, writer in writers.items():
                    writing = writer.path
                    writer.write(translated[lang])
            for lang, writer in writers.items():
                writing = writer.path
                writer.commit()
                self.pipeline.progress.file_done()
        except InputError as exc:
            self._fail(files, exc.message)
        except OSError as exc:  # includes pyarrow's IO errors (disk full, permissions)
            self._fail(files, f"{writing}: cannot write: {exc.strerror or _first_line(exc)}")
        finally:
            for writer in writers.values():
                writer.discard()  # no-op after commit

    def _fail(self, files: dict, message: str) -> None:
        for file in files.values():
            file.status, file.error = "failed", message
        # One line for the whole input: the per-language reports carry it without repeating.
        for file in list(files.values())[1:]:
            file.error = None

    def _open(self):
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return pq.ParquetFile(self.source.path)
        except OSError as exc:
            raise InputError(f"{self.display}: cannot read: {exc.strerror or _first_line(exc)}") from None
        except (pa.ArrowException, ValueError) as exc:
            raise InputError(f"{self.display}: not a readable parquet file ({_first_line(exc)})") from None

    def _batches(self, parquet_file):
        import pyarrow as pa

        iterator = parquet_file.iter_batches(batch_size=max(1, self.options.rows_per_batch))
        while True:
            try:
                batch = next(iterator)
            except StopIteration:
                return
            except (pa.ArrowException, ValueError, OSError) as exc:
                raise InputError(f"{self.display}: corrupt parquet data ({_first_line(exc)})") from None
            yield batch

    def _check_columns(self, schema: pa.Schema) -> tuple[list[str], dict]:
        import pyarrow as pa

        strings = [f.name for f in schema if _string_type(f.type)]
        listing = f"string columns: {', '.join(strings) if strings else '(none)'}"
        if not self.options.columns:
            raise InputError(f"{self.display}: parquet needs --columns; {listing}")
        for name in self.options.columns:
            index = schema.get_field_index(name)
            if index < 0:
                raise InputError(f"{self.display}: no column {name!r}; {listing}")
            if not _string_type(schema.field(index).type):
                raise InputError(f"{self.display}: column {name!r} is {schema.field(index).type}, "
                                 f"not a string column; {listing}")
        columns = list(dict.fromkeys(self.options.columns))
        out_schema = {}
        for lang in self.langs:
            if not self.options.add_columns:
                out_schema[lang] = schema
                continue
            fields = list(schema)
            for name in columns:
                added = f"{name}_{lang.code}"
                if schema.get_field_index(added) >= 0:
                    raise InputError(f"{self.display}: column {added!r} exists already (--add-columns)")
                fields.append(pa.field(added, schema.field(name).type, nullable=True))
            out_schema[lang] = pa.schema(fields, metadata=schema.metadata)
        return columns, out_schema

    # -- one batch --------------------------------------------------------------------------
    def _translate_batch(self, index: int, batch: pa.RecordBatch, columns: list[str],
                         files: dict) -> dict:
        import pyarrow as pa
        import pyarrow.compute as pc

        from ..pipeline import Planner

        pipeline = self.pipeline
        planner = Planner(pipeline.tokenizer, pipeline.options, pipeline.glossary)  # per batch: bounded memory
        plans = {}
        for name in columns:
            array = batch.column(name)
            values = array.dictionary if pa.types.is_dictionary(array.type) else array
            counted = pc.value_counts(array.indices if pa.types.is_dictionary(array.type) else values)
            if pa.types.is_dictionary(array.type):
                occurrences = dict(zip(counted.field(0).to_pylist(), counted.field(1).to_pylist()))
                uniques = values.to_pylist()
                counts = [occurrences.get(i, 0) for i in range(len(uniques))]
            else:
                pairs = [(v, c) for v, c in zip(counted.field(0).to_pylist(), counted.field(1).to_pylist())
                         if v is not None]
                uniques = [v for v, _ in pairs]
                counts = [c for _, c in pairs]
            cells = {lang: [self._plan_cell(planner, value, lang, (self.display, index)) for value in uniques]
                     for lang in self.langs}
            plans[name] = (array, uniques, counts, cells)
            for lang in self.langs:
                cell_segments = sum(c for c, cell in zip(counts, cells[lang]) if cell.segments)
                files[lang].segments += cell_segments
                pipeline.report.segments += cell_segments
        requests = list(planner.requests.values())
        report = pipeline.report
        report.unique_segments += len(requests)
        report.prompt_tokens += sum(r.prompt_tokens for r in requests)
        left = pipeline.recall(requests)
        if pipeline.options.dry_run:
            return {}
        pipeline.translate_requests(left)
        # Progress counts cells: the engine advanced it by the requests it answered; credit the
        # cells that needed none (repeated values, memory hits, nulls, non-text).
        pipeline.progress.advanced(requests=max(0, batch.num_rows * len(columns) * len(self.langs) - len(left)),
                                   output_tokens=0)

        out = {}
        for lang in self.langs:
            file = files[lang]
            arrays = {}
            for name, (array, uniques, counts, cells) in plans.items():
                rendered = []
                for value, count, cell in zip(uniques, counts, cells[lang]):
                    text, problem = self._render(value, cell)
                    if cell.segments:
                        if problem is None:
                            file.translated += count
                        else:
                            file.untranslated += count
                            if len(file.problems) < _MAX_PROBLEMS:
                                from ..report import SegmentProblem

                                file.problems.append(SegmentProblem(-1, f"column {name!r}, value "
                                                                        f"{_preview(value)}: {problem}"))
                    rendered.append(text)
                if pa.types.is_dictionary(array.type):
                    translated = pa.DictionaryArray.from_arrays(
                        array.indices, pa.array(rendered, type=array.type.value_type))
                else:
                    positions = pc.index_in(array, value_set=pa.array(uniques, type=array.type))
                    translated = pc.take(pa.array(rendered, type=array.type), positions)
                arrays[name] = translated
            if self.options.add_columns:
                out[lang] = list(batch.columns) + [arrays[name] for name in columns]
            else:
                out[lang] = [arrays.get(n, col) for n, col in zip(batch.schema.names, batch.columns)]
        return out

    def _plan_cell(self, planner, value: str, lang: Language, where: tuple[str, int]) -> _Cell:
        if self._plain and "\n" not in value and "\r" not in value:
            # One line of plain text: the whole value is the segment (the common case).
            pieces = planner.pieces_for(value, lang, where)
            return _Cell([(0, pieces)] if any(p.request for p in pieces) else [], True)
        from ..segments import is_translatable

        segments = self.cell_format.parse(value).segments
        return _Cell([(s.id, planner.pieces_for(s.text, lang, where)) for s in segments
                      if is_translatable(s.text)], False)

    def _render(self, value: str, cell: _Cell) -> tuple[str, str | None]:
        """The cell's translation (failed segments keep their source) and the first problem."""
        if not cell.segments:
            return value, None
        translated: dict[int, str] = {}
        problem = None
        for segment_id, pieces in cell.segments:
            failed = next((p.request.problem for p in pieces if p.request and p.request.problem), None)
            if failed is not None or any(p.request and p.request.translation is None for p in pieces):
                problem = problem or (failed.message if failed else "not translated")
                continue
            translated[segment_id] = "".join(
                p.lead + (p.request.translation if p.request else p.core) + p.trail for p in pieces)
        if cell.whole:
            return translated.get(0, value), problem
        return self.cell_format.parse(value).reassemble(translated), problem


class _AtomicParquet:
    """A ParquetWriter on a temp file beside the output, renamed into place on `commit`."""

    def __init__(self, path: Path, schema: pa.Schema, source) -> None:
        import pyarrow.parquet as pq

        self.path = path
        self.schema = schema
        self._tmp: Path | None = None
        self._writer = None
        self._tmp = temp_beside(path)
        self._writer = pq.ParquetWriter(str(self._tmp), schema, **_writer_options(source, schema))

    def write(self, data: list) -> None:
        import pyarrow as pa

        self._writer.write_batch(pa.RecordBatch.from_arrays(data, schema=self.schema))

    def commit(self) -> None:
        self._writer.close()
        self._writer = None
        commit_temp(self._tmp, self.path)
        self._tmp = None

    def discard(self) -> None:
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:  # the file is being thrown away
                pass
            self._writer = None
        if self._tmp is not None:
            try:
                self._tmp.unlink()
            except FileNotFoundError:
                pass
            self._tmp = None


def _writer_options(source, schema: pa.Schema) -> dict:
    """Keep the source's format version and per-column compression where they can be read."""
    options: dict = {}
    meta = source.metadata
    if meta.format_version in ("1.0", "2.4", "2.6"):
        options["version"] = meta.format_version
    if meta.num_row_groups:
        group = meta.row_group(0)
        codecs = {}
        for i in range(group.num_columns):
            column = group.column(i)
            codecs[column.path_in_schema] = column.compression.lower()
        top = {name: codecs.get(name) for name in schema.names}
        if all(top.values()):
            options["compression"] = {n: ("none" if c == "uncompressed" else c) for n, c in top.items()}
        elif codecs:
            first = next(iter(codecs.values()))
            options["compression"] = "none" if first == "uncompressed" else first
    return options


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return re.sub(r"^Could not open Parquet input source '[^']*': ", "", text)


def _preview(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")
