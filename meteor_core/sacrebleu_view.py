"""BLEU as MT papers report it: sacreBLEU (Post 2018) with its defaults (13a tokenization, case
kept, exp smoothing) on the raw strings, with its signature. The 13a tokenization
(tokenize_13a.py), the n-gram counting after it and the arithmetic (its compute_bleu) are done
here, faster, and tests check that each equals sacreBLEU's own. Beside it, the BLEU this project
shows next to METEOR (nltk, on METEOR's lowercased tokens: like with like) is a different
number; `differences` says why on a given pair by changing one setting at a time (case, then
smoothing, then tokens)."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Optional, Sequence

from .bleu import BleuResult
from .result import MultiReferenceResult
from .tokenize_13a import tokenize_13a

MAX_ORDER = 4  # sacreBLEU's default n-gram order

#: nltk smoothing method (our BLEU) -> the sacreBLEU smooth_method that computes the same thing.
SMOOTHING_EQUIVALENT = {"none": "none", "method1": "floor", "method3": "exp"}


@dataclass(frozen=True)
class SacreBleu:
    """One sacreBLEU score, as sacreBLEU reports it (0-100), and the statistics behind it."""

    score: float
    counts: tuple[int, ...]  # clipped n-gram matches per order
    totals: tuple[int, ...]  # n-grams in the hypothesis per order
    brevity_penalty: float
    hypothesis_length: int
    reference_length: int
    signature: str


@dataclass(frozen=True)
class Difference:
    """What one setting of sacreBLEU adds to its score compared with ours, in BLEU points."""

    factor: str  # "case" | "smoothing" | "n-gram orders" | "tokenization"
    explanation: str
    points: float


@dataclass(frozen=True)
class SacreBleuView:
    sentence: SacreBleu  # sacrebleu.sentence_bleu: exp smoothing, effective order
    corpus: SacreBleu  # the pair as a one-segment corpus: what `sacrebleu ref.txt < hyp.txt` prints
    differences: tuple[Difference, ...]  # sentence sacreBLEU vs the BLEU beside METEOR, per setting
    why_different: str  # the same in one line


def preload() -> None:
    """Make the signatures now rather than at the first score: a caller about to fork workers
    does it once for all of them."""
    for sentence in (True, False):
        _signature(sentence, 1)


@lru_cache(maxsize=256)
def _signature(sentence: bool, references: int) -> str:
    """sacreBLEU's signature of its default metric (case kept, exp smoothing; sentence: with
    effective order) after scoring with `references` references (-1: a varying number), as its
    BLEUSignature writes it; tests compare it with the package's own get_signature(). Written
    here, the package is not imported to score (its import was 45 ms of every batch start)."""
    number = "var" if references == -1 else references
    return (f"nrefs:{number}|case:mixed|eff:{'yes' if sentence else 'no'}|tok:13a|smooth:exp|"
            f"version:{_sacrebleu_version()}")


@lru_cache(maxsize=1)
def _sacrebleu_version() -> str:
    """The installed sacreBLEU's version, as its __version__ says it, from the package's metadata."""
    from importlib.metadata import version

    return version("sacrebleu")


#: Characters whose presence can make 13a tokens of the lowercased text differ from the
#: lowercased 13a tokens: 13a replaces "&quot;"-style entities and "<skipped>" before
#: splitting (case-sensitive), and Python lowercases a capital sigma by its context (final
#: form before a space), which the spaces 13a inserts change. Every other character keeps its
#: 13a class when lowercased (tests/test_sacrebleu_view.py checks all of Unicode).
_CASE_SENSITIVE_13A = ("&", "<", "\u03a3")


def _words(text: str, lowercase: bool) -> list[str]:
    """sacreBLEU's words of a line: lowercased if asked, 13a on the line without trailing
    whitespace, split on whitespace. The lowercased words are the cased words lowercased when
    lowercasing commutes with 13a (see _CASE_SENSITIVE_13A): the cased line is then a cache
    hit, which saves a second 13a pass."""
    if not lowercase:
        return tokenize_13a(text.rstrip()).split()
    if any(ch in text for ch in _CASE_SENSITIVE_13A):
        return tokenize_13a(text.lower().rstrip()).split()
    return tokenize_13a(text.rstrip()).lower().split()


def _grams(words: list[str], n: int):
    """The n-grams of `words` in order: unigrams as the words, longer ones as tuples."""
    return words if n == 1 else zip(*(words[k:] for k in range(n)))


@dataclass(frozen=True)
class _Statistics:
    """sacreBLEU's sufficient statistics of one segment: matches clipped by the largest count
    in any one reference, n-grams of the hypothesis, its length, and the reference length
    closest to it (the shorter on a tie)."""

    counts: tuple[int, ...]
    totals: tuple[int, ...]
    sys_len: int
    ref_len: int


def _statistics(candidate: str, references: Sequence[str], lowercase: bool) -> _Statistics:
    """What sacreBLEU's sentence_score counts (its _extract_corpus_statistics for one segment),
    counted with C-level sets and Counters over zipped slices rather than its per-n-gram loop:
    the same numbers (tests compare them with sacreBLEU's own call on random text)."""
    if not references:
        raise ValueError("sacreBLEU needs at least one reference")
    hypothesis = _words(candidate, lowercase)
    reference_words = [_words(r, lowercase) for r in references]
    counts, totals = [], []
    for n in range(1, MAX_ORDER + 1):
        total = max(len(hypothesis) - n + 1, 0)
        found = set(_grams(hypothesis, n))
        if len(found) == total:
            # Every n-gram of the hypothesis occurs once (the common case), so each matches
            # if any reference has it: C-level set operations, no counts needed.
            counts.append(len(found) - len(found.difference(*(_grams(words, n) for words in reference_words))))
        else:  # some n-gram repeats: clip its count by the most any one reference has
            clip = Counter(_grams(reference_words[0], n))
            for words in reference_words[1:]:
                for gram, count in Counter(_grams(words, n)).items():
                    if count > clip.get(gram, 0):
                        clip[gram] = count
            hypothesis_counts = Counter(_grams(hypothesis, n))
            counts.append(sum(min(count, clip[gram]) for gram, count in hypothesis_counts.items() if gram in clip))
        totals.append(total)
    length = len(hypothesis)
    closest = min((len(words) for words in reference_words), key=lambda r: (abs(length - r), r))
    return _Statistics(tuple(counts), tuple(totals), length, closest)


def _lowercasing_renames_one_to_one(candidate: str, references: Sequence[str]) -> bool:
    """Whether the lowercased words are the cased words lowercased (see _words) and no two
    distinct words of the pair lowercase alike: lowercasing then renames words one to one, so
    every count is the same with and without case. True of about 2 in 3 WMT22 pairs ("The" and
    "the" in one pair is the usual exception)."""
    if any(ch in text for text in (candidate, *references) for ch in _CASE_SENSITIVE_13A):
        return False
    words = set(_words(candidate, lowercase=False))
    for reference in references:
        words.update(_words(reference, lowercase=False))
    return len({word.lower() for word in words}) == len(words)


def _lowercased_statistics(candidate: str, references: Sequence[str], cased: _Statistics) -> _Statistics:
    """_statistics(candidate, references, lowercase=True), given the cased statistics: those
    when lowercasing renames words one to one, which saves counting the pair again."""
    if _lowercasing_renames_one_to_one(candidate, references):
        return cased
    return _statistics(candidate, references, lowercase=True)


def _statistics_of_ours(result: MultiReferenceResult, ours: BleuResult,
                        references: Sequence[str]) -> Optional[_Statistics]:
    """_statistics(result.candidate, references, lowercase=True) read off the counts of `ours`
    (nltk's sentence BLEU on METEOR's normalized tokens, as report.bleu_for computes it) when
    sacreBLEU's lowercased 13a words are those tokens, line for line: the same n-grams clipped
    by the same rule (the most any one reference has) and the same closest reference length
    (the shorter on a tie, in both), so the same numbers. True of 7 in 8 WMT22 de-en pairs (the
    default tokenizer splits as 13a does on most text), where it saves counting the pair again.
    None otherwise."""
    candidate = result.best.candidate_tokens.norms
    if ours.candidate_length != len(candidate) or list(candidate) != _words(result.candidate, lowercase=True):
        return None
    tokens = [r.reference_tokens.norms for r in result.per_reference]
    tokens = [t for t in tokens if t]  # report.bleu_references: the references with tokens
    if len(tokens) != len(references) or any(list(t) != _words(r, lowercase=True)
                                             for t, r in zip(tokens, references)):
        return None
    totals = tuple(max(len(candidate) - n + 1, 0) for n in range(1, MAX_ORDER + 1))
    return _Statistics(tuple(order.matched for order in ours.orders), totals, len(candidate), ours.reference_length)


#: sacreBLEU's default smoothing values (its BLEU.SMOOTH_DEFAULTS) for the methods used here.
_SMOOTH_VALUE = {"none": None, "floor": 0.1, "exp": None}


class _Score(NamedTuple):
    """What sacreBLEU's compute_bleu returns that this module reads (its BLEUScore also
    formats strings: a third of its cost). A named tuple: four are made per pair, and a frozen
    dataclass's __init__ cost as much as the arithmetic."""

    score: float
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    sys_len: int
    ref_len: int


def _bleu(statistics: _Statistics, smooth_method: str = "exp", effective_order: bool = True) -> _Score:
    """sacreBLEU's compute_bleu (with its default smoothing value) on counted statistics, the
    same operations in the same order, so the same float; tests compare it with compute_bleu
    itself. effective_order=True is its sentence score; False, a one-segment corpus."""
    counts, totals = statistics.counts, statistics.totals
    sys_len, ref_len = statistics.sys_len, statistics.ref_len
    smooth_value = _SMOOTH_VALUE[smooth_method]  # KeyError: add-k is not used here
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(counts):
        return _Score(0.0, counts, totals, bp, sys_len, ref_len)
    precisions = [0.0] * MAX_ORDER
    smooth_mteval = 1.0
    order = MAX_ORDER
    for n in range(1, MAX_ORDER + 1):
        if totals[n - 1] == 0:
            break
        if effective_order:
            order = n
        if counts[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * totals[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / totals[n - 1]
        else:
            precisions[n - 1] = 100.0 * counts[n - 1] / totals[n - 1]
    # sacreBLEU's my_log inlined: log, with a large negative number for 0
    score = bp * math.exp(sum([math.log(p) if p else -9999999999 for p in precisions[:order]]) / order)
    return _Score(score, counts, totals, bp, sys_len, ref_len)


def _from_score(score: _Score, signature: str) -> SacreBleu:
    return SacreBleu(score.score, score.counts, score.totals, score.bp, score.sys_len, score.ref_len, signature)


def sentence_bleu(candidate: str, references: Sequence[str]) -> SacreBleu:
    """sacrebleu.sentence_bleu with its defaults."""
    refs = list(references)
    return _from_score(_bleu(_statistics(candidate, refs, lowercase=False)), _signature(True, len(refs)))


def corpus_bleu(candidates: Sequence[str], references: Sequence[Sequence[str]]) -> SacreBleu:
    """sacrebleu.corpus_bleu with its defaults. `references[k]` are segment k's references (one
    or more per segment; sacreBLEU takes reference streams, so shorter lists are padded with
    None, which it skips)."""
    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} reference lists")
    empty = next((k for k, refs in enumerate(references) if not refs), None)
    if empty is not None:  # sacreBLEU would fail deep inside (TypeError or IndexError)
        raise ValueError(f"segment {empty + 1} has no reference; sacreBLEU needs at least one per segment")
    # Counted here (the statistics tests compare with sacreBLEU's own) and summed as its
    # corpus_score sums them. Its own metric kept every tokenized line of every call in a cache
    # of 65,536 lines per metric object, of which a new one is made per call: the app's memory
    # grew by megabytes with each corpus uploaded, never to be read again.
    counts, totals, sys_len, ref_len = [0] * MAX_ORDER, [0] * MAX_ORDER, 0, 0
    for candidate, refs in zip(candidates, references):
        statistics = _statistics(candidate, list(refs), lowercase=False)
        counts = [a + b for a, b in zip(counts, statistics.counts)]
        totals = [a + b for a, b in zip(totals, statistics.totals)]
        sys_len += statistics.sys_len
        ref_len += statistics.ref_len
    summed = _Statistics(tuple(counts), tuple(totals), sys_len, ref_len)
    widths = {len(refs) for refs in references}
    return _from_score(_bleu(summed, effective_order=False),
                       _signature(False, widths.pop() if len(widths) == 1 else -1))  # -1: sacreBLEU's "var"


def differences(candidate: str, references: Sequence[str], ours: BleuResult, keep_case: bool,
                cased_statistics: Optional[_Statistics] = None,
                cased_score: Optional[float] = None,
                lowercased_statistics: Optional[_Statistics] = None) -> Optional[tuple[Difference, ...]]:
    """Go from sacreBLEU's settings to ours one at a time (case, then smoothing, then tokens):
    each step's change is what that setting adds to sacreBLEU's score. The points add up to
    sacreBLEU minus ours (x100). None when our smoothing has no sacreBLEU equivalent.
    cased_statistics, cased_score, lowercased_statistics: the pair's statistics with case kept,
    sacreBLEU's sentence score and the statistics lowercased, when already computed."""
    smooth = SMOOTHING_EQUIVALENT.get(ours.smoothing)
    if smooth is None:
        return None
    refs = list(references)
    found = []
    statistics = cased_statistics or _statistics(candidate, refs, lowercase=False)
    previous = cased_score if cased_score is not None else _bleu(statistics).score  # sacreBLEU's sentence score
    if not keep_case:
        statistics = lowercased_statistics or _lowercased_statistics(candidate, refs, statistics)
        lowered = _bleu(statistics).score
        found.append(Difference("case", "sacreBLEU keeps case, this BLEU lowercases", previous - lowered))
        previous = lowered
    if 0 in statistics.totals:
        # A candidate shorter than 4 tokens: sacreBLEU stops at the first order without n-grams
        # (its effective order), nltk counts it as 0 matches of 1, then smooths it. Taken before
        # smoothing, with sacreBLEU's own smoothing: left to "tokenization" it was blamed on the
        # tokens where both tokenizations were the same (a teacher: "the cat sat", smoothing
        # +36.79, tokenization -20.69), and after the smoothing step that step took the credit
        # for it (a tester).
        statistics = _Statistics(statistics.counts, tuple(max(1, total) for total in statistics.totals),
                                 statistics.sys_len, statistics.ref_len)
        counted = _bleu(statistics, effective_order=False).score
        found.append(Difference("n-gram orders", "the candidate has no n-grams of some order: sacreBLEU leaves the "
                                "order out, nltk counts it as 0 matches of 1", previous - counted))
        previous = counted
    matched = _bleu(statistics, smooth, effective_order=False).score  # the pair as a one-segment corpus
    found.append(Difference("smoothing", f"sacreBLEU: exp with effective order; this BLEU: {ours.smoothing}",
                            previous - matched))
    found.append(Difference("tokenization", "sacreBLEU's 13a tokens vs METEOR's tokens", matched - 100.0 * ours.score))
    return tuple(found)


#: Languages written without spaces between words: 13a finds no word boundaries in them.
UNSPACED_LANGUAGES = {"zh": "zh", "ja": "ja-mecab"}


def explain_difference(sacre: SacreBleu, ours: BleuResult, found: Optional[Sequence[Difference]],
                       language: str = "en") -> str:
    """The one line shown beside the two scores."""
    target = 100.0 * ours.score
    # Each step as the difference of the rounded scores before and after it, so the steps shown
    # add up to the two scores shown ("+9.05" and "+13.27" beside 22.31 and 0.00: a teacher).
    parts, score = [], sacre.score
    for d in found or ():
        shown = round(score, 2) - round(score - d.points, 2)
        score -= d.points
        if abs(shown) >= 0.005:
            parts.append(f"{d.factor} ({d.explanation}) {shown:+.2f}")
    equal = abs(sacre.score - target) < 0.005
    if equal and found is not None and not parts:
        # Said of the path the differences take, which is all they measure: on Chinese both were 0,
        # each step changed nothing, yet smoothing would have changed this BLEU (a teacher).
        line = (f"Both give {target:.2f} (0-100) here: going from sacreBLEU's settings to this BLEU's one at a time "
                "(case, then smoothing, then tokens), no step changes the score.")
    elif equal and parts:
        # Equal by cancellation, not because nothing matters (a teacher: Chinese, 0 and 0, where
        # 13a made one token of the sentence and the unsmoothed BLEU had no 4-gram).
        line = (f"Both give {target:.2f} (0-100) here, but not because nothing differs: "
                + "; ".join(parts) + ", which cancel out.")
    elif found is None:
        line = (f"sacreBLEU {sacre.score:.2f} vs {target:.2f} (0-100): this BLEU's nltk smoothing {ours.smoothing} "
                "has no sacreBLEU equivalent; sacreBLEU also keeps case and uses its own 13a tokens.")
    else:
        line = f"sacreBLEU {sacre.score:.2f} vs {target:.2f} here (both 0-100): " + "; ".join(parts) + "."
    if language in UNSPACED_LANGUAGES:
        line += (f" Its 13a tokens split {language} text only at spaces and ASCII punctuation, so a sentence is about one "
                 f"token; MT papers score {language} with sacreBLEU's own tokenizer (-tok "
                 f"{UNSPACED_LANGUAGES[language]}), which this view does not run.")
    return line


def blank_texts(result: MultiReferenceResult) -> list[int]:
    """The positions of the references with no text but whitespace: no words for the jar's
    tokenizer either (a zero-width space is one word there), nor for BLEU."""
    return [k for k, text in enumerate(result.references) if not text.strip()]


def blank_left_out(result: MultiReferenceResult) -> list[int]:
    """The positions of the blank references this view leaves out, as bleu_for
    (report.bleu_references) and the corpus sacreBLEU do: every blank one, unless all are.
    (METEOR 1.5 mode scores them; paper and nltk mode have left them out before scoring.)"""
    blank = blank_texts(result)
    return blank if len(blank) < len(result.references) else []


def view(result: MultiReferenceResult, ours: BleuResult) -> SacreBleuView:
    """sacreBLEU on the raw strings of a scored pair, beside `ours` (the BLEU next to METEOR)."""
    candidate = result.candidate
    left_out = set(blank_left_out(result))
    references = [r for k, r in enumerate(result.references) if k not in left_out]
    # The pair is tokenized and counted at most once per case setting, and not at all where
    # our BLEU's counts are sacreBLEU's; every score of the view is sacreBLEU's arithmetic on
    # those counts (tests compare each with sacreBLEU's own call).
    lowered = None if result.best.config.keep_case else _statistics_of_ours(result, ours, references)
    if lowered is not None and _lowercasing_renames_one_to_one(candidate, references):
        cased = lowered
    else:
        cased = _statistics(candidate, references, lowercase=False)
    sentence = _from_score(_bleu(cased), _signature(True, len(references)))
    corpus = _from_score(_bleu(cased, effective_order=False), _signature(False, len(references)))
    found = differences(candidate, references, ours, result.best.config.keep_case, cased, sentence.score, lowered)
    why = explain_difference(sentence, ours, found, result.best.config.language)
    blank = len(left_out)
    if blank:
        # METEOR 1.5 mode scores a blank reference, as the jar does; sacreBLEU given one counts it
        # as a reference of length 0 (its nrefs and brevity penalty change), which the numbers
        # here did without a word (a tester: 36.79 with nrefs:1 where its own call gives 100.00).
        why += (" The blank reference is left out here, as this BLEU leaves it out; sacreBLEU given it counts it as "
                "a reference of length 0." if blank == 1 else
                f" The {blank} blank references are left out here, as this BLEU leaves them out; sacreBLEU given them "
                "counts each as a reference of length 0.")
    return SacreBleuView(sentence, corpus, found or (), why)


def to_dict(score: SacreBleu) -> dict:
    return {"score": score.score, "counts": list(score.counts), "totals": list(score.totals),
            "brevity_penalty": score.brevity_penalty,
            "hypothesis_length": score.hypothesis_length, "reference_length": score.reference_length,
            "signature": score.signature}


def view_to_dict(v: SacreBleuView) -> dict:
    return {"sentence": to_dict(v.sentence), "corpus": to_dict(v.corpus),
            "differences": [{"factor": d.factor, "explanation": d.explanation, "points": d.points}
                            for d in v.differences],
            "why_different": v.why_different}
