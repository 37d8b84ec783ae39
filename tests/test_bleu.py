"""meteor_core.bleu against nltk's own sentence_bleu and modified_precision: the value is
computed from counts taken once (not by a second nltk call), so it must still equal nltk's
call exactly, for every smoothing method, and the per-order counts must be nltk's."""
import random
import warnings

import pytest
from nltk.translate import bleu_score as nb

from meteor_core.bleu import MAX_ORDER, corpus_bleu, sentence_bleu
from meteor_core.params import SMOOTHING_METHODS


def _cases(count=150, seed=7):
    rng = random.Random(seed)
    words = ["the", "cat", "sat", "on", "a", "mat", ",", "."]  # few words: many repeated n-grams
    for _ in range(count):
        candidate = [rng.choice(words) for _ in range(rng.randint(1, 12))]
        references = [[rng.choice(words) for _ in range(rng.randint(1, 12))] for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:  # a near copy of a reference, so that 4-grams match too
            candidate = list(references[0]) + [rng.choice(words) for _ in range(rng.randint(0, 3))]
            candidate[rng.randrange(len(candidate))] = rng.choice(words)
        yield candidate, references


def _nltk_value(candidate, references, smoothing):
    smoothing_function = getattr(nb.SmoothingFunction(), "method0" if smoothing == "none" else smoothing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(nb.sentence_bleu(references, candidate, smoothing_function=smoothing_function))


@pytest.mark.parametrize("smoothing", SMOOTHING_METHODS)
def test_value_equals_nltks_sentence_bleu(smoothing):
    checked = 0
    for candidate, references in _cases():
        ours = sentence_bleu(candidate, references, smoothing)
        missing = any(o.matched == 0 for o in ours.orders)
        if smoothing == "method6" and ours.orders[2].matched == 0:
            assert ours.score == 0.0 and ours.zero_reason  # nltk refuses these (assertion)
            continue
        expected = _nltk_value(candidate, references, smoothing)
        if smoothing == "none" and missing:
            assert ours.score == 0.0 and ours.zero_reason  # nltk's tiny positive number, reported as 0
            continue
        assert ours.score == pytest.approx(expected, abs=1e-12, rel=0), (candidate, references)
        checked += 1
    assert checked >= 20  # the comparison really ran on many cases


def test_counts_are_nltks_modified_precision():
    for candidate, references in _cases():
        orders = sentence_bleu(candidate, references).orders
        for n in range(1, MAX_ORDER + 1):
            fraction = nb.modified_precision(references, candidate, n)
            assert (orders[n - 1].matched, orders[n - 1].total) == (fraction.numerator, fraction.denominator)


def test_matched_spans_by_hand():
    # "the the cat" vs "the cat": one "the" (clipped), "cat", the bigram "the cat" at 1..3.
    result = sentence_bleu(["the", "the", "cat"], [["the", "cat"]], "method1")
    assert result.matched_ngrams == ((1, 0, 1), (1, 2, 3), (2, 1, 3))


@pytest.mark.parametrize("smoothing", SMOOTHING_METHODS)
def test_corpus_value_from_segment_counts_equals_nltks_corpus_bleu(smoothing):
    """corpus_bleu sums the segments' counts instead of letting nltk count again: the value must
    still be nltk's corpus_bleu exactly (smoothing functions see nltk's last segment)."""
    cases = list(_cases(count=240, seed=11))
    checked = 0
    for start in range(0, len(cases), 8):
        corpus = cases[start:start + 8 - (start // 8) % 5]  # corpora of 8, 7, 6, 5, 4 segments
        candidates = [c for c, _ in corpus]
        references = [refs for _, refs in corpus]
        segments = [sentence_bleu(c, refs, smoothing) for c, refs in corpus]
        ours = corpus_bleu(candidates, references, smoothing, segments)
        assert ours == corpus_bleu(candidates, references, smoothing)  # counted here when not given
        matched = [sum(nb.modified_precision(refs, c, n).numerator for c, refs in corpus) for n in (1, 2, 3, 4)]
        if (smoothing == "none" and 0 in matched) or (smoothing == "method6" and matched[2] == 0):
            assert ours == 0.0  # this project's rule (nltk: a tiny number, or an assertion)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = nb.corpus_bleu(references, candidates, smoothing_function=getattr(
                nb.SmoothingFunction(), "method0" if smoothing == "none" else smoothing))
        assert ours == float(expected), (smoothing, corpus)
        checked += 1
    assert checked >= 10
    with pytest.raises(ValueError, match="pair up"):
        corpus_bleu(candidates, references, smoothing, segments[:-1])


from collections import Counter  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SENTENCE = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "x", "y"]), min_size=1, max_size=12)


@settings(max_examples=400, deadline=None)
@given(_SENTENCE, st.lists(_SENTENCE, min_size=1, max_size=3))
def test_matched_spans_equal_a_plain_clipping_oracle(candidate, references):
    # Per order, leftmost first: an n-gram matches while it has been used fewer times than the
    # reference holding it most often has it. Small vocabularies make n-grams repeat (the
    # clipping path) and not repeat (the set path), with one or several references.
    expected = []
    for n in (1, 2, 3, 4):
        used = Counter()
        for start in range(len(candidate) - n + 1):
            gram = tuple(candidate[start:start + n])
            most = max(sum(tuple(ref[k:k + n]) == gram for k in range(len(ref) - n + 1)) for ref in references)
            if used[gram] < most:
                used[gram] += 1
                expected.append((n, start, start + n))
    assert sentence_bleu(candidate, references, "method1").matched_ngrams == tuple(expected)


def test_unsmoothed_value_is_nltks_bit_for_bit():
    # Smoothing none is computed without nltk's Fractions: the float must still be nltk's
    # exactly, and where an order has no match the reason quotes nltk's own tiny number.
    exact = quoted = 0
    for candidate, references in _cases(count=400, seed=3):
        ours = sentence_bleu(candidate, references, "none")
        expected = _nltk_value(candidate, references, "none")
        if any(o.matched == 0 for o in ours.orders):
            assert ours.score == 0.0
            if expected > 0:
                assert f"nltk returns {expected:.3g}," in ours.zero_reason
                quoted += 1
        else:
            assert ours.score == expected, (candidate, references)
            exact += 1
    assert exact >= 50 and quoted >= 20


def test_matched_spans_are_shared_between_results_and_right_past_the_shared_ones():
    """A kept corpus held one (n, start, end) tuple per matched n-gram (883k, 57 MB for WMT22
    cs-en's 12 systems); the tuples are now shared between results, and are the same values."""
    from meteor_core import bleu

    first = bleu.sentence_bleu("the cat sat on the mat".split(), ["the cat sat on the mat".split()])
    second = bleu.sentence_bleu("the cat sat on a mat".split(), ["the cat sat on the mat".split()])
    assert first.matched_ngrams[:2] == ((1, 0, 1), (1, 1, 2)) and first.matched_ngrams[0] is second.matched_ngrams[0]
    assert len(first.matched_ngrams) == 6 + 5 + 4 + 3 and (4, 2, 6) in first.matched_ngrams
    long = ["w"] * (bleu.SHARED_SPAN_STARTS + 10)
    spans = bleu.sentence_bleu(long, [long]).matched_ngrams
    assert [s for s in spans if s[0] == 2][-1] == (2, len(long) - 2, len(long))  # past the shared starts
    assert all(s[2] - s[1] == s[0] for s in spans) and len(spans) == 4 * len(long) - 6
