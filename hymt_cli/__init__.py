"""hymt: batch document translation with Tencent's HY-MT models on vLLM.

The Python API (api.py): `translate_text`, `translate_files`, `translate_table`, `Translator`;
settings by name or as a `Settings` record; `ProgressEvents` to follow a run; the report
(`RunReport`) as the result; `HymtError` and its kinds for what cannot be done. The names are
imported on first use, so that `import hymt_cli` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .later import exports

__version__ = "0.1.0"

_EXPORTS = {
    "Translator": "api",
    "translate_text": "api",
    "translate_files": "api",
    "translate_table": "api",
    "Settings": "settings",
    "all_settings": "settings",
    "ProgressEvents": "reporting.progress",
    "RunReport": "reporting.report",
    "FileReport": "reporting.report",
    "CheckResult": "run.check_outputs",
    "HymtError": "errors",
    "UsageError": "errors",
    "InputError": "errors",
    "OutputError": "errors",
    "EngineUnavailable": "errors",
    "ExitCode": "errors",
    "Interrupted": "signals",  # a run stopped by Ctrl-C or SIGTERM (a KeyboardInterrupt), with `.report`
}

if TYPE_CHECKING:
    from .api import (
        Translator as Translator,
    )
    from .api import (
        translate_files as translate_files,
    )
    from .api import (
        translate_table as translate_table,
    )
    from .api import (
        translate_text as translate_text,
    )
    from .errors import (
        EngineUnavailable as EngineUnavailable,
    )
    from .errors import (
        ExitCode as ExitCode,
    )
    from .errors import (
        HymtError as HymtError,
    )
    from .errors import (
        InputError as InputError,
    )
    from .errors import (
        OutputError as OutputError,
    )
    from .errors import (
        UsageError as UsageError,
    )
    from .reporting.progress import ProgressEvents as ProgressEvents
    from .reporting.report import FileReport as FileReport
    from .reporting.report import RunReport as RunReport
    from .run.check_outputs import CheckResult as CheckResult
    from .settings import Settings as Settings
    from .settings import all_settings as all_settings
    from .signals import Interrupted as Interrupted


__getattr__ = exports(__name__, _EXPORTS)


__all__ = sorted(_EXPORTS) + ["__version__"]
