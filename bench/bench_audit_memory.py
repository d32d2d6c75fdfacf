"""Benchmark: `factcheck audit` peak memory (RSS) and throughput against the size of its input file.

Writes JSON Lines files of the given sizes (MB) in a temporary directory: every line is one
conversation whose order look-up returns a ~100 KB record (an order with its event history), then
two assistant answers (one true, one with a made-up tracking number). Each file is audited in a
fresh process (`python -m factcheck audit FILE --json -q`, from `--root`, this checkout by
default) and the child's peak RSS (`ru_maxrss`) and wall time are printed: RSS flat in the file
size means the input is streamed. Run two checkouts with the same sizes to compare throughput
(MB/s) in one session; the machine is shared, so only ratios within one run mean much.

Run from the repository root: python bench/bench_audit_memory.py 25 50 100 200 [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

EVENTS = 900
"""Events in each order's history: about 100 KB of tool output per line."""


def line(c: int) -> str:
    order = str(880000 + c)
    history = [{"at": f"2026-03-{1 + i % 28:02d}T{i % 24:02d}:00:00Z", "event": "scanned",
                "hub": f"HUB-{(c + i) % 977:03d}", "note": "parcel scanned at the sorting centre"}
               for i in range(EVENTS)]
    output = {"order_id": order, "status": "shipped", "carrier": "SF", "tracking": f"SF{order}", "history": history}
    messages = [
        {"role": "user", "content": f"Where is order {order}?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{c}", "type": "function", "function": {
            "name": "get_order", "arguments": json.dumps({"order_id": order})}}]},
        {"role": "tool", "tool_call_id": f"c{c}", "content": json.dumps(output)},
        {"role": "assistant", "content": f"Order {order} has shipped with SF, tracking SF{order}."},
        {"role": "user", "content": "And the tracking number again?"},
        {"role": "assistant", "content": f"Your tracking number is SF{int(order) + 7}."},
    ]
    return json.dumps({"id": f"conv-{c}", "messages": messages}) + "\n"


def write_file(path: str, megabytes: float) -> int:
    target, written, c = megabytes * 1e6, 0, 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            text = line(c)
            f.write(text)
            written += len(text)
            c += 1
    return c


_MEASURED = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
)
"""Runs the audit as its only child and prints that child's peak RSS (KiB) and exit status."""


def audit(root: str, path: str) -> tuple[float, int, int]:
    """Wall seconds, peak RSS (bytes) of the audit process, and its exit status."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURED, sys.executable, "-m", "factcheck", "audit", path,
                           "--json", "-q"], cwd=root, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    peak, code = done.stdout.split()
    return seconds, int(peak) * 1024, int(code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sizes", nargs="+", type=float, help="file sizes in MB, smallest first")
    parser.add_argument("--root", default=os.getcwd(), help="checkout whose factcheck runs (default: here)")
    args = parser.parse_args()
    print(f"factcheck from {args.root}")
    print(f"{'file MB':>8} {'lines':>7} {'seconds':>8} {'MB/s':>6} {'peak RSS MB':>12} {'exit':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sorted(args.sizes):
            path = os.path.join(tmp, f"audit-{size:g}.jsonl")
            lines = write_file(path, size)
            megabytes = os.path.getsize(path) / 1e6
            seconds, peak, code = audit(args.root, path)
            print(f"{megabytes:>8.1f} {lines:>7} {seconds:>8.1f} {megabytes / seconds:>6.2f} {peak / 1e6:>12.0f} "
                  f"{code:>5}")
            os.remove(path)


if __name__ == "__main__":
    main()
