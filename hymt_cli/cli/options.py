"""The command line's options, generated from the settings' declarations (hymt_cli/options.py):
each declared setting becomes one typer option (the inputs: the positional argument) with its
flags, help, help panel and value name, and a help text that shows its real default. Options
default to None: a flag the user did not give leaves the value to the environment, the config
file or the default (settings/_layers.py), and `hymt config` shows which."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from ..options import Panel, Setting, split_list
from ._coercion import without_adapters

_F = TypeVar("_F", bound=Callable[..., Any])
_METAVARS = {str: "TEXT", int: "N", float: "NUMBER", Path: "PATH"}


def parameter(setting: Setting) -> inspect.Parameter:
    """The typer parameter of a setting."""
    return inspect.Parameter(
        setting.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation(setting)
    )


def annotation(setting: Setting) -> Any:
    """`Annotated[type | None, typer.Option(...)]` of a setting: its flags, help and value name."""
    declared = setting.declared
    kind: Any = setting.base
    help_text = declared.help
    shown = declared.default_text or _default_text(setting)
    if shown is not None:
        help_text += f" [default: {shown}]"
    if declared.argument:
        info: Any = typer.Argument(help=_escape(help_text), show_default=False, metavar=declared.metavar)
        return Annotated[list[kind] | None, info]
    names = [f"{declared.flag}/{declared.off_flag}" if declared.off_flag else declared.flag]
    if declared.short:
        names.append(declared.short)
    info = typer.Option(
        *names,
        help=_escape(help_text),
        rich_help_panel=declared.panel,
        show_default=False,
        metavar=_metavar(setting),
    )
    value = list[kind] if setting.many else kind
    return Annotated[value | None, info]


def _default_text(setting: Setting) -> object:
    """What the help says the default is: the value, or for an on/off pair the flag that is on."""
    default = setting.default
    if isinstance(default, bool):
        return setting.flag if default else None
    return default if default not in (None, (), "") else None


def _metavar(setting: Setting) -> str:
    if setting.base is bool:
        return ""  # an on/off flag takes no value
    if setting.choices:
        return "[" + "|".join(setting.choices) + "]"
    return setting.declared.metavar or _METAVARS[setting.base]


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def takes(settings: Callable[[], Iterable[Setting]], *extra: inspect.Parameter) -> Callable[[_F], _F]:
    """Give a command one parameter per setting (sorted by help panel) plus `extra`, so that typer
    builds its options from the declarations; the command receives them as keyword arguments.
    The settings are asked for when typer builds the command (at `main`), so a format or engine
    registered after this module was imported has its options too."""

    def decorate(command: _F) -> _F:
        return cast(_F, _SettingsCommand(command, settings, extra))

    return decorate


class _SettingsCommand:
    """A command whose signature (what typer reads) is made from the settings when asked for."""

    def __init__(
        self,
        command: Callable[..., Any],
        settings: Callable[[], Iterable[Setting]],
        extra: tuple[inspect.Parameter, ...],
    ) -> None:
        functools.update_wrapper(self, command)
        self._command = command
        self._settings = settings
        self._extra = extra
        self._made: tuple[tuple[Setting, ...], inspect.Signature] | None = None

    @property
    def __signature__(self) -> inspect.Signature:
        """Made once for the settings there are (typer asks several times per command)."""
        settings = tuple(self._settings())
        if self._made is None or self._made[0] != settings:
            ordered = sorted(settings, key=lambda s: Panel.ORDER.index(s.declared.panel))
            self._made = settings, inspect.Signature([*map(parameter, ordered), *self._extra])
        return self._made[1]

    def __call__(self, **values: Any) -> Any:
        return self._command(**values)


def given(values: dict[str, Any], settings: Iterable[Setting]) -> dict[str, object]:
    """The settings a command line gave (None: not given), lists as tuples, by setting name."""
    by_name = {s.name: s for s in settings}
    given: dict[str, object] = {}
    for name, value in values.items():
        setting = by_name.get(name)
        if setting is None or value is None:
            continue
        if isinstance(value, list):  # a repeatable flag; a list flag's each value may hold several
            value = tuple(
                item
                for raw in value
                for item in (
                    split_list(raw) if setting.declared.comma_list and isinstance(raw, str) else (raw,)
                )
            )
        given[name] = value
    return given


def bare_values(argv: Sequence[str], settings: Iterable[Setting]) -> list[str]:
    """`--ray` alone or `--ray ADDRESS`: click has no option with an optional value, so a flag
    whose setting declares `value_pattern`, followed by nothing that matches it, becomes `--flag=`."""
    patterns = {s.flag: re.compile(s.declared.value_pattern) for s in settings if s.declared.value_pattern}
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + list(argv[i:])
        pattern = patterns.get(arg)
        if pattern is not None and not (i + 1 < len(argv) and pattern.match(argv[i + 1])):
            arg += "="
        out.append(arg)
    return out


class _PlainTypes:
    """Help without Python type names: an argument shows its value name only, and an option
    without a value name (typer's own --help) shows none. Values are converted without typer's
    per-parameter adapters (_coercion.py)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        without_adapters(params)
        for param in params:
            if isinstance(param, TyperArgument):
                setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010 - an instance override
            elif param.metavar is None:
                param.metavar = ""
        return params


class Command(_PlainTypes, TyperCommand):
    """hymt's commands (`app.command(cls=Command)`): their help is cli/_help.py's plain text."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from ._help import FULL, render, terminal_width

        formatter.write(render(self, ctx, width=terminal_width(), full=bool(ctx.meta.get(FULL))))


def show_all_help(ctx: typer.Context, value: bool) -> None:
    """`--help-all`: the help with every option, then exit."""
    from ._help import FULL

    if value and not ctx.resilient_parsing:
        ctx.meta[FULL] = True
        typer.echo(ctx.get_help(), nl=False)
        raise typer.Exit()


HELP_ALL = inspect.Parameter(
    "help_all",
    inspect.Parameter.KEYWORD_ONLY,
    default=False,
    annotation=Annotated[
        bool,
        typer.Option(
            "--help-all",
            callback=show_all_help,
            is_eager=True,
            expose_value=False,
            metavar="",
            help="Show every option and exit.",
        ),
    ],
)


class Group(_PlainTypes, TyperGroup):
    """hymt's command groups (`typer.Typer(cls=Group)`): their help is cli/_help.py's plain text
    too (typer's boxes need rich's Markdown and typer's help module: 0.05 s of `hymt --help`)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from ._help import render_group, terminal_width

        formatter.write(render_group(self, ctx, width=terminal_width()))
