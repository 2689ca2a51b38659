"""The GPU's utilization over time, for bench/run.py's traces: `python bench/gpu_sampler.py FILE`
appends `unix time,GPU %,memory %` five times a second (NVML's share of the last sample period in
which a kernel ran, and the memory controller's) until it is stopped. No CUDA context is made."""

from __future__ import annotations

import sys
import time


def main(path: str, every: float = 0.2) -> None:
    import pynvml

    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    with open(path, "a", encoding="utf-8") as out:
        while True:
            rates = pynvml.nvmlDeviceGetUtilizationRates(handle)
            out.write(f"{time.time():.3f},{rates.gpu},{rates.memory}\n")
            out.flush()
            time.sleep(every)


if __name__ == "__main__":
    main(sys.argv[1])
