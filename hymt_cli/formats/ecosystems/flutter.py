"""Flutter's `l10n.yaml` (gen-l10n): `arb-dir` (default `lib/l10n`) holds the ARB files and
`template-arb-file` (default `app_en.arb`) is their source; the others are its translations,
whatever locale they name (`app_en_US.arb` is one too). The file lies at the package's root,
beside `pubspec.yaml`, above the ARB folder.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

DEFAULT_ARB_DIR = "lib/l10n"
DEFAULT_TEMPLATE = "app_en.arb"
_LEVELS = 6
_LARGEST = 1 << 20


def arb_template(arb: Path) -> Path | None:
    """The template ARB file of the folder `arb` lies in, as the package's `l10n.yaml` names it
    (None: no `l10n.yaml` above it, or one whose `arb-dir` is another folder)."""
    folder = arb.parent.resolve()
    root = folder
    for _ in range(_LEVELS):
        config = root / "l10n.yaml"
        if config.is_file():
            settings = _settings(config)
            if settings is None:
                return None
            arb_dir, template = settings
            if (root / arb_dir).resolve() == folder:
                return arb.parent / template
            return None
        if (root / "pubspec.yaml").is_file() or root.parent == root:
            return None
        root = root.parent
    return None


def _settings(config: Path) -> tuple[str, str] | None:
    """(arb-dir, template-arb-file) of an `l10n.yaml`, with gen-l10n's defaults."""
    try:
        stat = config.stat()
    except OSError:
        return None
    return _read_settings(str(config), stat.st_mtime_ns, stat.st_size) if stat.st_size <= _LARGEST else None


@lru_cache(maxsize=16)
def _read_settings(name: str, mtime_ns: int, size: int) -> tuple[str, str] | None:
    """`_settings` of the file as it is (read once: a folder walk asks for every ARB file)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(Path(name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return None
    arb_dir = data.get("arb-dir", DEFAULT_ARB_DIR)
    template = data.get("template-arb-file", DEFAULT_TEMPLATE)
    if not isinstance(arb_dir, str) or not isinstance(template, str) or "/" in template:
        return None
    return arb_dir, template
