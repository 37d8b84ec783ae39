"""BLEU as MT papers report it: sacreBLEU (Post 2018) with its defaults (13a tokenization, case
kept, exp smoothing), computed by the `sacrebleu` package itself on the raw strings, with its
signature. Beside it, the BLEU this project shows next to METEOR (nltk, on METEOR's lowercased
tokens: like with like) is a different number; `differences` says why on a given pair by
changing one setting at a time (case, then smoothing, then tokens)."""
from __future__ import annotations

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
    from sacrebleu.metrics import BLEU

    return BLEU(lowercase=lowercase, smooth_method=smooth_method, effective_order=sentence)


def _from_score(score, metric) -> SacreBleu:
    return SacreBleu(float(score.score), tuple(int(c) for c in score.counts), tuple(int(t) for t in score.totals),
                     float(score.bp), int(score.sys_len), int(score.ref_len), str(metric.get_signature()))


def sentence_bleu(candidate: str, references: Sequence[str]) -> SacreBleu:
    """sacrebleu.sentence_bleu with its defaults."""
    metric = _metric(sentence=True)
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


def _corpus_of_one(candidate: str, references: list[str], lowercase: bool, smooth_method: str) -> float:
    """sacreBLEU on a one-segment corpus: sentence BLEU without effective order (calling
    sentence_score without it makes sacreBLEU print a warning)."""
    return _metric(False, lowercase, smooth_method).corpus_score([candidate], [[r] for r in references]).score


def differences(candidate: str, references: Sequence[str], ours: BleuResult, keep_case: bool,
                sacre: Optional[SacreBleu] = None) -> Optional[tuple[Difference, ...]]:
    """Go from sacreBLEU's settings to ours one at a time (case, then smoothing, then tokens):
    each step's change is what that setting adds to sacreBLEU's score. The points add up to
    sacreBLEU minus ours (x100). None when our smoothing has no sacreBLEU equivalent."""
    smooth = SMOOTHING_EQUIVALENT.get(ours.smoothing)
    if smooth is None:
        return None
    sacre = sacre or sentence_bleu(candidate, references)
    refs = list(references)
    found = []
    previous = sacre.score
    if not keep_case:
        lowered = _metric(True, lowercase=True).sentence_score(candidate, refs).score
        found.append(Difference("case", "sacreBLEU keeps case, this BLEU lowercases", previous - lowered))
        previous = lowered
    matched = _corpus_of_one(candidate, refs, not keep_case, smooth)
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
    sentence = sentence_bleu(candidate, references)
    corpus = corpus_bleu([candidate], [references])
    found = differences(candidate, references, ours, result.best.config.keep_case, sentence)
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
