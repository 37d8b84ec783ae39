"""Corpus pages at scale, on real WMT22 data (from ../shared/data, never copied here):

1. the core analysis of 3,000 de-en segments with human DA scores (METEOR + BLEU + correlations);
2. significance tests for 4 systems of one language pair (1,984 segments each): our vectorized
   paired bootstrap + approximate randomization (METEOR and BLEU, every pair) against
   sacreBLEU's own paired tests on BLEU alone (its loop over resamples), run in the same
   process, interleaved, as the baseline: the ratio is what to read (the machine is shared);
3. the Corpus Explorer page: upload + score, then a filter change, which must not rescore.

    .venv/bin/python bench/bench_corpus.py [--n 3000] [--lp de-en]
"""
import argparse
import csv
import gzip
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "wmt22-toen"
if not DATA.exists():
    DATA = Path("/work/shared/data/wmt22-toen")


def build_tsv(n: int) -> bytes:
    csv.field_size_limit(10**7)
    out = io.StringIO()
    out.write("id\tcandidate\treference\thuman\n")
    count = 0
    with gzip.open(DATA / "seg_da.tsv.gz", "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["candidate"].strip() and row["reference"].strip():
                out.write(f"{row['lp']}-{row['system']}-{row['seg_id']}\t{row['candidate']}\t{row['reference']}\t{row['human_z']}\n")
                count += 1
                if count == n:
                    break
    return out.getvalue().encode("utf-8")


def four_systems(lp: str):
    import pandas as pd

    frame = pd.read_csv(DATA / "outputs.tsv.gz", sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False)
    frame = frame[(frame["lp"] == lp) & (~frame["system"].astype(str).str.startswith("HUMAN"))]
    names = sorted(frame["system"].unique())[:4]
    by_system = {s: frame[frame["system"] == s].sort_values("seg_id") for s in names}
    references = list(by_system[names[0]]["reference"])
    return names, {s: list(by_system[s]["candidate"]) for s in names}, references


def bench_significance(lp: str) -> None:
    import numpy as np
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from meteor_core import MeteorConfig
    from meteor_core.corpus import analyze_systems, compare_analyses
    from meteor_core.corpus_io import CorpusInput

    names, outputs, references = four_systems(lp)
    corpora = [CorpusInput(tuple(str(k + 1) for k in range(len(references))), tuple(outputs[s]),
                           tuple((r,) for r in references)) for s in names]
    config = MeteorConfig()
    t = time.perf_counter()
    analyses = analyze_systems(corpora, config, names)
    print(f"{lp}: {len(names)} systems x {len(references)} segments scored in {time.perf_counter() - t:.1f} s")
    ours, theirs = [], []
    for _ in range(3):  # interleaved: load from other processes hits both alike
        t = time.perf_counter()
        comparison = compare_analyses(analyses, names, config, 1000, 10000, 12345)
        ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        PairedTest([(s, outputs[s]) for s in names], {"BLEU": BLEU()}, [references], test_type="bs", n_samples=1000)()
        PairedTest([(s, outputs[s]) for s in names], {"BLEU": BLEU()}, [references], test_type="ar", n_samples=10000)()
        theirs.append(time.perf_counter() - t)
    ours_t, theirs_t = float(np.median(ours)), float(np.median(theirs))
    print(f"significance, median of 3: ours {ours_t:.2f} s (METEOR + BLEU, all {len(comparison.significance.pairs) // 2} "
          f"pairs, 1000 bootstrap + 10000 randomization) vs sacreBLEU {theirs_t:.2f} s (BLEU only, baseline vs "
          f"{len(names) - 1} others, same counts; includes its BLEU statistics): ratio {theirs_t / ours_t:.1f}x")
    for p in comparison.significance.pairs:
        print(f"  {p.metric:6s} {p.system_a} vs {p.system_b}: {p.difference:+.4f} [{p.difference_ci_low:+.4f}, "
              f"{p.difference_ci_high:+.4f}] p_bs {p.p_value_bootstrap:.4f} p_ar {p.p_value_randomization:.4f}")


def bench_page(n: int) -> None:
    data = build_tsv(n)
    from meteor_core import MeteorConfig
    from meteor_core.corpus import analyze_corpus
    from meteor_core.corpus_io import corpus_from_table, read_table

    t = time.perf_counter()
    corpus = corpus_from_table(read_table(data, "wmt22.tsv"), "candidate", ["reference"], "id", "human")
    analysis = analyze_corpus(corpus, MeteorConfig())
    core = time.perf_counter() - t
    print(f"{len(analysis.ids)} segments scored, core analysis {core:.2f} s (METEOR 3 stages + BLEU + correlations)")
    for c in analysis.correlations:
        print(f"  {c.metric:6s} vs human z: Pearson {c.pearson:.4f}  Spearman {c.spearman:.4f}  Kendall tau-b {c.kendall_tau_b:.4f}")

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app_pages" / "corpus_explorer.py"), default_timeout=600)
    at.run()
    at.radio(key="corpus-source").set_value("Upload a table (TSV, CSV, JSONL)").run()
    t = time.perf_counter()
    at.file_uploader(key="corpus-upload").set_value(("wmt22.tsv", data, "text/plain")).run()
    first = time.perf_counter() - t
    t = time.perf_counter()
    at.slider(key="meteor-range").set_value((0.2, 0.8)).run()
    rerun = time.perf_counter() - t
    print(f"page: upload + score {first:.2f} s; filter change re-run {rerun:.2f} s (ratio {first / rerun:.1f}x); "
          f"exceptions: {len(at.exception)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--lp", default="de-en")
    args = parser.parse_args()
    bench_significance(args.lp)
    bench_page(args.n)


if __name__ == "__main__":
    main()
