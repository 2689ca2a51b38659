"""The kernels hymt ships for a fresh machine: unpacked into the caches vLLM and Triton read,
never over a file they hold, once per pack."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from hymt_cli.engine.kernel_pack import (
    GROUP_PREFIX,
    PACKS,
    TRITON_PREFIX,
    KernelCaches,
    installed_pack,
    pack_name,
    seed_from,
)


def _pack(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:xz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_pack_fills_what_the_caches_lack(tmp_path: Path) -> None:
    root, triton = tmp_path / "vllm", tmp_path / "kernels"
    caches = KernelCaches(root, triton)
    (triton / "B2").mkdir(parents=True)
    (triton / "B2" / "k.cubin").write_bytes(b"the user's own")
    pack = _pack(
        tmp_path / pack_name("0.26.0", "3.6.0", (9, 0)),
        {
            "./triton/A1/__grp__k.json": b'{"child_paths": {"k.cubin": "/elsewhere/A1/k.cubin"}}',
            "./triton/A1/k.cubin": b"\x7fELF",
            "./triton/B2/k.cubin": b"shipped",
            "./modelinfos/HunYuan.json": b'{"x": 1}',
            "../outside.txt": b"never",
            f"triton/{tmp_path}/absolute.txt": b"never",
            f"{tmp_path}/absolute-root.txt": b"never",
        },
    )
    assert seed_from(pack, caches) == 3
    assert (triton / "A1" / "k.cubin").read_bytes() == b"\x7fELF"
    assert json.loads((triton / "A1" / "__grp__k.json").read_text()) == {
        "child_paths": {"k.cubin": str(triton / "A1" / "k.cubin")}
    }
    assert (root / "modelinfos" / "HunYuan.json").read_bytes() == b'{"x": 1}'
    assert (triton / "B2" / "k.cubin").read_bytes() == b"the user's own"  # never replaced
    assert not (tmp_path / "outside.txt").exists()
    assert not (tmp_path / "absolute.txt").exists() and not (tmp_path / "absolute-root.txt").exists()
    (triton / "A1" / "k.cubin").unlink()
    assert seed_from(pack, caches) == 0  # once per pack: the cache is the user's from then on
    assert not (triton / "A1" / "k.cubin").exists()


def test_no_pack_without_a_gpu_or_for_another_stack(tmp_path: Path) -> None:
    assert pack_name("0.26.0", "3.6.0", (9, 0)) == "vllm-0.26.0-triton-3.6.0-sm90.tar.xz"
    assert installed_pack(None, tmp_path) is None
    assert installed_pack((9, 0), tmp_path) is None  # no pack in the folder for what is installed


def test_a_kernel_group_names_its_files_where_this_cache_keeps_them(tmp_path: Path) -> None:
    """Triton finds a kernel's files through its group's absolute paths: those of the machine
    that compiled it would never exist here, and Triton would compile it again."""
    root, triton = tmp_path / "vllm", tmp_path / "here" / "triton"
    caches = KernelCaches(root, triton)
    group = {"child_paths": {"k.cubin": "k.cubin", "k.json": "k.json"}}
    hostile = {"child_paths": {"k.cubin": "/etc/passwd"}}
    pack = _pack(
        tmp_path / "p.tar.xz",
        {
            "triton/A1/__grp__k.json": json.dumps(group).encode(),
            "triton/A1/k.cubin": b"\x7fELF",
            "triton/A1/k.json": b"{}",
            "triton/B2/__grp__k.json": json.dumps(hostile).encode(),
            "triton/C3/__grp__k.json": b"not json",
        },
    )
    assert seed_from(pack, caches) == 3
    located = json.loads((triton / "A1" / "__grp__k.json").read_text())["child_paths"]
    assert located == {"k.cubin": str(triton / "A1" / "k.cubin"), "k.json": str(triton / "A1" / "k.json")}
    assert all(Path(p).is_file() for p in located.values())
    assert not (triton / "B2" / "__grp__k.json").exists()  # a path elsewhere: a miss, not a lead
    assert not (triton / "C3" / "__grp__k.json").exists()


def test_every_shipped_pack_is_complete_and_stays_in_its_cache() -> None:
    """A shipped pack's kernel groups name their files by name, all of them in the pack, and
    nothing in it lands outside Triton's cache: a broken group would make Triton fail, not
    compile again."""
    packs = sorted(PACKS.glob("*.tar.xz"))
    assert packs, "hymt ships at least one kernel pack"
    for pack in packs:
        with tarfile.open(pack) as archive:
            members = {m.name: m for m in archive.getmembers()}
            assert all(m.isfile() for m in members.values())
            assert all(n.startswith(TRITON_PREFIX) and ".." not in Path(n).parts for n in members)
            groups = [n for n in members if Path(n).name.startswith(GROUP_PREFIX)]
            assert groups
            for name in groups:
                data = archive.extractfile(members[name])
                assert data is not None
                children = json.loads(data.read())["child_paths"]
                folder = Path(name).parent
                assert all(Path(path).name == path == child for child, path in children.items())
                assert all((folder / child).as_posix() in members for child in children)


def test_the_caches_are_decided_once_and_passed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`keep_kernel_caches` sets the folders vLLM and Triton read and returns them: what the
    kernels are seeded into (a user's own choice kept)."""
    from hymt_cli.engine.vllm_engine import keep_kernel_caches

    for name in ("VLLM_CACHE_ROOT", "TRITON_CACHE_DIR"):  # (as they were after the test: set, then unset)
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert keep_kernel_caches() == KernelCaches(tmp_path / "vllm", tmp_path / "vllm" / "triton")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "mine"))
    assert keep_kernel_caches() == KernelCaches(tmp_path / "vllm", tmp_path / "mine")
