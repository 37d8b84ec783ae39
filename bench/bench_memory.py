"""Memory of kept results, on real WMT22 text: what a corpus page's session or `corpus` holds.

For each checkout (this one, and with --root another, the baseline), in a fresh process each:
  * 3,968 WMT22 de-en pairs (Online-A and Online-B) analysed as one corpus;
  * cs-en's 12 systems (17,376 segments) analysed one corpus per system, all kept (System
    Comparison's default on that test set);
  * pickling one result and loading it back (worker processes send every result so).
Prints the growth of the process's resident memory (RSS, after a full collection) and bytes per
token held (CorpusAnalysis.tokens_held), time of the analyses (one core, so noisy on a shared
machine), and per-result pickle times (best of 5). Never asserts.

    .venv/bin/python bench/bench_memory.py [--root /tmp/base]
Data: ../shared/data (wmt_data.py), never needed by the tests.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Run in a fresh process with the checkout first on sys.path; prints one JSON line.
_MEASURE = r"""
import gc, json, pickle, sys, time
root = sys.argv[1]
sys.path[:0] = [root, root + "/bench"]
import wmt_data
from meteor_core import MeteorConfig, Scorer
from meteor_core.corpus import analyze_corpus
from meteor_core.corpus_io import CorpusInput

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

def corpus(pairs):
    return CorpusInput(ids=tuple(str(k) for k in range(len(pairs))), candidates=tuple(c for c, _ in pairs),
                       references=tuple((r,) for _, r in pairs), lines=tuple(range(1, len(pairs) + 1)))

out = {}
config = MeteorConfig()
analyze_corpus(corpus([("a cat", "a cat")]), config, workers=1)  # WordNet and caches loaded first
by_system = {}
for row in wmt_data._rows(wmt_data.data_dir() / "wmt22-toen" / "outputs.tsv.gz"):
    if row["lp"] == "cs-en" and row["candidate"].strip() and row["reference"].strip():
        by_system.setdefault(row["system"], []).append((row["candidate"], row["reference"]))
for name, sets in (("de-en, 3,968 pairs", [wmt_data.wmt22_pairs()]), ("cs-en, 12 systems", list(by_system.values()))):
    gc.collect()
    before, start = rss(), time.perf_counter()
    kept = [analyze_corpus(corpus(pairs), config, workers=1) for pairs in sets]
    seconds = time.perf_counter() - start
    gc.collect()
    grown = rss() - before
    tokens = sum(a.tokens_held for a in kept)
    out[name] = {"MB": grown / 1e6, "bytes a token": grown / tokens, "tokens": tokens, "s": seconds}
    del kept
results = [Scorer(config).score(c, [r]) for c, r in wmt_data.wmt22_pairs()[:500]]
dumps, loads = [], []
for _ in range(5):
    start = time.perf_counter(); blob = pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL)
    dumps.append(time.perf_counter() - start)
    start = time.perf_counter(); pickle.loads(blob); loads.append(time.perf_counter() - start)
out["pickle"] = {"dump us": min(dumps) / 500 * 1e6, "load us": min(loads) / 500 * 1e6, "bytes": len(blob) / 500}
print(json.dumps(out))
"""


def measure(root: Path) -> dict:
    ran = subprocess.run([sys.executable, "-c", _MEASURE, str(root)], capture_output=True, text=True, check=True)
    return json.loads(ran.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, help="another checkout to measure the same way (the baseline)")
    args = parser.parse_args()
    roots = [ROOT] + ([args.root] if args.root else [])
    found = {root: measure(root) for root in roots}
    for name in ("de-en, 3,968 pairs", "cs-en, 12 systems"):
        print(name)
        for root in roots:
            m = found[root][name]
            print(f"  {str(root):40s} RSS +{m['MB']:6.0f} MB  {m['bytes a token']:5.0f} B/token  "
                  f"({m['tokens']:,} tokens, {m['s']:.1f} s)")
        if args.root:
            print(f"  memory, this / baseline: {found[ROOT][name]['MB'] / found[args.root][name]['MB']:.2f}")
    print("pickle a result (500 WMT22 de-en pairs, best of 5)")
    for root in roots:
        m = found[root]["pickle"]
        print(f"  {str(root):40s} dump {m['dump us']:5.0f} us  load {m['load us']:5.0f} us  {m['bytes']:6.0f} bytes")


if __name__ == "__main__":
    main()
