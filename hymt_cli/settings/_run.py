"""The run-wide settings, each declared once (hymt_cli/options.py): inputs, languages, outputs,
glossary and memory, reporting; the model, engine and sampling in _generation.py. Formats and
engines declare their own options beside them (formats/, engine/); settings/schema.py gathers
them all."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import UsageError
from ..formats import FORMATS, ContextMode, described
from ..later import Deferred, lazy
from ..options import Options, Panel, option
from ..qa import QaOptions
from ..text.languages import locale_table
from ._generation import ModelSettings, SamplingSettings

ProgressMode = Literal["auto", "bar", "plain", "json", "none"]
LocalePaths = Literal["existing", "exact"]


@dataclass(frozen=True, slots=True)
class InputSettings(Options):
    inputs: tuple[str, ...] = option(
        (),
        "inputs",
        argument=True,
        env=False,
        paths=True,
        metavar="INPUTS",
        panel=Panel.IO,
        default_text="inputs in hymt.toml",
        common=True,
        help="Files, folders, or - for standard input.",
    )
    format: str | None = option(
        None,
        "--format",
        metavar="FORMAT",
        per_path=True,
        panel=Panel.IO,
        common=True,
        help="Input format (default: by suffix; standard input is txt): " + described() + ".",
    )
    include: tuple[str, ...] = option(
        (),
        "--include",
        metavar="GLOB",
        globs=True,
        env=False,
        panel=Panel.IO,
        common=True,
        help="In folders, only files matching GLOB (.gitignore syntax); repeatable.",
    )
    exclude: tuple[str, ...] = option(
        (),
        "--exclude",
        metavar="GLOB",
        globs=True,
        env=False,
        panel=Panel.IO,
        common=True,
        help="In folders, leave files and folders matching GLOB alone; repeatable.",
    )
    gitignore: bool = option(
        True,
        "--gitignore",
        off_flag="--no-gitignore",
        panel=Panel.IO,
        help="In folders, leave alone what git ignores (.gitignore files).",
    )
    source_suffix: str | None = option(
        None,
        "--source-suffix",
        metavar="LANG",
        panel=Panel.IO,
        default_text="--from's code",
        help="Names ending in this code are sources: index.en.md -> index.de.md.",
    )
    follow_symlinks: bool = option(
        False,
        "--follow-symlinks",
        off_flag="--no-follow-symlinks",
        panel=Panel.IO,
        help="Follow symbolic links that lead out of an input folder.",
    )

    def validate(self) -> None:
        if self.format is not None and self.format not in FORMATS:
            raise UsageError(f"unknown format {self.format!r}; choose one of {', '.join(FORMATS)}")


@dataclass(frozen=True, slots=True)
class LanguageSettings(Options):
    to: str = option(
        "",
        "--to",
        "-t",
        metavar="LANGS",
        comma_list=True,
        panel=Panel.IO,
        common=True,
        help="Target language(s) or locales, comma-separated: de,ja or pt-BR,zh_TW,es-419 (BCP 47 or "
        "POSIX; each is written by the HY-MT language of its language and script: pt-BR by pt).",
    )
    source: str = option(
        "auto",
        "--from",
        "-f",
        metavar="LANG",
        panel=Panel.IO,
        common=True,
        help="Source language, or auto (per segment).",
    )
    locales: tuple[str, ...] = option(
        (),
        "--locales",
        metavar="LOCALE=LANG",
        comma_list=True,
        pairs=True,
        panel=Panel.IO,
        help="Which HY-MT language writes a locale where CLDR's choice is not the one wanted: "
        "--locales zh-HK=yue (hymt.toml: a [locales] table).",
    )

    def validate(self) -> None:
        """Every entry is LOCALE=LANG with a HY-MT language; written the one way (`zh-HK=yue`)."""
        object.__setattr__(self, "locales", tuple(f"{k}={v}" for k, v in self.locale_table.items()))

    @property
    def locale_table(self) -> dict[str, str]:
        """{locale: HY-MT code} of --locales / [locales]."""
        return locale_table(self.locales)


@dataclass(frozen=True, slots=True)
class OutputSettings(Options):
    out: Path | None = option(
        None,
        "--out",
        "-o",
        metavar="DIR",
        panel=Panel.IO,
        common=True,
        help="Write DIR/<lang>/... (the same tree) instead of beside each input.",
    )
    overwrite: bool = option(
        False,
        "--overwrite",
        off_flag="--no-overwrite",
        panel=Panel.IO,
        help="Replace outputs hymt did not write (a person's, or edited since).",
    )
    keep_removed: bool = option(
        False,
        "--keep-removed",
        off_flag="--no-keep-removed",
        panel=Panel.IO,
        help="Merging into a string file: keep the keys its source no longer has.",
    )
    allow_mass_removal: bool = option(
        False,
        "--allow-mass-removal",
        off_flag="--no-allow-mass-removal",
        panel=Panel.IO,
        help="Merging into a string file: remove what its source no longer has even when that is most "
        "of the values people wrote there, or the source has no keys (else the file is left as it is).",
    )
    locale_paths: LocalePaths = option(
        "existing",
        "--locale-paths",
        panel=Panel.IO,
        help="existing: a target goes where the project keeps that locale in another spelling "
        "(locales/de_DE/ for --to de, values-pt-rBR/ for pt); exact: always the target's own name.",
    )

    @property
    def exact_locales(self) -> bool:
        return self.locale_paths == "exact"


@dataclass(frozen=True, slots=True)
class MemorySettings(Options):
    glossary: tuple[Path, ...] = option(
        (),
        "--glossary",
        metavar="FILE",
        panel=Panel.MEMORY,
        common=True,
        help="Terminology (.tsv, .csv, .json, .tbx), prompted and checked; repeatable.",
    )
    cache: Path | None = option(
        None,
        "--cache",
        metavar="FILE",
        panel=Panel.MEMORY,
        default_text="memory.sqlite3 in the user cache dir",
        help="Translation memory.",
    )
    no_cache: bool = option(
        False, "--no-cache", panel=Panel.MEMORY, help="Neither read nor write the memory."
    )
    context: ContextMode = option(
        "auto",
        "--context",
        panel=Panel.MEMORY,
        help="Tell the model what a text belongs to (a string's key, a row's context columns); "
        "auto: strings and tables.",
    )


@dataclass(frozen=True, slots=True)
class ReportSettings(Options):
    dry_run: bool = option(
        False,
        "--dry-run",
        panel=Panel.REPORTING,
        common=True,
        help="Plan only (files, segments, tokens): no engine, nothing written.",
    )
    check: bool = option(
        False,
        "--check",
        env=False,
        config=False,
        panel=Panel.REPORTING,
        common=True,
        help="Exit 5 listing outputs missing or stale; runs no engine (CI).",
    )
    prompts_out: Path | None = option(
        None, "--prompts-out", metavar="FILE", panel=Panel.REPORTING, help="Write every prompt as JSON lines."
    )
    report: Path | None = option(
        None,
        "--report",
        metavar="FILE",
        panel=Panel.REPORTING,
        common=True,
        help="Write the run report (JSON; schemas/report-3.schema.json).",
    )
    review: Path | None = option(
        None,
        "--review",
        metavar="FILE",
        panel=Panel.REPORTING,
        common=True,
        help="Write a review page: every segment's source, translation and findings (HTML).",
    )
    strict: bool = option(
        False,
        "--strict",
        off_flag="--no-strict",
        panel=Panel.REPORTING,
        common=True,
        help="Exit 4 on a missed glossary term or an untranslated segment (CI gate).",
    )
    progress: ProgressMode = option(
        "auto",
        "--progress",
        panel=Panel.REPORTING,
        help="bar on a terminal, plain lines otherwise; json: one event per line on stderr.",
    )
    log_file: Path | None = option(
        None,
        "--log-file",
        metavar="FILE",
        panel=Panel.REPORTING,
        default_text="a new file in the user cache dir",
        help="The engine's log (vLLM, torch).",
    )
    quiet: bool = option(
        False,
        "--quiet",
        "-q",
        panel=Panel.REPORTING,
        common=True,
        help="No progress or chatter; errors and warnings stay.",
    )
    verbose: bool = option(
        False,
        "--verbose",
        "-v",
        panel=Panel.REPORTING,
        common=True,
        help="More detail: skipped files, the engine log's path.",
    )

    def validate(self) -> None:
        if self.check and self.dry_run:
            raise UsageError("--check and --dry-run do not go together: --check already runs no engine")


# (`hymt serve`'s own setting is named lazily: a run that gives none of its settings never reads it)
RUN_GROUPS: tuple[type[Options] | Deferred, ...] = (
    LanguageSettings,
    InputSettings,
    OutputSettings,
    ModelSettings,
    SamplingSettings,
    MemorySettings,
    QaOptions,
    ReportSettings,
    lazy("hymt_cli.serve.options:ServeOptions"),
)
