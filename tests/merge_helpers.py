"""What the merge tests share: a real source catalog and its target laid out as a project lays
them out, runs of the real pipeline into that target (pseudo engine, requests counted), and
edits of a file's values made the way a person makes them (one value's text replaced)."""

from __future__ import annotations

import html
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import polib
from engines import CountingEngine
from pipelines import make_pipeline, sources_of

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import FORMATS
from hymt_cli.formats.po.cstring import field_lines
from hymt_cli.formats.po.entries import read_entries
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
    # The source is a translation made a template (its msgstr emptied, as xgettext writes
    # one): a project whose template is generated, not kept (xz's po/).
    template: bool = False

    @property
    def id(self) -> str:
        return f"{self.fmt}:{Path(self.source).name}"

    @property
    def keyed_by_source(self) -> bool:
        """Whether a key is its source text (a PO message: a changed msgid is another one)."""
        return self.fmt == "po"

    def available(self) -> bool:
        return (CORPUS / self.source).is_file() and (self.person is None or (CORPUS / self.person).is_file())

    def lay_out(self, project: Path) -> tuple[Path, Path]:
        source, target = project / self.source_at, project / self.target_at
        source.parent.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)  # the project's layout (po/de/LC_MESSAGES/)
        if self.template:
            source.write_text(_template_of(CORPUS / self.source), encoding="utf-8")
        else:
            shutil.copyfile(CORPUS / self.source, source)
        if self.person is not None:
            shutil.copyfile(CORPUS / self.person, target)
        return source, target


def _template_of(path: Path) -> str:
    """A PO file as its template (polib): no translation, no fuzzy flag, no obsolete entry, and
    a header naming no language."""
    po = polib.pofile(str(path))
    for entry in list(po):
        if entry.obsolete:
            po.remove(entry)
            continue
        entry.msgstr = ""
        entry.msgstr_plural = {i: "" for i in entry.msgstr_plural} if entry.msgid_plural else {}
        entry.flags = [f for f in entry.flags if f != "fuzzy"]
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    for field in ("Language", "Plural-Forms", "Last-Translator", "Language-Team"):
        po.metadata.pop(field, None)
    return str(po)


@dataclass
class Run:
    report: FileReport
    requested: list[str]


def translate(
    source: Path,
    lang: str,
    *,
    keep_removed: bool = False,
    pseudo: bool = False,
    options: OptionSet | None = None,
) -> Run:
    """The source into `lang` beside it, where its layout puts the target (identity engine: a
    translation is its source; `pseudo`: every word changed; every request counted)."""
    engine = CountingEngine(PseudoEngine() if pseudo else IdentityEngine())
    pipeline = make_pipeline(engine, to=lang, keep_removed=keep_removed)
    report = pipeline.run(sources_of([source], options=options))
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
        and sum(ch.isalpha() for ch in (leaf.text or leaf.source_text)) > 3
        and "\x00" not in leaf.source_text  # a PO plural message
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


def change_source(path: Path, fmt: str, leaf: Leaf, new: str) -> None:
    """Give a key of a source file new source text: its value, or a bilingual file's msgid or
    `<source>` (a PO message whose msgid changes is another message)."""
    format_ = strings_format(fmt)
    data = path.read_bytes()
    decoded = format_.decode(data)
    text = decoded.text
    if fmt == "po":
        entry = next(e for e in read_entries(text) if e.start == leaf.start)
        assert entry.msgid is not None
        start, end, written = entry.msgid.start, entry.msgid.end, "\n".join(field_lines("msgid", new))
    elif fmt == "xliff":
        found = re.compile(r"(<(?:\w+:)?source\b[^>]*>)(.*?)(</(?:\w+:)?source>)", re.DOTALL).search(
            text, leaf.start, leaf.end
        )
        assert found is not None
        start, end, written = found.start(2), found.end(2), html.escape(new, quote=False)
    else:
        edit_value(path, fmt, leaf, new)
        return
    path.write_bytes(decoded.encode(text[:start] + written + text[end:]))


def key_of(fmt: str, path: tuple[str | int, ...]) -> str:
    """A member's key as strings_helpers.read_pairs names it (PO and XLIFF)."""
    return str(path[0]) if fmt == "po" else "/".join(map(str, path))


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
