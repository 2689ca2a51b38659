"""Where each translation goes, what may never be overwritten, and writing it atomically.

One set of rules for every format: an output is `<stem>.<lang><suffix>` beside its input,
or `<out>/<lang>/<relative path>` (`<lang>` the target's locale: `guide.pt-BR.md`), or where the
format's ecosystem names the locale (formats/layout.py), and there where the project keeps that
locale already (locale_places.py: `locales/de_DE/` for --to de); standard input goes to
standard output. An output that
is an input of the run, or that a second input would also write, is refused. A file that
exists and that hymt did not write (manifest.py) — a person's translation — is skipped
unless `overwrite` says otherwise; a file of strings there is merged into instead, key by key
(formats/strings/merge.py): a person's values in it are kept whatever the run.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from ..text.languages import Language
from .atomic import commit_temp, temp_beside
from .manifest import written_by_hymt


@dataclass(frozen=True, slots=True)
class Place:
    """An output path, the locale code it names as written there (`de_DE`; None: it names none),
    and why another place the project has was not taken (None: nothing to say)."""

    path: Path
    note: str | None = None
    written: str | None = None


class Renamable(Protocol):
    """A path that names its language (formats.layout.Marked is one)."""

    def rewrite(self, code: str) -> Path:
        """The same path naming locale `code` (in the ecosystem's spelling)."""
        ...

    def names(self, path: Path) -> str | None:
        """The code another path of the same layouts names (None: none)."""
        ...


class Source(Protocol):
    """What the output rules need of an input (inputs.sources.Source is one); `path` None is
    standard input."""

    @property
    def path(self) -> Path | None: ...

    @property
    def relative(self) -> Path: ...

    @property
    def lang_suffix(self) -> str | None: ...

    @property
    def display(self) -> str: ...

    @property
    def marked(self) -> Renamable | None:
        """Where the path names its language the way its format's ecosystem does (None: not)."""
        ...

    @property
    def merges(self) -> bool:
        """Whether its translations are merged into target files that exist (files of strings)."""
        ...


def output_path(
    source: Source, lang: Language, out_dir: Path | None, *, exact_locales: bool = False
) -> Path | None:
    """`<stem>.<lang><suffix>` beside the source, or `<out>/<lang>/<relative path>`; None = stdout.
    A path that names its language the way its format's ecosystem does (formats/layout.py:
    `locales/en/x.json`, `Messages.properties`) names the target there instead
    (`locales/de/x.json`, `Messages_de.properties`): beside the source, or with `-o` under
    `<out>/` when the language is named inside the relative path (`<out>/locales/de/x.json`:
    the tree mirrored in the ecosystem's layout), else under `<out>/<lang>/`; and where the
    project keeps the target's locale in another spelling, there (locale_places.py; not with
    `exact_locales`)."""
    found = output_place(source, lang, out_dir, exact_locales=exact_locales)
    return found.path if found is not None else None


def output_place(
    source: Source, lang: Language, out_dir: Path | None, *, exact_locales: bool = False
) -> Place | None:
    """`output_path`, with why a place the project has for the locale was not taken."""
    if source.path is None:
        return None
    relative, path = source.relative, source.path
    found = source.marked
    if found is not None:
        rewrite = found.rewrite

        def place(code: str) -> Path:
            new = rewrite(code)
            if out_dir is None:
                return new
            root = path.parts[: -len(relative.parts)]
            if new.parts[: len(root)] == root:  # the layout lies inside the input folder: mirrored
                return out_dir / Path(*new.parts[len(root) :])
            return out_dir / lang.code / relative.with_name(new.name)

        from .locale_places import locale_place  # (a path that names its language: a layout's)

        return Place(*locale_place(place, found.names, lang.code, source=path, exact=exact_locales))
    if source.lang_suffix:  # index.en.md: the source's own language code goes
        relative = relative.with_name(relative.stem[: -len(source.lang_suffix) - 1] + relative.suffix)
        path = path.with_name(relative.name)
    if out_dir is not None:
        return Place(out_dir / lang.code / relative)
    return Place(path.with_name(f"{path.stem}.{lang.code}{path.suffix}"))


@dataclass(frozen=True, slots=True)
class Claim:
    """An output path (None: standard output) and why it is not written: `refusal` fails the
    file (a rule was broken), `protected` skips it (someone else's file is there)."""

    path: Path | None
    refusal: str | None = None
    protected: str | None = None
    merge: bool = False  # the file exists and is merged into, key by key (a file of strings)
    note: str | None = None  # written, with a warning (a locale's place the project has twice)
    # The locale as the path writes it (`de_DE` under locales/de_DE/ for --to de): what the file
    # says it is in (ARB `@@locale`, Rails' root key, a PO header). None: the target's own code.
    locale: str | None = None


class OutputRules:
    """Claims output paths for a run; refuses those that would lose data."""

    def __init__(
        self,
        sources: list[Source],
        out_dir: Path | None,
        *,
        overwrite: bool = False,
        exact_locales: bool = False,
    ) -> None:
        self._out_dir = out_dir
        self._overwrite = overwrite
        self._exact_locales = exact_locales
        self._sources = sources
        self._inputs = {s.path.resolve(): s for s in sources if s.path is not None}
        # output -> the input it is translated from, and into which locale
        self._writers: dict[Path, tuple[str, str]] = {}

    def claim(self, source: Source, lang: Language) -> Claim:
        """The output of `source` in `lang`, and whether it may be written."""
        found = output_place(source, lang, self._out_dir, exact_locales=self._exact_locales)
        if found is None:
            return Claim(None)
        out = found.path
        resolved = out.resolve()
        if resolved in self._inputs:
            onto = self._onto_an_input(source, lang, out, resolved)
            if onto is not None:
                return onto
        first, first_lang = self._writers.setdefault(resolved, (source.display, lang.code))
        if first != source.display:
            return Claim(out, _written_twice(source, first, out, self._out_dir))
        if first_lang != lang.code:
            return Claim(
                out,
                f"{source.display}: output {out} is already its {first_lang} translation ({lang.code} "
                "is the same locale there); give one of them, or --locale-paths exact",
            )
        if not self._overwrite and source.merges and os.path.lexists(out):
            if os.path.islink(out) or not os.path.isfile(out):
                return Claim(
                    out, f"{out} exists and is no regular file (a link, a folder ...): not merged into"
                )
            if os.path.getsize(out) == 0:  # (`touch de.po`): nothing to keep, written anew
                return Claim(out, note=found.note, locale=found.written)
            return Claim(out, merge=True, note=found.note, locale=found.written)
        if not self._overwrite and os.path.lexists(out) and not written_by_hymt(out):
            return Claim(
                out,
                protected=f"{out} exists and hymt did not write it (a person's translation, or "
                "hymt's output edited since): skipped; --overwrite replaces it",
            )
        return Claim(out, note=found.note, locale=found.written)

    def is_input(self, path: Path) -> bool:
        """Whether `path` is an input of the run (never written: outputs/listings.py asks)."""
        return path.resolve() in self._inputs

    def _written_to(self, path: Path, lang: Language) -> Source | None:
        """The input of the run that merges into `path` in `lang` (a template into its
        translation), if any."""
        for source in self._sources:
            out = (
                output_path(source, lang, self._out_dir, exact_locales=self._exact_locales)
                if source.merges
                else None
            )
            if (
                out is not None
                and out.resolve() == path
                and source.path is not None
                and source.path.resolve() != path
            ):
                return source
        return None

    def _onto_an_input(self, source: Source, lang: Language, out: Path, resolved: Path) -> Claim | None:
        """An output that is an input of the run: refused, unless that input is the
        translation the source merges into (a template and its `de.po` named together: the
        translation is filled from the template, not translated over itself). None: claimed."""
        translation = self._inputs[resolved]
        own = output_path(translation, lang, self._out_dir, exact_locales=self._exact_locales)
        if own is None or own.resolve() != resolved or not source.merges:
            return Claim(
                out, f"{source.display}: output {out} is an input of this run; refusing to overwrite it"
            )
        if translation is not source:
            return None  # the template merges into its translation
        writer = self._written_to(resolved, lang)
        if writer is not None:
            return Claim(
                out,
                protected=f"{source.display} is the {lang.code} translation that {writer.display} "
                "is merged into: not translated itself",
            )
        return Claim(
            out,
            f"{source.display} is itself the {lang.code} translation (its output is the file); to fill its "
            "untranslated entries, translate its source into it (a PO file's .pot template, the source "
            "language's file): hymt merges into a translation that exists; or write a filled copy "
            "elsewhere with -o DIR",
        )


def _written_twice(source: Source, first: str, out: Path, out_dir: Path | None) -> str:
    """Why a second input may not write an output another one writes: two sources of one
    catalog (files in the source language that hymt cannot tell apart), or, under `-o`, two
    inputs whose relative paths meet there."""
    if out_dir is not None and source.marked is None:
        return (
            f"{source.display}: output {out} is already written from {first} (their paths meet under "
            f"{out_dir}): translate them into separate --out folders"
        )
    return (
        f"{source.display}: output {out} is already written from {first}: both are sources of it; "
        "translate the one that is (name it), or tell the source language with --from"
    )


class PendingOutput:
    """An output being written: a temp file beside its final path (or a private temp file for
    standard output). `commit` renames it into place (or copies it to standard output);
    `discard` removes it. Nobody ever sees half a file under the final name."""

    def __init__(self, path: Path | None, write_stdout: Callable[[bytes], None] | None) -> None:
        self.path = path
        self._write_stdout = write_stdout
        self._tmp: Path | None = None
        if path is None:
            self.handle: BinaryIO = tempfile.TemporaryFile()
        else:
            self._tmp = temp_beside(path)
            self.handle = open(self._tmp, "wb")

    def commit(self) -> None:
        if self.path is None:
            assert self._write_stdout is not None, "standard output needs a writer"
            self.handle.seek(0)
            while chunk := self.handle.read(1 << 20):
                self._write_stdout(chunk)
            self.handle.close()
            return
        self.handle.close()
        assert self._tmp is not None
        commit_temp(self._tmp, self.path)
        self._tmp = None

    def discard(self) -> None:
        try:
            self.handle.close()
        except OSError:  # being thrown away: a failed flush does not matter
            pass
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None
