"""BLEU beside METEOR, nltk's numbers: the clipped counts are counted here once, with the
positions of the matched n-grams (for highlighting), and the value follows nltk's own
arithmetic (its brevity penalty, smoothing functions and Fractions), so it equals nltk's
sentence_bleu / corpus_bleu bit for bit (tests/test_bleu.py) at less than one nltk call's cost."""
from __future__ import annotations

import math
import sys
import threading
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from .frozen import slotted
from .params import SMOOTHING_METHODS

MAX_ORDER = 4

#: What each nltk smoothing method corresponds to in sacrebleu, where there is an equivalent.
METHOD6_UNDEFINED = ("smoothing method6 needs at least one matching trigram (nltk refuses otherwise): "
                     "BLEU reported as 0")

SACREBLEU_EQUIVALENT = {
    "none": "none",
    "method1": "floor (epsilon 0.1)",
    "method2": "add-k (k = 1)",
    "method3": "exp (sacrebleu's default for sentence BLEU)",
}


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class BleuOrder:
    n: int
    matched: int  # clipped n-gram matches
    total: int  # n-grams in the candidate

    @property
    def precision(self) -> float:
        return self.matched / self.total if self.total else 0.0


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class BleuResult:
    score: float
    orders: tuple[BleuOrder, ...]
    brevity_penalty: float
    candidate_length: int
    reference_length: int  # closest reference length (nltk's rule)
    smoothing: str
    matched_ngrams: tuple[tuple[int, int, int], ...]  # (n, start, end) half-open token spans
    zero_reason: str

    @property
    def precisions(self) -> tuple[float, ...]:
        return tuple(o.precision for o in self.orders)

    def ngram_count(self, n: int) -> int:
        """The candidate's n-grams: orders[n - 1].total is nltk's denominator, at least 1 even
        when the candidate is shorter than n (a 3-token candidate "has" one 4-gram there)."""
        return max(0, self.candidate_length - n + 1)

    @property
    def sacrebleu_equivalent(self) -> str:
        return SACREBLEU_EQUIVALENT.get(self.smoothing, "no direct sacrebleu equivalent")


def _smoothing_function(name: str):
    from nltk.translate.bleu_score import SmoothingFunction

    if name not in SMOOTHING_METHODS:
        raise ValueError(f"unknown smoothing {name!r}; choose one of {', '.join(SMOOTHING_METHODS)}")
    return getattr(SmoothingFunction(), "method0" if name == "none" else name)


#: Span tuples shared by every result: (n, start, start + n) for start below this. A kept corpus
#: held one tuple per matched n-gram, 883k of them (57 MB) for WMT22 cs-en's 12 systems; they
#: take a few hundred distinct values. Bounded: at most MAX_ORDER * SHARED_SPAN_STARTS tuples.
SHARED_SPAN_STARTS = 4096
_SPAN_ROWS: tuple[list, ...] = tuple([] for _ in range(MAX_ORDER + 1))
_SPAN_ROWS_GROWING = threading.Lock()  # rows are only appended to, and read below their length


def _span_row(n: int, length: int) -> list:
    """The shared spans of order n for starts 0 .. min(length, SHARED_SPAN_STARTS) - 1 (at least)."""
    row = _SPAN_ROWS[n]
    if len(row) < min(length, SHARED_SPAN_STARTS):
        with _SPAN_ROWS_GROWING:
            row.extend((n, start, start + n) for start in range(len(row), min(length, SHARED_SPAN_STARTS)))
    return row


def _matched_spans(candidate: Sequence[str], references: Sequence[Sequence[str]]) -> list[tuple[int, int, int]]:
    """The clipped n-gram matches (n = 1..4) as (n, start, end) spans: per n-gram, as many
    occurrences as the reference holding it most often has, leftmost first. Their number per
    order is nltk's modified_precision numerator (same clipping)."""
    spans = []
    for n in range(1, MAX_ORDER + 1):
        left: dict = {}  # per n-gram: matches still allowed (the most any one reference has)
        for number, ref in enumerate(references):
            counts = Counter(zip(*[ref[k:] for k in range(n)]))
            if not number:
                left = dict(counts)  # a plain dict: no Counter.__missing__ call per unmatched n-gram
                continue
            for gram, count in counts.items():
                if count > left.get(gram, 0):
                    left[gram] = count
        get = left.get
        shared = _span_row(n, len(candidate))
        for start, gram in enumerate(zip(*[candidate[k:] for k in range(n)])):
            allowed = get(gram)
            if allowed:  # clipping: only as many as the best reference has
                left[gram] = allowed - 1
                spans.append(shared[start] if start < SHARED_SPAN_STARTS else (n, start, start + n))
    return spans


def sentence_bleu(candidate: Sequence[str], references: Sequence[Sequence[str]], smoothing: str = "none") -> BleuResult:
    """nltk's sentence_bleu with its parts kept. The clipped counts are counted once (with the
    matched spans) and the value follows nltk's corpus_bleu arithmetic line for line (its
    Fractions, smoothing function, brevity penalty and fsum; without smoothing, the same floats
    without the Fractions), so it equals nltk's own call bit for bit (tests/test_bleu.py) at
    less than that call's cost, instead of nltk's counts plus a second full nltk call."""
    from nltk.translate import bleu_score as nb

    candidate = list(candidate)
    references = [list(r) for r in references]
    smoothing_function = None if smoothing == "none" else _smoothing_function(smoothing)  # raises if unknown
    spans = _matched_spans(candidate, references)
    matched = [0] * (MAX_ORDER + 1)
    for n, _, _ in spans:
        matched[n] += 1
    # nltk's modified_precision: the denominator is the candidate's n-gram count, at least 1.
    orders = [BleuOrder(n, matched[n], max(1, len(candidate) - n + 1)) for n in range(1, MAX_ORDER + 1)]
    ref_len = nb.closest_ref_length(references, len(candidate))
    bp = nb.brevity_penalty(ref_len, len(candidate))
    reason = ""
    if smoothing == "method6" and orders[2].matched == 0:
        # nltk's method6 asserts a non-zero trigram precision (its message says bigrams): undefined here.
        return BleuResult(0.0, tuple(orders), float(bp), len(candidate), ref_len, smoothing,
                          tuple(spans), METHOD6_UNDEFINED)
    if orders[0].matched == 0:
        value = 0.0  # nltk: no unigram match, BLEU 0 (before smoothing)
    elif smoothing == "none":
        # nltk's method0 without its Fractions and warnings (a fifth of this call): a precision
        # is the float of matched / total (what math.log reads from the Fraction: the same
        # correctly rounded division), and the smallest float where nothing matched.
        p_n = [o.matched / o.total if o.matched else sys.float_info.min for o in orders]
        value = float(bp * math.exp(math.fsum(0.25 * math.log(p) for p in p_n)))
    else:
        p_n = [nb.Fraction(o.matched, o.total, _normalize=False) for o in orders]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nltk warns on zero counts; zero_reason says it instead
            p_n = smoothing_function(p_n, references=references, hypothesis=candidate, hyp_len=len(candidate))
        weights = (1 / MAX_ORDER,) * MAX_ORDER  # nltk's default (0.25, 0.25, 0.25, 0.25)
        value = float(bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, p_n) if p > 0)))
    missing = [o.n for o in orders if o.matched == 0]
    if missing and smoothing == "none":
        # The geometric mean with a zero precision is 0. When some order matched, nltk returns a
        # tiny positive number instead (it substitutes the smallest float for the zero count);
        # with no unigram match it returns 0 itself. Say which, report 0.
        nltk_says = (f"nltk returns {value:.3g}, not 0: it replaces the zero count by the smallest positive float"
                     if value > 0 else "nltk also returns 0")
        reason = f"no matching {missing[0]}-gram: unsmoothed BLEU is 0 ({nltk_says})"
        value = 0.0
    elif value == 0.0 and missing:
        reason = f"no matching {missing[0]}-gram"
    return BleuResult(value, tuple(orders), float(bp), len(candidate), ref_len, smoothing, tuple(spans), reason)


def corpus_bleu(candidates: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]],
                smoothing: str = "none", segment_bleu: Optional[Sequence[BleuResult]] = None) -> float:
    """nltk's corpus_bleu (0 where it has a zero count without smoothing, and for method6
    without a matched trigram: see sentence_bleu). segment_bleu: sentence_bleu of each
    (candidate, references) with the same tokens, already computed; their clipped counts are
    summed and nltk's corpus_bleu arithmetic followed line for line (equal to nltk's call bit for
    bit, tests/test_bleu.py) instead of nltk counting every segment again (twice, with the
    zero checks)."""
    from nltk.translate import bleu_score as nb

    if segment_bleu is None:
        segment_bleu = [sentence_bleu(c, refs, smoothing) for c, refs in zip(candidates, references)]
    if len(segment_bleu) != len(candidates) or len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates, {len(references)} reference lists and "
                         f"{len(segment_bleu)} segment BLEU results: they must pair up")
    smoothing_function = _smoothing_function(smoothing)
    matched = _summed_matches(segment_bleu)
    totals = [sum(b.orders[n].total for b in segment_bleu) for n in range(MAX_ORDER)]
    if _corpus_zero(matched, smoothing)[0]:
        return 0.0
    hyp_lengths = sum(b.candidate_length for b in segment_bleu)
    ref_lengths = sum(b.reference_length for b in segment_bleu)  # nltk's closest reference length
    bp = nb.brevity_penalty(ref_lengths, hyp_lengths)
    p_n = [nb.Fraction(m, t, _normalize=False) for m, t in zip(matched, totals)]
    # nltk hands the smoothing function the last segment (its loop variables) and the summed length.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p_n = smoothing_function(p_n, references=[list(r) for r in references[-1]],
                                 hypothesis=list(candidates[-1]), hyp_len=hyp_lengths)
    weights = (1 / MAX_ORDER,) * MAX_ORDER
    return float(bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, p_n) if p > 0)))


def corpus_zero_reason(segment_bleu: Sequence[BleuResult], smoothing: str = "none") -> str:
    """Why corpus_bleu of these segments is 0 ("" when it is not), from their summed counts."""
    reason, order = _corpus_zero(_summed_matches(segment_bleu), smoothing)
    if order > max((b.candidate_length for b in segment_bleu), default=0):  # nothing of that length at all
        reason += (f" (no candidate has {order} token{'' if order == 1 else 's'}, so there is no {order}-gram to "
                   "match)")
    return reason


def _summed_matches(segment_bleu: Sequence[BleuResult]) -> list[int]:
    """Clipped n-gram matches per order (1..4), summed over the segments."""
    return [sum(b.orders[n].matched for b in segment_bleu) for n in range(MAX_ORDER)]


def _corpus_zero(matched: Sequence[int], smoothing: str) -> tuple[str, int]:
    """The rules by which corpus_bleu is 0 (the sentence rules, on summed counts): why ("" when
    it is not 0), and the n-gram order without a match."""
    if smoothing == "method6" and matched[2] == 0:
        return METHOD6_UNDEFINED.replace("one matching trigram", "one matching trigram in the corpus"), 3
    missing = [n + 1 for n, count in enumerate(matched) if count == 0]
    if smoothing == "none" and missing:
        # nltk returns a tiny positive number here when some order matched (sentence_bleu).
        return f"no matching {missing[0]}-gram in the whole corpus: unsmoothed corpus BLEU is 0", missing[0]
    if matched[0] == 0:
        return "no matching 1-gram in the whole corpus", 1  # nltk: BLEU 0 before smoothing
    return "", 0
