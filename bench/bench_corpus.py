"""Corpus Explorer at scale: 3,000 WMT22 de-en segments with human DA... (from ../shared/data).
Times the core analysis (METEOR + BLEU + correlations) and the page (AppTest upload, first run
and a re-run with a filter change, which must not rescore).

    .venv/bin/python bench/bench_corpus.py [--n 3000]
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
DATA = ROOT.parent / "shared" / "data" / "wmt22-toen" / "seg_da.tsv.gz"


def build_tsv(n: int) -> bytes:
    csv.field_size_limit(10**7)
    out = io.StringIO()
    out.write("id\tcandidate\treference\thuman\n")
    count = 0
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["candidate"].strip() and row["reference"].strip():
                out.write(f"{row['lp']}-{row['system']}-{row['seg_id']}\t{row['candidate']}\t{row['reference']}\t{row['human_z']}\n")
                count += 1
                if count == n:
                    break
    return out.getvalue().encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=3000)
    args = parser.parse_args()
    data = build_tsv(args.n)
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


if __name__ == "__main__":
    main()
