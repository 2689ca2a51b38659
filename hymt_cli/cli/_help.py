"""`--help` as plain text that fits the terminal: a command's options grouped by their panels
(options.Panel, in that order), one entry each (flags and value name, then the help wrapped at
word boundaries: no word is ever cut, whatever the width). A command with many options
(`translate`, `config`) shows the common ones (declared `common`) and names the others by panel;
`--help-all` shows them all. The README has the detail of each."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text

from ..options import Panel
from ..settings import all_settings

HELP_ALL = "--help-all"
FULL = "hymt.help_all"  # ctx.meta key: --help-all asked for every option
_INDENT = 2
_LEFT_MAX = 30  # a longer flag column puts its help on the next line
_OTHER = "Options"


def terminal_width() -> int:
    """The terminal's width (COLUMNS where set), at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def render(command: Any, ctx: Any, *, width: int, full: bool) -> str:
    """The whole help text of a click command (typer's parameters)."""
    lines = [f"Usage: {ctx.command_path} {' '.join(command.collect_usage_pieces(ctx))}", ""]
    if command.help:
        lines += _wrap(Text.from_markup(command.help).plain, width, _INDENT, _INDENT) + [""]
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    common = _common_names()
    folded = full is False and any(p.name == HELP_ALL[2:].replace("-", "_") for p in params)
    shown = [p for p in params if not folded or _is_common(p, common)]
    left = {id(p): _left(p) for p in shown}
    column = min(_LEFT_MAX, max((len(text) for text in left.values()), default=0)) + _INDENT + 2
    for panel, members in _by_panel(shown):
        lines.append(f"{panel}:")
        for param in members:
            lines += _entry(left[id(param)], _help(param), column, width)
        lines.append("")
    if folded:
        hidden = [p for p in params if not _is_common(p, common)]
        lines.append(f"More options ({ctx.command_path} {HELP_ALL} shows them):")
        for panel, members in _by_panel(hidden):
            names = ", ".join(p.opts[0] if p.opts else p.name for p in members)
            lines += _wrap(f"{panel}: {names}.", width, _INDENT, _INDENT * 3)
        lines.append("")
    if command.epilog:
        for line in Text.from_markup(command.epilog).plain.splitlines():
            lines += _wrap(line, width, 0, 4, keep=True) if line.strip() else [""]
    return "\n".join(lines).rstrip() + "\n"


def render_group(group: Any, ctx: Any, *, width: int) -> str:
    """The help of a command group (`hymt`, `hymt tm`): its commands, each with the first
    paragraph of its help, and its own options."""
    lines = [f"Usage: {ctx.command_path} [OPTIONS] COMMAND [ARGS]...", ""]
    if group.help:
        lines += _wrap(Text.from_markup(group.help).plain, width, _INDENT, _INDENT) + [""]
    commands = [(name, group.get_command(ctx, name)) for name in group.list_commands(ctx)]
    shown = [(name, command) for name, command in commands if command is not None and not command.hidden]
    column = max((len(name) for name, _ in shown), default=0) + _INDENT + 2
    lines.append("Commands:")
    for name, command in shown:
        summary = Text.from_markup((command.help or "").split("\n\n")[0]).plain
        lines += _entry(name, " ".join(summary.split()).replace("\\[", "["), column, width)
    lines.append("")
    params = [p for p in group.get_params(ctx) if not getattr(p, "hidden", False)]
    left = {id(p): _left(p) for p in params}
    column = max((len(text) for text in left.values()), default=0) + _INDENT + 2
    lines.append(f"{_OTHER}:")
    for param in params:
        lines += _entry(left[id(param)], _help(param), column, width)
    lines.append("")
    if group.epilog:
        for line in Text.from_markup(group.epilog).plain.splitlines():
            lines += _wrap(line, width, 0, 4, keep=True) if line.strip() else [""]
    return "\n".join(lines).rstrip() + "\n"


def _common_names() -> set[str]:
    return {s.name for s in all_settings() if s.declared.common}


def _is_common(param: Any, common: set[str]) -> bool:
    """Shown by `--help`: a common setting, or a parameter that is no setting (--config, --help)."""
    settings = {s.name for s in all_settings()}
    return param.name in common or param.name not in settings


def _by_panel(params: Sequence[Any]) -> Iterable[tuple[str, list[Any]]]:
    order = [*Panel.ORDER, _OTHER]
    groups: dict[str, list[Any]] = {}
    for param in params:
        panel = getattr(param, "rich_help_panel", None) or (
            "Arguments" if param.param_type_name == "argument" else _OTHER
        )
        groups.setdefault(panel, []).append(param)
    ranked = sorted(groups, key=lambda p: order.index(p) if p in order else -1)
    return [(panel, groups[panel]) for panel in ranked]


def _left(param: Any) -> str:
    """`-o, --out DIR`, `--overwrite / --no-overwrite`, `INPUTS...`."""
    if param.param_type_name == "argument":
        return str(param.metavar or param.name.upper())
    longs = [o for o in param.opts if o.startswith("--")]
    shorts = [o for o in param.opts if not o.startswith("--")]
    names = ", ".join([*shorts, *longs])
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    metavar = "" if param.is_flag else (param.metavar or "")
    return f"{names} {metavar}".rstrip()


def _help(param: Any) -> str:
    return (getattr(param, "help", None) or "").replace("\\[", "[")


def _entry(left: str, help_text: str, column: int, width: int) -> list[str]:
    head = " " * _INDENT + left
    if len(head) + 2 > column:
        return [head, *_wrap(help_text, width, column, column)] if help_text else [head]
    wrapped = _wrap(help_text, width, column, column) or [""]
    return [head.ljust(column) + wrapped[0].lstrip(), *wrapped[1:]]


def _wrap(text: str, width: int, first: int, rest: int, *, keep: bool = False) -> list[str]:
    """`text` wrapped at spaces only (a word longer than the line stays whole)."""
    if keep and len(text) <= width:
        return [text]
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=" " * first,
        subsequent_indent=" " * rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
