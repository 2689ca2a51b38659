"""When a warm pass's first requests reach an engine that is already running (issue 37 goal 2).

The mixed job (mixed_job.py) through hymt's pipeline with a stand-in engine that answers at once
and records when requests were sent to it early (while the rest is read: Pipeline._send_early) and
when the window's dispatch began. CPU only; no model weights (the random model's tokenizer).

    python bench/first_requests.py --model /tmp/hymt-1.8b-cfg [--first-batch-rows 8192]

`--first-batch-rows` sets a table's first batch (table_cells.FIRST_BATCH_ROWS; 8192: as before).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import make_pipeline, sources  # noqa: E402
from mixed_job import DESCRIPTION_COLUMN, write_mixed_job  # noqa: E402

from hymt_cli.engine.base import BatchLimits, Generation  # noqa: E402


class Recorder:
    """Takes requests early (as vLLM's engines do, up to `room`) and answers every call at once."""

    name = "recorder"
    retries = 0
    limits = BatchLimits(8 << 20, 65536)

    def __init__(self, room: int, started: list[float]) -> None:
        self.room = room
        self.started = started
        self.log: list[tuple[str, float, int]] = []

    def early_room(self) -> int:
        return self.room

    def send_early(self, requests) -> None:
        self.log.append(("early", round(time.monotonic() - self.started[0], 2), len(requests)))
        self.room -= len(requests)

    def generate_stream(self, requests):
        self.log.append(("dispatch", round(time.monotonic() - self.started[0], 2), len(requests)))
        for i, r in enumerate(requests):
            yield i, Generation(r.source_text, "stop", 1)

    def generate(self, requests):
        return [g for _, g in self.generate_stream(requests)]

    def close(self) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a model folder with its tokenizer")
    parser.add_argument("--docs", type=int, default=40)
    parser.add_argument("--products", type=int, default=12_500)
    parser.add_argument("--room", type=int, default=5120, help="requests the engine takes early")
    parser.add_argument("--first-batch-rows", type=int, help="a table's first batch of rows")
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    if args.first_batch_rows:
        from hymt_cli.formats import table_cells

        table_cells.FIRST_BATCH_ROWS = args.first_batch_rows
    work = args.work or Path(tempfile.mkdtemp(prefix="hymt-first-"))
    docs = work / "docs"
    if not docs.exists():
        write_mixed_job(docs, docs=args.docs, products=args.products)
    spec = dict(
        model=args.model, work=str(work), docs_dir=str(docs), targets="de", columns=[DESCRIPTION_COLUMN]
    )
    started = [0.0]
    engine = Recorder(args.room, started)
    pipeline = make_pipeline(spec, out_dir=work / "out", engine_factory=lambda: engine)
    found = sources(spec)
    started[0] = time.monotonic()
    report = pipeline.run(found)
    wall = time.monotonic() - started[0]
    print(
        json.dumps(
            dict(
                first_input=found[0].display,
                wall_s=round(wall, 2),
                requests=report.unique_segments,
                log=engine.log,
            )
        )
    )


if __name__ == "__main__":
    main()
