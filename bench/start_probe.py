"""Where a fresh GPU machine's engine start goes: the disk, the imports, vLLM's own steps.

    python3 bench/start_probe.py evict                 # drop the page cache of Python's and CUDA's files
    python3 bench/start_probe.py imports [--prefetch so|all|none] [--threads 16]
    python3 bench/start_probe.py prefetch [--what so|all] [--threads 16]
    python3 bench/start_probe.py profile --model DIR [--inproc] [--top 45]

`evict` asks the kernel to forget the cached pages of every file under the interpreter's import
roots and the CUDA library folders (posix_fadvise DONTNEED: no root needed; pages mapped by a
running process stay), so that one machine can repeat a cold start. `imports` times, in a fresh
child process, importing torch, initializing CUDA and importing vLLM, optionally while this
process reads the libraries ahead with threads. `profile` builds `vllm.LLM` as hymt tunes it
(one engine of two on the GPU) under cProfile and prints where the start's time goes;
`--inproc` keeps vLLM's engine core in this process (VLLM_ENABLE_V1_MULTIPROCESSING=0) so the
profile sees the whole start. Output: lines starting `PROBE ` with JSON.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

PACKAGES = ("torch", "nvidia", "triton", "vllm", "transformers", "tokenizers", "numpy", "xgrammar", "cuda")
CHUNK = 8 << 20


def _package_dirs(names: tuple[str, ...] = PACKAGES) -> list[Path]:
    dirs: list[Path] = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            if Path(location).is_dir():
                dirs.append(Path(location))
    return dirs


def _files(dirs: list[Path], what: str) -> list[Path]:
    found: list[Path] = []
    for top in dirs:
        for root, _, names in os.walk(top):
            for name in names:
                shared = ".so" in name and not name.endswith(".py")
                if shared or (what == "all" and name.endswith((".pyc", ".py"))):
                    found.append(Path(root, name))
    return sorted(found, key=lambda p: -p.stat().st_size) if what == "so" else found


def _read(path: Path, buffer: bytearray) -> int:
    total = 0
    try:
        with open(path, "rb", buffering=0) as handle:
            while count := handle.readinto(buffer):
                total += count
    except OSError:
        pass
    return total


def prefetch(what: str = "so", threads: int = 16) -> dict[str, float]:
    started = time.time()
    files = _files(_package_dirs(), what)
    local = threading.local()

    def read(path: Path) -> int:
        if not hasattr(local, "buffer"):
            local.buffer = bytearray(CHUNK)
        return _read(path, local.buffer)

    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        total = sum(pool.map(read, files))
    return {
        "files": len(files),
        "gib": round(total / (1 << 30), 2),
        "seconds": round(time.time() - started, 2),
    }


def evict() -> dict[str, float]:
    roots = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    roots += [Path(sysconfig.get_paths()["stdlib"])]
    roots += [p for p in Path("/usr/local").glob("cuda*") if p.is_dir()]
    roots += [Path("/usr/lib/x86_64-linux-gnu")]
    started, count, size = time.time(), 0, 0
    seen: set[Path] = set()
    for top in roots:
        top = top.resolve()
        if top in seen or top == Path("/"):
            continue
        seen.add(top)
        for root, _, names in os.walk(top):
            for name in names:
                path = os.path.join(root, name)
                try:
                    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                except OSError:
                    continue
                try:
                    size += os.fstat(fd).st_size
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    count += 1
                except OSError:
                    pass
                finally:
                    os.close(fd)
    return {"files": count, "gib": round(size / (1 << 30), 2), "seconds": round(time.time() - started, 2)}


_IMPORTS = """
import json, time
t = [time.time()]
import torch; t.append(time.time())
if torch.cuda.is_available(): torch.zeros(1, device="cuda"); torch.cuda.synchronize()
t.append(time.time())
import vllm; t.append(time.time())
from vllm import LLM, SamplingParams; t.append(time.time())
import vllm.v1.engine.core, vllm.v1.worker.gpu_worker; t.append(time.time())
names = ["torch", "cuda_init", "vllm", "vllm_LLM", "engine_core_modules"]
import resource, sys
use = resource.getrusage(resource.RUSAGE_SELF)
io = dict(line.split(": ") for line in open("/proc/self/io").read().splitlines())
print(json.dumps({n: round(b - a, 2) for n, a, b in zip(names, t, t[1:])} | {"total": round(t[-1] - t[0], 2),
    "cpu_user": round(use.ru_utime, 2), "cpu_sys": round(use.ru_stime, 2), "major_faults": use.ru_majflt,
    "read_mib": round(int(io["read_bytes"]) / 2**20), "modules": len(sys.modules),
    "mapped": sorted({line.split()[-1] for line in open("/proc/self/maps") if ".so" in line})}))
"""


def imports(prefetch_what: str, threads: int) -> dict[str, object]:
    started = time.time()
    child = subprocess.Popen([sys.executable, "-c", _IMPORTS], stdout=subprocess.PIPE, text=True)
    fetched = prefetch(prefetch_what, threads) if prefetch_what != "none" else {}
    out, _ = child.communicate()
    record = json.loads(out.strip().splitlines()[-1]) if out.strip() else {"failed": child.returncode}
    mapped = record.pop("mapped", [])
    record["mapped_so"] = len(mapped)
    record["mapped_gib"] = round(sum(os.stat(p).st_size for p in mapped if os.path.exists(p)) / (1 << 30), 2)
    return {
        "prefetch": prefetch_what,
        "prefetched": fetched,
        "wall": round(time.time() - started, 2),
    } | record


_LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "ms": {
            "format": "%(levelname)s %(asctime)s.%(msecs)03d [%(filename)s:%(lineno)d] %(message)s",
            "datefmt": "%H:%M:%S",
        }
    },
    "handlers": {"err": {"class": "logging.StreamHandler", "formatter": "ms", "stream": "ext://sys.stdout"}},
    "loggers": {"vllm": {"handlers": ["err"], "level": "DEBUG", "propagate": False}},
}


def profile(
    model: str, inproc: bool, top: int, overrides: dict[str, object], *, measure_only: bool, freeze: bool
) -> dict[str, object]:
    import cProfile
    import pstats

    if inproc:
        os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
    config = Path("/tmp/vllm-logging.json")  # vLLM's records with milliseconds
    config.write_text(json.dumps(_LOGGING))
    os.environ["VLLM_LOGGING_CONFIG_PATH"] = str(config)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from hymt_cli.engine.tuning import graphs

    started = time.time()
    profiler = cProfile.Profile()
    if not measure_only:
        profiler.enable()
    from vllm import LLM

    imported = time.time()
    if freeze:  # what exists now is never collected: graph capture's gc.collect() calls skip it
        import gc

        gc.freeze()
    kwargs: dict[str, object] = dict(
        model=model,
        load_format="dummy",
        dtype="bfloat16",
        max_model_len=8192,
        enable_prefix_caching=True,
        gpu_memory_utilization=0.44,
        max_num_seqs=2048,
        max_num_batched_tokens=32768,
        compilation_config=graphs(2048),
    )
    llm = LLM(**(kwargs | overrides))
    ready = time.time()
    if not measure_only:
        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(25)
        stats.print_callers("gc.collect|builtins.compile")
    del llm
    return {
        "inproc": inproc,
        "freeze": freeze,
        "profiled": not measure_only,
        "import_s": round(imported - started, 2),
        "llm_s": round(ready - imported, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["evict", "imports", "prefetch", "profile"])
    parser.add_argument("--prefetch", default="none", choices=["none", "so", "all"])
    parser.add_argument("--what", default="so", choices=["so", "all"])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--model")
    parser.add_argument("--inproc", action="store_true")
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--measure-only", action="store_true", help="no cProfile: the start's own time")
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after the import, before LLM()")
    parser.add_argument(
        "--llm-kwargs", default="{}", help="JSON: LLM keyword arguments that replace the probe's"
    )
    args = parser.parse_args()
    if args.step == "evict":
        result: dict[str, object] = dict(evict())
    elif args.step == "imports":
        result = imports(args.prefetch, args.threads)
    elif args.step == "prefetch":
        result = dict(prefetch(args.what, args.threads))
    else:
        result = profile(
            args.model,
            args.inproc,
            args.top,
            json.loads(args.llm_kwargs),
            measure_only=args.measure_only,
            freeze=args.freeze,
        )
    print("PROBE " + json.dumps({"step": args.step} | result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
