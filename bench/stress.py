"""Hostile input, run before a release (not in CI: it takes about a minute and prints, never
asserts on time). Three parts, each line says what was checked and what came out:

  1. repeated tokens at the token limit, each mode: seconds, proven optimal or not, or the
     refusal's message; one token over the limit must be refused;
  2. 8 threads x 3 modes x 200 pairs on one shared Scorer per mode: the same scores as one
     thread (a race shows as a difference);
  3. `batch` on 2 workers with hostile JSONL lines (deep nesting, huge number, invalid UTF-8,
     lone surrogate, nulls, markup, control bytes, ...): one output line per input line,
     exit 0, no traceback on stderr.

    .venv/bin/python bench/stress.py
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from meteor_core import MAX_TOKENS, MeteorConfig, MeteorInputError, Scorer  # noqa: E402

MODES = ("paper", "nltk", "meteor15")
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def repeated_tokens() -> None:
    side = ["the", ","] * (MAX_TOKENS // 2)
    for mode, objective in (("paper", "crossings"), ("paper", "chunks"), ("nltk", "crossings"), ("meteor15", "crossings")):
        config = MeteorConfig(mode=mode, objective=objective) if mode == "paper" else MeteorConfig(mode=mode)
        start = time.perf_counter()
        try:
            result = Scorer(config).score(side, [side])
            outcome = f"score {result.score:.4f}, " + ("nltk's greedy alignment" if mode == "nltk" else
                                                       f"proven optimal: {result.best.optimal}")
        except MeteorInputError as error:
            outcome = f"refused: {str(error)[:90]}"
        print(f"     {MAX_TOKENS:,} repeated tokens a side, {mode}/{objective}: {time.perf_counter() - start:.2f} s, {outcome}")
    try:
        Scorer(MeteorConfig()).score(side + ["cat"], [side])
        check(False, f"{MAX_TOKENS + 1} tokens refused")
    except MeteorInputError as error:
        check("limit" in str(error), f"{MAX_TOKENS + 1} tokens refused: {str(error)[:80]}")


def threads() -> None:
    rng = random.Random(7)
    words = "the a cat cats dog dogs sat sits on mat mats big large small , .".split()
    def sentence():
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))

    pairs = [(sentence(), [sentence() for _ in range(rng.randint(1, 3))]) for _ in range(200)]
    for mode in MODES:
        if mode == "meteor15":  # an empty reference too: the jar scores it, so must we, in every thread
            pairs = [(c, refs + [""]) for c, refs in pairs]
        scorer = Scorer(MeteorConfig(mode=mode))

        def run(_):
            return [scorer.score(c, refs).score for c, refs in pairs]

        alone = Scorer(MeteorConfig(mode=mode))
        expected = [alone.score(c, refs).score for c, refs in pairs]
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(run, range(8)))
        check(all(r == expected for r in results), f"8 threads, {mode}, {len(pairs)} pairs: same scores as one thread")


HOSTILE = [
    b'{"candidate": "a", "references": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"candidate": "the cat", "references": ["the cat"], "id": ' + b"9" * 5000 + b"}",
    b'{"candidate": "\xff\xfe cat", "references": ["the cat"]}',
    b'{"candidate": "\\ud800 cat", "references": ["the cat"]}',
    b'{"candidate": null, "references": ["the cat"]}',
    b'["the cat", ["the cat"]]',
    b'{"candidate": "the cat", "references": [null, null]}',
    json.dumps({"candidate": " ".join(["w"] * 3000), "references": ["w"]}).encode(),
    json.dumps({"candidate": "**bold** <script>alert(1)</script> [x](http://evil.example)",
                "references": ["bold script"]}).encode(),
    b"",
    json.dumps({"candidate": "the \x1b[31mcat", "references": ["the cat"]}).encode(),
    json.dumps({"candidate": "the\u200bcat", "references": ["the cat"]}).encode(),
]


def hostile_batch() -> None:
    data = b"\n".join(HOSTILE) + b"\n"
    for mode in ("paper", "meteor15"):
        run = subprocess.run([sys.executable, "-m", "meteor_core", "batch", "--workers", "2", "--mode", mode],
                             input=data, capture_output=True, cwd=ROOT, timeout=300)
        lines = run.stdout.decode().splitlines()
        check(len(lines) == len(HOSTILE) and run.returncode == 0 and b"Traceback" not in run.stderr,
              f"batch {mode}, 2 workers, {len(HOSTILE)} hostile lines: {len(lines)} lines out, exit {run.returncode}, "
              f"traceback: {b'Traceback' in run.stderr}")


if __name__ == "__main__":
    repeated_tokens()
    threads()
    hostile_batch()
    print(f"{len(failures)} failed" if failures else "all checks passed")
    sys.exit(1 if failures else 0)
