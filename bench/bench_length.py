"""Per-pair cost by length: real WMT22 de-en text joined into pairs of exactly L candidate
tokens (bench/wmt_data.joined_pairs), paper mode (exact+stem+synonym, default budget) against
nltk's meteor_score on the same tokens, interleaved pair by pair so machine load hits both
alike. Prints ms per pair, the ratio ours/nltk and how many alignments are not proven optimal.

    .venv/bin/python bench/bench_length.py [--lengths 5,20,40,80,160] [--count 60] [--objective crossings]
        [--root CHECKOUT]   # import meteor_core from another checkout (a "before" baseline)
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wmt_data  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", default="5,20,40,80,160")
    # 60, not 20: the first 20 joined pairs at 160 tokens are easier than the text around
    # them (ours/nltk 0.98-1.23 on 20 pairs, 1.9 on 60), and the hard pairs are the point.
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--objective", default="crossings")
    parser.add_argument("--root", default=str(wmt_data.ROOT))
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import meteor_score

    from meteor_core import MeteorConfig, Scorer
    from meteor_core.tokenize import tokenize

    wordnet.ensure_loaded()
    scorer = Scorer(MeteorConfig(objective=args.objective))
    tokens = [([t.text for t in tokenize(c)], [t.text for t in tokenize(r)]) for c, r in wmt_data.wmt22_pairs()]
    for c, r in tokens[:50]:  # warm both (WordNet caches, imports)
        scorer.score(c, [r])
        meteor_score([r], c)
    print(f"meteor_core from {args.root}; objective {args.objective}; {args.count} pairs per length")
    print(f"{'L':>5} {'ours ms':>9} {'nltk ms':>9} {'ours/nltk':>10} {'not optimal':>12} {'slowest ms':>11}")
    for length in map(int, args.lengths.split(",")):
        pairs = wmt_data.joined_pairs(tokens, length, args.count)
        ours = theirs = slowest = 0.0
        not_optimal = 0
        for c, r in pairs:
            t = time.perf_counter()
            result = scorer.score(c, [r]).best
            dt = time.perf_counter() - t
            ours += dt
            slowest = max(slowest, dt)
            not_optimal += not result.optimal
            t = time.perf_counter()
            meteor_score([r], c)
            theirs += time.perf_counter() - t
        n = len(pairs)
        print(f"{length:5d} {ours / n * 1000:9.2f} {theirs / n * 1000:9.2f} {ours / theirs:10.2f} "
              f"{not_optimal:6d}/{n:<5d} {slowest * 1000:11.1f}", flush=True)


if __name__ == "__main__":
    main()
