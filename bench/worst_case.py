"""The slow inputs of issue 12 item 4, each timed in a fresh process (time limit per case), so
that a checkout before the fix can be measured the same way. Prints seconds, matches, work and
whether the alignment is proven optimal.

    .venv/bin/python bench/worst_case.py [--root CHECKOUT] [--limit 120]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "2,000 tokens of 'the ,' both sides": ("['the', ','] * 1000", "['the', ','] * 1000", {}),
    "1,000 exact links + 500 x 501 stem stage": (
        "['w%d' % i for i in range(1000)] + ['cats'] * 500", "['w%d' % i for i in range(1000)] + ['cat'] * 501", {}),
    "5-word vocabulary, 2,000 tokens, chunks": (
        "random.Random(1).choices(['the', 'cat', 'sat', 'on', 'mat'], k=2000)",
        "random.Random(2).choices(['the', 'cat', 'sat', 'on', 'mat'], k=2000)", {"objective": "chunks"}),
    "5-word vocabulary, 2,000 tokens, crossings": (
        "random.Random(1).choices(['the', 'cat', 'sat', 'on', 'mat'], k=2000)",
        "random.Random(2).choices(['the', 'cat', 'sat', 'on', 'mat'], k=2000)", {}),
    "French thesaurus, 2,000 tokens": (
        "(['grand', 'le', 'chat', 'petit', 'maison'] * 400)", "(['gros', 'la', 'chatte', 'minuscule', 'demeure'] * 400)",
        {"language": "fr"}),
}

WORKER = r'''
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from meteor_core import MeteorConfig, Scorer
cand, ref, options = eval(sys.argv[2]), eval(sys.argv[3]), json.loads(sys.argv[4])
scorer = Scorer(MeteorConfig(**options))
t = time.perf_counter()
best = scorer.score(cand, [ref]).best
print(json.dumps({"seconds": time.perf_counter() - t, "matches": best.stats.matches, "optimal": best.optimal,
                  "work": sum(s.nodes for s in best.snapshots)}))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--limit", type=float, default=120)
    args = parser.parse_args()
    print(f"meteor_core from {args.root}")
    for name, (cand, ref, options) in CASES.items():
        t = time.perf_counter()
        try:
            out = subprocess.run([sys.executable, "-c", WORKER, args.root, cand, ref, json.dumps(options)],
                                 capture_output=True, text=True, timeout=args.limit)
        except subprocess.TimeoutExpired:
            print(f"  {name:45s} > {args.limit:.0f} s (stopped)", flush=True)
            continue
        if out.returncode:
            print(f"  {name:45s} failed: {out.stderr.strip().splitlines()[-1]}", flush=True)
            continue
        r = json.loads(out.stdout)
        print(f"  {name:45s} {r['seconds']:7.2f} s  matches {r['matches']:5d}  work {r['work']:7d}  "
              f"optimal {r['optimal']}  (process {time.perf_counter() - t:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
