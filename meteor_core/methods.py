"""What a configuration does, in words, and a step-through of one result built from it.

`describe(config)` says how the configuration's mode aligns and scores; `walkthrough(result)`
turns one scored pair into steps (tokens, each stage that adds links, crossings, chunks, the
formula), each with its text filled in from this pair's numbers and what to draw. Pages render
these and never hard-code a method: a new mode is one more entry in METHODS.

Texts are plain text (no markup): they quote the user's words, so renderers show them as text."""
from __future__ import annotations

from bisect import bisect_right, insort
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from .align import count_crossings
from .params import MeteorConfig
from .result import Link, SegmentResult


@dataclass(frozen=True)
class MethodDescription:
    mode: str
    title: str  # "paper mode: Banerjee & Lavie 2005, exact search"
    selection: str  # how a stage chooses its links among the pairs it relates (one clause)
    searches: bool  # True: the largest one-to-one set, then `tie_breaks`; False: a greedy scan
    tie_breaks: str  # for searches: what decides among the largest sets
    minimizes_crossings: bool  # "fewest crossings" is part of how links are chosen
    fixed_stages: bool  # the mode runs its own stages whatever the configuration says
    notes: tuple[str, ...] = ()  # further true statements about the mode

    @property
    def summary(self) -> str:
        return f"{self.title}. Each stage {self.selection}."

    def stage_choice(self, related: int, kept: int) -> str:
        """What one stage did, in this mode's terms (`related`: pairs it could link)."""
        if not self.searches:
            return f"it {self.selection}: {_plural(kept, 'link')}"
        if related == kept:
            return f"it relates {_plural(related, 'pair')}, all compatible: it keeps all of them"
        return (f"it relates {_plural(related, 'pair')}; the largest one-to-one set has {_plural(kept, 'link')}, and "
                f"among such sets it keeps the one with {self.tie_breaks}")


def _paper(config: MeteorConfig) -> MethodDescription:
    if config.objective == "chunks":
        tie_breaks = ("the fewest chunks, then the fewest crossings, then the leftmost partners (fewest chunks: a "
                      "teaching toggle in the spirit of METEOR 1.5)")
    else:
        tie_breaks = "the fewest crossings over the whole alignment, then the fewest chunks, then the leftmost partners"
    return MethodDescription(
        "paper", "paper mode: Banerjee & Lavie 2005, exact search",
        f"keeps the largest set of one-to-one links among the words still unmatched, and among those the one with "
        f"{tie_breaks}", searches=True, tie_breaks=tie_breaks, minimizes_crossings=config.objective == "crossings",
        fixed_stages=False,
        notes=("The search is exact (a dynamic program over candidate positions, pruned by bounds; few "
               "choices are simply enumerated); if it runs out of its work budget it keeps the best alignment "
               "found and says that optimality is not proven.",))


def _nltk(config: MeteorConfig) -> MethodDescription:
    return MethodDescription(
        "nltk", "nltk mode: reproduces nltk.translate.meteor_score",
        "scans the candidate words from the last to the first and links each to the last still-unused reference "
        "word that qualifies (greedy: no search for fewer crossings or chunks)",
        searches=False, tie_breaks="", minimizes_crossings=False, fixed_stages=True,
        notes=("Stages are fixed: exact, then Porter stem, then WordNet synonym.",
               "The synonym stage receives the Porter stems of the words still unmatched, and a reference word "
               "qualifies when it is a lemma name of a WordNet synset of the candidate stem (one direction only)."))


#: mode -> what a configuration in that mode does. A new mode is one more entry.
METHODS: dict[str, Callable[[MeteorConfig], MethodDescription]] = {"paper": _paper, "nltk": _nltk}


def describe(config: MeteorConfig) -> MethodDescription:
    try:
        return METHODS[config.mode](config)
    except KeyError:
        raise KeyError(f"no description for mode {config.mode!r}: add one to meteor_core.methods.METHODS") from None


# -- crossings ----------------------------------------------------------------------------
def crossing_pairs(links: Sequence[Link], limit: int = 200) -> tuple[tuple[Link, Link], ...]:
    """Pairs of links that cross ((i - k)(j - l) < 0), at most `limit` of them (for drawing).
    Sweeps the candidate order keeping earlier links sorted by reference position: the earlier
    links with a larger reference position are exactly those that cross the current one."""
    earlier: list[tuple[int, int, Link]] = []  # (reference, candidate, link), sorted
    found = []
    for link in sorted(links, key=lambda l: (l.candidate, l.reference)):
        start = bisect_right(earlier, (link.reference, float("inf")))
        for _, candidate, other in earlier[start:]:
            if candidate < link.candidate:
                found.append((other, link))
                if len(found) >= limit:
                    return tuple(found)
        insort(earlier, (link.reference, link.candidate, link))
    return tuple(found)


# -- the step-through ---------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One step of the step-through: its text and what the diagram shows. Every step changes
    what is on screen: stages that add no link are told inside a neighbouring step."""

    key: str  # "tokens", "stage:<name>", "crossings", "chunks", "P and R", "Fmean", "penalty", "score"
    label: str  # short, for the step selector
    text: str
    details: tuple[str, ...] = ()  # one line per new link: words, positions, evidence
    warnings: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()  # drawn
    new_links: tuple[Link, ...] = ()  # drawn emphasised
    crossings: tuple[tuple[Link, Link], ...] = ()  # crossing pairs, highlighted
    show_chunks: bool = False
    formula: str = ""  # which part of the formula this step shows ("" for none)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _link_line(result: SegmentResult, link: Link) -> str:
    cand, ref = result.candidate_tokens, result.reference_tokens
    evidence = "" if link.stage == "exact" else f": {link.evidence}"
    return (f"{cand[link.candidate].text} [{link.candidate}] → {ref[link.reference].text} [{link.reference}], "
            f"{link.stage}{evidence}")


def _tokens_text(result: SegmentResult) -> str:
    from .languages import resolve

    config = result.config
    tokenizer = "char" if config.tokenizer == "default" and resolve(config.language).char_level else config.tokenizer
    how = {"default": "words and punctuation marks", "whitespace": "the text split at spaces",
           "char": "single characters", "segmenter": "words found by a word segmenter"}.get(tokenizer, tokenizer)
    case = "Case is kept." if config.keep_case else "Matching compares lowercased forms."
    return (f"The candidate has {_plural(result.stats.candidate_length, 'token')}, the reference "
            f"{result.stats.reference_length}. Tokens are {how}. {case}")


def _idle_stage_text(result: SegmentResult, index: int) -> tuple[str, str]:
    """(sentence, warning) for a stage that added no link."""
    snapshot = result.snapshots[index]
    status = next((s for s in result.stage_status if s.stage == snapshot.stage), None)
    if status is not None and not status.available:
        return (f"{snapshot.stage} is unavailable and adds nothing",
                f"The {snapshot.stage} stage is unavailable: {status.message}")
    if not snapshot.unmatched_candidate or not snapshot.unmatched_reference:
        return f"{snapshot.stage} has nothing left to match", ""
    return f"{snapshot.stage} finds no qualifying pair among the words left", ""


def _stage_steps(result: SegmentResult, method: MethodDescription) -> tuple[list[Step], list[str], list[str]]:
    """One step per stage that adds links. Idle stages are told in the next productive step (or,
    after the last one, in the last). Returns (steps, sentences and warnings left for no step)."""
    steps: list[Step] = []
    pending: list[str] = []
    pending_warnings: list[str] = []
    total = len(result.snapshots)
    descriptions = {s.stage: s.description for s in result.stage_status}
    for index, snapshot in enumerate(result.snapshots):
        if not snapshot.new_links:
            sentence, warning = _idle_stage_text(result, index)
            if steps and index > 0 and all(not s.new_links for s in result.snapshots[index:]):
                previous = steps[-1]  # idle stages after the last productive one: told there
                steps[-1] = replace(previous, text=f"{previous.text} Then {sentence}.",
                                    warnings=previous.warnings + ((warning,) if warning else ()))
            else:
                pending.append(sentence)
                if warning:
                    pending_warnings.append(warning)
            continue
        before = f"First, {'; '.join(pending)}. " if pending else ""
        choice = method.stage_choice(snapshot.candidate_edges, len(snapshot.new_links))
        crossings = count_crossings([(l.candidate, l.reference) for l in snapshot.links])
        crossing_text = ""
        if method.minimizes_crossings or crossings:  # the pairs are highlighted in the crossings step
            crossing_text = " No two links cross." if not crossings else f" Crossings so far: {crossings}."
        left = (f" Unmatched now: {len(snapshot.unmatched_candidate)} candidate and "
                f"{len(snapshot.unmatched_reference)} reference word(s).")
        text = (f"{before}Stage {index + 1} of {total}: {snapshot.stage}, {descriptions.get(snapshot.stage, '')}. "
                f"Among the words still unmatched, {choice}.{crossing_text}{left}")
        steps.append(Step(f"stage:{snapshot.stage}", f"after {snapshot.stage}", text,
                          tuple(_link_line(result, l) for l in snapshot.new_links),
                          tuple(pending_warnings), snapshot.links, snapshot.new_links))
        pending, pending_warnings = [], []
    return steps, pending, pending_warnings


def walkthrough(result: SegmentResult) -> tuple[Step, ...]:
    """The steps from tokens to score for one scored pair, true for its configuration."""
    method = describe(result.config)
    s, b, p = result.stats, result.breakdown, result.config.params
    stage_steps, idle, idle_warnings = _stage_steps(result, method)
    tokens_text = _tokens_text(result)
    if not stage_steps:  # no stage found anything: nothing would change on the diagram
        told = "; ".join(idle) if idle else "no stage ran"
        return (Step("tokens", "tokens", f"{tokens_text} No word matches ({told}). {b.note[0].upper()}{b.note[1:]}.",
                     warnings=tuple(idle_warnings)),)
    steps = [Step("tokens", "tokens", tokens_text)] + stage_steps
    links = result.links
    crossings = crossing_pairs(links)
    if crossings:
        if method.minimizes_crossings:
            why = ("Each stage chose, among its largest sets of links, one with the fewest crossings given the "
                   "links of earlier stages" + ("" if result.optimal else " (not proven: the search ran out of its "
                                                 "node budget)") + ".")
        elif method.searches:
            why = "This objective prefers fewer chunks and accepts crossings to get them."
        else:
            why = "This mode does not look at crossings: its greedy scan can create crossings a search would avoid."
        steps.append(Step(
            "crossings", "crossings",
            f"Two links cross when one goes to the right of the other on one row and to the left on the other: "
            f"(i - k)(j - l) < 0 for links (i, j) and (k, l). This alignment has "
            f"{_plural(result.crossings, 'crossing')} (the crossing pairs are highlighted). {why}",
            links=links, crossings=crossings))
    steps.append(Step(
        "chunks", "chunks",
        f"The {s.matches} matched words group into {_plural(s.chunks, 'chunk')}: runs of adjacent candidate words "
        f"linked, in the same order, to adjacent reference words (numbered bands). Fewer, longer chunks mean the "
        f"word order agrees.", links=links, show_chunks=True))
    steps.append(Step(
        "P and R", "P and R",
        f"Precision P = m / |candidate| = {s.matches}/{s.candidate_length} = {b.precision:.4f}; recall R = m / "
        f"|reference| = {s.matches}/{s.reference_length} = {b.recall:.4f}.",
        links=links, show_chunks=True, formula="P and R"))
    if 0 < p.alpha < 1:
        weight = (f" With alpha = {p.alpha:g}, recall weighs {p.alpha / (1 - p.alpha):.3g} times as much as "
                  f"precision" + (", so Fmean is pulled toward R." if p.alpha > 0.5 else "."))
    else:
        weight = " With alpha = 1, Fmean is R." if p.alpha == 1 else " With alpha = 0, Fmean is P."
    steps.append(Step(
        "Fmean", "Fmean", f"Fmean = P R / (alpha P + (1 - alpha) R) = {b.fmean:.4f}.{weight}",
        links=links, show_chunks=True, formula="Fmean"))
    penalty_text = (f"Penalty = gamma (chunks / matches)^beta = {p.gamma:g} × ({s.chunks}/{s.matches})^{p.beta:g} "
                    f"= {b.penalty:.4f}. The denominator is the matched words, not the candidate length.")
    if b.note:
        penalty_text += f" {b.note[0].upper()}{b.note[1:]}."
    steps.append(Step("penalty", "penalty", penalty_text, links=links, show_chunks=True, formula="penalty"))
    steps.append(Step(
        "score", "score",
        f"METEOR = Fmean × (1 - Penalty) = {b.fmean:.4f} × {1 - b.penalty:.4f} = {b.score:.4f}.",
        links=links, show_chunks=True, formula="score"))
    return tuple(steps)
