"""The arithmetic that turns alignment statistics into a score, kept apart from the alignment
(sacrebleu style) so segment and corpus level share it and a person can check it by hand."""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from typing import Optional

from .errors import MeteorInputError
from .frozen import build, slotted
from .params import MeteorParams


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class MeteorStats:
    """Sufficient statistics of a segment (or a sum of segments)."""

    matches: int
    candidate_length: int
    reference_length: int
    chunks: int

    def __add__(self, other: "MeteorStats") -> "MeteorStats":
        return MeteorStats(
            self.matches + other.matches,
            self.candidate_length + other.candidate_length,
            self.reference_length + other.reference_length,
            self.chunks + other.chunks,
        )


ZERO_STATS = MeteorStats(0, 0, 0, 0)


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class MeteorBreakdown:
    precision: float
    recall: float
    fmean: float
    fragmentation: float  # chunks / matches
    penalty: float
    score: float
    note: str = ""  # why a value is what it is, when that is not obvious (m = 0, penalty zeroed)
    single_chunk_rule: bool = False  # the penalty was set to 0 (zero_penalty_single_chunk), not computed


def _check_stats(stats: MeteorStats) -> None:
    """Statistics some alignment can have: whole numbers, 0 <= chunks <= matches <= either
    length, at least one chunk when something matched. compute() is public: MeteorStats(1, 1,
    1, 5) gave a score of -61.5 and a zero length a ZeroDivisionError (a tester)."""
    values = (stats.matches, stats.candidate_length, stats.reference_length, stats.chunks)
    if not all(type(v) is int or (isinstance(v, numbers.Integral) and not isinstance(v, bool)) for v in values):
        raise MeteorInputError(f"statistics must be whole numbers (int), got {stats}")
    m, chunks = stats.matches, stats.chunks
    if not (0 <= chunks <= m <= stats.candidate_length and m <= stats.reference_length) or (m and not chunks):
        raise MeteorInputError(f"impossible statistics {stats}: need 0 <= chunks <= matches <= candidate_length "
                               "and matches <= reference_length, and at least one chunk when anything matched")


def compute(stats: MeteorStats, params: MeteorParams, zero_penalty_single_chunk: bool = False,
            unit: str = "word") -> MeteorBreakdown:
    """P = m/|cand|, R = m/|ref|, Fmean = PR/(alpha P + (1-alpha) R),
    penalty = gamma (chunks/m)^beta, score = Fmean (1 - penalty). unit: what a token is called
    in the note for m = 0 (SegmentResult.token_unit: "no character matched" for Chinese).

    The expressions are written in the same order as nltk's single_meteor_score so that equal
    statistics give bit-identical floats in both modes.
    """
    m = stats.matches
    _check_stats(stats)
    if m == 0:
        empty = [side for side, length in (("candidate", stats.candidate_length),
                                           ("reference", stats.reference_length)) if not length]
        why = (f"the {' and the '.join(empty)} {'has' if len(empty) == 1 else 'have'} no tokens, so no {unit} can "
               "match" if empty else f"no {unit} matched")
        return MeteorBreakdown(0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                               note=f"{why}: METEOR is undefined for m = 0 and reported as 0")
    precision = float(m) / stats.candidate_length
    recall = float(m) / stats.reference_length
    alpha = params.alpha
    denominator = alpha * precision + (1 - alpha) * recall
    fmean = (precision * recall) / denominator
    fragmentation = float(stats.chunks) / m
    note = ""
    single_chunk_rule = (zero_penalty_single_chunk and stats.chunks == 1
                         and m == stats.candidate_length == stats.reference_length)
    penalty = params.gamma * fragmentation ** params.beta
    if single_chunk_rule:
        note = ("penalty set to 0: every word matched in one chunk (METEOR 1.5 convention); "
                f"gamma * (chunks / m)^beta would give {penalty:.6f}"
                # the jar zeroes the fragmentation instead, and gamma * 0^0 is gamma (a tester)
                + ("; with beta = 0 the METEOR 1.5 jar itself would still charge gamma" if params.beta == 0 else ""))
        penalty = 0.0
    score = (1 - penalty) * fmean
    # frozen.build: once per scored pair, where the generated __init__ was a tenth of building a result
    return build(MeteorBreakdown, {"precision": precision, "recall": recall, "fmean": fmean,
                                   "fragmentation": fragmentation, "penalty": penalty, "score": score, "note": note,
                                   "single_chunk_rule": single_chunk_rule})


#: Whole-number betas up to this are raised exactly: (chunks/m)^64 with m up to 2,000 is a
#: fraction of some 200 digits a side. A larger one (the library sets no bound, and
#: Fraction ** 10**20 ran for minutes: a helper) is compared as a non-whole one.
_EXACT_BETA = 64


def _exact_parts(stats: MeteorStats, params: MeteorParams, zero_penalty_single_chunk: bool):
    """(Fmean as a fraction, chunks/m as a fraction or None where the penalty is 0 by rule);
    Fmean is 0 when m = 0. Each parameter as the decimal it is written as: alpha 0.9 is 9/10."""
    _check_stats(stats)
    m = stats.matches
    if m == 0:
        return Fraction(0), None
    alpha = Fraction(repr(float(params.alpha)))
    precision, recall = Fraction(m, stats.candidate_length), Fraction(m, stats.reference_length)
    fmean = precision * recall / (alpha * precision + (1 - alpha) * recall)
    zeroed = zero_penalty_single_chunk and stats.chunks == 1 and m == stats.candidate_length == stats.reference_length
    return fmean, None if zeroed else Fraction(stats.chunks, m)


def exact_score(stats: MeteorStats, params: MeteorParams,
                zero_penalty_single_chunk: bool = False) -> Optional[Fraction]:
    """The score compute() rounds, as an exact fraction, or None when beta is not a whole
    number (the penalty is then irrational) or is above _EXACT_BETA."""
    beta = params.beta
    if beta != int(beta) or beta > _EXACT_BETA:
        return None
    fmean, fragmentation = _exact_parts(stats, params, zero_penalty_single_chunk)
    if fragmentation is None:
        return fmean
    return fmean * (1 - Fraction(repr(float(params.gamma))) * fragmentation ** int(beta))


def compare_exactly(a: MeteorStats, b: MeteorStats, params: MeteorParams,
                    zero_penalty_single_chunk: bool = False) -> int:
    """The sign of score(a) - score(b) as exact values (1, 0 or -1). Scores that are equal as
    values can round to different floats (1/3 to 0.3333333333333333 and 0.33333333333333337),
    and unequal ones to the same float, so "ties: the first" among references is decided here
    (references.best_of). With a whole beta up to _EXACT_BETA both scores are exact
    fractions. Otherwise it is still exact when the two Fmeans are equal: the smaller penalty
    wins, and gamma (chunks/m)^beta grows with chunks/m (for beta > 0; it is gamma for beta = 0),
    so comparing chunks/m decides without raising it (a tie under METEOR 0.6's beta 0.83 went
    to the later reference: a helper); when the penalties are equal, the Fmeans decide. Different
    Fmeans and penalties with an irrational penalty are compared in _DIGITS-digit decimals (an
    alpha of 3.5e-248 and gamma 0 made two scores differ by 3.5e-248, which floats call a tie),
    where equal to some 380 digits counts as equal."""
    exact_a, exact_b = (exact_score(s, params, zero_penalty_single_chunk) for s in (a, b))
    if exact_a is not None:
        return (exact_a > exact_b) - (exact_a < exact_b)
    (fmean_a, fragmentation_a), (fmean_b, fragmentation_b) = (
        _exact_parts(s, params, zero_penalty_single_chunk) for s in (a, b))
    no_penalty = params.gamma == 0

    def penalty_order(fragmentation: Optional[Fraction]) -> Fraction:
        # Orders penalties as gamma (chunks/m)^beta does: 0 by rule below any computed one
        # (chunks/m > 0 when m > 0), beta 0 making every computed one gamma.
        if fragmentation is None or no_penalty:
            return Fraction(-1)
        return Fraction(1) if params.beta == 0 else fragmentation

    order_a, order_b = penalty_order(fragmentation_a), penalty_order(fragmentation_b)
    if fmean_a == fmean_b:
        return 0 if fmean_a == 0 else (order_b > order_a) - (order_b < order_a)
    if order_a == order_b:  # equal penalties: the Fmeans decide, unless the penalty takes all
        whole = (fragmentation_a is not None and params.gamma == 1
                 and (params.beta == 0 or fragmentation_a == 1))
        return 0 if whole else (fmean_a > fmean_b) - (fmean_a < fmean_b)
    context = Context(prec=_DIGITS)  # its own: the thread's decimal context is the caller's
    difference = context.subtract(_decimal_score(fmean_a, fragmentation_a, params, context),
                                  _decimal_score(fmean_b, fragmentation_b, params, context))
    # Equal to some 380 digits is equal: two such values from counts and a few parameters do not
    # come that close unless they are one value (1 * (1 - 1 * 1^0.5) and 0), rounded two ways.
    return 0 if -_UNRESOLVED < difference < _UNRESOLVED else 1 if difference > 0 else -1  # comparisons never round


#: Digits of the decimals that compare two scores with different Fmeans and irrational penalties
#: (compare_exactly): gamma can be as small as 5e-324, so 1 - penalty needs some 330 digits.
#: 400-digit powers take about 5 ms, and are needed only when two scores round alike.
_DIGITS = 400
_UNRESOLVED = Decimal(10) ** -(_DIGITS - 20)


def _decimal_score(fmean: Fraction, fragmentation: Optional[Fraction], params: MeteorParams,
                   context: Context) -> Decimal:
    """Fmean * (1 - gamma * fragmentation^beta) in `context`'s digits, each step correctly
    rounded; fragmentation None: no penalty (by rule)."""
    value = context.divide(Decimal(fmean.numerator), Decimal(fmean.denominator))
    if fragmentation is None:
        return value
    ratio = context.divide(Decimal(fragmentation.numerator), Decimal(fragmentation.denominator))
    penalty = context.multiply(Decimal(repr(float(params.gamma))), context.power(ratio, Decimal(repr(float(params.beta)))))
    return context.multiply(value, context.subtract(Decimal(1), penalty))
