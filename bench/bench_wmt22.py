"""Benchmark: paper mode (exact+stem+synonym) vs nltk's meteor_score on real WMT22 pairs.

Each scorer runs in a fresh process, so end-to-end time includes imports and loading WordNet.
Prints ratios (nltk time / ours), never asserts. Data: ../shared/data (not part of the repo).

    .venv/bin/python bench/bench_wmt22.py [--systems Online-A,Online-B] [--limit N] [--root CHECKOUT]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from wmt_data import byte_compile, wmt22_pairs  # noqa: E402  (finds ../shared/data from a worktree too)


def load_pairs(systems: list[str], limit: int) -> list[tuple[str, str]]:
    return wmt22_pairs(tuple(systems), limit=limit)


WORKER = r'''
import json, sys, time
t0 = time.perf_counter()
mode, path = sys.argv[1], sys.argv[2]
pairs = json.load(open(path))
sys.path.insert(0, sys.argv[3])
from meteor_core.tokenize import tokenize
tokenized = [([t.text for t in tokenize(c)], [t.text for t in tokenize(r)]) for c, r in pairs]
if mode == "nltk":
    from nltk.translate.meteor_score import meteor_score
    from nltk.corpus import wordnet
    wordnet.ensure_loaded()
    loaded = time.perf_counter()
    def run(c, r):
        return meteor_score([r], c), True
else:
    from meteor_core import MeteorConfig, Scorer
    scorer = Scorer(MeteorConfig(mode=mode.removeprefix("lens-")))
    loaded = time.perf_counter()
    def run(c, r):
        res = scorer.score(c, [r])
        return res.score, res.best.optimal
scores, optimal, slowest = [], 0, (0.0, -1)
start = time.perf_counter()
for k, (c, r) in enumerate(tokenized):
    t = time.perf_counter()
    s, ok = run(c, r)
    dt = time.perf_counter() - t
    slowest = max(slowest, (dt, k))
    scores.append(s); optimal += ok
end = time.perf_counter()
# warm: a second pass over the same pairs, with every cache filled
for c, r in tokenized[:1000]:
    run(c, r)
warm = time.perf_counter() - end
print(json.dumps({"end_to_end": end - t0, "load": loaded - t0, "first_pass": end - start,
                  "warm_pairs_per_s": min(1000, len(tokenized)) / warm, "optimal": optimal,
                  "slowest": slowest, "scores": scores}))
'''


def run_worker(mode: str, path: str, root: Path = ROOT) -> dict:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", WORKER, mode, path, str(root)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    result["wall"] = time.perf_counter() - t
    return result


def adversarial(root: Path = ROOT) -> None:
    import random

    sys.path.insert(0, str(root))
    from meteor_core import MeteorConfig, Scorer

    rng = random.Random(0)
    tokens = ["the", ","] * 100
    shuffled = tokens[:]
    rng.shuffle(shuffled)
    cases = {
        "200 x one word vs 200 x one word": (["w"] * 200, ["w"] * 200),
        "200 x one word vs 150 x one word": (["w"] * 200, ["w"] * 150),
        "100 x 'the ,' vs shuffled copy": (tokens, shuffled),
        "100 x 'the ,' vs shuffled copy minus 20": (tokens, shuffled[:-20]),
    }
    print("\nadversarial inputs (paper mode, exact+stem+synonym):")
    for objective in ("crossings", "chunks"):
        scorer = Scorer(MeteorConfig(objective=objective))
        for name, (cand, ref) in cases.items():
            t = time.perf_counter()
            res = scorer.score(cand, [ref])
            dt = time.perf_counter() - t
            nodes = sum(s.nodes for s in res.best.snapshots)
            print(f"  {objective:9s} {name:42s} {dt * 1000:8.1f} ms  matches {res.best.stats.matches:3d}  "
                  f"nodes {nodes:6d}  optimal {res.best.optimal}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--systems", default="Online-A,Online-B")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", default=str(ROOT), help="import meteor_core from this checkout (a baseline)")
    args = parser.parse_args()
    pairs = load_pairs(args.systems.split(","), args.limit)
    path = "/tmp/meteor_bench_pairs.json"
    Path(path).write_text(json.dumps(pairs))
    print(f"{len(pairs)} de-en pairs from WMT22 ({args.systems}); {byte_compile(Path(args.root))}")
    # Median of --repeat fresh processes each, alternating, so machine noise hits both alike.
    # nltk: the library's meteor_score; paper: this scorer; lens-nltk: this scorer's nltk mode
    runs = {"nltk": [], "paper": [], "lens-nltk": []}
    for _ in range(args.repeat):
        for mode in runs:
            runs[mode].append(run_worker(mode, path, Path(args.root)))

    def median_run(results):
        keys = ("end_to_end", "load", "first_pass", "warm_pairs_per_s")
        out = dict(results[0])
        for key in keys:
            out[key] = sorted(r[key] for r in results)[len(results) // 2]
        return out

    nltk_run, paper, lens_nltk = median_run(runs["nltk"]), median_run(runs["paper"]), median_run(runs["lens-nltk"])
    print(f"medians of {args.repeat} runs each")
    for name, r in (("nltk meteor_score", nltk_run), ("paper mode", paper), ("nltk mode (ours)", lens_nltk)):
        print(f"{name:18s} end-to-end {r['end_to_end']:6.2f} s (load {r['load']:.2f} s, first pass {r['first_pass']:.2f} s)"
              f"   warm {r['warm_pairs_per_s']:7.0f} pairs/s   slowest pair {r['slowest'][0] * 1000:.1f} ms (#{r['slowest'][1]})")
    print(f"ratio end-to-end nltk/paper: {nltk_run['end_to_end'] / paper['end_to_end']:.2f}x")
    print(f"ratio warm pairs/s paper/nltk: {paper['warm_pairs_per_s'] / nltk_run['warm_pairs_per_s']:.2f}x")
    print(f"nltk mode (ours) vs nltk meteor_score: end-to-end {nltk_run['end_to_end'] / lens_nltk['end_to_end']:.2f}x, "
          f"warm {lens_nltk['warm_pairs_per_s'] / nltk_run['warm_pairs_per_s']:.2f}x; same scores: "
          f"{sum(abs(a - b) < 1e-12 for a, b in zip(lens_nltk['scores'], nltk_run['scores']))}/{len(pairs)}")
    print(f"alignments proven optimal (paper): {paper['optimal']}/{len(pairs)} = {paper['optimal'] / len(pairs):.4f}")
    slow = pairs[paper["slowest"][1]]
    print(f"slowest paper pair: {len(slow[0].split())} x {len(slow[1].split())} words: {slow[0][:80]!r}")
    adversarial(Path(args.root))


if __name__ == "__main__":
    main()
