"""Make the kernel pack hymt ships for a GPU stack (hymt_cli/engine/kernel_pack.py) from the
Triton cache of a machine that has just run hymt's engines.

Run on the GPU machine after a `hymt translate` (bench/cli_cold.py) with an empty cache: the
kernels it compiled are what a fresh machine of the same stack would compile again.

    python3 bench/kernel_pack.py --out-dir $OUT     # writes vllm-X-triton-Y-smNN.tar.xz

Triton's complete kernel groups go in (a group's `__grp__*.json` names its files; a group with
a file missing is left out, as Triton would compile it again) with the launchers Triton built
for them, in a stable order with neutral owners and times: the same cache, the same archive.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tarfile
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hymt_cli.engine.kernel_pack import GROUP_PREFIX, TRITON_PREFIX, pack_name  # noqa: E402


def complete_groups(triton: Path) -> list[Path]:
    """Every file of the kernel groups whose files are all present."""
    files: list[Path] = []
    for group in sorted(triton.glob("*/__grp__*.json")):
        try:
            named = json.loads(group.read_text())["child_paths"]
        except (OSError, ValueError, KeyError):
            continue
        members = [group.parent / Path(path).name for path in named.values()]  # a kernel's own folder
        if all(m.is_file() for m in members):
            files += [group, *members]
    return sorted(set(files))


def launchers(triton: Path) -> list[Path]:
    """Triton's C extensions: a launcher per kernel signature and its driver's `cuda_utils`,
    built with the machine's compiler at first use (a folder each, named by a hash of their
    source and the platform; the file name carries the Python ABI)."""
    return sorted(triton.glob("*/*.so"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, required=True)
    cache = Path(os.environ.get("VLLM_CACHE_ROOT") or os.path.expanduser("~/.cache/vllm"))
    triton = os.environ.get("TRITON_CACHE_DIR")
    parser.add_argument("--triton", type=Path, default=Path(triton) if triton else cache / "triton")
    parser.add_argument("--name", help="the pack's name (default: for this machine's vLLM, Triton and GPU)")
    args = parser.parse_args()
    name = args.name
    if name is None:
        import torch

        capability = torch.cuda.get_device_capability()
        name = pack_name(metadata.version("vllm"), metadata.version("triton"), capability)
    files = complete_groups(args.triton) + launchers(args.triton)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    with tarfile.open(args.out_dir / name, "w:xz", preset=9) as archive:
        for path in files:
            data = path.read_bytes()
            if path.name.startswith(GROUP_PREFIX):  # files by name: placed where the cache is (seed_from)
                children = json.loads(data)["child_paths"]
                data = json.dumps({"child_paths": {n: Path(p).name for n, p in children.items()}}).encode()
            info = tarfile.TarInfo(TRITON_PREFIX + path.relative_to(args.triton).as_posix())
            info.size, info.mode = len(data), 0o644
            archive.addfile(info, io.BytesIO(data))
    size = (args.out_dir / name).stat().st_size
    print(f"{name}: {len(files)} files, {size / 1024:.0f} KiB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
