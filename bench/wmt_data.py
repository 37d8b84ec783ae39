"""Loaders for the WMT data in ../shared/data (benchmarks and validation only; never needed by
the tests). The directory is found next to the checkout (main: /work/main -> /work/shared), one
level higher (worktrees under /work/wt), or through METEOR_BENCH_DATA."""
from __future__ import annotations

import csv
import gzip
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    candidates = [Path(os.environ["METEOR_BENCH_DATA"])] if os.environ.get("METEOR_BENCH_DATA") else []
    candidates += [ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data"]
    for path in candidates:
        if (path / "wmt22-toen").is_dir():
            return path
    raise SystemExit("WMT data not found: set METEOR_BENCH_DATA to the shared data directory")


def _rows(path: Path):
    csv.field_size_limit(10**7)
    with gzip.open(path, "rt", encoding="utf-8") as f:
        yield from csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)


def wmt22_pairs(systems=("Online-A", "Online-B"), lp: str = "de-en", limit: int = 0) -> list[tuple[str, str]]:
    """(candidate, reference) strings of WMT22 `lp` for `systems`, in file order."""
    pairs = []
    for row in _rows(data_dir() / "wmt22-toen" / "outputs.tsv.gz"):
        if row["lp"] == lp and row["system"] in systems and row["candidate"].strip() and row["reference"].strip():
            pairs.append((row["candidate"], row["reference"]))
    return pairs[:limit] if limit else pairs


def wmt21_meteor15_segments() -> list[tuple[str, str]]:
    """The 6,010 WMT21 segments of meteor15/wmt21_meteor15_2005params_seg.tsv.gz (lp, system,
    seg_id rows of wmt21-toen/outputs.tsv.gz, in that file's order)."""
    wanted = [(r["lp"], r["system"], r["seg_id"]) for r in _rows(data_dir() / "meteor15" / "wmt21_meteor15_2005params_seg.tsv.gz")]
    keys = set(wanted)
    found = {}
    for row in _rows(data_dir() / "wmt21-toen" / "outputs.tsv.gz"):
        key = (row["lp"], row["system"], row["seg_id"])
        if key in keys and key not in found:
            found[key] = (row["candidate"], row["reference"])
    return [found[k] for k in wanted]


def joined_pairs(tokens: list[tuple[list[str], list[str]]], length: int, count: int) -> list[tuple[list[str], list[str]]]:
    """Consecutive segments joined into pairs of exactly `length` candidate tokens (document-level
    evaluation): segments are appended until the candidate reaches `length` tokens; the candidate
    is cut there and the reference at the same proportion of its tokens."""
    pairs, cand, ref = [], [], []
    for c, r in tokens:
        cand += c
        ref += r
        if len(cand) >= length:
            keep = max(1, round(len(ref) * length / len(cand)))
            pairs.append((cand[:length], ref[:keep]))
            cand, ref = [], []
            if len(pairs) == count:
                break
    return pairs


def byte_compile(root: Path) -> str:
    """Write the project's .pyc files, as scripts/setup.sh does, so a timed process start reads
    them rather than compiling the sources (where PYTHONDONTWRITEBYTECODE is set, Python never
    writes them itself; nltk's came with its install). Returns a line saying what was done."""
    import compileall

    compileall.compile_dir(str(root / "meteor_core"), quiet=1)
    flag = "set" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "not set"
    return f"meteor_core byte-compiled before timing, as scripts/setup.sh does (PYTHONDONTWRITEBYTECODE {flag})"
