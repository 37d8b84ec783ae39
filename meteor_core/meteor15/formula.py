"""METEOR 1.5's arithmetic: sufficient statistics -> score (the jar's computeMetrics), and the
corpus aggregate (its addStats, as its `EVAL` command and pycocoevalcap use it).

The jar computes in Java doubles, where x / 0 is infinite or NaN instead of an error; a NaN
score becomes 0. The same expressions, in the same order, are evaluated here with Java's
division semantics, so the floats agree.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from ..result import ModuleMatches, WeightedBreakdown, WeightedStats


def _div(a: float, b: float) -> float:
    """Java double division: a / 0 is +-Infinity, 0 / 0 and NaN / x are NaN."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _pow(base: float, exponent: float) -> float:
    """Java Math.pow: NaN whenever an argument is NaN, except x^0 = 1."""
    if exponent == 0:
        return 1.0
    if math.isnan(base) or math.isnan(exponent):
        return math.nan
    try:
        return math.pow(base, exponent)
    except (OverflowError, ValueError):
        return math.inf if base > 1 or (0 < base < 1 and exponent < 0) else math.nan


def is_perfect(stats: WeightedStats) -> bool:
    """Every word of both sides matched, in one chunk (the jar then charges no penalty, and its
    aggregate does not add this segment's chunk)."""
    return (stats.candidate_matches == stats.candidate_length
            and stats.reference_matches == stats.reference_length and stats.chunks == 1)


def compute(stats: WeightedStats, alpha: float, beta: float, gamma: float, delta: float) -> WeightedBreakdown:
    """The jar's computeMetrics, one expression at a time. Module weights are in stats."""
    test_length = stats.candidate_length
    ref_length = stats.reference_length
    test_weighted_length = (delta * (test_length - stats.candidate_function_words)) \
        + ((1.0 - delta) * stats.candidate_function_words)
    ref_weighted_length = (delta * (ref_length - stats.reference_function_words)) \
        + ((1.0 - delta) * stats.reference_function_words)
    test_weighted = 0.0
    ref_weighted = 0.0
    for m in stats.modules:
        test_weighted += float(m.candidate_content) * m.weight * delta
    for m in stats.modules:
        ref_weighted += float(m.reference_content) * m.weight * delta
    for m in stats.modules:
        test_weighted += float(m.candidate_function) * m.weight * (1.0 - delta)
    for m in stats.modules:
        ref_weighted += float(m.reference_function) * m.weight * (1.0 - delta)
    precision = _div(test_weighted, test_weighted_length)
    recall = _div(ref_weighted, ref_weighted_length)
    fmean = _div(1.0, _div(1.0 - alpha, precision) + _div(alpha, recall))
    perfect = is_perfect(stats)
    if perfect:
        fragmentation = 0.0
    else:
        fragmentation = _div(float(stats.chunks), (float(stats.candidate_matches + stats.reference_matches)) / 2)
    penalty = gamma * _pow(fragmentation, beta)
    score = fmean * (1.0 - penalty)
    note = ""
    if math.isnan(score):
        score = 0.0
        if stats.candidate_matches == 0:
            # Which side, as paper mode says it: "or a side is empty" left the drill-down of a
            # system's empty output to guess (a tester).
            empty = [side for side, length in (("candidate", stats.candidate_length),
                                               ("reference", stats.reference_length)) if not length]
            why = (f"the {' and the '.join(empty)} {'has' if len(empty) == 1 else 'have'} no tokens after the "
                   "jar's normalizer, so no word can match" if empty else "no word matched")
            note = f"{why}: the formula is undefined and METEOR 1.5 reports 0"
        else:
            note = "the formula is undefined here; METEOR 1.5 reports 0"
    else:
        score = max(score, 0.0)
        if perfect:
            # The rule zeroes the fragmentation, not the penalty: gamma * 0^0 is gamma (Java's
            # Math.pow(0, 0) = 1), so with beta = 0 the jar still charges gamma (it said
            # "penalty 0" beside a penalty of 0.6000: a teacher).
            note = ("penalty 0: every word matched in one chunk (METEOR 1.5 convention)" if penalty == 0 else
                    f"fragmentation 0: every word matched in one chunk (METEOR 1.5 convention), yet with beta = 0 "
                    f"the penalty is gamma * 0^0 = gamma = {penalty:g}")
    # The Java arithmetic above decides the score; the values shown and exported are finite
    # (NaN is not JSON and never equal to itself): an undefined quantity is reported as 0 and
    # the note says why, as paper mode does for m = 0.
    return WeightedBreakdown(test_weighted, test_weighted_length, ref_weighted, ref_weighted_length,
                             _finite(precision), _finite(recall), _finite(fmean), _finite(fragmentation),
                             _finite(penalty), score, perfect, note)


def _finite(value: float) -> float:
    return value if math.isfinite(value) else 0.0


def aggregate(segments: Iterable[WeightedStats], modules: Sequence[tuple[str, float]]) -> WeightedStats:
    """The jar's addStats over segments: every count summed, except that a segment matched
    completely in one chunk adds no chunk (so a corpus of perfect segments has no penalty)."""
    lengths = [0, 0, 0, 0]
    chunks = 0
    counts = [[0, 0, 0, 0] for _ in modules]
    for s in segments:
        lengths[0] += s.candidate_length
        lengths[1] += s.reference_length
        lengths[2] += s.candidate_function_words
        lengths[3] += s.reference_function_words
        if not is_perfect(s):
            chunks += s.chunks
        for k, m in enumerate(s.modules):
            counts[k][0] += m.candidate_content
            counts[k][1] += m.candidate_function
            counts[k][2] += m.reference_content
            counts[k][3] += m.reference_function
    return WeightedStats(
        *lengths, tuple(ModuleMatches(name, weight, *c) for (name, weight), c in zip(modules, counts)), chunks,
        sum(c[0] + c[1] for c in counts), sum(c[2] + c[3] for c in counts))


def jar_stats_line(stats: WeightedStats) -> str:
    """The statistics as the jar prints them for a SCORE line (MeteorStats.toString): lengths,
    function words, four modules x (candidate content, reference content, candidate function,
    reference function), chunks, matched words per side; Java doubles."""
    values = [stats.candidate_length, stats.reference_length, stats.candidate_function_words,
              stats.reference_function_words]
    for k in range(4):
        if k < len(stats.modules):
            m = stats.modules[k]
            values += [m.candidate_content, m.reference_content, m.candidate_function, m.reference_function]
        else:
            values += [0, 0, 0, 0]
    values += [stats.chunks, stats.candidate_matches, stats.reference_matches]
    return " ".join(f"{float(v):.1f}" for v in values)


# -- the same aggregate for resampling (paired bootstrap, approximate randomization) -------------
def statistics_row(stats: WeightedStats) -> tuple[int, ...]:
    """A segment's statistics as numbers that add up to the jar's aggregate: lengths, function
    words, the chunks it adds (none when it is perfect, as addStats), then per module its four
    counts. Summing rows and calling `score_rows` gives what `aggregate` + `compute` give."""
    row = [stats.candidate_length, stats.reference_length, stats.candidate_function_words,
           stats.reference_function_words, 0 if is_perfect(stats) else stats.chunks]
    for m in stats.modules:
        row += [m.candidate_content, m.candidate_function, m.reference_content, m.reference_function]
    return tuple(row)


def score_rows(rows, modules: Sequence[tuple[str, float]], alpha: float, beta: float, gamma: float,
               delta: float) -> list[float]:
    """Scores of summed statistics rows (one per resample), each through `compute` itself, so
    that a resampled corpus is scored by exactly the jar's arithmetic."""
    return [compute(stats_of_row(row, modules), alpha, beta, gamma, delta).score for row in rows]


def stats_of_row(row: Sequence, modules: Sequence[tuple[str, float]]) -> WeightedStats:
    """The statistics a row of `statistics_row` (or a sum of such rows) stands for; a sum's
    chunks are those its segments add, so this is the aggregate of those segments."""
    if len(row) != 5 + 4 * len(modules):
        raise ValueError(f"a statistics row of {len(modules)} modules has {5 + 4 * len(modules)} numbers, "
                         f"not {len(row)}")
    counts = [ModuleMatches(name, weight, *(int(v) for v in row[5 + 4 * k:9 + 4 * k]))
              for k, (name, weight) in enumerate(modules)]
    return WeightedStats(int(row[0]), int(row[1]), int(row[2]), int(row[3]), tuple(counts), int(row[4]),
                         sum(c.candidate_content + c.candidate_function for c in counts),
                         sum(c.reference_content + c.reference_function for c in counts))
