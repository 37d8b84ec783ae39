"""Views over result objects: JSON-ready dicts (the schema the CLI and the app export) and a
plain-text explanation. Pure functions: no I/O."""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

from . import sacrebleu_view
from .bleu import BleuResult, sentence_bleu
from .result import MultiReferenceResult, SegmentResult


def bleu_for(result: MultiReferenceResult, smoothing: Optional[str] = None) -> BleuResult:
    """Sentence BLEU over the same normalized tokens METEOR used, against all references."""
    smoothing = smoothing or result.best.config.bleu_smoothing
    candidate = [t.norm for t in result.best.candidate_tokens]
    references = [[t.norm for t in r.reference_tokens] for r in result.per_reference]
    return sentence_bleu(candidate, references, smoothing)


def bleu_to_dict(bleu: BleuResult) -> dict:
    return {
        "score": bleu.score,
        "precisions": list(bleu.precisions),
        "orders": [{"n": o.n, "matched": o.matched, "total": o.total, "precision": o.precision} for o in bleu.orders],
        "brevity_penalty": bleu.brevity_penalty,
        "candidate_length": bleu.candidate_length,
        "reference_length": bleu.reference_length,
        "smoothing": bleu.smoothing,
        "sacrebleu_equivalent": bleu.sacrebleu_equivalent,
        "matched_ngrams": [{"n": n, "start": s, "end": e} for n, s, e in bleu.matched_ngrams],
        "zero_reason": bleu.zero_reason,
    }


def segment_to_dict(result: SegmentResult) -> dict:
    b = result.breakdown
    return {
        "score": b.score,
        "precision": b.precision,
        "recall": b.recall,
        "fmean": b.fmean,
        "penalty": b.penalty,
        "fragmentation": b.fragmentation,
        "chunks": result.stats.chunks,
        "matches": result.stats.matches,
        "crossings": result.crossings,
        "optimal": result.optimal,
        "candidate_length": result.stats.candidate_length,
        "reference_length": result.stats.reference_length,
        "candidate_tokens": [t.text for t in result.candidate_tokens],
        "reference_tokens": [t.text for t in result.reference_tokens],
        "alignment": [{"candidate": l.candidate, "reference": l.reference, "stage": l.stage,
                       "evidence": l.evidence} for l in result.links],
        "chunk_spans": [{"candidate": [c.candidate_start, c.candidate_end],
                         "reference": [c.reference_start, c.reference_end]} for c in result.chunk_spans],
        "matches_by_stage": result.matches_by_stage(),
        "note": b.note,
    }


def result_to_dict(result: MultiReferenceResult, bleu: Optional[BleuResult] = None) -> dict:
    best = result.best
    out = segment_to_dict(best)
    out["best_reference"] = result.best_index
    out["references"] = [segment_to_dict(r) for r in result.per_reference]
    bleu = bleu if bleu is not None else bleu_for(result)
    out["bleu"] = bleu_to_dict(bleu)
    out["sacrebleu"] = sacrebleu_view.view_to_dict(sacrebleu_view.view(result, bleu))
    out["stages"] = [{"stage": s.stage, "available": s.available, "description": s.description,
                      "message": s.message} for s in best.stage_status]
    out["warnings"] = list(best.warnings)
    out["signature"] = result.signature
    return out


def _frac(numerator: int, denominator: int) -> str:
    f = Fraction(numerator, denominator)
    return f"{numerator}/{denominator}" + (f" = {f}" if f.denominator != denominator else "")


def explain(result: MultiReferenceResult, bleu: Optional[BleuResult] = None) -> str:
    """A readable account of how the score was made."""
    best = result.best
    b, s = best.breakdown, best.stats
    cfg = best.config
    p = cfg.params
    cand = best.candidate_tokens
    ref = best.reference_tokens
    lines = [f"METEOR {b.score:.6f}  ({cfg.mode} mode"
             + (f", fewest {cfg.objective}" if cfg.mode == "paper" else ", nltk's greedy alignment") + ")"]
    for warning in best.warnings:
        lines.append(f"WARNING: {warning}")
    lines.append(f"candidate ({len(cand)} tokens): {' '.join(t.text for t in cand)}")
    if len(result.per_reference) > 1:
        for index, r in enumerate(result.per_reference):
            mark = "  <- best" if index == result.best_index else ""
            lines.append(f"reference {index + 1} ({len(r.reference_tokens)} tokens): "
                         f"{' '.join(t.text for t in r.reference_tokens)}   METEOR {r.score:.6f}{mark}")
    else:
        lines.append(f"reference ({len(ref)} tokens): {' '.join(t.text for t in ref)}")
    lines.append("")
    lines.append("Alignment, stage by stage:")
    for snap in best.snapshots:
        status = next((st for st in best.stage_status if st.stage == snap.stage), None)
        if status is not None and not status.available:
            lines.append(f"  {snap.stage:8s} UNAVAILABLE: {status.message}")
            continue
        lines.append(f"  {snap.stage:8s} {len(snap.new_links)} new link(s)")
        for l in snap.new_links:
            lines.append(f"           {cand[l.candidate].text}[{l.candidate}] -> {ref[l.reference].text}[{l.reference}]"
                         f"   ({l.evidence})")
    unmatched_c = [f"{cand[i].text}[{i}]" for i in range(len(cand)) if best.link_for_candidate(i) is None]
    unmatched_r = [f"{ref[j].text}[{j}]" for j in range(len(ref)) if best.link_for_reference(j) is None]
    lines.append(f"  unmatched candidate: {' '.join(unmatched_c) or '-'}")
    lines.append(f"  unmatched reference: {' '.join(unmatched_r) or '-'}")
    lines.append(f"  crossings: {best.crossings}; optimal: {'proven' if best.optimal else 'NOT proven (node budget)'}")
    lines.append("")
    lines.append(f"Chunks ({s.chunks}):")
    for number, c in enumerate(best.chunk_spans, start=1):
        lines.append(f"  {number}. \"{' '.join(t.text for t in cand[c.candidate_start:c.candidate_end])}\""
                     f"  cand[{c.candidate_start}:{c.candidate_end}] ~ ref[{c.reference_start}:{c.reference_end}]")
    lines.append("")
    if s.matches == 0:
        lines.append(b.note)
    else:
        lines.append(f"P = m/|cand| = {_frac(s.matches, s.candidate_length)} = {b.precision:.6f}")
        lines.append(f"R = m/|ref|  = {_frac(s.matches, s.reference_length)} = {b.recall:.6f}")
        lines.append(f"Fmean = P*R / (alpha*P + (1-alpha)*R) = {b.precision:.6f}*{b.recall:.6f} / "
                     f"({p.alpha:g}*{b.precision:.6f} + {1 - p.alpha:g}*{b.recall:.6f}) = {b.fmean:.6f}")
        lines.append(f"Penalty = gamma*(chunks/m)^beta = {p.gamma:g}*({s.chunks}/{s.matches})^{p.beta:g} = {b.penalty:.6f}"
                     + (f"   [{b.note}]" if b.note else ""))
        lines.append(f"Score = Fmean*(1 - Penalty) = {b.fmean:.6f}*{1 - b.penalty:.6f} = {b.score:.6f}")
    bleu = bleu if bleu is not None else bleu_for(result)
    lines.append("")
    lines.append(f"BLEU {bleu.score:.4f} (smoothing {bleu.smoothing}; sacrebleu: {bleu.sacrebleu_equivalent})")
    for o in bleu.orders:
        lines.append(f"  {o.n}-grams: {o.matched}/{o.total} = {o.precision:.4f}")
    lines.append(f"  brevity penalty {bleu.brevity_penalty:.4f} (candidate {bleu.candidate_length}, "
                 f"closest reference {bleu.reference_length})")
    if bleu.zero_reason:
        lines.append(f"  BLEU is 0: {bleu.zero_reason}")
    lines.append("")
    lines.append(f"signature: {result.signature}")
    return "\n".join(lines)
