"""BLEU as MT papers report it: sacreBLEU (Post 2018) with its defaults (13a tokenization, case
kept, exp smoothing), computed by the `sacrebleu` package itself on the raw strings, with its
signature. Beside it, the BLEU this project shows next to METEOR (nltk, on METEOR's lowercased
tokens: like with like) is a different number; `differences` says why on a given pair by
changing one setting at a time (case, then smoothing, then tokens)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Optional, Sequence

from .bleu import BleuResult
from .result import MultiReferenceResult

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

    factor: str  # "case" | "smoothing" | "tokenization"
    explanation: str
    points: float


@dataclass(frozen=True)
class SacreBleuView:
    sentence: SacreBleu  # sacrebleu.sentence_bleu: exp smoothing, effective order
    corpus: SacreBleu  # the pair as a one-segment corpus: what `sacrebleu ref.txt < hyp.txt` prints
    differences: tuple[Difference, ...]  # sentence sacreBLEU vs the BLEU beside METEOR, per setting
    why_different: str  # the same in one line


def _metric(sentence: bool, lowercase: bool = False, smooth_method: str = "exp"):
    """A fresh metric per use: scoring writes on it (the number of references, for its signature)."""
    from sacrebleu.metrics import BLEU

    return BLEU(lowercase=lowercase, smooth_method=smooth_method, effective_order=sentence)


_per_thread = threading.local()


def preload() -> None:
    """Import sacreBLEU now (about 0.2 s) rather than at the first score: a caller about to fork
    workers does it once for all of them."""
    import sacrebleu.metrics  # noqa: F401


def _sentence_metric(tokenize: Optional[str] = None):
    """sacreBLEU's sentence metric (exp smoothing, effective order, case kept), one per thread
    and tokenizer, reused across pairs: its tokenizer caches the lines it has seen (an lru_cache
    keyed on the tokenizer object, so a fresh metric per pair never hits it), which makes a
    reference shared by many systems cost one tokenization, and lets the lowercased pass below
    read the cased tokens back for free. Per thread, because scoring writes the number of
    references on the metric and the signature is read from it right after."""
    metrics = getattr(_per_thread, "metrics", None)
    if metrics is None:
        metrics = _per_thread.metrics = {}
    metric = metrics.get(tokenize)
    if metric is None:
        from sacrebleu.metrics import BLEU

        options = {"tokenize": tokenize} if tokenize else {}
        metric = metrics[tokenize] = BLEU(effective_order=True, **options)
    return metric


#: Characters whose presence can make 13a tokens of the lowercased text differ from the
#: lowercased 13a tokens: 13a replaces "&quot;"-style entities and "<skipped>" before
#: splitting (case-sensitive), and Python lowercases a capital sigma by its context (final
#: form before a space), which the spaces 13a inserts change. Every other character keeps its
#: 13a class when lowercased (tests/test_sacrebleu_view.py checks all of Unicode).
_CASE_SENSITIVE_13A = ("&", "<", "\u03a3")


def _lowercased_statistics(candidate: str, references: Sequence[str], cased_metric):
    """sacreBLEU's sentence score with lowercase=True, equal to its own call. When lowercasing
    commutes with 13a (see _CASE_SENSITIVE_13A), the n-grams are counted on the cased tokens
    lowercased (the tokenizer's cache returns them: the cased score just tokenized the same
    lines), which saves the second 13a pass, about half the cost of a sentence score."""
    if any(ch in text for text in (candidate, *references) for ch in _CASE_SENSITIVE_13A):
        return _metric(True, lowercase=True).sentence_score(candidate, list(references))
    tokens = cased_metric.tokenizer  # sacreBLEU tokenizes line.rstrip(); same key, so a cache hit
    return _sentence_metric("none").sentence_score(tokens(candidate.rstrip()).lower(),
                                                   [tokens(r.rstrip()).lower() for r in references])


def _rescore(statistics, smooth_method: str):
    """sacreBLEU's score of a one-segment corpus (no effective order) with `smooth_method`, from
    the pair's n-gram statistics already counted by a sentence score with the same case
    setting: its own arithmetic (compute_bleu, with its default smoothing value), without
    tokenizing and counting the pair again."""
    from sacrebleu.metrics import BLEU

    return BLEU.compute_bleu(list(statistics.counts), list(statistics.totals),  # it adds to these lists
                             int(statistics.sys_len), int(statistics.ref_len), smooth_method=smooth_method,
                             effective_order=False)


def _from_score(score, metric) -> SacreBleu:
    return SacreBleu(float(score.score), tuple(int(c) for c in score.counts), tuple(int(t) for t in score.totals),
                     float(score.bp), int(score.sys_len), int(score.ref_len), str(metric.get_signature()))


def sentence_bleu(candidate: str, references: Sequence[str]) -> SacreBleu:
    """sacrebleu.sentence_bleu with its defaults."""
    metric = _sentence_metric()
    return _from_score(metric.sentence_score(candidate, list(references)), metric)


def corpus_bleu(candidates: Sequence[str], references: Sequence[Sequence[str]]) -> SacreBleu:
    """sacrebleu.corpus_bleu with its defaults. `references[k]` are segment k's references (any
    number per segment; sacreBLEU takes reference streams, so shorter lists are padded with None,
    which it skips)."""
    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} reference lists")
    width = max((len(refs) for refs in references), default=0)
    streams = [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]
    metric = _metric(sentence=False)
    return _from_score(metric.corpus_score(list(candidates), streams), metric)


def differences(candidate: str, references: Sequence[str], ours: BleuResult, keep_case: bool,
                cased_statistics=None) -> Optional[tuple[Difference, ...]]:
    """Go from sacreBLEU's settings to ours one at a time (case, then smoothing, then tokens):
    each step's change is what that setting adds to sacreBLEU's score. The points add up to
    sacreBLEU minus ours (x100). None when our smoothing has no sacreBLEU equivalent.
    cased_statistics: sacreBLEU's sentence score of the pair when already computed (its
    n-gram counts are reused)."""
    smooth = SMOOTHING_EQUIVALENT.get(ours.smoothing)
    if smooth is None:
        return None
    refs = list(references)
    found = []
    cased_metric = _sentence_metric()
    statistics = cased_statistics or cased_metric.sentence_score(candidate, refs)
    previous = statistics.score  # sacreBLEU's sentence score
    if not keep_case:
        statistics = _lowercased_statistics(candidate, refs, cased_metric)
        lowered = statistics.score
        found.append(Difference("case", "sacreBLEU keeps case, this BLEU lowercases", previous - lowered))
        previous = lowered
    matched = _rescore(statistics, smooth).score  # the pair as a one-segment corpus
    found.append(Difference("smoothing", f"sacreBLEU: exp with effective order; this BLEU: {ours.smoothing}",
                            previous - matched))
    found.append(Difference("tokenization", "sacreBLEU's 13a tokens vs METEOR's tokens", matched - 100.0 * ours.score))
    return tuple(found)


def explain_difference(sacre: SacreBleu, ours: BleuResult, found: Optional[Sequence[Difference]]) -> str:
    """The one line shown beside the two scores."""
    target = 100.0 * ours.score
    if abs(sacre.score - target) < 0.005:
        return f"Both give {target:.2f} (0-100) here: case, smoothing and tokenization change nothing on this pair."
    if found is None:
        return (f"sacreBLEU {sacre.score:.2f} vs {target:.2f} (0-100): this BLEU's nltk smoothing {ours.smoothing} "
                "has no sacreBLEU equivalent; sacreBLEU also keeps case and uses its own 13a tokens.")
    parts = [f"{d.factor} ({d.explanation}) {d.points:+.2f}" for d in found if abs(d.points) >= 0.005]
    return f"sacreBLEU {sacre.score:.2f} vs {target:.2f} here (both 0-100): " + "; ".join(parts) + "."


def view(result: MultiReferenceResult, ours: BleuResult) -> SacreBleuView:
    """sacreBLEU on the raw strings of a scored pair, beside `ours` (the BLEU next to METEOR)."""
    candidate, references = result.candidate, list(result.references)
    # The pair is tokenized and counted once per case setting; every other score of the view
    # is sacreBLEU's arithmetic on those counts (tests compare each with sacreBLEU's own call).
    metric = _sentence_metric()
    cased = metric.sentence_score(candidate, references)
    sentence = _from_score(cased, metric)
    corpus_metric = _metric(False)
    corpus_metric.num_refs = metric.num_refs  # what scoring would set; its signature names it
    corpus = _from_score(_rescore(cased, "exp"), corpus_metric)
    found = differences(candidate, references, ours, result.best.config.keep_case, cased)
    return SacreBleuView(sentence, corpus, found or (), explain_difference(sentence, ours, found))


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
