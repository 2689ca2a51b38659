"""Which files to translate; which files are left alone, and why.

A folder is walked for files of a supported format. Left alone, each with its reason (the
report lists them, `-v` prints them, the summary counts them):
- translations: `guide.fr.txt`, `guide.pt-BR.md` (a language code or a locale with its region
  or script before the suffix), unless the code is the
  source language's (`--source-suffix en`, or `--from en`: then `index.en.md` is a source and
  its translations are `index.de.md`); string files whose path names a language the way their
  ecosystem does (`locales/de/x.json`, `Messages_de.properties`: formats/layout.py), unless it
  is in the source language (--from or --source-suffix; English when neither is given: `en/`,
  `en_US/`, `en-GB/`; where the source names a region, that locale alone);
- string files of a suffix shared with configuration files (`.json`, `.yml`, `.toml`,
  `.properties`) outside a folder that shows strings (`locales/`, `i18n/` ...; --format, or
  naming the file, takes them);
- hidden files and folders; hymt's own config file (`hymt.toml`); files of no supported format;
- what `--exclude` globs match, what `--include` globs do not, and what git ignores
  (`.gitignore`, unless `--no-gitignore`; globs.py, _gitignore.py);
- a file whose format needs a setting the run lacks: a table without `--columns` (for all
  tables, or for its path in a `[[files]]` entry: per_path.py);
- symbolic links leading outside the input folder (`--follow-symlinks` follows them, and links
  to folders), and anything that is not a regular file (FIFOs, devices, sockets: reading
  one would hang or never end), symlinks to them included;
- outputs: this run's output folders (`-o DIR`: `DIR/<lang>/`, even inside an input folder),
  and every file an earlier run wrote (listed in its folder's `.hymt-manifest.json`): hymt
  never reads its own outputs as inputs.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..formats import (
    InputFormat,
    declared_locale,
    format_for_path,
    format_named,
    format_needs,
    not_translated,
    path_marked,
    suffixes,
    walk_refusal,
)
from ..options import CONFIG_FILE, OptionSet
from ..outputs.manifest import JOURNAL_NAME, MANIFEST_NAME, read_manifest
from ..reporting.report import SkippedInput
from ..text.languages import LANGUAGES, model_language
from ..text.locales import parse_locale
from .per_path import Applied, PathRule, settings_for
from .sources import SourceFile

if TYPE_CHECKING:
    from ._gitignore import GitIgnores
    from .globs import GlobSet

_LANGUAGE_SUFFIXES = {code.lower() for code in LANGUAGES}
# The source language of string files whose path names one (`locales/en/`, `app_en.arb`) when
# neither --from nor --source-suffix says: English, the source of most projects' strings.
LAYOUT_SOURCE = "en"
# How a skip reason begins when a setting would make the file an input (the summary names each).
NEEDS_SETTING = "needs a setting"


@dataclass(frozen=True, slots=True)
class InputProblem:
    input: str
    message: str
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class DiscoveryRules:
    format_name: str | None = None
    options: OptionSet | None = None
    source_suffix: str | None = None  # a language code: `x.<code>.md` is a source
    follow_symlinks: bool = False
    outputs: tuple[Path, ...] = ()  # this run's output folders (-o DIR/<lang>): never read
    include: tuple[str, ...] = ()  # globs (relative to the current folder): only these, in folders
    exclude: tuple[str, ...] = ()  # globs: never these, in folders
    gitignore: bool = True  # leave alone, in folders, what git ignores
    per_path: tuple[PathRule, ...] = ()  # a config file's [[files]] entries


@dataclass(slots=True)
class Discovered:
    sources: list[SourceFile] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)
    skipped: list[SkippedInput] = field(default_factory=list)


def language_suffix(path: Path) -> str | None:
    """`en` for `guide.en.md`, `zh-hant` for `a.zh-Hant.md`, `pt-br` for `a.pt-BR.md` (a locale
    with a region or script that HY-MT writes); None when there is none."""
    inner = Path(path.stem).suffix
    code = inner[1:].lower() if inner else ""
    if code in _LANGUAGE_SUFFIXES:
        return code
    found = parse_locale(code)
    qualified = found is not None and (found.script is not None or found.region is not None)
    return code if qualified and model_language(code) is not None else None


def discover(
    inputs: list[str], *, format_name: str | None, options: OptionSet | None = None
) -> tuple[list[SourceFile], list[InputProblem]]:
    """Sources and problems with the default rules (library use, tests)."""
    found = find_inputs(inputs, DiscoveryRules(format_name, options))
    return found.sources, found.problems


def find_inputs(inputs: list[str], rules: DiscoveryRules) -> Discovered:
    """Expand files and folders into source documents; problems are per input, never fatal."""
    found = Discovered()
    out_dirs = tuple(_real(p) for p in rules.outputs)
    here = Path.cwd()
    selection = _Selection.of(rules, here)
    named: list[SourceFile] = []
    for raw in inputs:
        if raw == "-":
            found.sources.append(
                SourceFile(None, Path("stdin"), format_named(rules.format_name or "txt", rules.options))
            )
            continue
        path = Path(raw)
        if path.is_dir():
            before = len(found.skipped)
            docs = _Walk(path, rules, out_dirs, found.skipped, selection).run()
            if not docs:
                found.problems.append(_empty_folder(raw, found.skipped[before:], rules))
            found.sources.extend(docs)
        elif path.is_file():
            named.extend(_named_file(path, raw, rules, found))
        elif path.is_symlink() and not path.exists():
            found.problems.append(InputProblem(raw, "broken symbolic link"))
        elif path.exists():
            found.problems.append(InputProblem(raw, f"not a regular file or folder ({_kind(path)})"))
        else:
            found.problems.append(InputProblem(raw, "no such file or folder"))
    _leave_followers(found, named, rules)
    return found


def _leave_followers(found: Discovered, named: list[SourceFile], rules: DiscoveryRules) -> None:
    """Files named on the command line that are targets of a source named too (a shell glob:
    `values*/strings.xml`, `po/*`, `config/locales/devise.*.yml`): the source is translated into
    them, they are no sources themselves (a variant of the source language would be a second
    one: formats/catalogs.py)."""
    inputs = {os.path.realpath(s.path) for s in found.sources if s.path is not None}
    declared = {s: declared_locale(s.format.name, s.path) for s in named if s.path is not None}
    verdicts = {
        s: declared_verdict(s.path, s.format.name, locale, rules)
        for s, locale in declared.items()
        if s.path is not None and locale is not None
    }
    leaders = {  # the folders where a named file is a Rails catalog's source (`devise.en.yml`)
        os.path.realpath(s.path.parent)
        for s, verdict in verdicts.items()
        if s.path is not None and verdict is None
    }
    followers = {}
    for source in named:
        assert source.path is not None
        if source in verdicts:
            reason = verdicts[source]
            if reason is not None and os.path.realpath(source.path.parent) in leaders:
                followers[source] = reason
            continue
        reason = _catalog_follower(source, inputs, rules)
        if reason is not None:
            followers[source] = reason
    for source, reason in followers.items():
        found.skipped.append(SkippedInput(str(source.path), reason))
    if followers:
        found.sources = [s for s in found.sources if s not in followers]


def _catalog_follower(source: SourceFile, inputs: set[str], rules: DiscoveryRules) -> str | None:
    """Why a named file is a target of its catalog's source, named too; None: it is not."""
    assert source.path is not None
    marked = path_marked(source.format.name, source.path)
    if marked is None:
        return None
    from ..formats.catalogs import catalog_role  # a path that names its language only

    role = catalog_role(source.path, marked, source_language(rules))
    if role.role == "source" or role.source is None or os.path.realpath(role.source) not in inputs:
        return None
    if role.role == "translation":
        return f"the {marked.code} translation that {role.source} is merged into: not translated itself"
    return role.reason


def per_path_settings(path: Path, rules: DiscoveryRules) -> Applied:
    """What the config file's `[[files]]` entries give `path`."""
    return settings_for(path, rules.per_path, rules.options or OptionSet())


def _format(path: Path, applied: Applied, chosen: str | None) -> InputFormat | None:
    """The format a file is read in: its `[[files]]` entry's, else `chosen` (--format), else by
    suffix (None: no format reads it)."""
    name = applied.format or chosen
    return format_named(name, applied.options) if name else format_for_path(path, applied.options)


def walk_verdict(path: Path, rules: DiscoveryRules) -> str | None:
    """Why a folder walk would leave the file `path` alone (its skip reason), or None: it would
    be an input (`hymt config --file`)."""
    here = Path.cwd()
    skipped: list[SkippedInput] = []
    walk = _Walk(
        path.parent,
        rules,
        (),
        skipped,
        _Selection.of(rules, here),
    )
    taken = walk._file(path)
    return None if taken is not None else (skipped[-1].reason if skipped else "not taken")


def _named_file(path: Path, raw: str, rules: DiscoveryRules, found: Discovered) -> list[SourceFile]:
    """A file named on the command line is read as asked (an output refuses to overwrite an input):
    the globs that choose files in folders do not apply, its `[[files]]` settings do."""
    applied = per_path_settings(path, rules)
    fmt = _format(path, applied, rules.format_name)
    if fmt is None:
        found.problems.append(
            InputProblem(
                raw, f"unsupported file type {path.suffix or '(none)'!r}; use --format to choose one"
            )
        )
        return []
    declared = declared_locale(fmt.name, path)
    reason = not_translated(fmt.name, path)
    if reason is not None:
        found.skipped.append(SkippedInput(str(path), reason))
        return []
    suffix = _source_suffix(path, rules)
    if declared is not None and declared_verdict(path, fmt.name, declared, rules) is None:
        suffix = _declared_suffix(path, declared)
    source = SourceFile(path, Path(path.name), fmt, suffix, options=_own(applied))
    found.sources.append(source)
    return [source]


def source_language(rules: DiscoveryRules) -> str:
    """The locale the run's sources are in: --from's (or --source-suffix's), else English."""
    return rules.source_suffix or LAYOUT_SOURCE


def declared_verdict(path: Path, format_name: str, declared: str, rules: DiscoveryRules) -> str | None:
    """Why a file whose content says it holds the locale `declared` (a Rails root key) is no
    source of its catalog (formats/catalogs.py), or None: it is the source."""
    from ..formats.catalogs import declared_role  # a file that declares its locale only

    return declared_role(
        path, declared, source_language(rules), lambda p: declared_locale(format_name, p)
    ).reason


def source_verdict(path: Path, format_name: str, rules: DiscoveryRules) -> str | None:
    """Why a file of the source language found in a folder is no source of its catalog: its
    ecosystem says it holds nothing to translate (Android lint's `donottranslate.xml`), or it
    is not its catalog's one source (a variant of the source language: `values-en/`,
    `en-GB.lproj/`; formats/catalogs.py). None: a source."""
    reason = not_translated(format_name, path)
    if reason is not None:
        return reason
    found = path_marked(format_name, path)
    if found is None:
        return None
    from ..formats.catalogs import catalog_role  # a path that names its language only

    return catalog_role(path, found, source_language(rules)).reason


def _declared_suffix(path: Path, declared: str) -> str | None:
    """The code in the name of a file that declares its locale (`devise.en.yml` with `en:`),
    which its translations replace (`devise.de.yml`); None where the name says no such code."""
    inner = Path(path.stem).suffix[1:]
    return inner if inner and inner.lower() == declared.lower() else None


def _own(applied: Applied) -> OptionSet | None:
    """A file's own options where `[[files]]` entries gave it some (None: the run's)."""
    return applied.options if applied.origins else None


def _source_suffix(path: Path, rules: DiscoveryRules) -> str | None:
    code = language_suffix(path)
    return (
        Path(path.stem).suffix[1:]
        if code is not None and code == (rules.source_suffix or "").lower()
        else None
    )


@dataclass(frozen=True, slots=True)
class _Selection:
    """The globs that choose files in folders: `--include`, `--exclude` (None: none given)."""

    include: GlobSet | None
    exclude: GlobSet | None

    @classmethod
    def of(cls, rules: DiscoveryRules, here: Path) -> _Selection:
        return cls(_glob_set(rules.include, here), _glob_set(rules.exclude, here))


def _glob_set(patterns: tuple[str, ...], here: Path) -> GlobSet | None:
    if not patterns:
        return None
    from .globs import GlobSet  # (globs given: pathspec is imported for them)

    return GlobSet(patterns, here)


class _Walk:
    """One input folder, walked in sorted order."""

    def __init__(
        self,
        root: Path,
        rules: DiscoveryRules,
        out_dirs: tuple[Path, ...],
        skipped: list[SkippedInput],
        selection: _Selection,
    ) -> None:
        self.root = root
        self.real_root = _real(root)
        self.rules = rules
        self.out_dirs = out_dirs
        self.skipped = skipped
        self.selection = selection
        self.git: GitIgnores | None = None
        if rules.gitignore:
            from ._gitignore import GitIgnores  # where the run honours .gitignore files

            self.git = GitIgnores(root)
        self.seen: set[Path] = set()

    def skip(self, path: Path, reason: str) -> None:
        self.skipped.append(SkippedInput(str(path), reason))

    def run(self) -> list[SourceFile]:
        docs: list[SourceFile] = []
        follow = self.rules.follow_symlinks
        for folder, dirnames, filenames in os.walk(self.root, followlinks=follow):
            here = Path(folder)
            real = _real(here)
            reason = _output_tree(real, self.out_dirs)
            if reason is not None or real in self.seen:
                if reason is not None:
                    self.skip(here, reason)
                dirnames[:] = []
                continue
            self.seen.add(real)
            dirnames[:] = self._folders(here, dirnames)
            listed = MANIFEST_NAME in filenames or JOURNAL_NAME in filenames
            written = read_manifest(here) if listed else {}
            for name in sorted(filenames):
                if name in written:
                    self.skip(
                        here / name, "written by hymt (an earlier run's output, in its folder's manifest)"
                    )
                    continue
                doc = self._file(here / name)
                if doc is not None:
                    docs.append(doc)
        return docs

    def _folders(self, here: Path, names: list[str]) -> list[str]:
        keep = []
        for name in sorted(names):
            path = here / name
            if name.startswith("."):
                self.skip(path, "hidden folder")
            elif path.is_symlink() and not self.rules.follow_symlinks:
                self.skip(path, "symbolic link to a folder (--follow-symlinks follows it)")
            else:
                reason = self._left_out(path, folder=True)
                if reason is not None:
                    self.skip(path, reason)
                else:
                    keep.append(name)
        return keep

    def _left_out(self, path: Path, *, folder: bool = False) -> str | None:
        """Why the globs or git leave `path` out of this walk, or None."""
        exclude = self.selection.exclude
        glob = exclude.match(path, folder=folder) if exclude is not None else None
        if glob is not None:
            return f"excluded: exclude {glob!r}"
        if self.git is not None:
            ignored = self.git.ignored(path, folder=folder)
            if ignored is not None:
                return f"ignored by git: {ignored} (--no-gitignore takes it)"
        if not folder and self.selection.include and self.selection.include.match(path) is None:
            return "not included: no include glob matches it"
        return None

    def _file(self, path: Path) -> SourceFile | None:
        if path.name.startswith("."):
            if path.name not in (MANIFEST_NAME, JOURNAL_NAME):
                self.skip(path, "hidden file")
            return None
        reason = self._left_out(path)
        if reason is None and path.name == CONFIG_FILE:
            reason = "hymt's config file"
        if reason is not None:
            self.skip(path, reason)
            return None
        applied = per_path_settings(path, self.rules)
        fmt = _format(path, applied, None)
        declared = declared_locale(fmt.name, path) if fmt is not None else None
        code = language_suffix(path)
        if declared is not None:
            assert fmt is not None
            reason = declared_verdict(path, fmt.name, declared, self.rules)
            if reason is not None:
                self.skip(path, reason)
                return None
        elif code is not None and code != (self.rules.source_suffix or "").lower():
            self.skip(path, f"a translation ({code}): its name ends in a language code")
            return None
        if fmt is None or (
            self.rules.format_name and applied.format is None and fmt.name != self.rules.format_name
        ):
            self.skip(path, "not a supported format" if fmt is None else f"not {self.rules.format_name}")
            return None
        reason = self._not_a_source(path, fmt.name, applied) or source_verdict(path, fmt.name, self.rules)
        if reason is not None:
            self.skip(path, reason)
            return None
        problem = self._not_a_plain_file(path)
        if problem is not None:
            self.skip(path, problem)
            return None
        return SourceFile(
            path,
            path.relative_to(self.root),
            fmt,
            _declared_suffix(path, declared) if declared is not None else _source_suffix(path, self.rules),
            options=_own(applied),
        )

    def _not_a_source(self, path: Path, format_name: str, applied: Applied) -> str | None:
        """A string file that is a translation by its path (`locales/de/x.json`), one of a shared
        suffix outside a strings folder (`package.json`; --format, or a `[[files]]` entry that
        names the format, takes them), or a file whose format needs a setting the run lacks (a
        table without --columns)."""
        found = path_marked(format_name, path)
        source = self.rules.source_suffix or LAYOUT_SOURCE
        if found is not None and found.code is not None and not _in_language_of(found.code, source):
            from ..formats.catalogs import named_source  # a path that names its language only

            if not named_source(path, found):
                return f"a translation ({found.code}): its path names the language"
        needs = format_needs(format_name, applied.options, path)
        if needs is not None:
            return f"{NEEDS_SETTING}: {format_name} needs {needs}"
        named = self.rules.format_name or applied.format
        return None if named else walk_refusal(format_name, path)

    def _not_a_plain_file(self, path: Path) -> str | None:
        try:
            mode = os.stat(path).st_mode  # follows a symlink
        except OSError:
            return "broken symbolic link" if path.is_symlink() else "cannot be read"
        if not stat.S_ISREG(mode):
            return f"not a regular file ({_kind(path)})"
        if path.is_symlink() and not self.rules.follow_symlinks:
            real = _real(path)
            if not real.is_relative_to(self.real_root):
                return f"symbolic link to {real}, outside the input folder (--follow-symlinks follows it)"
        return None


def _output_tree(real: Path, out_dirs: tuple[Path, ...]) -> str | None:
    """Why the folder `real` (resolved) holds this run's outputs, or None."""
    if any(real.is_relative_to(out) for out in out_dirs):
        return "inside this run's output folder (-o)"
    return None


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _kind(path: Path) -> str:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "unreadable"
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _empty_folder(raw: str, skipped: list[SkippedInput], rules: DiscoveryRules) -> InputProblem:
    if not skipped:
        return InputProblem(raw, f"folder has no supported files ({', '.join(suffixes())})")
    reasons = Counter(s.reason.split(" (")[0].split(":")[0] for s in skipped)
    listed = "; ".join(f"{count} {reason}" for reason, count in reasons.most_common(3))
    message = f"folder has no files to translate: {len(skipped)} skipped ({listed})"
    codes = Counter(code for s in skipped if (code := language_suffix(Path(s.path))) is not None)
    hint = None
    if codes and rules.source_suffix is None:
        code, _ = codes.most_common(1)[0]
        example = next(Path(s.path).name for s in skipped if language_suffix(Path(s.path)) == code)
        hint = (
            f"if {example} is a source (mkdocs-i18n naming), pass --source-suffix {code} (or --from {code})"
        )
    return InputProblem(raw, message, hint)


def _in_language_of(written: str, source: str) -> bool:
    from ..formats.layout import in_language_of  # (a path that names a language: layout.py's)

    return in_language_of(written, source)
