"""Paired significance tests: the vectorized corpus scores against the scalar code and nltk,
approximate randomization against exact enumeration, the bootstrap against a plain loop, the
BLEU side against sacreBLEU's own paired tests, and the `compare` CLI."""
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from meteor_core import MeteorConfig, MeteorParams, MeteorStats, compute
from meteor_core.bleu import corpus_bleu, sentence_bleu
from meteor_core.corpus import compare_systems
from meteor_core.corpus_io import CorpusInput
from meteor_core import significance
from meteor_core.significance import (bleu_from_sums, bleu_statistics, meteor_from_sums,
                                      paired_significance)

ROOT = Path(__file__).resolve().parents[1]
EXACT = MeteorConfig(stages=("exact",))
PARAMS = MeteorParams(0.9, 3.0, 0.5)


def test_meteor_from_sums_is_the_formula():
    rng = random.Random(1)
    rows = []
    for _ in range(500):
        cand, ref = rng.randint(1, 40), rng.randint(1, 40)
        m = rng.randint(0, min(cand, ref))
        rows.append((m, cand, ref, rng.randint(1, m) if m else 0))
    rows += [(5, 5, 5, 1), (0, 3, 4, 0)]
    for params, zero in ((PARAMS, False), (MeteorParams(0.85, 0.2, 0.6), True)):
        vector = meteor_from_sums(params, zero)(np.array(rows, dtype=float))
        scalar = [compute(MeteorStats(*r), params, zero).score for r in rows]
        assert vector == pytest.approx(scalar, abs=1e-13)


@pytest.mark.parametrize("smoothing", ["none", "method1", "method2", "method3"])
def test_bleu_from_sums_is_nltk_corpus_bleu(smoothing):
    rng = random.Random(2)
    words = "a b c d e f".split()
    for _ in range(60):
        n = rng.randint(1, 6)
        cands = [[rng.choice(words) for _ in range(rng.randint(1, 9))] for _ in range(n)]
        refs = [[[rng.choice(words) for _ in range(rng.randint(1, 9))] for _ in range(rng.randint(1, 2))] for _ in range(n)]
        stats = bleu_statistics([sentence_bleu(c, r) for c, r in zip(cands, refs)])
        ours = bleu_from_sums(smoothing)(stats.sum(axis=0, keepdims=True))[0]
        assert ours == pytest.approx(corpus_bleu(cands, refs, smoothing), abs=1e-12)


def _random_systems(rng, n, systems=2):
    """Per-segment METEOR statistics for a few systems (rows paired)."""
    out = []
    for _ in range(systems):
        cand = rng.integers(5, 30, n)
        ref = rng.integers(5, 30, n)
        m = np.minimum(cand, ref) - rng.integers(0, 5, n).clip(0, None)
        m = m.clip(1, None)
        chunks = np.minimum(m, rng.integers(1, 6, n))
        out.append(np.column_stack([m, cand, ref, chunks]).astype(float))
    return out


def test_approximate_randomization_converges_to_exact_enumeration():
    """With 4 segments there are 16 swap patterns: the exact permutation p-value is the share
    of patterns whose |difference| reaches the observed one."""
    rng = np.random.default_rng(5)
    a, b = _random_systems(rng, 4)
    score = meteor_from_sums(PARAMS)
    observed = abs(score(b.sum(0, keepdims=True))[0] - score(a.sum(0, keepdims=True))[0])
    hits = 0
    for pattern in itertools.product([0, 1], repeat=4):
        swap = np.array(pattern, dtype=bool)
        sa = np.where(swap[:, None], b, a).sum(0, keepdims=True)
        sb = np.where(swap[:, None], a, b).sum(0, keepdims=True)
        hits += abs(score(sb)[0] - score(sa)[0]) >= observed - 1e-12
    exact = hits / 16
    report = paired_significance(["a", "b"], {"METEOR": [a, b]}, {"METEOR": score}, resamples=10, trials=40000)
    assert report.pairs[0].p_value_randomization == pytest.approx(exact, abs=0.01)


def test_bootstrap_matches_a_plain_loop():
    """Same draws (numpy's choice with the seed), scores recomputed one resample at a time
    with formula.compute: every percentile and the p-value agree."""
    rng = np.random.default_rng(6)
    a, b = _random_systems(rng, 30)
    report = paired_significance(["a", "b"], {"METEOR": [a, b]}, {"METEOR": meteor_from_sums(PARAMS)},
                                 resamples=200, trials=10, seed=99)
    draws = np.random.default_rng(99).choice(30, size=(200, 30), replace=True)

    def corpus(stats, idx):
        return compute(MeteorStats(*(int(v) for v in stats[idx].sum(axis=0))), PARAMS).score

    scores_a = np.array([corpus(a, idx) for idx in draws])
    scores_b = np.array([corpus(b, idx) for idx in draws])
    observed_a, observed_b = corpus(a, np.arange(30)), corpus(b, np.arange(30))
    absolute = np.abs(scores_b - scores_a)
    expected_p = (np.sum(absolute - absolute.mean() >= abs(observed_b - observed_a) - 1e-12) + 1) / 201
    pair = report.pairs[0]
    assert (pair.score_a, pair.score_b) == pytest.approx((observed_a, observed_b), abs=1e-12)
    assert pair.p_value_bootstrap == pytest.approx(expected_p, abs=1e-12)
    assert (pair.difference_ci_low, pair.difference_ci_high) == pytest.approx(
        tuple(np.percentile(scores_b - scores_a, [2.5, 97.5])), abs=1e-12)
    assert (report.score("a", "METEOR").ci_low, report.score("a", "METEOR").ci_high) == pytest.approx(
        tuple(np.percentile(scores_a, [2.5, 97.5])), abs=1e-12)
    assert pair.b_better_share == pytest.approx(np.mean(scores_b > scores_a))


def test_seed_reproduces_and_identical_systems_are_not_significant():
    rng = np.random.default_rng(7)
    a, b = _random_systems(rng, 50)
    run = lambda seed: paired_significance(["a", "b"], {"METEOR": [a, b]}, {"METEOR": meteor_from_sums(PARAMS)},
                                           resamples=300, trials=300, seed=seed)
    assert run(3) == run(3)
    assert run(3).pairs != run(4).pairs
    same = paired_significance(["a", "a2"], {"METEOR": [a, a.copy()]}, {"METEOR": meteor_from_sums(PARAMS)},
                               resamples=300, trials=300)
    assert same.pairs[0].p_value_bootstrap == 1.0 and same.pairs[0].p_value_randomization == 1.0
    assert same.pairs[0].verdict().startswith("not significant")
    # Koehn's share counts resamples where b is strictly better: ties are not (a mutation
    # counting them gave 1.0 for identical systems)
    assert same.pairs[0].b_better_share == 0.0
    better = a.copy()
    better[:, 0] = better[:, 1].clip(max=better[:, 2])  # every possible word matched: better on every segment
    better[:, 3] = 1
    strictly = paired_significance(["a", "b"], {"METEOR": [a, better]}, {"METEOR": meteor_from_sums(PARAMS)},
                                   resamples=300, trials=300)
    assert strictly.pairs[0].b_better_share == 1.0


def test_progress_counts_resamples_then_trials_chunk_by_chunk_and_changes_no_result(monkeypatch):
    rng = np.random.default_rng(11)
    a, b = _random_systems(rng, 50)
    run = lambda **extra: paired_significance(["a", "b"], {"METEOR": [a, b]}, {"METEOR": meteor_from_sums(PARAMS)},
                                              resamples=20, trials=30, seed=5, **extra)
    monkeypatch.setattr(significance, "CHUNK_ELEMENTS", 7 * 50)  # chunks of 7 rows for 50 segments
    whole = run()
    calls = []
    assert run(progress=lambda done, total: calls.append((done, total))) == whole
    assert calls == [(7, 50), (14, 50), (20, 50), (27, 50), (34, 50), (41, 50), (48, 50), (50, 50)]


@pytest.mark.parametrize("low, high, p_boot, p_rand, expected", [
    (0.001, 0.02, 0.01, 0.02, "significant (both tests p < 0.05)"),
    # short enough to be read whole in System Comparison's verdict column (a tester)
    (-0.0084, 0.0001, 0.027, 0.041, "significant, but borderline: 95% CI includes 0"),
    (-0.0084, 0.0001, 0.027, 0.06, "uncertain (only bootstrap p < 0.05)"),
    (-0.02, 0.01, 0.4, 0.5, "not significant (p >= 0.05)"),
])
def test_a_verdict_never_contradicts_the_interval_printed_beside_it(low, high, p_boot, p_rand, expected):
    """A tester's find on WMT22 (nltk mode): -0.0042 [-0.0084, +0.0001], p 0.027 / 0.041 was
    printed as plain "significant", beside an interval that includes 0."""
    from meteor_core.significance import PairTest

    pair = PairTest("METEOR", "a", "b", 0.5, 0.5 + (low + high) / 2, (low + high) / 2, low, high, p_boot, p_rand, 0.5)
    assert pair.verdict() == expected


# -- cross-check with sacreBLEU ----------------------------------------------------------
def _noisy(rng, words, vocabulary, rate):
    return [rng.choice(vocabulary) if rng.random() < rate else w for w in words]


def _synthetic_corpus(n=300):
    """References of random words; systems = the reference with a share of words replaced."""
    rng = random.Random(11)
    vocabulary = [f"w{k}" for k in range(150)]
    refs = [[rng.choice(vocabulary) for _ in range(rng.randint(8, 20))] for _ in range(n)]
    good = [_noisy(rng, r, vocabulary, 0.10) for r in refs]
    bad = [_noisy(rng, r, vocabulary, 0.35) for r in refs]
    near = [_noisy(rng, r, vocabulary, 0.10) for r in refs]  # as good as `good`, other errors
    return [" ".join(r) for r in refs], {name: [" ".join(s) for s in sys_] for name, sys_ in
                                         (("good", good), ("bad", bad), ("near", near))}


def test_bleu_significance_agrees_with_sacrebleu():
    """Through the whole pipeline (our tokens, nltk's counts) against sacreBLEU on the same
    tokens. Not compared: systems that differ on a handful of segments only, where sacreBLEU's
    randomization test counts strictly larger differences and calls an exact tie significant
    (see meteor_core.significance)."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    refs, systems = _synthetic_corpus()
    names = ["good", "bad", "near"]
    corpora = [CorpusInput(tuple(str(k) for k in range(len(refs))), tuple(systems[s]), tuple((r,) for r in refs))
               for s in names]
    comparison = compare_systems(corpora, EXACT, names, resamples=1000, trials=2000, seed=12345)
    ours = {p.system_b: p for p in comparison.significance.pairs if p.metric == "BLEU" and p.system_a == "good"}
    sacre = {}
    for test in ("bs", "ar"):
        metric = BLEU(tokenize="none", smooth_method="none", force=True)
        named = [(s, systems[s]) for s in names]
        _, results = PairedTest(named, {"BLEU": metric}, [refs], test_type=test,
                                n_samples=1000 if test == "bs" else 2000)()
        sacre[test] = dict(zip(results["System"], results["BLEU"]))
    for name in ("bad", "near"):
        # Same corpus BLEU (sacreBLEU reports 0-100).
        assert ours[name].score_b * 100 == pytest.approx(sacre["bs"][name].score, abs=1e-9)
    assert ours["bad"].score_a * 100 == pytest.approx(sacre["bs"]["good"].score, abs=1e-9)
    for name, analysis in zip(names, comparison.analyses):  # same corpus scores as the Corpus Explorer's
        assert comparison.significance.score(name, "METEOR").score == pytest.approx(analysis.corpus.score, abs=1e-12)
        assert comparison.significance.score(name, "BLEU").score == pytest.approx(analysis.corpus_bleu, abs=1e-12)
    assert comparison.significance.notes == ()
    # Clear-cut cases: same decisions at p < 0.05 with both tests.
    assert ours["bad"].p_value_bootstrap < 0.05 and sacre["bs"]["bad"].p_value < 0.05
    assert ours["bad"].p_value_randomization < 0.05 and sacre["ar"]["bad"].p_value < 0.05
    assert ours["near"].p_value_bootstrap > 0.05 and sacre["bs"]["near"].p_value > 0.05
    assert ours["near"].p_value_randomization > 0.05 and sacre["ar"]["near"].p_value > 0.05
    # Intervals of similar width: sacreBLEU reports a half-width around the bootstrap mean.
    for name in ("bad", "near"):
        score = comparison.significance.score(name, "BLEU")
        assert (score.ci_high - score.ci_low) / 2 * 100 == pytest.approx(sacre["bs"][name].ci, rel=0.1)


# -- the CLI ---------------------------------------------------------------------------------
def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "meteor_core", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_compare_cli_json_gives_a_p_value_per_pair_and_metric(tmp_path):
    refs, systems = _synthetic_corpus(60)
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n")
    for name in ("good", "bad", "near"):
        (tmp_path / f"{name}.txt").write_text("\n".join(systems[name]) + "\n")
    two = _cli("compare", "--references", str(tmp_path / "ref.txt"), "--candidates", str(tmp_path / "good.txt"),
               str(tmp_path / "bad.txt"), "--json", "--resamples", "200", "--trials", "500", "--seed", "7",
               "--stages", "exact")
    assert two.returncode == 0, two.stderr
    data = json.loads(two.stdout)
    assert {(p["system_a"], p["system_b"], p["metric"]) for p in data["pairs"]} == {
        ("good.txt", "bad.txt", "METEOR"), ("good.txt", "bad.txt", "BLEU")}
    for pair in data["pairs"]:
        assert {k for k in pair if "p_value" in k} == {"p_value", "p_value_bootstrap", "p_value_approximate_randomization"}
        assert 0 < pair["p_value_bootstrap"] <= 1 and pair["p_value_approximate_randomization"] < 0.05
        assert pair["p_value"] == max(pair["p_value_bootstrap"], pair["p_value_approximate_randomization"])
    assert data["significance"]["seed"] == 7 and data["significance"]["bootstrap_resamples"] == 200
    # Each pair once, one naming (they were written twice, "difference" and "difference_b_minus_a": a tester)
    assert "pairs" not in data["significance"] and "systems" not in data["significance"]
    assert {s["system"] for s in data["systems"]} == {"good.txt", "bad.txt"}
    assert {"corpus_meteor", "meteor_ci_low", "meteor_ci_high", "corpus_bleu", "bleu_ci_low"} <= set(data["systems"][0])
    for pair in data["pairs"]:  # what the app's JSON export lacked (it now writes the same dict)
        assert {"b_better_share_of_resamples", "verdict", "difference_b_minus_a", "difference_ci_95"} <= set(pair)
        assert pair["difference_b_minus_a"] == pytest.approx(pair["score_b"] - pair["score_a"])
    again = _cli("compare", "--references", str(tmp_path / "ref.txt"), "--candidates", str(tmp_path / "good.txt"),
                 str(tmp_path / "bad.txt"), "--json", "--resamples", "200", "--trials", "500", "--seed", "7",
                 "--stages", "exact")
    assert json.loads(again.stdout)["pairs"] == data["pairs"]  # the seed reproduces every number
    three = _cli("compare", "--references", str(tmp_path / "ref.txt"), "--candidates",
                 *(str(tmp_path / f"{n}.txt") for n in ("good", "bad", "near")), "--resamples", "100",
                 "--trials", "100", "--stages", "exact")
    assert three.returncode == 0, three.stderr
    assert three.stdout.count("p(bootstrap)") == 6  # 3 pairs x 2 metrics
    assert "60 data lines, 60 scored, 0 not scored" in three.stderr


def test_compare_cli_refuses_a_column_with_itself_or_a_reference(tmp_path):
    table = tmp_path / "t.tsv"
    table.write_text("id\tA\tB\treference\n1\tthe cat\ta cat\tthe cat\n2\tthe dog\ta dog\tthe dog\n")
    same = _cli("compare", "--candidates", str(table), "--candidate-column", "A", "--candidate-column", "A")
    assert same.returncode == 2 and "a system is given twice: A" in same.stderr
    ref = _cli("compare", "--candidates", str(table), "--candidate-column", "A", "--candidate-column", "reference")
    assert ref.returncode == 2 and "chosen as the candidate and as a reference" in ref.stderr
    ok = _cli("compare", "--candidates", str(table), "--candidate-column", "A", "--candidate-column", "B",
              "--id-column", "id", "--json", "--resamples", "50", "--trials", "50", "--stages", "exact")
    assert ok.returncode == 0, ok.stderr
    assert [s["system"] for s in json.loads(ok.stdout)["systems"]] == ["A", "B"]  # B misses a word per line


def test_few_segments_are_said_to_mean_little_and_a_bad_seed_is_refused_at_once(tmp_path):
    """Testers' finds: one segment gave point intervals and p(bootstrap) = 0.001 without a word;
    --seed -1 raised numpy's ValueError with a traceback after every system was scored."""
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "a.txt").write_text("the cat sat on a mat\n")
    (tmp_path / "b.txt").write_text("a cat on the mat\n")
    files = ("--references", str(tmp_path / "ref.txt"), "--candidates", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))
    one = _cli("compare", *files, "--json", "--resamples", "50", "--trials", "50", "--stages", "exact")
    assert one.returncode == 0, one.stderr
    notes = json.loads(one.stdout)["significance"]["notes"]
    assert any(note.startswith("Only 1 segment: the bootstrap can draw 1 distinct resample and approximate "
                               "randomization 2 distinct swaps") for note in notes)
    text = _cli("compare", *files, "--resamples", "50", "--trials", "50", "--stages", "exact")
    assert "Only 1 segment" in text.stdout + text.stderr
    for seed in ("-1", "4294967296", "x"):
        bad = _cli("compare", *files, "--seed", seed)
        assert bad.returncode == 2 and "--seed" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    assert significance.few_segments_note(2).startswith("Only 2 segments: the bootstrap can draw 3 distinct resamples")
    many = _synthetic_corpus(60)
    assert significance.FEW_SEGMENTS <= 10 < len(many[0])
    with pytest.raises(ValueError, match="seed must be a whole number"):
        significance.paired_significance(["a", "b"], {"m": [np.ones((3, 1)), np.ones((3, 1))]},
                                         {"m": lambda sums: sums[:, 0]}, seed=-1)


def test_meteor15_resampling_uses_the_jar_aggregate():
    """In meteor15 mode the tests resample the jar's weighted statistics: summing the rows of
    any subset and scoring them equals the jar's aggregate of that subset (perfect segments add
    no chunk), and the observed METEOR of a comparison is the mode's corpus score."""
    from meteor_core import MeteorConfig, Scorer
    from meteor_core.corpus import analyze_corpus, compare_analyses
    from meteor_core.corpus_io import CorpusInput
    from meteor_core.meteor15.formula import score_rows, statistics_row

    config = MeteorConfig(mode="meteor15")
    scorer = Scorer(config)
    refs = [("the cat sat on the mat",), ("a quick brown fox",), ("hello world",), ("the prime minister spoke",)]
    systems = {"A": ["the cat sat on the mat", "a fast brown fox", "hello world", "the premier spoke"],
               "B": ["on the mat the cat sat", "quick brown fox", "hello there world", "the minister spoke"]}
    corpora = {name: scorer.score_corpus(c, refs) for name, c in systems.items()}
    p = config.params
    modules = tuple(zip(config.stages, config.weights))
    for corpus in corpora.values():
        for subset in ([0, 1, 2, 3], [0, 2], [0, 0, 3], [2]):
            rows = [statistics_row(corpus.segments[k].best.meteor15.stats) for k in subset]
            summed = [sum(column) for column in zip(*rows)]
            expected = scorer.corpus_result([corpus.segments[k] for k in subset]).score
            assert score_rows([summed], modules, p.alpha, p.beta, p.gamma, p.delta)[0] == expected
    analyses = [analyze_corpus(CorpusInput(tuple(str(k) for k in range(4)), tuple(c), tuple(refs)), config, workers=1)
                for c in systems.values()]
    report = compare_analyses(analyses, ["A", "B"], config, resamples=50, trials=50).significance
    assert report.score("A", "METEOR").score == corpora["A"].score
    assert report.score("B", "METEOR").score == corpora["B"].score
    assert report.notes == (significance.few_segments_note(4),)  # 4 segments; no other note


def test_the_cli_seed_range_is_the_library_one():
    from meteor_core import cli

    assert cli.MAX_SEED == significance.MAX_SEED


def test_compare_cli_shows_the_tests_progress_on_a_terminal(tmp_path):
    """stderr a terminal (a pty): after the scoring bar, a 'testing' bar counts resamples and
    trials to their total."""
    import os
    import threading

    refs, systems = _synthetic_corpus(60)
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n")
    for name in ("good", "bad"):
        (tmp_path / f"{name}.txt").write_text("\n".join(systems[name]) + "\n")
    master, slave = os.openpty()
    shown = bytearray()

    def read():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the pty closed
                return
            if not chunk:
                return
            shown.extend(chunk)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    run = subprocess.run([sys.executable, "-m", "meteor_core", "compare", "--references", str(tmp_path / "ref.txt"),
                          "--candidates", str(tmp_path / "good.txt"), str(tmp_path / "bad.txt"), "--json",
                          "--resamples", "200", "--trials", "500", "--stages", "exact"],
                         stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, timeout=300)
    os.close(slave)
    reader.join(10)
    os.close(master)
    assert run.returncode == 0
    text = shown.decode()
    assert "scoring [" in text and "] 120/120" in text
    assert "testing [" in text and "] 700/700" in text
    assert text.index("120/120") < text.index("700/700")


@pytest.mark.parametrize("p, shown", [
    (500 / 10001, "0.049995"),  # a tester: 0.0500 beside "significant (both tests p < 0.05)"
    (0.05, "0.0500"), (0.0501, "0.0501"), (0.04995, "0.04995"), (0.0499, "0.0499"), (1.0, "1.0000"),
    (0.0002, "0.0002"), (0.0, "0.0000")])
def test_a_p_value_is_printed_on_its_side_of_0_05(p, shown):
    assert significance.format_p_value(p) == shown
    assert (float(shown) < 0.05) == (p < 0.05)
