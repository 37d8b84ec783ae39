"""Benchmark: `python -m meteor_core batch` on 1 worker vs all cores, end to end, on the WMT22
de-en pairs of bench/bench_wmt22.py, with nltk's meteor_score loop as a reference (and `batch
--no-bleu` on all cores: METEOR only per line, like with like with that loop); and the
peak memory of a long stream (default 200,000 lines, no two alike) on all cores, sampled over time.

Each run is a fresh process (imports, WordNet, pool start-up included); runs alternate and the
median of --repeat is reported, so other load on the machine hits both alike. Prints ratios,
never asserts. Data: ../shared/data (not part of the repo).

    .venv/bin/python bench/bench_workers.py [--repeat 3] [--rss-lines 200000] [--repeated-lines]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import bench_wmt22  # noqa: E402  (the same pairs as bench_wmt22)
from bench_wmt22 import load_pairs, run_worker  # noqa: E402

from meteor_core.parallel import available_cores  # noqa: E402
from wmt_data import byte_compile  # noqa: E402


def _tree_rss_kb(pid: int) -> tuple[int, int]:
    """(sum over the process and its descendants, largest single process) in kB, from /proc."""
    total, largest, stack = 0, 0, [pid]
    while stack:
        p = stack.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
            for task in Path(f"/proc/{p}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, StopIteration, ValueError):
            continue
        total += rss
        largest = max(largest, rss)
    return total, largest


def run_batch(path: Path, workers: int, sample_every: float = 0.0, extra: tuple = ()) -> dict:
    """Time one `batch` run over the JSONL at path; optionally sample the process tree's RSS."""
    start = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    digest = hashlib.sha256()
    lines = 0
    samples = []
    with open(path, "rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--workers", str(workers), *extra],
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
        last = start
        for line in proc.stdout:
            digest.update(line)
            lines += 1
            now = time.perf_counter()
            if sample_every and now - last >= sample_every:
                last = now
                samples.append((lines, *_tree_rss_kb(proc.pid)))
                if len(samples) % 60 == 1:  # a line a minute, so a long run shows its memory as it goes
                    print(f"    {now - start:6.0f} s: {lines:>8,} lines, RSS {samples[-1][1] / 1024:7.1f} MB total, "
                          f"largest process {samples[-1][2] / 1024:6.1f} MB", flush=True)
        proc.wait()
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the batch process and its workers
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    return {"seconds": time.perf_counter() - start, "cpu": cpu, "lines": lines, "sha256": digest.hexdigest(),
            "samples": samples, "returncode": proc.returncode}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--systems", default="Online-A,Online-B")
    parser.add_argument("--repeat", type=int, default=3, help="0: skip the timing runs")
    parser.add_argument("--rss-lines", type=int, default=200_000, help="0: skip the long-stream memory run")
    parser.add_argument("--repeated-lines", action="store_true",
                        help="the memory run repeats the pairs as they are (caches then hit); default: distinct lines")
    args = parser.parse_args()

    pairs = load_pairs(args.systems.split(","), 0)
    jsonl = Path("/tmp/meteor_bench_workers.jsonl")
    jsonl.write_text("".join(json.dumps({"candidate": c, "references": [r]}) + "\n" for c, r in pairs))
    pairs_path = "/tmp/meteor_bench_pairs.json"
    Path(pairs_path).write_text(json.dumps(pairs))
    cores = available_cores()
    print(f"{len(pairs)} de-en pairs from WMT22 ({args.systems}); {cores} cores; load from other processes "
          f"on the machine shows in the absolute times, less in the ratios (runs alternate); {byte_compile(ROOT)}")

    runs: dict[str, list] = {"nltk": [], "1": [], str(cores): [], "lean": []}
    for _ in range(args.repeat if args.repeat else 0):
        runs["nltk"].append(run_worker("nltk", pairs_path)["wall"])
        for workers in (1, cores):
            result = run_batch(jsonl, workers)
            assert result["returncode"] == 0 and result["lines"] == len(pairs)
            runs[str(workers)].append(result)
        # METEOR only, like the nltk loop: no BLEU or sacreBLEU per line
        result = run_batch(jsonl, cores, extra=("--no-bleu",))
        assert result["returncode"] == 0 and result["lines"] == len(pairs)
        runs["lean"].append(result)

    def median(values):
        return sorted(values)[len(values) // 2]

    if args.repeat:
        report_timing(runs, pairs, cores, args.repeat, median)
    if args.rss_lines:
        report_memory(jsonl, args.rss_lines, cores, args.repeated_lines)


def report_timing(runs, pairs, cores, repeat, median) -> None:
    nltk_s = median(runs["nltk"])
    one = median([r["seconds"] for r in runs["1"]])
    many = median([r["seconds"] for r in runs[str(cores)]])
    one_cpu = median([r["cpu"] for r in runs["1"]])
    many_cpu = median([r["cpu"] for r in runs[str(cores)]])
    same = {r["sha256"] for r in runs["1"] + runs[str(cores)]}
    print(f"medians of {repeat} runs, end to end (process start, imports, WordNet, pool start-up)")
    print(f"  nltk meteor_score loop           {nltk_s:7.2f} s")
    print(f"  batch --workers 1                {one:7.2f} s   {len(pairs) / one:6.0f} lines/s   CPU {one_cpu:6.2f} s")
    print(f"  batch --workers {cores:<2d}               {many:7.2f} s   {len(pairs) / many:6.0f} lines/s   CPU {many_cpu:6.2f} s")
    print(f"ratio 1 worker / {cores} workers: {one / many:.2f}x   (ideal {cores}x on an idle machine)")
    print(f"CPU spent by the pool per CPU second of one worker: {many_cpu / one_cpu:.2f} (1.00 = no overhead; "
          f"on an idle machine the speed-up is about {cores} / this)")
    print(f"ratio nltk / batch on {cores} workers: {nltk_s / many:.2f}x;  nltk / batch on 1 worker: {nltk_s / one:.2f}x")
    print(f"output identical across all runs and worker counts: {len(same) == 1}")
    lean = median([r["seconds"] for r in runs["lean"]])
    print(f"  batch --workers {cores:<2d} --no-bleu      {lean:7.2f} s   {len(pairs) / lean:6.0f} lines/s   "
          "(METEOR only, as the nltk loop)")
    print(f"ratio nltk / batch --no-bleu on {cores} workers: {nltk_s / lean:.2f}x")


def report_memory(jsonl: Path, rss_lines: int, cores: int, repeated: bool = False) -> None:
    """The pairs repeated up to rss_lines. Unless `repeated`, each candidate gets its line
    number appended, so no two lines are alike and no cache can hide growth (references
    still repeat, as they do across the systems of a test set)."""
    long_path = Path("/tmp/meteor_bench_workers_long.jsonl")
    with open(jsonl, "rb") as f:
        block = f.read().splitlines()
    with open(long_path, "wb") as out:
        for k in range(rss_lines):
            line = block[k % len(block)]
            if not repeated:
                item = json.loads(line)
                item["candidate"] += f" {k}"
                line = json.dumps(item, ensure_ascii=False).encode("utf-8")
            out.write(line + b"\n")
    kind = "repeated" if repeated else "distinct"
    print(f"\n{rss_lines:,} {kind} lines on {cores} workers, RSS sampled every second:", flush=True)
    result = run_batch(long_path, cores, sample_every=1.0)
    long_path.unlink()
    print(f"\n{rss_lines:,} {kind} lines on {cores} workers: {result['seconds']:.0f} s, "
          f"{result['lines']:,} output lines, exit {result['returncode']}")
    samples = result["samples"]
    if samples:
        print("  RSS of the whole process tree (main + workers) as the stream goes:")
        for k in range(10):
            lines, total, largest = samples[min(len(samples) - 1, (k + 1) * len(samples) // 10 - 1)]
            print(f"    after {lines:>8,} lines: {total / 1024:7.1f} MB total, largest process {largest / 1024:6.1f} MB")
        print(f"  peak: {max(s[1] for s in samples) / 1024:.1f} MB total, "
              f"{max(s[2] for s in samples) / 1024:.1f} MB largest process")


if __name__ == "__main__":
    main()
