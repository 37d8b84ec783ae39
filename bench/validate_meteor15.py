"""Validate meteor15 mode against METEOR 1.5 on real data, and time both end to end.

    .venv/bin/python bench/validate_meteor15.py                 # everything (~30 min under load)
    .venv/bin/python bench/validate_meteor15.py --limit 5000    # a quicker agreement check
    .venv/bin/python bench/validate_meteor15.py --no-validate   # timing only

Agreement: every line of ../shared/data/wmt22-toen/outputs.tsv.gz scored by meteor15 mode,
compared with the jar's scores in ../shared/data/meteor15/wmt22_meteor15_seg.tsv.gz (jar run
with -l en -norm, printed to 6 decimals: agreement means |ours - jar| <= 1e-6). Each
disagreement is sent to the real jar again (-stdio) and classified by which of its statistics
differ from ours: tokens (normalizer), function words, a module's matches, chunks (search),
none (arithmetic), or none with the jar now agreeing with us (the stored file differs from a
fresh jar run). Also the anchor cases of meteor15_anchor_cases.tsv that use English settings,
and the 6,010 WMT21 segments the jar scored with the 2005 parameters on lower-cased
whitespace tokens (-lower -p "0.9 3.0 0.5 0.5", weights 1.0; -m exact, and -m exact stem
synonym): another normalization, other parameters and module lists.

Timing: the same 3,000 pairs (the first 3,000 lines of outputs.tsv.gz) scored end to end,
start-up and data loading included, in fresh processes, alternating jar and meteor15 mode
(`--rounds` each); medians and their ratio. Both run on the same machine at the same time,
so load from other processes affects both.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
if not SHARED.exists():
    SHARED = Path("/work/shared/data")
OUTPUTS = SHARED / "wmt22-toen" / "outputs.tsv.gz"
JAR_SCORES = SHARED / "meteor15" / "wmt22_meteor15_seg.tsv.gz"
ANCHORS = SHARED / "meteor15" / "meteor15_anchor_cases.tsv"
WMT21_OUTPUTS = SHARED / "wmt21-toen" / "outputs.tsv.gz"
WMT21_2005 = SHARED / "meteor15" / "wmt21_meteor15_2005params_seg.tsv.gz"
TOLERANCE = 1e-6

SCORE_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from meteor_core import MeteorConfig, Scorer
scorer = Scorer(MeteorConfig(mode="meteor15"))
with open(sys.argv[1], encoding="utf-8", newline="\\n") as h, open(sys.argv[2], encoding="utf-8", newline="\\n") as r:
    hyps, refs = h.read().split("\\n")[:-1], r.read().split("\\n")[:-1]
print(sum(scorer.score(c, [e]).score for c, e in zip(hyps, refs)))
"""


def read_tsv(path: Path) -> list[list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows[1:]


def load_pairs() -> list[tuple[tuple[str, str, str], str, str, float]]:
    """(key, candidate, reference, jar score) for every line of outputs.tsv.gz, in its order."""
    jar = {(lp, system, seg): float(score) for lp, system, seg, score in read_tsv(JAR_SCORES)}
    pairs = []
    for row in read_tsv(OUTPUTS):
        key = (row[0], row[1], row[3])
        pairs.append((key, row[6], row[7], jar[key]))
    return pairs


def _score_chunk(args):
    pairs, = args
    from meteor_core import MeteorConfig, Scorer

    scorer = Scorer(MeteorConfig(mode="meteor15"))
    return [scorer.score(candidate, [reference]).score for _, candidate, reference, _ in pairs]


def validate(limit: int | None, workers: int) -> None:
    from meteor_core import MeteorConfig, Scorer

    pairs = load_pairs()
    if limit:
        pairs = pairs[:limit]
    print(f"scoring {len(pairs)} segments of {OUTPUTS.name} with meteor15 mode ({workers} worker(s)) ...", flush=True)
    start = time.perf_counter()
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        size = 2000
        chunks = [(pairs[k:k + size],) for k in range(0, len(pairs), size)]
        with ProcessPoolExecutor(workers) as pool:
            ours = [s for part in pool.map(_score_chunk, chunks) for s in part]
    else:
        ours = _score_chunk((pairs,))
    elapsed = time.perf_counter() - start
    disagreements = [(p, s) for p, s in zip(pairs, ours) if abs(s - p[3]) > TOLERANCE]
    agree = len(pairs) - len(disagreements)
    print(f"agreement within {TOLERANCE:g}: {agree}/{len(pairs)} = {100 * agree / len(pairs):.4f}% "
          f"({elapsed:.0f} s)")
    if disagreements:
        classify(disagreements, Scorer(MeteorConfig(mode="meteor15")))
    anchors(Scorer(MeteorConfig(mode="meteor15")))
    with_2005_parameters(limit)


def with_2005_parameters(limit: int | None) -> None:
    from meteor_core import MeteorConfig, MeteorParams, Scorer

    if not WMT21_2005.exists():
        return
    outputs = {(row[0], row[1], row[3]): row for row in read_tsv(WMT21_OUTPUTS)}
    rows = read_tsv(WMT21_2005)[:limit] if limit else read_tsv(WMT21_2005)
    params = MeteorParams(0.9, 3.0, 0.5, 0.5)
    for column, stages in ((3, ("exact",)), (4, ("exact", "stem", "synonym"))):
        scorer = Scorer(MeteorConfig(mode="meteor15", stages=stages, params=params, weights=(1.0,) * len(stages),
                                     tokenizer="whitespace"))
        differ = []
        for row in rows:
            output = outputs[(row[0], row[1], row[2])]
            ours = scorer.score(output[6], [output[7]]).score
            if abs(ours - float(row[column])) > TOLERANCE:
                differ.append((row[:3], row[column], ours))
        agree = len(rows) - len(differ)
        print(f"WMT21, 2005 parameters, -lower, -m \"{' '.join(stages)}\": {agree}/{len(rows)} = "
              f"{100 * agree / len(rows):.4f}% within {TOLERANCE:g}")
        for key, jar_score, ours in differ[:5]:
            print(f"  {key}: jar {jar_score} ours {ours:.6f}")


def classify(disagreements, scorer) -> None:
    from meteor_core.meteor15.formula import jar_stats_line
    from meteor_core.meteor15.oracle import JarError, JarOracle

    try:
        oracle = JarOracle()
    except JarError as error:
        print(f"cannot classify the disagreements ({error}); first ones:")
        for (key, candidate, reference, jar_score), ours in disagreements[:10]:
            print(f"  {key} jar {jar_score} ours {ours:.6f}\n    cand: {candidate[:150]}\n    ref:  {reference[:150]}")
        return
    names = ["candidate length", "reference length", "candidate function words", "reference function words"]
    for module in ("exact", "stem", "synonym", "paraphrase"):
        names += [f"{module} candidate content", f"{module} reference content", f"{module} candidate function",
                  f"{module} reference function"]
    names += ["chunks", "candidate matches", "reference matches"]
    causes: dict[str, list] = defaultdict(list)
    with oracle:
        for (key, candidate, reference, jar_score), ours in disagreements:
            if "|||" in candidate or "|||" in reference:
                causes["contains '|||' (cannot be sent to the jar's -stdio)"].append((key, candidate, reference,
                                                                                       jar_score, ours, ""))
                continue
            jar_line = oracle.stats_line(candidate, [reference])
            our_line = jar_stats_line(scorer.score(candidate, [reference]).best.meteor15.stats)
            fresh = oracle.evaluate([jar_line])[0][0]
            differing = [n for n, a, b in zip(names, jar_line.split(), our_line.split()) if float(a) != float(b)]
            if not differing:
                cause = ("a fresh jar run agrees with us: the stored score differs" if abs(fresh - ours) <= 1e-12
                         else "same statistics, different arithmetic")
            elif any("length" in n for n in differing):
                cause = "tokens differ (normalizer / tokenization)"
            elif any("function words" in n for n in differing):
                cause = "function-word counts differ"
            elif differing == ["chunks"]:
                cause = "same matches, different chunks (search)"
            else:
                cause = "matched words differ: " + ", ".join(sorted({n.split()[0] for n in differing
                                                                     if n.split()[0] in ("exact", "stem", "synonym",
                                                                                         "paraphrase")} or {"search"}))
            causes[cause].append((key, candidate, reference, jar_score, ours, f"jar {jar_line} | ours {our_line}"))
    print("disagreements by cause:")
    for cause, items in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(items):5d}  {cause}")
        for key, candidate, reference, jar_score, ours, detail in items[:3]:
            print(f"         {key}: jar {jar_score} ours {ours:.6f}")
            print(f"           cand: {candidate[:160]}")
            print(f"           ref:  {reference[:160]}")
            if detail:
                print(f"           {detail}")


def anchors(scorer) -> None:
    from meteor_core.compat.pycocoevalcap import Meteor

    if not ANCHORS.exists():
        return
    rows = read_tsv(ANCHORS)
    print("anchor cases (English settings):")
    for case, command, references, hypothesis, expected, note in rows:
        if "-l en" not in command and "pycocoevalcap" not in command:
            print(f"  {case:26s} skipped: {command.split('(')[0].strip()} (meteor15 mode has the English data only)")
            continue
        refs = [r.strip() for r in references.split("|||")]
        if "pycocoevalcap" in command:
            ours = Meteor()._score(hypothesis, refs)
        else:
            ours = scorer.score(hypothesis, refs).score
        verdict = "ok" if abs(ours - float(expected)) <= 1e-12 else "DIFFERS"
        print(f"  {case:26s} jar {float(expected):.17g}  ours {ours:.17g}  {verdict}")


def timing(pairs_count: int, rounds: int) -> None:
    from meteor_core.meteor15.data import jar_path

    jar = jar_path()
    pairs = load_pairs()[:pairs_count]
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("".join(c + "\n" for _, c, _, _ in pairs), encoding="utf-8", newline="\n")
        ref.write_text("".join(r + "\n" for _, _, r, _ in pairs), encoding="utf-8", newline="\n")
        script = Path(tmp) / "score.py"
        script.write_text(SCORE_SCRIPT.format(root=str(ROOT)), encoding="utf-8")
        commands = {
            "jar": ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), "-l", "en", "-norm", "-q"],
            "meteor15 mode": [sys.executable, str(script), str(hyp), str(ref)],
        }
        if not jar.exists():
            print(f"timing skipped: no jar at {jar} (setup-meteor15 --with-jar)")
            return
        times: dict[str, list[float]] = {name: [] for name in commands}
        print(f"timing {len(pairs)} pairs end to end (start, load data, score), {rounds} alternating round(s) ...",
              flush=True)
        for _ in range(rounds):
            for name, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - start)
        for name, values in times.items():
            print(f"  {name:14s} median {statistics.median(values):7.1f} s  (runs: "
                  + ", ".join(f"{v:.1f}" for v in values) + ")")
        ratio = statistics.median(times["meteor15 mode"]) / statistics.median(times["jar"])
        print(f"  meteor15 mode / jar = {ratio:.2f} (below 1: faster than the jar); absolute times depend on "
              f"the machine's load (load average {os.getloadavg()[0]:.1f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, help="validate only the first N segments")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-validate", action="store_true")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--timing-pairs", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not OUTPUTS.exists():
        print(f"data not found: {OUTPUTS}")
        return 1
    if not args.no_validate:
        validate(args.limit, args.workers)
    if not args.no_timing:
        timing(args.timing_pairs, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
