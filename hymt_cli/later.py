"""What is imported on first use: a thing named `"package.module:Name"` (`lazy`: a format's code,
an engine's options), and the names a package re-exports from its modules (`exports`: the
package's `__getattr__`), so that importing a package costs only what a command uses."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

_UNSET: Any = object()
_T = TypeVar("_T")


class Deferred:
    """Something of a module, named `"package.module:Name"` (or `Name.attribute`), imported on
    first use. Called, it calls what it names (a class is built, a function run); `resolve()`
    gives the thing itself."""

    __slots__ = ("_found", "target")

    def __init__(self, target: str) -> None:
        module, sep, name = target.partition(":")
        if not (module and sep and name):
            raise ValueError(f"lazy({target!r}): name it as 'package.module:Name'")
        self.target = target
        self._found = _UNSET

    def resolve(self) -> Any:
        if self._found is _UNSET:
            module, _, name = self.target.partition(":")
            found: Any = importlib.import_module(module)
            for part in name.split("."):
                found = getattr(found, part)
            self._found = found
        return self._found

    @property
    def imported(self) -> bool:
        """Whether its module is imported already (until then, nothing of it is in use)."""
        return self._found is not _UNSET or self.target.partition(":")[0] in sys.modules

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"lazy({self.target!r})"


def lazy(target: str) -> Any:
    """A class, function or value of a module (`"hymt_cli.formats.po.format:PoFormat"`), imported
    when first used: a format spec's `build` calls it, `walk_refusal`, `claims` and `needs` may be
    one, and so may `layouts` (`"...:PoFormat.layouts"`)."""
    return Deferred(target)


def resolved(thing: _T | Deferred) -> _T:
    """`thing` itself, or what it names where it is a `lazy(...)` (imported now)."""
    found: _T = thing.resolve() if isinstance(thing, Deferred) else thing
    return found


def exports(package: str, table: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's `__getattr__`: a name of `table` imported from the module it names (relative
    to `package`: `{"Flag": "flags"}`) when first asked for; AttributeError for any other."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f".{module}", package), name)

    return __getattr__
