"""Benchmark of a decision (issue 11: "profile first; then cut the work per pair"): what would
compiling the scorer's pure-Python modules with Cython, unchanged, buy? Copies this checkout's
committed tree (git archive HEAD) into a temporary folder, compiles the modules of the warm
path there with `cythonize -3 -i` (no type declarations, no source change), and runs
bench_versions.py of the copy against this checkout: the compiled copy is "this", the plain one
"base", nltk beside both, all in one process; then its long-pair lengths.

Needs a C compiler and Python's headers (gcc, python3-dev) and Cython from PyPI, installed into a
temporary venv (never into .venv: the compiled modules need no Cython to run). Never asserts;
the project ships no compiled modules (README, "Speed").

    .venv/bin/python bench/bench_compiled.py [--limit 1000] [--lengths 80,160]
"""
from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The modules a warm score() runs through (tokenize.py is left out: Cython 3.3 refuses its lone
#: surrogate string constants, which tokenize needs to find lone surrogates in the input).
COMPILED = ("align", "stages", "scorer", "references", "formula", "frozen")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", default="1000", help="WMT22 de-en pairs for bench_versions (0: all)")
    parser.add_argument("--lengths", default="80,160", help="then bench_versions --lengths (empty: skip)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="meteor-compiled-") as tmp:
        copy, venv = Path(tmp) / "copy", Path(tmp) / "venv"
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
        tarfile.open(fileobj=io.BytesIO(archive)).extractall(copy)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "cython", "setuptools"], check=True)
        sources = [str(copy / "meteor_core" / f"{name}.py") for name in COMPILED]
        subprocess.run([str(venv / "bin" / "cythonize"), "-3", "-i", "-q", *sources], check=True,
                       stdout=subprocess.DEVNULL)
        print(f"compiled with Cython, unchanged: {', '.join(COMPILED)} (this = compiled copy, base = {ROOT})",
              flush=True)
        bench = [sys.executable, str(copy / "bench" / "bench_versions.py"), "--base", str(ROOT), "--limit", args.limit]
        subprocess.run(bench, check=True)
        if args.lengths:
            subprocess.run([*bench, "--lengths", args.lengths], check=True)


if __name__ == "__main__":
    main()
