"""Views over result objects: JSON-ready dicts (the schema the CLI and the app export) and a
plain-text explanation. Pure functions: no I/O."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Callable, Optional, Sequence

from . import sacrebleu_view
from .bleu import MAX_ORDER, SHARED_SPAN_STARTS, BleuResult, sentence_bleu
from .methods import plural
from .references import entry_names
from .result import Link, Meteor15Detail, MultiReferenceResult, SegmentResult


def bleu_for(result: MultiReferenceResult, smoothing: Optional[str] = None) -> BleuResult:
    """Sentence BLEU over the same normalized tokens METEOR used, against all references."""
    smoothing = smoothing or result.best.config.bleu_smoothing
    return sentence_bleu(result.best.candidate_tokens.norms, bleu_references(result), smoothing)


def bleu_references(result: MultiReferenceResult) -> list:
    """The references BLEU is computed against: those with tokens (all when none has). An empty
    one (METEOR 1.5 mode scores it, as the jar does) is no reference for BLEU: its length 0
    would be the closest to a short candidate and lift the brevity penalty."""
    references = [r.reference_tokens.norms for r in result.per_reference]
    return [r for r in references if r] or references


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


def _bleu_json(bleu: BleuResult, dumps: Callable[[object], str]) -> str:
    """dumps(bleu_to_dict(bleu)), with each matched n-gram's object written from a bounded cache
    of their texts: they are most of the dict (27 per WMT22 pair) and take a few thousand values.
    Keys in bleu_to_dict's order; tests compare the text with dumps of bleu_to_dict."""
    head = bleu_to_dict(bleu)
    del head["matched_ngrams"], head["zero_reason"]  # the last two keys, written after the head
    return (f'{dumps(head)[:-1]}, "matched_ngrams": [{", ".join(map(_span_json, bleu.matched_ngrams))}], '
            f'"zero_reason": {dumps(bleu.zero_reason)}}}')


@lru_cache(maxsize=MAX_ORDER * SHARED_SPAN_STARTS)  # as many as bleu.py shares span tuples
def _span_json(span: tuple[int, int, int]) -> str:
    return '{"n": %d, "start": %d, "end": %d}' % span


def _link_to_dict(link: Link) -> dict:
    out = {"candidate": link.candidate, "reference": link.reference, "stage": link.stage, "evidence": link.evidence}
    if link.candidate_end is not None or link.reference_end is not None:
        # METEOR 1.5 links are spans: candidate [candidate, candidate_end), reference likewise.
        out["candidate_end"] = link.candidate_stop
        out["reference_end"] = link.reference_stop
    return out


def meteor15_to_dict(detail: Meteor15Detail) -> dict:
    """METEOR 1.5's statistics and formula numbers, function-word flags and search facts."""
    s, w = detail.stats, detail.weighted
    return {
        "stats": {
            "candidate_length": s.candidate_length, "reference_length": s.reference_length,
            "candidate_function_words": s.candidate_function_words,
            "reference_function_words": s.reference_function_words,
            "modules": [{"module": m.module, "weight": m.weight, "candidate_content": m.candidate_content,
                         "candidate_function": m.candidate_function, "reference_content": m.reference_content,
                         "reference_function": m.reference_function} for m in s.modules],
            "chunks": s.chunks, "candidate_matches": s.candidate_matches, "reference_matches": s.reference_matches,
        },
        "formula": {
            "candidate_weighted_matches": w.candidate_weighted_matches,
            "candidate_weighted_length": w.candidate_weighted_length,
            "reference_weighted_matches": w.reference_weighted_matches,
            "reference_weighted_length": w.reference_weighted_length,
            "precision": w.precision, "recall": w.recall, "fmean": w.fmean, "fragmentation": w.fragmentation,
            "penalty": w.penalty, "score": w.score, "single_chunk_rule": w.single_chunk_rule, "note": w.note,
        },
        "candidate_function_words": list(detail.candidate_function_words),
        "reference_function_words": list(detail.reference_function_words),
        "fixed_links": list(detail.fixed_links),
        "proposed_matches": list(detail.proposed_matches),
        "identical": detail.identical,
        "notes": list(detail.notes),
    }


def segment_to_dict(result: SegmentResult) -> dict:
    out = _segment_head(result)
    out["alignment"] = [_link_to_dict(l) for l in result.links]
    out["chunk_spans"] = [{"candidate": [c.candidate_start, c.candidate_end],
                           "reference": [c.reference_start, c.reference_end]} for c in result.chunk_spans]
    out.update(_segment_tail(result))
    return out


def _segment_head(result: SegmentResult) -> dict:
    """segment_to_dict's keys before "alignment"."""
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
        "candidate_tokens": list(result.candidate_tokens.texts),
        "reference_tokens": list(result.reference_tokens.texts),
    }


def _segment_tail(result: SegmentResult) -> dict:
    """segment_to_dict's keys after "chunk_spans" (never none)."""
    out = {"matches_by_stage": result.matches_by_stage(), "note": result.breakdown.note}
    if result.meteor15 is not None:
        out["meteor15"] = meteor15_to_dict(result.meteor15)
    return out


def _segment_json(result: SegmentResult, dumps: Callable[[object], str]) -> str:
    """dumps(segment_to_dict(result)), with each link and chunk span written by a format string
    instead of built as a dict and encoded: 13 links and 5 chunks a WMT22 pair. Tests compare the
    text with dumps of segment_to_dict."""
    links = []
    for l in result.links:
        text = '{"candidate": %d, "reference": %d, "stage": %s, "evidence": %s' % (
            l.candidate, l.reference, dumps(l.stage), dumps(l.evidence))
        if l.candidate_end is not None or l.reference_end is not None:  # as _link_to_dict
            text += ', "candidate_end": %d, "reference_end": %d' % (l.candidate_stop, l.reference_stop)
        links.append(text + "}")
    spans = ['{"candidate": [%d, %d], "reference": [%d, %d]}' % (
        c.candidate_start, c.candidate_end, c.reference_start, c.reference_end) for c in result.chunk_spans]
    return (f'{dumps(_segment_head(result))[:-1]}, "alignment": [{", ".join(links)}], '
            f'"chunk_spans": [{", ".join(spans)}], {dumps(_segment_tail(result))[1:]}')


def result_to_dict(result: MultiReferenceResult, bleu: Optional[BleuResult] = None, with_bleu: bool = True,
                   given: Optional[tuple[int, Sequence[int]]] = None) -> dict:
    """with_bleu False: no "bleu" and "sacrebleu" keys (they cost about as much as METEOR per pair).
    The top level repeats the best reference's entry of "references" (its lists are the same objects).
    given: (the number of references given, the position among them of each scored one) when
    blank ones were left out: "references" then has null at their places and best_reference
    counts them, so both name the entries as given."""
    per_reference = [segment_to_dict(r) for r in result.per_reference]
    out = dict(per_reference[result.best_index])  # the best reference's fields, converted once
    out["best_reference"], out["references"] = _as_given(per_reference, result.best_index, given, None)
    out.update(_result_tail(result, bleu, with_bleu, given))
    return out


def _as_given(entries: list, best: int, given, blank) -> tuple[int, list]:
    if given is None:
        return best, entries
    count, positions = given
    placed = [blank] * count
    for k, position in enumerate(positions):
        placed[position] = entries[k]
    return positions[best], placed


def result_to_json(result: MultiReferenceResult, dumps: Callable[[dict], str], with_bleu: bool = True,
                   given: Optional[tuple[int, Sequence[int]]] = None) -> str:
    """The text of dumps(result_to_dict(result, with_bleu=with_bleu, given=given)), with the best
    reference's entry encoded once rather than twice (the top level repeats it: a third of a batch
    line, and encoding is the largest cost of a line after METEOR itself). `dumps` must use json's
    default separators (", " and ": "); tests compare the text with dumps of result_to_dict."""
    entries = [_segment_json(r, dumps) for r in result.per_reference]
    top = entries[result.best_index]
    best, entries = _as_given(entries, result.best_index, given, "null")
    tail = dumps(_result_tail(result, None, False, given, with_bleu))  # never empty: "stages", "warnings", "signature"
    if with_bleu:  # the two BLEU keys come first in the tail (_result_tail)
        bleu = bleu_for(result)
        view = sacrebleu_view.view_to_dict(sacrebleu_view.view(result, bleu))
        tail = f'{{"bleu": {_bleu_json(bleu, dumps)}, "sacrebleu": {dumps(view)}, {tail[1:]}'
    return (f'{{{top[1:-1]}, "best_reference": {best}, "references": [{", ".join(entries)}], '
            + tail[1:])


def _result_tail(result: MultiReferenceResult, bleu: Optional[BleuResult], with_bleu: bool,
                 given: Optional[tuple[int, Sequence[int]]] = None, bleu_in_line: Optional[bool] = None) -> dict:
    """The keys after "references": BLEU (both views), stage status, warnings, signature.
    bleu_in_line: whether the line has BLEU (default with_bleu; result_to_json adds it itself)."""
    best = result.best
    out = {}
    if with_bleu:
        bleu = bleu if bleu is not None else bleu_for(result)
        out["bleu"] = bleu_to_dict(bleu)
        out["sacrebleu"] = sacrebleu_view.view_to_dict(sacrebleu_view.view(result, bleu))
    out["stages"] = [{"stage": s.stage, "available": s.available, "description": s.description,
                      "message": s.message} for s in best.stage_status]
    bleu_said = with_bleu if bleu_in_line is None else bleu_in_line
    out["warnings"] = list(best.warnings) + _left_out_warnings(given, bleu_said) + _blank_references_in_meteor15(result, bleu_said)
    out["signature"] = result.signature
    return out


def _left_out_warnings(given: Optional[tuple[int, Sequence[int]]], with_bleu: bool) -> list[str]:
    """Why "references" holds null: a JSON reader saw the null without a word (a corpus file's
    reader is told on stderr), and sacreBLEU's own call counts such a reference (length 0)."""
    if given is None:
        return []
    count, positions = given
    kept = set(positions)
    # named by list index, as best_reference counts (a "reference 1" read as best_reference 1)
    blank = [k for k in range(count) if k not in kept]
    which = f"{entry_names(blank)} {'is' if len(blank) == 1 else 'are'}"
    other = "the other reference" if len(positions) == 1 else f"the other {len(positions)} references"
    if not with_bleu:  # --no-bleu: no BLEU in the line to speak of (a tester)
        return [f"{which} blank or null: left out, as corpus files leave such references out, so METEOR here uses "
                f"{other}"]
    return [f"{which} blank or null: left out, as corpus files leave such references out, so METEOR and BLEU here "
            f"use {other} (sacreBLEU's own call would count a blank reference, of length 0)"]


def _blank_references_in_meteor15(result: MultiReferenceResult, with_bleu: bool) -> list[str]:
    """METEOR 1.5 mode scores a blank reference, as the jar does, and BLEU leaves it out (see
    bleu_references): said in warnings too, where a JSON reader saw two references scored and
    sacreBLEU's nrefs:1 (the view's why_different said it: a tester). Every reference blank:
    scored 0, and BLEU counts them."""
    if result.best.config.mode != "meteor15":
        return []
    # whitespace only, as BLEU reads it: a zero-width space is a word for the jar ("all blank:
    # no words" was said of ["\u200b", ""], scored against a one-word reference)
    every = sacrebleu_view.blank_texts(result)
    if len(every) == len(result.references):
        # Every one blank: scored 0 without a word, where one blank beside a reference was said (a tester)
        which, it = (entry_names(every) + " are all", "them") if len(every) > 1 else (entry_names(every) + " is", "it")
        return [f"{which} blank: METEOR 1.5 scores {it} as the jar does (no words, 0)"
                + (f"; BLEU counts {it} too (no reference words: 0)" if with_bleu else "")]
    blank = sacrebleu_view.blank_left_out(result)
    if not blank or not with_bleu:
        return []
    which, it = f"{entry_names(blank)} {'is' if len(blank) == 1 else 'are'}", "it" if len(blank) == 1 else "them"
    return [f"{which} blank: METEOR 1.5 scores {it} as the jar does (no words, 0), BLEU here leaves {it} out "
            "(sacreBLEU's own call would count a blank reference, of length 0)"]


def _frac(numerator: int, denominator: int) -> str:
    f = Fraction(numerator, denominator)
    return f"{numerator}/{denominator}" + (f" = {f}" if f.denominator != denominator else "")


_SEARCH = {"nltk": ", nltk's greedy alignment", "meteor15": ", METEOR 1.5's beam search: its alignment, not an optimum"}


def explain(result: MultiReferenceResult, bleu: Optional[BleuResult] = None) -> str:
    """A readable account of how the score was made."""
    best = result.best
    b, s = best.breakdown, best.stats
    cfg = best.config
    cand = best.candidate_tokens
    ref = best.reference_tokens
    lines = [f"METEOR {b.score:.6f}  ({cfg.mode} mode" + _SEARCH.get(cfg.mode, f", fewest {cfg.objective}") + ")"]
    for warning in best.warnings:
        lines.append(f"WARNING: {warning}")
    lines.append(f"candidate ({plural(len(cand), 'token')}): {' '.join(t.text for t in cand)}")
    if len(result.per_reference) > 1:
        for index, r in enumerate(result.per_reference):
            mark = "  <- best" if index == result.best_index else ""
            lines.append(f"reference {index + 1} ({plural(len(r.reference_tokens), 'token')}): "
                         f"{' '.join(t.text for t in r.reference_tokens)}   METEOR {r.score:.6f}{mark}")
    else:
        lines.append(f"reference ({plural(len(ref), 'token')}): {' '.join(t.text for t in ref)}")
    lines.append("")
    lines.extend(_meteor15_alignment(best) if best.meteor15 is not None else _stage_alignment(best))
    unmatched_c = [f"{cand[i].text}[{i}]" for i in range(len(cand)) if best.link_for_candidate(i) is None]
    unmatched_r = [f"{ref[j].text}[{j}]" for j in range(len(ref)) if best.link_for_reference(j) is None]
    lines.append(f"  unmatched candidate: {' '.join(unmatched_c) or '-'}")
    lines.append(f"  unmatched reference: {' '.join(unmatched_r) or '-'}")
    if best.config.mode == "nltk":  # nothing searched, so nothing to prove ("optimal: proven" misled a teacher)
        lines.append(f"  crossings: {best.crossings}; nltk's greedy alignment, as nltk makes it (no search for an optimum)")
    elif best.meteor15 is None:
        lines.append(f"  crossings: {best.crossings}; optimal: {'proven' if best.optimal else 'NOT proven (node budget)'}")
    lines.append("")
    lines.append(f"Chunks ({s.chunks}):")
    for number, c in enumerate(best.chunk_spans, start=1):
        lines.append(f"  {number}. \"{' '.join(t.text for t in cand[c.candidate_start:c.candidate_end])}\""
                     f"  cand[{c.candidate_start}:{c.candidate_end}] ~ ref[{c.reference_start}:{c.reference_end}]")
    lines.append("")
    lines.extend(_meteor15_formula(best) if best.meteor15 is not None else _formula(best))
    bleu = bleu if bleu is not None else bleu_for(result)
    lines.append("")
    lines.append(f"BLEU {bleu.score:.4f} (smoothing {bleu.smoothing}; sacrebleu: {bleu.sacrebleu_equivalent})")
    for o in bleu.orders:
        lines.append(f"  {o.n}-grams: {o.matched}/{o.total} = {o.precision:.4f}"
                     + (f"   (the candidate has no {o.n}-gram; nltk divides by at least 1)"
                        if bleu.ngram_count(o.n) < o.total else ""))
    lines.append(f"  brevity penalty {bleu.brevity_penalty:.4f} (candidate {bleu.candidate_length}, "
                 f"closest reference {bleu.reference_length})")
    if bleu.zero_reason:
        lines.append(f"  BLEU is 0: {bleu.zero_reason}")
    lines.append("")
    lines.append(f"signature: {result.signature}")
    return "\n".join(lines)


def _stage_alignment(best: SegmentResult) -> list[str]:
    cand, ref = best.candidate_tokens, best.reference_tokens
    lines = ["Alignment, stage by stage:"]
    for snap in best.snapshots:
        status = next((st for st in best.stage_status if st.stage == snap.stage), None)
        if status is not None and not status.available:
            lines.append(f"  {snap.stage:8s} UNAVAILABLE: {status.message}")
            continue
        lines.append(f"  {snap.stage:8s} {len(snap.new_links)} new link(s)")
        for l in snap.new_links:
            lines.append(f"           {cand[l.candidate].text}[{l.candidate}] -> {ref[l.reference].text}[{l.reference}]"
                         f"   ({l.evidence})")
    return lines


def _span(tokens, start: int, stop: int) -> str:
    return " ".join(t.text for t in tokens[start:stop]) + (f"[{start}]" if stop == start + 1 else f"[{start}:{stop}]")


def _meteor15_alignment(best: SegmentResult) -> list[str]:
    cand, ref, detail = best.candidate_tokens, best.reference_tokens, best.meteor15
    proposed = ", ".join(f"{st.stage} {n}" for st, n in zip(best.stage_status, detail.proposed_matches))
    lines = ["Alignment: every module's matches pooled (" + proposed + "); unambiguous one-to-one matches "
             "fixed first (*), the rest chosen by the jar's beam search"]
    if detail.identical:
        lines.append("  identical sentences: the jar runs only its first module")
    for st in best.stage_status:
        if not st.available:
            lines.append(f"  {st.stage:10s} UNAVAILABLE: {st.message}")
    fixed = set(detail.fixed_links)
    for k, l in enumerate(best.links):
        lines.append(f"  {'*' if k in fixed else ' '} {l.stage:10s} {_span(cand, l.candidate, l.candidate_stop)} -> "
                     f"{_span(ref, l.reference, l.reference_stop)}   ({l.evidence})")
    marked_c = " ".join(t.text for t, f in zip(cand, detail.candidate_function_words) if f)
    marked_r = " ".join(t.text for t, f in zip(ref, detail.reference_function_words) if f)
    lines.append(f"  function words (weight 1 - delta): candidate {marked_c or '-'}; reference {marked_r or '-'}")
    return lines


def _formula(best: SegmentResult) -> list[str]:
    b, s, p = best.breakdown, best.stats, best.config.params
    if s.matches == 0:
        return [b.note]
    return [
        f"P = m/|cand| = {_frac(s.matches, s.candidate_length)} = {b.precision:.6f}",
        f"R = m/|ref|  = {_frac(s.matches, s.reference_length)} = {b.recall:.6f}",
        f"Fmean = P*R / (alpha*P + (1-alpha)*R) = {b.precision:.6f}*{b.recall:.6f} / "
        f"({p.alpha:g}*{b.precision:.6f} + {1 - p.alpha:g}*{b.recall:.6f}) = {b.fmean:.6f}",
        (f"Penalty = 0, not gamma*(chunks/m)^beta = {p.gamma:g}*({s.chunks}/{s.matches})^{p.beta:g}   [{b.note}]"
         if b.single_chunk_rule else
         f"Penalty = gamma*(chunks/m)^beta = {p.gamma:g}*({s.chunks}/{s.matches})^{p.beta:g} = {b.penalty:.6f}"
         + (f"   [{b.note}]" if b.note else "")),
        f"Score = Fmean*(1 - Penalty) = {b.fmean:.6f}*{1 - b.penalty:.6f} = {b.score:.6f}",
    ]


def _meteor15_formula(best: SegmentResult) -> list[str]:
    detail, p = best.meteor15, best.config.params
    s, w = detail.stats, detail.weighted
    d = p.delta

    def matched(side: str) -> str:
        terms = [f"{m.weight:g}*({d:g}*{getattr(m, side + '_content')} + {1 - d:g}*{getattr(m, side + '_function')})"
                 for m in s.modules]
        return " + ".join(terms)

    c_content = s.candidate_length - s.candidate_function_words
    r_content = s.reference_length - s.reference_function_words
    lines = [
        f"weighted matches, candidate = sum of weight*(delta*content + (1-delta)*function) = {matched('candidate')}"
        f" = {w.candidate_weighted_matches:.6f}",
        f"weighted length,  candidate = delta*content + (1-delta)*function = {d:g}*{c_content} + {1 - d:g}*"
        f"{s.candidate_function_words} = {w.candidate_weighted_length:.6f}",
        f"weighted matches, reference = {matched('reference')} = {w.reference_weighted_matches:.6f}",
        f"weighted length,  reference = {d:g}*{r_content} + {1 - d:g}*{s.reference_function_words}"
        f" = {w.reference_weighted_length:.6f}",
        f"P = {w.precision:.6f}   R = {w.recall:.6f}",
        f"Fmean = 1 / ((1-alpha)/P + alpha/R) = 1 / ({1 - p.alpha:g}/{w.precision:.6f} + {p.alpha:g}/{w.recall:.6f})"
        f" = {w.fmean:.6f}",
    ]
    if w.single_chunk_rule:
        lines.append("fragmentation = 0: every word on both sides matched in one chunk")
    else:
        lines.append(f"fragmentation = chunks / mean matched words = {s.chunks} / (({s.candidate_matches} + "
                     f"{s.reference_matches})/2) = {w.fragmentation:.6f}")
    lines.append(f"Penalty = gamma*frag^beta = {p.gamma:g}*{w.fragmentation:.6f}^{p.beta:g} = {w.penalty:.6f}")
    lines.append(f"Score = Fmean*(1 - Penalty) = {w.score:.6f}" + (f"   [{w.note}]" if w.note else ""))
    return lines
