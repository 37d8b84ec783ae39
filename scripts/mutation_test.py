"""Mutation testing with hand-made mutants: which deliberate small bugs does the suite miss?

Each mutant is one small bug (a flipped comparison, a dropped option, a wrong constant, an
exception raised inside a page panel). The script copies the repository (tracked and untracked
files, never .venv or caches) to a temporary directory once, then for every mutant: applies it
to the copy, runs the tests that should see it, and restores the file. The working tree is
never touched.

    .venv/bin/python scripts/mutation_test.py                 # everything (slow: ~30-60 min)
    .venv/bin/python scripts/mutation_test.py --list          # the mutants, nothing run
    .venv/bin/python scripts/mutation_test.py --only F1 T3    # some mutants (id prefixes)
    .venv/bin/python scripts/mutation_test.py --category core # or: pages
    .venv/bin/python scripts/mutation_test.py --json out.json # also write the results

Verdicts: "killed" (a test failed or the run errored), "survived" (every selected test passed),
"stale" (the mutant no longer applies: the code it names changed; update the list below),
"timeout" (counted as killed: a hang is seen), "flaky" (the failing test also fails without
the mutant, twice: the machine is too loaded; run that mutant again). A kill counts only when
the failing test passes on the unmutated code. A core mutant first runs its own relevant
tests; if it survives them it is run again against the whole fast suite (every test file that
does not start a browser), so "survived" always means the whole fast suite passed. Page
mutants run the AppTest files first, then the browser files. Not part of CI (it is slow).

Updating the list: core mutants are (id, file, old text, new text, what, tests); `old` must
occur exactly once in the file. Page mutants are generated from the pages themselves: every
st.title / st.header / st.subheader call in app_pages/*.py, lens/ui.py and lens/corpus_ui.py
marks a panel, and the mutant raises
RuntimeError as the first statement after it (inside the same block), so the list follows the
pages as they are rewritten. PANEL_ANCHORS adds panels that have no heading (file, regex of a
line, name).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
RUN_TIMEOUT = 20 * 60


@dataclass(frozen=True)
class Mutant:
    id: str
    category: str  # core | pages
    file: str
    what: str
    old: str = ""
    new: str = ""
    tests: tuple[str, ...] = ()  # relevant test files (missing ones are ignored)
    line: int = 0  # pages: 1-based line after which the raise goes (0 for core mutants)
    insert: str = ""


def core(id, file, old, new, what, *tests):
    return Mutant(id, "core", file, what, old, new, tuple(f"tests/{t}" for t in tests))


OPT = "test_options.py"
WORKED = "test_worked_examples.py"
ORACLE = "test_alignment_oracle.py"
PROPS = "test_properties.py"
NLTK = "test_nltk_parity.py"
CLI = "test_cli.py"
BAD = "test_bad_input.py"
LANG = "test_languages.py"
CORPUS = "test_corpus.py"

CORE_MUTANTS = [
    # -- the formula ------------------------------------------------------------------------
    core("F1", "meteor_core/formula.py", "denominator = alpha * precision + (1 - alpha) * recall",
         "denominator = alpha * recall + (1 - alpha) * precision", "Fmean weights precision 9x (alpha swapped)",
         WORKED, OPT),
    core("F2", "meteor_core/formula.py", "fragmentation = float(stats.chunks) / m",
         "fragmentation = float(stats.chunks) / stats.candidate_length",
         "fragmentation over candidate length instead of matches", WORKED, OPT),
    core("F3", "meteor_core/formula.py", "fragmentation ** params.beta", "fragmentation ** 3", "beta ignored",
         OPT, NLTK),
    core("F4", "meteor_core/formula.py", "m == stats.candidate_length == stats.reference_length",
         "m == stats.candidate_length", "zero-penalty rule ignores unmatched reference words", OPT, WORKED),
    core("F5", "meteor_core/formula.py", "(zero_penalty_single_chunk and stats.chunks == 1\n",
         "(zero_penalty_single_chunk\n", "zero-penalty rule ignores the chunk count", OPT, WORKED),
    core("F6", "meteor_core/formula.py", "score = (1 - penalty) * fmean", "score = fmean - penalty",
         "score = Fmean - Penalty", WORKED, OPT),
    # -- parameters, presets, validation ----------------------------------------------------
    core("P1", "meteor_core/params.py", "if not 0.0 <= self.gamma <= 1.0:", "if not 0.0 <= self.gamma <= 2.0:",
         "gamma upper bound 2", OPT, BAD),
    core("P2", "meteor_core/params.py", "if not 0.0 <= self.alpha <= 1.0:", "if not 0.0 < self.alpha <= 1.0:",
         "alpha = 0 rejected", OPT, BAD),
    core("P3", "meteor_core/params.py", "if self.beta < 0:", "if self.beta <= 0:", "beta = 0 rejected", OPT, BAD),
    core("P4", "meteor_core/params.py", "MeteorParams(0.8, 0.83, 0.28)", "MeteorParams(0.8, 0.83, 0.25)",
         "METEOR 0.6 preset gamma 0.25", OPT),
    core("P5", "meteor_core/params.py", 'Preset("nltk", "NLTK default", MeteorParams(0.9, 3.0, 0.5)',
         'Preset("nltk", "NLTK default", MeteorParams(0.85, 3.0, 0.5)', "nltk preset alpha 0.85", OPT),
    core("P6", "meteor_core/params.py", 'Preset("2005", "Banerjee & Lavie 2005", MeteorParams(0.9, 3.0, 0.5)',
         'Preset("2005", "Banerjee & Lavie 2005", MeteorParams(0.9, 3.0, 0.4)', "2005 preset gamma 0.4", OPT, CLI),
    core("P7", "meteor_core/params.py", 'for name in ("max_tokens", "max_references", "node_budget"):',
         'for name in ("max_tokens", "max_references"):', "node budget 0 accepted", OPT),
    core("P8", "meteor_core/params.py", "if stages != BUILTIN_STAGES[: len(stages)] or len(stages) != 3:",
         "if False:", "nltk mode accepts any stages", BAD, OPT),
    core("P9", "meteor_core/params.py", "DEFAULT_NODE_BUDGET = 50_000", "DEFAULT_NODE_BUDGET = 20",
         "default node budget cut to 20", ORACLE, PROPS, OPT),
    # -- tokens: limit, case, punctuation ---------------------------------------------------
    core("T1", "meteor_core/tokenize.py", "    if count > max_tokens:", "    if count >= max_tokens:",
         "token limit 1,999", OPT, BAD),
    core("T2", "meteor_core/tokenize.py", "    if count > max_tokens:", "    if count > max_tokens + 1:",
         "token limit 2,001", OPT, BAD),
    # T3/T4 target the ASCII fast path of matching_form (the common case; the other paths are
    # the Unicode and nltk forms).
    core("T3", "meteor_core/tokenize.py",
         "    if surface.isascii():\n        return surface if keep_case else surface.lower()",
         "    if surface.isascii():\n        return surface.lower()", "keep_case ignored by the tokens", OPT),
    core("T4", "meteor_core/tokenize.py",
         "    if surface.isascii():\n        return surface if keep_case else surface.lower()",
         "    if surface.isascii():\n        return surface", "never case-folds", OPT, WORKED),
    core("T5", "meteor_core/tokenize.py", "return not any(ch.isalnum() for ch in text)",
         "return not all(ch.isalnum() for ch in text)", "words with an apostrophe or hyphen count as punctuation",
         OPT, BAD),
    core("T6", "meteor_core/tokenize.py", "    if drop_punctuation:\n", "    if False:\n",
         "drop_punctuation ignored", OPT, BAD),
    core("T7", "meteor_core/tokenize.py", '''_ASCII_WORD = rf"\\w+(?:(?:['\\-]|{_IN_NUMBER})\\w+)*"''',
         '''_ASCII_WORD = rf"\\w+(?:(?:{_IN_NUMBER})\\w+)*"''', "don't / e-mail split (ASCII path)", BAD, OPT),
    # -- alignment: chunks, crossings, tie-breaks, stage order ------------------------------
    core("A1", "meteor_core/align.py", "        if i != pi + 1 or j != pj + 1:\n            chunks += 1",
         "        if i != pi + 1:\n            chunks += 1", "count_chunks ignores reference adjacency",
         ORACLE, PROPS, WORKED),
    core("A2", "meteor_core/scorer.py", "map(mul, map(sub, ref_linked, cand_linked), repeat(n + 1))",
         "map(mul, map(sub, cand_linked, cand_linked), repeat(n + 1))", "chunk spans ignore reference adjacency",
         WORKED, OPT),
    # (count_crossings with bisect_left instead of bisect_right is an equivalent mutant: alignments
    # are one-to-one, no two links share a reference position.)
    # A3-A8 follow the aligner as rewritten (a dynamic program over candidate positions with
    # enumeration of small cases): the old branch-and-bound anchors are gone.
    core("A3", "meteor_core/align.py",
         "                if r2 < r:\n                    cost += cross_unit\n                elif",
         "                if r2 < r:\n                    cost += 0\n                elif",
         "enumeration ignores crossings among its own choices", ORACLE, OPT),
    core("A4", "meteor_core/align.py", 'crossings_first = self.objective == "crossings"', "crossings_first = True",
         "search ignores the chunks objective", ORACLE, OPT, WORKED),
    core("A5", "meteor_core/align.py",
         "                if candidate_vector < best_vector:",
         "                if candidate_vector <= best_vector:",
         "lexicographic tie-break reversed (enumeration over components; equivalent: within a part the vector fixes every member's choice, so two combinations never tie on it)", ORACLE, OPT),
    core("A6", "meteor_core/align.py", "    for stage in stages:\n        if not stage.available:",
         "    for stage in reversed(stages):\n        if not stage.available:", "stages run in reverse order", OPT, WORKED),
    core("A7", "meteor_core/align.py",
         'return (n + 1, 1) if objective == "crossings" else (1, n * n + 1)',
         "return (n + 1, 1)", "small-case enumeration ignores the chunks objective",
         ORACLE, OPT, WORKED),
    core("A8", "meteor_core/align.py",
         "            for index, cost in enumerate(own[x]):\n                if best is None or cost < best[0]:",
         "            for index, cost in enumerate(own[x]):\n                if best is None or cost <= best[0]:",
         "lexicographic tie-break reversed (enumeration of one component)", ORACLE, OPT),
    core("A9", "meteor_core/align.py",
         "                if (c < c2) != (r < r2):\n                    cost += cross_unit",
         "                if (c < c2) != (r < r2):\n                    cost += 0",
         "enumeration ignores crossings between two components' choices", ORACLE, OPT),
    core("A10", "meteor_core/align.py", "    for members in parts_of(tables):", "    for members in parts_of([]):",
         "enumeration treats interacting components as independent", ORACLE, OPT),
    # -- stages and languages -----------------------------------------------------------------
    core("S1", "meteor_core/stages.py", 'lambda w: porter_stem(w, lowercase=not keep_case)',
         'lambda w: porter_stem(w)', "keep_case ignored by the stem stage", OPT),
    core("S2", "meteor_core/stages.py",
         "        for b, word in enumerate(ref_words):\n            for synonym in self._synonyms(word):",
         "        for b, word in enumerate(ref_words[:0]):\n            for synonym in self._synonyms(word):",
         "thesaurus synonyms one way only", OPT, LANG),
    core("S3", "meteor_core/languages.py", '"pt": "pt-BR"', '"pt": "pt-PT"', "pt means pt-PT", OPT, LANG),
    core("S4", "meteor_core/languages.py", 'Language("fr", "French", "french"',
         'Language("fr", "French", "english"', "French uses the English Snowball stemmer", OPT, LANG),
    core("S5", "meteor_core/stages.py", 'frozen.get(w.lower(), ())', 'frozen.get(w, ())',
         "synonym table lookup case-sensitive", "test_synonym_table.py", OPT),
    core("S6", "meteor_core/wordnet.py", '"adj.all 3", "adj.pert 3",', '"adj.pert 3", "adj.all 3",',
         "lexnames out of order", "test_wordnet.py"),
    # -- several references, corpus ----------------------------------------------------------
    core("M1", "meteor_core/references.py", "if result.score > per_reference[best_index].score:",
         "if result.score >= per_reference[best_index].score:", "ties go to the last reference", OPT, PROPS),
    core("M2", "meteor_core/references.py", "            best_index = index\n", "            best_index = 0\n",
         "the first reference is always 'best'", OPT, PROPS, CLI),
    core("M3", "meteor_core/scorer.py", "total = total + segment.stats",
         "total = total + segment.per_reference[0].stats", "corpus sums the first reference, not the best",
         OPT, PROPS, CORPUS),
    core("M4", "meteor_core/scorer.py", "mean = sum(s.score for s in segments) / len(segments)",
         "mean = breakdown.score", "mean of segment scores replaced by corpus METEOR", CORPUS, OPT, PROPS),
    # (M5, corpus BLEU's reference lists cut to the first, is equivalent: bleu.corpus_bleu sums the
    # segments' own counts, which B4 guards, and hands the lists only to nltk's smoothing
    # functions, which do not read them. tests/test_corpus.py compares with nltk's corpus_bleu.)
    # -- nltk mode ----------------------------------------------------------------------------
    core("N1", "meteor_core/nltk_mode.py", "    for i in range(len(hyp) - 1, -1, -1):\n        positions",
         "    for i in range(len(hyp)):\n        positions", "nltk greedy scan left to right", NLTK, WORKED),
    core("N2", "meteor_core/nltk_mode.py", "j = positions.pop()", "j = positions.pop(0)",
         "nltk takes the lowest reference position", NLTK, WORKED),
    core("N3", "meteor_core/nltk_mode.py", "ref = [(j, _nltk_stem(w)) for j, w in ref]",
         "ref = [(j, w) for j, w in ref]", "nltk stem stage leaves the reference unstemmed", NLTK),
    # -- BLEU ---------------------------------------------------------------------------------
    core("B1", "meteor_core/bleu.py", 'return getattr(SmoothingFunction(), "method0" if name == "none" else name)',
         'return getattr(SmoothingFunction(), "method0" if name == "none" else {"method3": "method4"}.get(name, name))',
         "method3 runs nltk's method4", OPT),
    core("B2", "meteor_core/bleu.py", '"method3": "exp (sacrebleu\'s default for sentence BLEU)",',
         '"method3": "floor",', "method3 labelled sacrebleu floor", OPT),
    core("B3", "meteor_core/bleu.py", "        value = 0.0\n", "        value = value\n",
         "unsmoothed BLEU reports nltk's tiny float instead of 0", WORKED, OPT),
    core("B4", "meteor_core/report.py",
         "references = [r.reference_tokens.norms for r in result.per_reference]",
         "references = [r.reference_tokens.norms for r in [result.best]]",
         "segment BLEU against the best METEOR reference only", OPT, "test_app.py"),
    # -- JSON report and CLI --------------------------------------------------------------------
    core("R1", "meteor_core/report.py", "out = dict(per_reference[result.best_index])",
         "out = dict(per_reference[0])",
         "JSON top level is the first reference", OPT, CLI),
    core("R2", "meteor_core/report.py", "    if given is None:\n        return best, entries",
         "    if given is None:\n        return best + 1, entries", "JSON best_reference 1-based", OPT, CLI),
    core("R3", "meteor_core/report.py", '"precision": b.precision,\n        "recall": b.recall,',
         '"precision": b.recall,\n        "recall": b.precision,', "JSON precision and recall swapped", OPT, CLI),
    core("C1", "meteor_core/cli.py", "keep_case=args.keep_case", "keep_case=False", "--keep-case ignored", OPT),
    core("C2", "meteor_core/cli.py", "drop_punctuation=args.drop_punctuation", "drop_punctuation=False",
         "--drop-punctuation ignored", OPT),
    core("C3", "meteor_core/params.py", "base.gamma if gamma is None else gamma", "base.gamma",
         "--gamma ignored", OPT, CLI),
    core("C4", "meteor_core/cli.py", "mode=args.mode, objective=args.objective", 'mode=args.mode, objective="crossings"',
         "--objective ignored", OPT),
    core("C5", "meteor_core/cli.py", "language=args.lang,", 'language="en",', "--lang ignored", OPT, LANG),
    core("C6", "meteor_core/cli.py", "tokenizer=args.tokenizer,", 'tokenizer="default",', "--tokenizer ignored", OPT),
    core("C7", "meteor_core/params.py", 'return tuple(text.replace(",", " ").split())',
         'return tuple(sorted(text.replace(",", " ").split()))',
         "--stages sorted alphabetically", OPT, CLI),
    core("C8", "meteor_core/cli.py", "zero_penalty_single_chunk=args.zero_penalty_single_chunk",
         "zero_penalty_single_chunk=False", "--zero-penalty-single-chunk ignored", OPT),
    core("C9", "meteor_core/cli.py", "bleu_smoothing=args.bleu_smoothing", 'bleu_smoothing="none"',
         "--bleu-smoothing ignored", OPT),
    core("C10", "meteor_core/cli.py", 'print(f"error: {with_hint(error)}", file=sys.stderr)\n        return 2',
         'print(f"error: {with_hint(error)}", file=sys.stderr)\n        return 0', "errors exit 0", OPT, CLI),
    core("C11", "meteor_core/cli.py", 'p.add_argument("--reference", action="append", required=True)',
         'p.add_argument("--reference", action="store", required=True, type=lambda s: [s])',
         "score keeps only the last --reference", OPT, CLI),
]

#: Panels without a heading line: (file, regex of a line inside the panel, panel name).
PANEL_ANCHORS: list[tuple[str, str, str]] = []

HEADING = re.compile(r"\bst\.(title|header|subheader)\(")


def _statement_after(tree: ast.AST, line: int) -> Optional[tuple[int, int]]:
    """Where a raise belongs for a heading on `line`: (insert before this 1-based line, indent).
    After the simple statement holding the heading, or first in the body of a compound
    statement whose header holds it."""
    best = None
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for stmt in block:
                if not isinstance(stmt, ast.stmt) or not stmt.lineno <= line <= stmt.end_lineno:
                    continue
                inner = getattr(stmt, "body", None)
                if isinstance(inner, list) and inner and line < inner[0].lineno:
                    candidate = (inner[0].lineno, inner[0].col_offset)
                elif isinstance(inner, list) and inner:
                    continue  # the heading is deeper inside: a later iteration finds it
                else:
                    candidate = (stmt.end_lineno + 1, stmt.col_offset)
                if best is None or candidate[0] <= best[0]:
                    best = candidate
    return best


def page_mutants(root: Path) -> list[Mutant]:
    found = []
    # The pages and the panel renderers they call (headings inside lens/ are panels too).
    files = sorted((root / "app_pages").glob("*.py")) + [root / "lens" / "ui.py", root / "lens" / "corpus_ui.py"]
    anchors = [(path, None, None) for path in files] + [(root / f, re.compile(rx), name) for f, rx, name in PANEL_ANCHORS]
    for path, regex, name in anchors:
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = text.splitlines()
        for number, line in enumerate(lines, start=1):
            if regex is None:
                match = HEADING.search(line)
                if not match:
                    continue
                label = re.sub(r"\s+", " ", line.strip())[:70]
            elif regex.search(line):
                label = name
            else:
                continue
            where = _statement_after(tree, number)
            if where is None:
                continue
            rel = str(path.relative_to(root))
            mid = f"{path.stem}:{number}"
            insert = " " * where[1] + f"raise RuntimeError({f'mutant {mid}: panel {label}'!r})"
            found.append(Mutant(mid, "pages", rel, f"raise in panel {label}", line=where[0], insert=insert))
    return found


# -- running ------------------------------------------------------------------------------------

def copy_repo(dest: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if rel.startswith(".venv") or not source.is_file():
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def test_files(root: Path) -> tuple[list[str], list[str], list[str]]:
    """(fast, apptest, browser) test files, by what they use."""
    fast, apptest, browser = [], [], []
    for path in sorted((root / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(root))
        if "browser_page" in text or "streamlit_server" in text:
            browser.append(rel)
        else:
            fast.append(rel)
            if "AppTest" in text:
                apptest.append(rel)
    return fast, apptest, browser


def run_pytest(root: Path, args: list[str]) -> tuple[str, str, float]:
    """(verdict, first failing test id or last output line, seconds)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # no stale .pyc between same-size edits
    start = time.monotonic()
    try:
        process = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args],
                                 cwd=root, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", "", time.monotonic() - start
    seconds = time.monotonic() - start
    lines = process.stdout.strip().splitlines()
    failing = next((line for line in lines if re.match(r"(FAILED|ERROR) \S+\.py", line)), "")
    if process.returncode == 0:
        return "survived", "", seconds
    if process.returncode in (1, 2, 3) and failing:
        return "killed", failing.split(" ", 1)[1].split(" - ")[0], seconds
    return f"error (pytest exit {process.returncode})", (lines or [process.stderr.strip()[-300:]])[-1], seconds


def evaluate(root: Path, suites: list[list[str]]) -> tuple[str, str, float]:
    """Run the suites in order until one fails."""
    total = 0.0
    for files in suites:
        verdict, detail, seconds = run_pytest(root, files)
        total += seconds
        if verdict != "survived":
            return verdict, detail, total
    return "survived", "", total


def fails_without_mutant(root: Path, test_id: str) -> bool:
    """Is a kill real? The failing test must pass on the unmutated code (the machine is shared
    and loaded: a browser or AppTest timeout must not count as a kill)."""
    verdict, _, _ = run_pytest(root, [test_id])
    if verdict.startswith("error"):  # an id pytest cannot select (escaped characters): its file
        verdict, _, _ = run_pytest(root, [test_id.split("::")[0]])
    return verdict != "survived"


def apply(root: Path, mutant: Mutant) -> Optional[str]:
    """Mutate the copy; return the original text, or None when the mutant no longer applies."""
    path = root / mutant.file
    if not path.exists():
        return None
    original = path.read_text(encoding="utf-8")
    if mutant.category == "core":
        if original.count(mutant.old) != 1:
            return None
        mutated = original.replace(mutant.old, mutant.new)
    else:
        lines = original.splitlines(keepends=True)
        lines.insert(mutant.line - 1, mutant.insert + "\n")
        mutated = "".join(lines)
    try:
        ast.parse(mutated)
    except SyntaxError:
        return None
    path.write_text(mutated, encoding="utf-8")
    return original


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--only", nargs="+", default=[], help="mutant id prefixes")
    parser.add_argument("--category", choices=("core", "pages"))
    parser.add_argument("--no-confirm", action="store_true",
                        help="report a core survivor of its own tests without re-running the whole fast suite")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)

    mutants = CORE_MUTANTS + page_mutants(ROOT)
    if args.category:
        mutants = [m for m in mutants if m.category == args.category]
    if args.only:
        mutants = [m for m in mutants if any(m.id.startswith(p) for p in args.only)]
    if args.list:
        for m in mutants:
            print(f"{m.id:24s} {m.category:5s} {m.file:32s} {m.what}")
        print(f"{len(mutants)} mutants")
        return 0

    results = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        root = Path(tmp)
        copy_repo(root)
        fast, apptest, browser = test_files(root)
        print(f"copy of the repository: {root}; fast suite {len(fast)} files, AppTest {len(apptest)}, "
              f"browser {len(browser)}", flush=True)
        needed = {"core": bool(any(m.category == "core" for m in mutants)),
                  "pages": bool(any(m.category == "pages" for m in mutants))}
        baseline = (fast if needed["core"] else apptest) + (browser if needed["pages"] else [])
        for attempt in range(2):  # once more on failure: the shared machine makes browser tests flaky
            verdict, detail, seconds = run_pytest(root, baseline)
            print(f"baseline (no mutant): {verdict} in {seconds:.0f} s {detail}", flush=True)
            if verdict == "survived":
                break
        if verdict != "survived":
            print("the unmutated suite does not pass: fix that first", file=sys.stderr)
            return 2
        for m in mutants:
            if m.category == "core":
                selected = [t for t in m.tests if (root / t).exists()]
                if not selected:
                    suites = [fast]
                else:  # a survivor of its own tests must also survive the whole fast suite
                    suites = [selected] if args.no_confirm else [selected, fast]
            else:
                suites = [apptest, browser]
            seconds = 0.0
            for attempt in range(2):
                original = apply(root, m)
                if original is None:
                    verdict, detail = "stale", "the text or anchor is gone: update the mutant"
                    break
                try:
                    verdict, detail, more = evaluate(root, suites)
                finally:
                    (root / m.file).write_text(original, encoding="utf-8")
                seconds += more
                if verdict != "killed" or not fails_without_mutant(root, detail):
                    break
                verdict, detail = "flaky", f"{detail} fails without the mutant too"
            results.append({"id": m.id, "category": m.category, "file": m.file, "what": m.what,
                            "verdict": verdict, "detail": detail, "seconds": round(seconds, 1)})
            print(f"{m.id:24s} {verdict:9s} {seconds:6.0f} s  {m.what}  {detail[:110]}", flush=True)

    print()
    for category in ("core", "pages"):
        rows = [r for r in results if r["category"] == category]
        if not rows:
            continue
        count = {v: sum(1 for r in rows if r["verdict"] == v)
                 for v in ("killed", "timeout", "survived", "stale", "flaky")}
        other = len(rows) - sum(count.values())
        print(f"{category}: {len(rows)} mutants, {count['killed'] + count['timeout']} killed "
              f"({count['timeout']} by timeout), {count['survived']} survived, {count['stale']} stale, "
              f"{count['flaky']} flaky (a test failed without the mutant too)"
              + (f", {other} errors" if other else ""))
    for r in results:
        if r["verdict"] == "survived":
            print(f"SURVIVED {r['id']} ({r['file']}): {r['what']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
