"""Is the difference between two systems significant? Paired tests on corpus-level scores, as
MT researchers run them:

- paired bootstrap resampling (Koehn 2004): draw the test set's segments with replacement R
  times, the same draw for every system; score every system on every draw. The 95% confidence
  interval of a system (and of a difference) is the 2.5th-97.5th percentile of its R scores.
  The p-value follows sacreBLEU's paired bootstrap (and Moses'
  bootstrap-hypothesis-difference-significance.pl): the resampled absolute differences, shifted
  to mean 0, give the distribution under "no difference"; p = (k + 1) / (R + 1) with k the
  count at or above the observed absolute difference (two-sided).
- approximate randomization (Riezler & Maxwell 2005; MultEval uses it for BLEU, METEOR and TER):
  T trials, each swapping the two systems' outputs of every segment with probability 1/2;
  p = (k + 1) / (T + 1) with k the trials whose absolute difference is at or above the observed.

Corpus scores are recomputed from summed per-segment statistics (METEOR: matches, candidate
and reference lengths, chunks; BLEU: clipped n-gram matches and totals, lengths), so a
resample is a matrix product: (draw counts, R x n) @ (statistics, n x k). Everything is
vectorized over resamples with numpy; a fixed seed makes every number reproducible.

"At or above" rather than sacreBLEU's "above": with ">" a system compared with itself (every
difference 0) would come out significant at p = 1/(R+1)."""
from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Callable, Mapping, Optional, Sequence

import numpy as np

from .params import MeteorParams

DEFAULT_RESAMPLES = 1000  # bootstrap, sacreBLEU's default
DEFAULT_TRIALS = 10000  # approximate randomization, MultEval's and sacreBLEU's default
DEFAULT_SEED = 12345  # sacreBLEU's default seed
MAX_SEED = 2 ** 32 - 1  # numpy's default_rng takes any non-negative integer; the app and CLI offer this range
#: Elements of a (rows x segments) draw matrix built at once; larger draws go in row chunks.
CHUNK_ELEMENTS = 4_000_000
_TIE = 1e-12  # float noise allowed when comparing a resampled difference with the observed one

ScoreFromSums = Callable[[np.ndarray], np.ndarray]  # (r x k) summed statistics -> r scores


# -- statistics kept apart from the arithmetic (sacreBLEU style) ------------------------
def meteor_statistics(segments) -> np.ndarray:
    """n x 4: matches, candidate length, reference length, chunks (each segment at its best
    reference), from MultiReferenceResult-like objects with `.stats`."""
    return np.array([(s.stats.matches, s.stats.candidate_length, s.stats.reference_length, s.stats.chunks)
                     for s in segments], dtype=np.float64).reshape(-1, 4)


def meteor_from_sums(params: MeteorParams, zero_penalty_single_chunk: bool = False) -> ScoreFromSums:
    """formula.compute, vectorized: same expressions in the same order."""
    alpha, beta, gamma = params.alpha, params.beta, params.gamma

    def score(sums: np.ndarray) -> np.ndarray:
        m, cand, ref, chunks = (sums[:, k] for k in range(4))
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = m / cand
            recall = m / ref
            fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
            penalty = gamma * (chunks / m) ** beta
            if zero_penalty_single_chunk:
                penalty = np.where((chunks == 1) & (m == cand) & (m == ref), 0.0, penalty)
            value = (1 - penalty) * fmean
        return np.where(m == 0, 0.0, value)

    return score


#: nltk smoothing methods whose corpus-level effect depends on the summed counts only.
BLEU_SMOOTHING_FROM_SUMS = ("none", "method1", "method2", "method3")


def bleu_statistics(bleu_results) -> np.ndarray:
    """n x 10: candidate length, closest reference length, clipped matches of orders 1-4,
    candidate n-grams of orders 1-4 (what nltk's corpus_bleu sums)."""
    rows = [(b.candidate_length, b.reference_length, *(o.matched for o in b.orders), *(o.total for o in b.orders))
            for b in bleu_results]
    return np.array(rows, dtype=np.float64).reshape(-1, 10)


def bleu_from_sums(smoothing: str = "none", epsilon: float = 0.1) -> ScoreFromSums:
    """nltk's corpus_bleu from summed counts (uniform weights, no re-weighting), with this
    project's rule that unsmoothed BLEU with a zero count is 0 (meteor_core.bleu)."""
    if smoothing not in BLEU_SMOOTHING_FROM_SUMS:
        raise ValueError(f"corpus BLEU from summed counts supports smoothing {', '.join(BLEU_SMOOTHING_FROM_SUMS)}; "
                         f"got {smoothing!r}")

    def score(sums: np.ndarray) -> np.ndarray:
        hyp, ref = sums[:, 0], sums[:, 1]
        matched, total = sums[:, 2:6].copy(), sums[:, 6:10].copy()
        zero = matched == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            if smoothing == "method1":
                matched = np.where(zero, epsilon, matched)
            elif smoothing == "method2":  # add one to orders 2-4
                matched[:, 1:] += 1
                total[:, 1:] += 1
            elif smoothing == "method3":  # k-th zero order gets 1 / 2^k
                k = np.cumsum(zero, axis=1)
                matched = np.where(zero, 1.0 / 2.0 ** k, matched)
            precision = matched / total
            log_mean = np.sum(0.25 * np.log(precision), axis=1)
            bp = np.where(hyp > ref, 1.0, np.where(hyp == 0, 0.0, np.exp(1 - ref / hyp)))
            value = bp * np.exp(log_mean)
        value = np.where(sums[:, 2] == 0, 0.0, value)  # no unigram matched: nltk returns 0
        if smoothing == "none":
            value = np.where(zero.any(axis=1), 0.0, value)
        return np.nan_to_num(value, nan=0.0)

    return score


# -- results ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SystemScore:
    system: str
    metric: str
    score: float  # on the paired segments
    ci_low: float  # 95% bootstrap percentile interval
    ci_high: float


def format_p_value(p: float, level: float = 0.05, digits: int = 4) -> str:
    """p with `digits` decimals, or more where rounding would put it on the other side of
    `level`: 500/10,001 trials printed 0.0500 beside "significant (both tests p < 0.05)" (a
    tester); it is 0.049995."""
    text = f"{p:.{digits}f}"
    while (float(text) < level) != (p < level) and digits < 17:
        digits += 1
        text = f"{p:.{digits}f}"
    return text


@dataclass(frozen=True)
class PairTest:
    """System b against system a on one metric; difference = b - a."""

    metric: str
    system_a: str
    system_b: str
    score_a: float
    score_b: float
    difference: float
    difference_ci_low: float
    difference_ci_high: float
    p_value_bootstrap: float
    p_value_randomization: float
    b_better_share: float  # Koehn 2004: share of resamples in which b scores higher than a

    @property
    def p_value(self) -> float:
        """The larger of the two tests' p-values: significant only if both agree."""
        return max(self.p_value_bootstrap, self.p_value_randomization)

    def to_dict(self) -> dict:
        """One naming wherever a pair is written (compare --json wrote each pair twice, with
        "difference" in one place and "difference_b_minus_a" in the other: a tester)."""
        return {"metric": self.metric, "system_a": self.system_a, "system_b": self.system_b,
                "score_a": self.score_a, "score_b": self.score_b, "difference_b_minus_a": self.difference,
                "difference_ci_95": [self.difference_ci_low, self.difference_ci_high],
                "p_value": self.p_value, "p_value_bootstrap": self.p_value_bootstrap,
                "p_value_approximate_randomization": self.p_value_randomization,
                "b_better_share_of_resamples": self.b_better_share, "verdict": self.verdict()}

    def verdict(self, level: float = 0.05) -> str:
        by_bootstrap, by_randomization = self.p_value_bootstrap < level, self.p_value_randomization < level
        if by_bootstrap and by_randomization:
            if level == 0.05 and self.difference_ci_low <= 0.0 <= self.difference_ci_high:
                # The p-value (sacreBLEU's, centred) and the percentile interval can disagree at
                # the edge; printed side by side they read as a contradiction (a tester).
                return "significant, but borderline: 95% CI includes 0"
            return f"significant (both tests p < {level:g})"
        if by_bootstrap or by_randomization:
            return f"uncertain (only {'bootstrap' if by_bootstrap else 'randomization'} p < {level:g})"
        return f"not significant (p >= {level:g})"


@dataclass(frozen=True)
class SignificanceReport:
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    segments: int
    resamples: int
    trials: int
    seed: int
    scores: tuple[SystemScore, ...]
    pairs: tuple[PairTest, ...]
    notes: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return f"paired-bs:{self.resamples}|paired-ar:{self.trials}|seed:{self.seed}|ci:95%|n:{self.segments}"

    def score(self, system: str, metric: str) -> SystemScore:
        return next(s for s in self.scores if s.system == system and s.metric == metric)

    def pair(self, system_a: str, system_b: str, metric: str) -> PairTest:
        return next(p for p in self.pairs if p.metric == metric and p.system_a == system_a and p.system_b == system_b)

    def to_dict(self) -> dict:
        return {
            "segments": self.segments, "bootstrap_resamples": self.resamples,
            "randomization_trials": self.trials, "seed": self.seed, "confidence": 0.95,
            "signature": self.signature, "notes": list(self.notes),
            "systems": [{"system": s.system, "metric": s.metric, "score": s.score,
                         "ci_95": [s.ci_low, s.ci_high]} for s in self.scores],
            "pairs": [p.to_dict() for p in self.pairs],
        }


# -- the tests -------------------------------------------------------------------------
def _row_chunks(rows: int, segments: int) -> list[int]:
    per_chunk = max(1, CHUNK_ELEMENTS // max(1, segments))
    return [min(per_chunk, rows - start) for start in range(0, rows, per_chunk)]


def _bootstrap_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """How often each segment is drawn in each resample (rows x n), from the same index draw
    sacreBLEU makes (rng.choice with replacement)."""
    idx = rng.choice(n, size=(rows, n), replace=True)
    flat = (idx + (np.arange(rows) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


def _percentile_interval(values: np.ndarray) -> tuple[float, float]:
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def check_settings(resamples: int, trials: int, seed: int) -> None:
    """Refuse resamples, trials or a seed that are not whole numbers in range (ValueError): a
    caller checks them before scoring anything (they were refused after every system was
    scored, and trials=2.5 raised a bare TypeError: a tester)."""
    def whole(value) -> bool:
        return not isinstance(value, bool) and isinstance(value, (int, np.integer))

    if not (whole(resamples) and whole(trials)) or resamples < 1 or trials < 1:
        raise ValueError(f"resamples and trials must be whole numbers of at least 1, got {resamples!r} and {trials!r}")
    if not whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")


def paired_significance(systems: Sequence[str], statistics: Mapping[str, Sequence[np.ndarray]],
                        score_functions: Mapping[str, ScoreFromSums], resamples: int = DEFAULT_RESAMPLES,
                        trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED,
                        pairs: Optional[Sequence[tuple[int, int]]] = None,
                        notes: Sequence[str] = (),
                        progress: Optional[Callable[[int, int], None]] = None) -> SignificanceReport:
    """statistics[metric][s] is the n x k per-segment statistics of system s (rows paired
    across systems: row i is the same segment everywhere). pairs default to every (a, b) with
    a < b in the given order. progress(done, total) counts resamples and then trials (total:
    their sum), once per chunk of them."""
    names = tuple(systems)
    if len(names) < 2:
        raise ValueError("significance needs at least two systems")
    check_settings(resamples, trials, seed)
    metrics = tuple(statistics)
    n = len(statistics[metrics[0]][0])
    if n == 0:
        raise ValueError("no segment is paired across the systems")
    for metric in metrics:
        if len(statistics[metric]) != len(names) or any(len(s) != n for s in statistics[metric]):
            raise ValueError(f"{metric}: every system needs statistics for the same {n} segments")
    pairs = list(pairs) if pairs is not None else [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    stats = {m: [np.asarray(s, dtype=np.float64) for s in statistics[m]] for m in metrics}
    observed = {m: [float(score_functions[m](s.sum(axis=0, keepdims=True))[0]) for s in stats[m]] for m in metrics}

    # Bootstrap: one draw matrix shared by all systems and metrics (that is what "paired" means).
    # All statistics side by side make one matrix product per chunk. Counts and statistics are
    # integers: float32 holds them and every partial sum exactly below 2^24 (then used, as it
    # halves the work), float64 otherwise.
    blocks = [(m, s) for m in metrics for s in range(len(names))]
    stacked = np.hstack([stats[m][s] for m, s in blocks])
    exact = np.float32 if n * np.abs(stacked).max() < 2 ** 24 else np.float64  # bounds every resampled sum
    stacked = stacked.astype(exact)
    widths = [stats[m][s].shape[1] for m, s in blocks]
    offsets = np.cumsum([0] + widths)
    rng = np.random.default_rng(seed)
    boot = {m: np.empty((len(names), resamples)) for m in metrics}
    start = 0
    for rows in _row_chunks(resamples, n):
        sums = (_bootstrap_counts(rng, rows, n) @ stacked).astype(np.float64)
        for (m, s), lo, hi in zip(blocks, offsets[:-1], offsets[1:]):
            boot[m][s, start:start + rows] = score_functions[m](sums[:, lo:hi])
        start += rows
        if progress is not None:
            progress(start, resamples + trials)

    # Approximate randomization: one swap mask per trial, shared by all pairs and metrics.
    # moved = statistics that a trial moves from b's side to a's side.
    pair_blocks = [(m, a, b) for m in metrics for a, b in pairs]
    differences = np.hstack([stats[m][b] - stats[m][a] for m, a, b in pair_blocks]).astype(exact)
    widths = [stats[m][a].shape[1] for m, a, b in pair_blocks]
    offsets = np.cumsum([0] + widths)
    totals = {m: [s.sum(axis=0) for s in stats[m]] for m in metrics}
    ar_observed = {(m, a, b): abs(observed[m][b] - observed[m][a]) for m, a, b in pair_blocks}
    ar_hits = dict.fromkeys(pair_blocks, 0)
    rng = np.random.default_rng(seed)
    done = resamples
    for rows in _row_chunks(trials, n):
        swap = rng.integers(2, size=(rows, n), dtype=bool)
        moved_all = (swap.astype(exact) @ differences).astype(np.float64)
        for (m, a, b), lo, hi in zip(pair_blocks, offsets[:-1], offsets[1:]):
            moved = moved_all[:, lo:hi]
            diff = np.abs(score_functions[m](totals[m][b] - moved) - score_functions[m](totals[m][a] + moved))
            ar_hits[(m, a, b)] += int(np.count_nonzero(diff >= ar_observed[(m, a, b)] - _TIE))
        done += rows
        if progress is not None:
            progress(done, resamples + trials)

    scores = []
    for m in metrics:
        for s, name in enumerate(names):
            low, high = _percentile_interval(boot[m][s])
            scores.append(SystemScore(name, m, observed[m][s], low, high))
    results = []
    for m in metrics:
        for a, b in pairs:
            deltas = boot[m][b] - boot[m][a]
            absolute = np.abs(deltas)
            centred = absolute - absolute.mean()
            hits = int(np.count_nonzero(centred >= abs(observed[m][b] - observed[m][a]) - _TIE))
            low, high = _percentile_interval(deltas)
            results.append(PairTest(
                m, names[a], names[b], observed[m][a], observed[m][b], observed[m][b] - observed[m][a], low, high,
                (hits + 1) / (resamples + 1), (ar_hits[(m, a, b)] + 1) / (trials + 1),
                float(np.count_nonzero(deltas > 0)) / resamples))
    notes = tuple(notes)
    if n < FEW_SEGMENTS:
        notes += (few_segments_note(n),)
    return SignificanceReport(names, metrics, n, resamples, trials, seed, tuple(scores), tuple(results), notes)


#: Below this many paired segments the report says that its intervals and p-values mean little.
FEW_SEGMENTS = 10


def few_segments_note(n: int) -> str:
    """Why resampling n segments says little: the bootstrap has comb(2n - 1, n) distinct
    resamples (1 for one segment: every interval is a point) and approximate randomization
    2^n distinct swaps."""
    return (f"Only {n} segment{'s' if n != 1 else ''}: the bootstrap can draw {comb(2 * n - 1, n):,} distinct "
            f"resample{'s' if comb(2 * n - 1, n) != 1 else ''} and approximate randomization {2 ** n:,} distinct "
            "swaps, so these intervals and p-values say little about the systems; significance needs a test set "
            "of hundreds of segments.")
