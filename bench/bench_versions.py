"""Benchmark: two checkouts of meteor_core in ONE process, on the WMT22 de-en pairs, with nltk's
meteor_score beside them. Speed swings of this (shared, 2-core) machine reach +-30% between
runs, which hides any change smaller than that when before and after run separately; here the
two versions and nltk run the same slice of 100 pairs in turn and each slice keeps its fastest
of 3 runs, so a swing hits all three alike. Also checks that both versions give the same
results (score, links with stage and evidence, chunks, crossings, per-stage snapshots).

Prints time per pair and ratios for the whole score call and its parts (tokenize, alignment,
building the result objects), and the cost of keeping every result alive (as score_corpus
does: the garbage collector then walks them again and again). Never asserts.

    .venv/bin/python bench/bench_versions.py --base /path/to/other/checkout [--limit N]
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from wmt_data import wmt22_pairs  # noqa: E402


def load(name: str, root: str):
    """meteor_core of `root` imported as package `name` (its modules import each other
    relatively, so two copies live side by side)."""
    spec = importlib.util.spec_from_file_location(name, f"{root}/meteor_core/__init__.py",
                                                  submodule_search_locations=[f"{root}/meteor_core"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def fingerprint(result) -> str:
    best = result.best
    return repr((result.score, [(l.candidate, l.reference, l.stage, l.evidence) for l in best.links],
                 best.optimal, best.crossings,
                 [(s.candidate_start, s.candidate_end, s.reference_start, s.reference_end) for s in best.chunk_spans],
                 [(s.stage, s.candidate_edges, s.unmatched_candidate, s.unmatched_reference, s.optimal)
                  for s in best.snapshots]))


def fastest(run, data, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for a, b in data:
            run(a, b)
        best = min(best, time.perf_counter() - start)
    return best


def compare(label: str, runs: dict, data: list) -> dict:
    """Time each run on each slice of 100 items in turn (fastest of 3 per slice)."""
    totals = dict.fromkeys(runs, 0.0)
    for k in range(0, len(data), 100):
        part = data[k:k + 100]
        for name, run in runs.items():
            totals[name] += fastest(run, part)
    per_item = {name: total * 1e6 / len(data) for name, total in totals.items()}
    names = list(runs)
    line = ", ".join(f"{name} {per_item[name]:.0f} us" for name in names)
    ratio = totals[names[1]] / totals[names[0]]
    print(f"{label:28s} {line}   {names[1]}/{names[0]} time {ratio:.2f}", flush=True)
    return per_item


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="checkout to compare with (the 'before')")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--lengths", default="",
                        help="only this: pairs of L tokens per side (e.g. 80,160; bench_length's pairs), 20 per length")
    args = parser.parse_args()
    base = load("meteor_base", args.base)
    this = load("meteor_this", str(ROOT))
    from nltk.translate.meteor_score import meteor_score

    pairs = wmt22_pairs(("Online-A", "Online-B"), limit=args.limit)
    tokenize = sys.modules["meteor_this.tokenize"].tokenize
    words = [([t.text for t in tokenize(c)], [t.text for t in tokenize(r)]) for c, r in pairs]
    old, new = base.Scorer(base.MeteorConfig()), this.Scorer(this.MeteorConfig())
    differ = 0
    for c, r in words:  # also warms every cache of both and nltk's WordNet
        differ += fingerprint(old.score(c, [r])) != fingerprint(new.score(c, [r]))
        meteor_score([r], c)
    print(f"{len(words)} WMT22 de-en pairs (pre-tokenized); base {args.base}; results that differ: {differ}")
    if args.lengths:
        import wmt_data

        for length in map(int, args.lengths.split(",")):
            long_pairs = wmt_data.joined_pairs(words, length, 20)
            proven = [sum(s.score(c, [r]).best.optimal for c, r in long_pairs) for s in (old, new)]
            differ = sum(fingerprint(old.score(c, [r])) != fingerprint(new.score(c, [r])) for c, r in long_pairs)
            runs = (("base", lambda c, r: old.score(c, [r])), ("this", lambda c, r: new.score(c, [r])),
                    ("nltk", lambda c, r: meteor_score([r], c)))
            per_pair = dict.fromkeys(("base", "this", "nltk"), 0.0)
            for pair in long_pairs:  # pair by pair in turn, fastest of 3 each
                for name, run in runs:
                    per_pair[name] += fastest(run, [pair]) * 1000 / len(long_pairs)
            print(f"L={length:4d}: ms per pair base {per_pair['base']:.2f}, this {per_pair['this']:.2f}, "
                  f"nltk {per_pair['nltk']:.2f}; ours/nltk base {per_pair['base'] / per_pair['nltk']:.2f}, "
                  f"this {per_pair['this'] / per_pair['nltk']:.2f}; proven optimal base {proven[0]}/20, "
                  f"this {proven[1]}/20; results that differ {differ}", flush=True)
        return
    whole = compare("score (warm, one core)", {"base": lambda c, r: old.score(c, [r]),
                                               "this": lambda c, r: new.score(c, [r]),
                                               "nltk": lambda c, r: meteor_score([r], c)}, words)
    print(f"{'':28s} nltk/base {whole['nltk'] / whole['base']:.2f}x, nltk/this {whole['nltk'] / whole['this']:.2f}x")
    compare("tokenize (both sides)", {"base": lambda c, r: (old.tokenize(c, "c"), old.tokenize(r, "r")),
                                      "this": lambda c, r: (new.tokenize(c, "c"), new.tokenize(r, "r"))}, words)
    tokens = [(new.tokenize(c, "c"), new.tokenize(r, "r")) for c, r in words]
    norms = [([t.norm for t in c], [t.norm for t in r]) for c, r in tokens]
    align_old, align_new = sys.modules["meteor_base.align"].align_stages, sys.modules["meteor_this.align"].align_stages
    compare("alignment (three stages)", {"base": lambda c, r: align_old(c, r, old.stages),
                                         "this": lambda c, r: align_new(c, r, new.stages)}, norms)
    # Each version scores its own Token objects (the two copies' Token classes differ).
    tokens_old = [(old.tokenize(c, "c"), old.tokenize(r, "r")) for c, r in words]
    compare("score_tokens (align+build)", {"base": lambda k, _: old.score_tokens(*tokens_old[k]),
                                           "this": lambda k, _: new.score_tokens(*tokens[k])},
            [(k, None) for k in range(len(tokens))])
    # One `batch` output line (score, both BLEUs, JSON) and the sacreBLEU view in it, on the raw
    # strings. The first pass of each version tokenizes with 13a once; the timed passes hit
    # sacreBLEU's tokenizer cache, so they show the rest of the work.
    import json

    raw = [(k + 1, json.dumps({"candidate": c, "references": [r]}).encode()) for k, (c, r) in enumerate(pairs)]
    line_old, line_new = (importlib.import_module(f"{v}.cli").batch_line for v in ("meteor_base", "meteor_this"))
    compare("batch line (score+BLEU+JSON)", {"base": lambda k, _: line_old(old, raw[k]),
                                             "this": lambda k, _: line_new(new, raw[k])},
            [(k, None) for k in range(len(raw))])
    view_old, view_new = (importlib.import_module(f"{v}.sacrebleu_view").view for v in ("meteor_base", "meteor_this"))
    bleu_old, bleu_new = sys.modules["meteor_base.report"].bleu_for, sys.modules["meteor_this.report"].bleu_for
    scored = [(old.score(c, [r]), new.score(c, [r])) for c, r in pairs]
    scored = [(a, bleu_old(a), b, bleu_new(b)) for a, b in scored]
    compare("sacreBLEU view", {"base": lambda k, _: view_old(scored[k][0], scored[k][1]),
                               "this": lambda k, _: view_new(scored[k][2], scored[k][3])},
            [(k, None) for k in range(len(scored))])

    start = time.perf_counter()
    everything = [new.score(c, [r]) for c, r in words]  # every result alive, as in a corpus run
    alive = time.perf_counter() - start
    del everything
    start = time.perf_counter()
    for c, r in words:
        new.score(c, [r])
    dropped = time.perf_counter() - start
    print(f"{'this, results kept alive':28s} {alive * 1e6 / len(words):.0f} us per pair vs {dropped * 1e6 / len(words):.0f} "
          f"dropped ({alive / dropped:.2f}x: the garbage collector walking the kept results)")


if __name__ == "__main__":
    main()
