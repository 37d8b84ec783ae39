"""Every throughput benchmark of issue 11 in one run, one after the other (never two at once:
they would share the machine's cores), each printing its own ratios:

  1. bench_wmt22.py     end to end and warm: this scorer vs a loop over nltk's meteor_score
  2. bench_workers.py   `batch` on 1 worker vs all cores (and nltk's loop)
  3. bench_length.py    time per pair and pairs not proven optimal, 5 to 200 tokens per side
  4. bench_wmt21_chunks.py  the fewest-chunks objective on all 6,010 WMT21 segments
  5. bench_versions.py  (with --base) this checkout vs another, in one process

    .venv/bin/python bench/bench_all.py [--base OTHER_CHECKOUT] [--quick]

--quick: fewer repeats and no 200,000-line memory run. Data: ../shared/data.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def run(script: str, *args: str) -> None:
    print(f"\n=== {script} {' '.join(args)}", flush=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(BENCH / script), *args])
    print(f"=== {script}: exit {done.returncode}, {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="another checkout for bench_versions.py (the 'before')")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = "1" if args.quick else "3"
    run("bench_wmt22.py", "--repeat", repeat)
    run("bench_workers.py", "--repeat", repeat, "--rss-lines", "0" if args.quick else "200000")
    run("bench_length.py", "--lengths", "5,10,20,40,80,120,160,200")
    run("bench_wmt21_chunks.py")
    if args.base:
        run("bench_versions.py", "--base", args.base)


if __name__ == "__main__":
    main()
