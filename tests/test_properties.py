"""Properties over random inputs: range, multi-reference max, corpus sums."""
import math
from decimal import Context, Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from meteor_core import MeteorConfig, MeteorParams, Scorer
from meteor_core.formula import MeteorStats, compute

import paper_oracle

VOCAB = ["the", "cat", "cats", "sat", "on", "mat", "a", "dog", ",", "car", "auto"]
sentence = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=10)
EXACT_STEM = Scorer(MeteorConfig(stages=("exact", "stem")))
CHUNKS = Scorer(MeteorConfig(stages=("exact", "stem"), objective="chunks"))


@settings(max_examples=200, deadline=None)
@given(cand=sentence, refs=st.lists(sentence, min_size=1, max_size=3),
       alpha=st.floats(0, 1), beta=st.floats(0, 10), gamma=st.floats(0, 1))
@example(cand=["the", "the", "the", "cat", "the"], refs=[["the"] * 4, ["the", "the", "the", "cat"]], alpha=0.0,
         beta=1.0, gamma=3.6349475284517393e-63)  # the CI failure: the second reference, higher by 1e-63
@example(cand=["the"], refs=[["the", "the"], ["the"]], alpha=3.5339815009230676e-248, beta=0.5,
         gamma=0.0)  # Fmean 1/(1 + alpha) and 1: floats tie, the second is higher
def test_score_in_unit_interval_and_multi_reference_is_max(cand, refs, alpha, beta, gamma):
    scorer = Scorer(MeteorConfig(stages=("exact", "stem"), params=MeteorParams(alpha, beta, gamma)))
    result = scorer.score(cand, refs)
    singles = [scorer.score(cand, [ref]).score for ref in refs]
    assert result.score == max(singles)
    # Ties: the first, as values. Scores this close are told apart in 1,000 digits: with gamma
    # 3.6e-63 two references both scored 0.8 as floats, and the one with fewer chunks is higher
    # by about 1e-63, which the scorer's exact comparison saw (a float oracle failed a CI run).
    values = [_decimal_score(scorer.score(cand, [ref]).best.stats, scorer.config.params) for ref in refs]
    best = 0
    for index, value in enumerate(values):  # equal within 1e-900: one value rounded two ways, a tie
        if value - values[best] > Decimal(10) ** -900:
            best = index
    assert result.best_index == best
    for r in result.per_reference:
        b = r.breakdown
        for value in (b.precision, b.recall, b.fmean, b.penalty, b.score):
            assert not math.isnan(value) and 0.0 <= value <= 1.0


def _decimal_score(stats: MeteorStats, params: MeteorParams) -> Decimal:
    """The paper's score to 1,000 digits, each parameter as the decimal it is written as (alpha
    0.9 is 9/10, as the library reads it): Fmean exact, then each step correctly rounded (gamma
    down to 5e-324 needs about 330 digits beside 1)."""
    from fractions import Fraction

    context = Context(prec=1000)
    m = stats.matches
    if m == 0:
        return Decimal(0)
    alpha = Fraction(repr(params.alpha))
    p, r = Fraction(m, stats.candidate_length), Fraction(m, stats.reference_length)
    fmean = p * r / (alpha * p + (1 - alpha) * r)
    fraction = context.divide(Decimal(stats.chunks), Decimal(m))
    penalty = context.multiply(Decimal(repr(params.gamma)), context.power(fraction, Decimal(repr(params.beta))))
    return context.multiply(context.divide(Decimal(fmean.numerator), Decimal(fmean.denominator)),
                            context.subtract(Decimal(1), penalty))


# Word lists where long chunks cross each other (a crossing chunk of several links counts once
# per link it crosses) and where words repeat (the aligner chooses among occurrences).
_CHUNKY = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "cat", "sat"]), min_size=1, max_size=24)


@settings(max_examples=300, deadline=None)
@given(cand=_CHUNKY, ref=_CHUNKY, objective=st.sampled_from(["crossings", "chunks"]))
def test_crossings_and_chunk_spans_follow_the_definitions(cand, ref, objective):
    """The result's crossings, chunks and chunk spans, counted by the scorer in one pass per
    chunk, equal the pairwise definitions of the independent oracle on its links."""
    best = Scorer(MeteorConfig(stages=("exact",), objective=objective)).score(cand, [ref]).best
    pairs = [(link.candidate, link.reference) for link in best.links]
    assert best.crossings == paper_oracle.crossings(pairs)
    assert best.stats.chunks == len(best.chunk_spans) == paper_oracle.chunks(pairs)
    covered = sorted((span.candidate_start + k, span.reference_start + k)
                     for span in best.chunk_spans for k in range(span.length))
    assert covered == sorted(pairs)  # each span: consecutive links, in order on both sides
    for span in best.chunk_spans:
        assert span.reference_end - span.reference_start == span.length
        # maximal: the links just outside the span do not continue it
        assert (span.candidate_start - 1, span.reference_start - 1) not in pairs
        assert (span.candidate_end, span.reference_end) not in pairs


@settings(max_examples=60, deadline=None)
@given(segments=st.lists(st.tuples(sentence, st.lists(sentence, min_size=1, max_size=2)), min_size=1, max_size=6))
def test_corpus_statistics_are_sums_of_best_references(segments):
    cands = [c for c, _ in segments]
    refs = [r for _, r in segments]
    for scorer in (EXACT_STEM, CHUNKS):
        corpus = scorer.score_corpus(cands, refs)
        total = MeteorStats(0, 0, 0, 0)
        for cand, ref in segments:
            total = total + scorer.score(cand, ref).stats
        assert corpus.stats == total
        assert corpus.breakdown == compute(total, scorer.config.params)
        assert corpus.mean_segment_score == pytest.approx(
            sum(scorer.score(c, r).score for c, r in segments) / len(segments), abs=1e-12)


def test_corpus_is_not_the_mean():
    corpus = EXACT_STEM.score_corpus(["the cat", "a dog sat on the mat"],
                                     [["the cat sat"], ["the dog sat on a mat"]])
    # Summed: m = 2 + 6, cand 2 + 6, ref 3 + 6, chunks 1 + 4 (a | dog sat on | the | mat).
    # P = 1, R = 8/9, Fmean = 80/89, penalty 0.5 (5/8)^3 = 125/1024.
    assert corpus.stats == MeteorStats(8, 8, 9, 5)
    assert corpus.score == pytest.approx(80 / 89 * (1 - 125 / 1024), abs=1e-12)
    assert corpus.score != pytest.approx(corpus.mean_segment_score)


# ASCII text is tokenized by tokenize._split_ascii (the standard `re`, split on the captured
# pattern, forms by lowercasing the joined tokens); every other text by the `regex` engine
# with a matching form per token. On ASCII both must give the same tokens, forms and offsets.
_ASCII_TEXT = st.lists(st.sampled_from(list("aZ09_-'.,;&() \t\n\r") + ["don't", "e-mail", "-x-", "A'b"]),
                       max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_ASCII_TEXT, tokenizer=st.sampled_from(["default", "whitespace", "char"]), keep_case=st.booleans(),
       drop_punctuation=st.booleans())
def test_ascii_tokens_equal_the_unicode_engines(text, tokenizer, keep_case, drop_punctuation):
    from meteor_core.errors import MeteorInputError
    from meteor_core.tokenize import _PATTERNS, is_punctuation, matching_form, tokenize

    expected = [(m.group(0), matching_form(m.group(0), keep_case), m.start(), m.end())
                for m in _PATTERNS[tokenizer].finditer(text)
                if not (drop_punctuation and is_punctuation(m.group(0)))]
    try:
        tokens = tokenize(text, tokenizer=tokenizer, keep_case=keep_case, drop_punctuation=drop_punctuation)
    except MeteorInputError:
        assert expected == []
        return
    assert [(t.text, t.norm, t.start, t.end) for t in tokens] == expected
    assert all(text[t.start:t.end] == t.text for t in tokens)


@settings(max_examples=300, deadline=None)
@given(matches=st.integers(1, 40), extra_c=st.integers(0, 40), extra_r=st.integers(0, 40), data=st.data(),
       alpha=st.sampled_from([0.9, 0.5, 0.0, 1.0, 0.85]), beta=st.sampled_from([3.0, 1.0, 0.0, 2.0]),
       gamma=st.sampled_from([0.5, 1.0, 0.0, 0.6]), zero_single=st.booleans())
def test_the_exact_score_is_what_compute_rounds(matches, extra_c, extra_r, data, alpha, beta, gamma, zero_single):
    """formula.exact_score (which decides ties between references) is compute()'s score
    before rounding: they agree to a few units in the last place, on any statistics."""
    from meteor_core.formula import exact_score

    chunks = data.draw(st.integers(1, matches))
    stats = MeteorStats(matches, matches + extra_c, matches + extra_r, chunks)
    params = MeteorParams(alpha=alpha, beta=beta, gamma=gamma)
    rounded = compute(stats, params, zero_single).score
    assert float(exact_score(stats, params, zero_single)) == pytest.approx(rounded, rel=1e-14, abs=1e-15)


def test_the_exact_score_is_none_where_beta_makes_it_irrational():
    from meteor_core.formula import exact_score

    assert exact_score(MeteorStats(2, 3, 3, 2), MeteorParams(beta=0.5)) is None


def _score_60_digits(stats: MeteorStats, params: MeteorParams):
    from decimal import Decimal, localcontext

    with localcontext() as context:
        context.prec = 60
        m = stats.matches
        if m == 0:
            return Decimal(0)
        p, r = Decimal(m) / stats.candidate_length, Decimal(m) / stats.reference_length
        alpha, gamma = Decimal(repr(params.alpha)), Decimal(repr(params.gamma))
        fmean = p * r / (alpha * p + (1 - alpha) * r)
        fragmentation = Decimal(stats.chunks) / m
        power = fragmentation ** Decimal(repr(params.beta)) if params.beta else Decimal(1)
        return fmean * (1 - gamma * power)


def _exact_sign(a: MeteorStats, b: MeteorStats, params: MeteorParams) -> int:
    """The sign of score(a) - score(b) in exact fractions for a whole beta (any size), each
    parameter as the decimal it is written as; 0 for any other beta (then scores this close
    are equal: no power of chunks/m <= 1 with beta 0.2-1.5 comes within 1e-40 of another)."""
    from fractions import Fraction

    if params.beta != int(params.beta):
        return 0

    def exact(stats: MeteorStats) -> Fraction:
        m = stats.matches
        if m == 0:
            return Fraction(0)
        alpha, gamma = Fraction(repr(params.alpha)), Fraction(repr(params.gamma))
        p, r = Fraction(m, stats.candidate_length), Fraction(m, stats.reference_length)
        return p * r / (alpha * p + (1 - alpha) * r) * (1 - gamma * Fraction(stats.chunks, m) ** int(params.beta))

    difference = exact(a) - exact(b)
    return (difference > 0) - (difference < 0)


def test_a_penalty_under_a_huge_beta_decides_between_equal_fmeans():
    """The example hypothesis found (beta 1e6): P = R = 1 on both, 1 and 2 chunks of 3 matches.
    The scores differ by less than 1e-176000; the one with fewer chunks is higher, exactly."""
    from meteor_core.formula import compare_exactly

    params = MeteorParams(alpha=0.9, beta=1e6, gamma=0.5)
    one, two = MeteorStats(3, 3, 3, 1), MeteorStats(3, 3, 3, 2)
    assert compare_exactly(one, two, params) == _exact_sign(one, two, params) == 1
    assert compare_exactly(two, one, params) == -1 and compare_exactly(one, one, params) == 0


def test_compare_exactly_decides_equal_penalties_by_the_fmeans_beyond_the_decimals():
    """Equal penalties, Fmeans apart by about 1e-324 (alpha 5e-324), the penalty leaving about
    3.4e-324 of each score: the scores differ by some 1e-648, below what the 400-digit decimals
    tell apart, so the Fmeans must decide (dropping that branch for the decimals gave 0, a tie)."""
    from meteor_core.formula import compare_exactly

    params = MeteorParams(alpha=5e-324, beta=5e-324, gamma=1.0)
    higher, lower = MeteorStats(4, 8, 7, 2), MeteorStats(2, 4, 8, 1)  # chunks/m 1/2 both; R 4/7 against 1/4
    assert compare_exactly(higher, lower, params) == 1 and compare_exactly(lower, higher, params) == -1


def test_compare_exactly_uses_its_own_decimals_whatever_the_callers_context():
    """Different Fmeans and penalties under a non-whole beta are compared in decimals: in the
    thread's context (the caller's: 3 digits, Inexact trapped) the first version raised."""
    from decimal import Inexact, localcontext

    from meteor_core.formula import compare_exactly

    params = MeteorParams(alpha=3.5339815009230676e-248, beta=0.5, gamma=0.3)
    # Fmean 1/(1 + alpha) against 1, penalties 0.3 * 1^0.5 both: the second is higher by ~2.5e-248
    pairs = [(MeteorStats(1, 1, 2, 1), MeteorStats(1, 1, 1, 1)), (MeteorStats(2, 3, 2, 1), MeteorStats(2, 2, 3, 2))]
    expected = [compare_exactly(a, b, params) for a, b in pairs]
    assert expected[0] == -1
    with localcontext() as context:
        context.prec = 3
        context.traps[Inexact] = True
        assert [compare_exactly(a, b, params) for a, b in pairs] == expected


@settings(max_examples=400, deadline=None)
@given(data=st.data(), beta=st.sampled_from([3.0, 0.83, 0.2, 1.5, 0.0, 100.0, 1e6]),
       gamma=st.sampled_from([0.5, 0.28, 0.0, 1.0]), alpha=st.sampled_from([0.9, 0.5, 0.85]))
def test_compare_exactly_agrees_with_60_digit_arithmetic(data, beta, gamma, alpha):
    """formula.compare_exactly (ties between references) against the scores to 60 digits: the
    same sign where they differ, 0 where they are equal (it said None, undecided, for different
    Fmeans with an irrational penalty; it now decides those in 400 digits)."""
    from meteor_core.formula import compare_exactly

    def stats():
        c, r = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8))
        m = data.draw(st.integers(0, min(c, r)))
        return MeteorStats(m, c, r, data.draw(st.integers(1, m)) if m else 0)

    params = MeteorParams(alpha=alpha, beta=beta, gamma=gamma)
    a, b = stats(), stats()
    sign = compare_exactly(a, b, params)
    difference = _score_60_digits(a, params) - _score_60_digits(b, params)
    assert sign in (-1, 0, 1)
    if abs(difference) < 1e-40:
        # Equal, or a difference beyond 60 digits: beta 1e6 makes the penalties (1/3)^1e6 and
        # (2/3)^1e6, both below 1e-176000, and the first score the higher (which compare_exactly
        # said, and this oracle took for a tie). A whole beta is decided in exact fractions.
        assert sign == _exact_sign(a, b, params)
    else:
        assert sign == (1 if difference > 0 else -1)
