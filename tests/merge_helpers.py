"""What the merge tests share: a real source catalog and its target laid out as a project lays
them out, runs of the real pipeline into that target (pseudo engine, requests counted), and
edits of a file's values made the way a person makes them (one value's text replaced)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from engines import CountingEngine
from pipelines import make_pipeline, sources_of

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import FORMATS
from hymt_cli.formats.strings import StringsFormat
from hymt_cli.formats.strings.outline import Leaf
from hymt_cli.options import OptionSet
from hymt_cli.outputs.manifest import JOURNAL_NAME, MANIFEST_NAME
from hymt_cli.reporting.report import FileReport

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "shared" / "corpus"


@dataclass(frozen=True)
class Catalog:
    """A source file of the corpus, where it goes in a project, and where its `lang` target goes
    (`person`: a real translation of the corpus to start from, where there is one)."""

    fmt: str
    source: str  # under shared/corpus/
    source_at: str  # in the project
    target_at: str
    lang: str
    person: str | None = None

    @property
    def id(self) -> str:
        return f"{self.fmt}:{Path(self.source).name}"

    def available(self) -> bool:
        return (CORPUS / self.source).is_file() and (self.person is None or (CORPUS / self.person).is_file())

    def lay_out(self, project: Path) -> tuple[Path, Path]:
        source, target = project / self.source_at, project / self.target_at
        source.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / self.source, source)
        if self.person is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CORPUS / self.person, target)
        return source, target


@dataclass
class Run:
    report: FileReport
    requested: list[str]


def translate(source: Path, lang: str, *, keep_removed: bool = False) -> Run:
    """The source into `lang` beside it, where its layout puts the target (identity engine: a
    translation is its source, every request counted)."""
    engine = CountingEngine(IdentityEngine())
    pipeline = make_pipeline(engine, to=lang, keep_removed=keep_removed)
    report = pipeline.run(sources_of([source]))
    assert len(report.files) == 1, report.files
    file = report.files[0]
    assert file.status == "ok", (file.error, file.warning)
    return Run(file, engine.requested)


def forget_hymt(folder: Path) -> None:
    """The folder's manifest gone: every value there is a person's now."""
    (folder / MANIFEST_NAME).unlink(missing_ok=True)
    (folder / JOURNAL_NAME).unlink(missing_ok=True)


def strings_format(fmt: str) -> StringsFormat:
    built = FORMATS[fmt].build(OptionSet())
    assert isinstance(built, StringsFormat)
    return built


def file_text(path: Path, fmt: str) -> str:
    """A file's text as its format decodes it (a UTF-16 `.strings`, an XML declaration's charset)."""
    return strings_format(fmt).decode(path.read_bytes()).text


def text_leaves(path: Path, fmt: str, *, forms: bool = False) -> list[Leaf]:
    """The values of a file that hold words (what a person would edit); `forms`: plural forms
    too, but `other` (the forms a target lacks are translated from it)."""
    format_ = strings_format(fmt)
    decoded = format_.decode(path.read_bytes())
    outline = format_.outline(decoded.text)
    assert outline is not None
    return [
        leaf
        for leaf in outline.leaves()
        if leaf.write is not None
        and sum(ch.isalpha() for ch in leaf.text) > 3
        and (not leaf.category or (forms and leaf.category != "other"))
        and outline.companion_of(leaf.path) is None
        and "://" not in leaf.text
    ]


def edit_value(path: Path, fmt: str, leaf: Leaf, new: str) -> None:
    """Replace one value in the file, written as the file writes values."""
    format_ = strings_format(fmt)
    data = path.read_bytes()
    decoded = format_.decode(data)
    text = decoded.text
    assert leaf.write is not None
    path.write_bytes(decoded.encode(text[: leaf.value_start] + leaf.write(new) + text[leaf.value_end :]))


def remove_member(path: Path, fmt: str, leaf: Leaf) -> None:
    """Take one key out of the file, as a person deletes it (the format's own removal)."""
    format_ = strings_format(fmt)
    decoded = format_.decode(path.read_bytes())
    outline = format_.outline(decoded.text)
    assert outline is not None
    members = list(outline.members)
    siblings = [m for m in members if m.path[:-1] == leaf.path[:-1] and m.path]
    at = [m.path for m in siblings].index(leaf.path)
    parent = next(m for m in members if m.path == leaf.path[:-1])
    before = siblings[at - 1] if at > 0 else None
    after = siblings[at + 1] if at + 1 < len(siblings) else None
    splice = outline.syntax.remove(decoded.text, [siblings[at]], before, after, parent)  # type: ignore[arg-type]
    text = decoded.text[: splice.start] + splice.text + decoded.text[splice.end :]
    path.write_bytes(decoded.encode(text))


def only_inserted(before: str, after: str) -> bool:
    """Every character of `before` is in `after`, in order: `after` only adds to it."""
    rest = iter(after)
    return all(ch in rest for ch in before)
