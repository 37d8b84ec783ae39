"""Immutable results. Computed once by the scorer; the CLI, the app and the tests only read
them. Spans are half-open index ranges into the token tuples, never copied strings."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Optional, Sequence

from .errors import NothingScored, reasons_in_brief
from .formula import MeteorBreakdown, MeteorStats
from .frozen import slotted
from .params import MeteorConfig
from .tokenize import HAN_RANGES, KANA_RANGES, Tokens, is_punctuation, unit_of_tokens


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class Link:
    """A match. Word links (paper, nltk) relate one candidate token to one reference token.
    METEOR 1.5 links relate spans: candidate tokens [candidate, candidate_end) with reference
    tokens [reference, reference_end); a paraphrase link can cover several words on each side.
    The ends stay None for one-to-one word links."""

    candidate: int
    reference: int
    stage: str
    evidence: str
    candidate_end: Optional[int] = None
    reference_end: Optional[int] = None

    @property
    def candidate_stop(self) -> int:
        return self.candidate + 1 if self.candidate_end is None else self.candidate_end

    @property
    def reference_stop(self) -> int:
        return self.reference + 1 if self.reference_end is None else self.reference_end

    @property
    def is_phrase(self) -> bool:
        """True when either side covers more than one token."""
        return self.candidate_stop - self.candidate > 1 or self.reference_stop - self.reference > 1



def span_label(tokens: Sequence, start: int, stop: int) -> str:
    """The words of one side of a link with their positions: one word "cat [1]", a phrase
    "the cat [0:2]" (half-open). Words written right to left are isolated (U+2068 ... U+2069):
    without it the browser's bidirectional layout ran "كتاب [0] → كتاب [4]" together and showed
    it as "[4] كتاب → [0] كتاب", the positions on the wrong sides (a tester)."""
    words = isolate(" ".join(t.text for t in tokens[start:stop]))
    return f"{words} [{start}]" if stop == start + 1 else f"{words} [{start}:{stop}]"


def isolate(text: str) -> str:
    """`text` between U+2068 and U+2069 when it holds a right-to-left letter, so that the
    layout of the sentence around it (positions, arrows, slashes) stays left to right."""
    return f"\u2068{text}\u2069" if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text) else text


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class ChunkSpan:
    """A chunk: candidate tokens [candidate_start, candidate_end) map in order onto reference
    tokens [reference_start, reference_end)."""

    candidate_start: int
    candidate_end: int
    reference_start: int
    reference_end: int

    @property
    def length(self) -> int:
        return self.candidate_end - self.candidate_start


@dataclass(frozen=True)
class StageStatus:
    stage: str
    available: bool
    description: str
    message: str = ""  # why it is unavailable and how to fix it


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class StageSnapshot:
    """The alignment right after one stage ran (for a step-through)."""

    stage: str
    new_links: tuple[Link, ...]
    links: tuple[Link, ...]  # cumulative, sorted by candidate position
    unmatched_candidate: tuple[int, ...]
    unmatched_reference: tuple[int, ...]
    candidate_edges: int  # pairs this stage could relate among the words still free
    optimal: bool
    nodes: int


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class ModuleMatches:
    """METEOR 1.5: words one module matched, per side, split into content and function words."""

    module: str
    weight: float  # the module's weight in the score (-w)
    candidate_content: int
    candidate_function: int
    reference_content: int
    reference_function: int


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class WeightedStats:
    """METEOR 1.5's sufficient statistics (the jar's MeteorStats, word mode): everything its
    score is computed from, and what a corpus sums."""

    candidate_length: int
    reference_length: int
    candidate_function_words: int
    reference_function_words: int
    modules: tuple[ModuleMatches, ...]
    chunks: int
    candidate_matches: int  # candidate words covered by a match
    reference_matches: int  # reference words covered by a match


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class WeightedBreakdown:
    """The METEOR 1.5 formula with this pair's numbers (delta weighs content against function
    words, each module's matches count with its weight):
      P = candidate_weighted_matches / candidate_weighted_length, R likewise for the reference;
      weighted_length = delta (length - function words) + (1 - delta) function words;
      weighted_matches = sum over modules of weight (delta content + (1 - delta) function);
      Fmean = 1 / ((1 - alpha) / P + alpha / R);
      fragmentation = chunks / mean(candidate_matches, reference_matches), forced to 0 when
      every word on both sides matched in one chunk; penalty = gamma fragmentation^beta;
      score = Fmean (1 - penalty), 0 when undefined (no match, empty side)."""

    candidate_weighted_matches: float
    candidate_weighted_length: float
    reference_weighted_matches: float
    reference_weighted_length: float
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    score: float
    single_chunk_rule: bool  # fragmentation forced to 0 (everything matched in one chunk)
    note: str = ""


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class Meteor15Detail:
    """What METEOR 1.5 mode adds to a segment result, for display: the weighted statistics and
    formula, which tokens are function words, and how the jar's search went."""

    stats: WeightedStats
    weighted: WeightedBreakdown
    candidate_function_words: tuple[bool, ...]  # per candidate token
    reference_function_words: tuple[bool, ...]  # per reference token
    fixed_links: tuple[int, ...]  # indices into SegmentResult.links fixed before the beam search
    proposed_matches: tuple[int, ...]  # matches each module proposed before the search
    identical: bool  # identical sentences: the jar ran only its first module
    notes: tuple[str, ...] = ()  # missing data and other reasons the score may differ


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class SegmentResult:
    """One candidate scored against one reference."""

    candidate_tokens: Tokens  # an immutable sequence of Token (tokenize.Tokens)
    reference_tokens: Tokens
    links: tuple[Link, ...]
    chunk_spans: tuple[ChunkSpan, ...]
    crossings: int
    stats: MeteorStats
    breakdown: MeteorBreakdown
    snapshots: tuple[StageSnapshot, ...]
    stage_status: tuple[StageStatus, ...]
    optimal: bool
    config: MeteorConfig
    meteor15: Optional[Meteor15Detail] = None  # METEOR 1.5 mode only

    def __post_init__(self):
        # Tokens given as other sequences of Token (dataclasses.replace with a tuple, say)
        # become Tokens, the type every reader relies on. (frozen.build skips this; the scorer
        # passes Tokens already.)
        for name in ("candidate_tokens", "reference_tokens"):
            value = getattr(self, name)
            if not isinstance(value, Tokens):
                object.__setattr__(self, name, Tokens.of(value))

    # thin views -----------------------------------------------------------------------
    @property
    def score(self) -> float:
        return self.breakdown.score

    @property
    def token_unit(self) -> str:
        """What this pair's tokens are called (tokenize.unit_of_tokens): "character" for Chinese
        and Japanese characters, "word" for words, "token" for a mix of both."""
        return unit_of_tokens(self.config.token_unit, self.candidate_tokens.texts, self.reference_tokens.texts)

    @property
    def matches(self) -> int:
        return self.stats.matches

    @property
    def chunks(self) -> int:
        return self.stats.chunks

    def matches_by_stage(self) -> dict[str, int]:
        """Candidate words each stage matched: they add up to stats.matches in every mode (a
        METEOR 1.5 phrase link counts its words; counted as one link, a corpus's paraphrase
        count was 554 beside 884 matched words: a tester)."""
        counts = {status.stage: 0 for status in self.stage_status}
        for link in self.links:
            counts[link.stage] = counts.get(link.stage, 0) + link.candidate_stop - link.candidate
        return counts

    def punctuation_matches(self) -> tuple[int, ...]:
        """Matched candidate positions whose token is punctuation or symbols only (no letter or
        digit): METEOR counts them as words, which can carry a score (markup such as "<b>" or
        "**" matched 13 of 20 words in a helper's pair); drop_punctuation leaves them out."""
        texts = self.candidate_tokens.texts
        return tuple(i for link in self.links for i in range(link.candidate, link.candidate_stop)
                     if is_punctuation(texts[i]))

    def link_for_candidate(self, index: int) -> Optional[Link]:
        return next((l for l in self.links if l.candidate <= index < l.candidate_stop), None)

    def link_for_reference(self, index: int) -> Optional[Link]:
        return next((l for l in self.links if l.reference <= index < l.reference_stop), None)

    @property
    def warnings(self) -> tuple[str, ...]:
        notes = []
        for status in self.stage_status:  # each reason once: METEOR 1.5's missing data disables two modules
            if not status.available and status.message not in notes:
                notes.append(status.message)
        if self.meteor15 is not None:
            notes.extend(n for n in self.meteor15.notes if n not in notes)
        hint = unspaced_script_hint(self)
        if hint:
            notes.append(hint)
        if not self.optimal:
            # What it means and what to do (a tester: common on 300-token paragraphs, the score
            # moved by up to 0.008 with a larger budget, and nothing said how to get one).
            notes.append(f"alignment search hit its node budget ({self.config.node_budget:,}): the best alignment "
                         "found is shown, optimality not proven; a better one may give another score (the smaller "
                         "the budget, the larger the change can be). A larger budget (--node-budget on the command "
                         "line, node_budget in the library, Node budget under the app's Options and parameters) may "
                         "prove it")
        return tuple(notes)


#: Scripts written without spaces between words, and the language that tokenizes them
#: (kana first: Japanese text holds Han characters too).
_UNSPACED_SCRIPTS = (("ja", "Japanese", re.compile(f"[{KANA_RANGES}]")),  # the characters the char tokenizer splits
                     ("zh", "Chinese", re.compile(f"[{HAN_RANGES}]")))
#: A token with this many such characters is a run of words, not a word.
_UNSPACED_RUN = 3


def unspaced_script_hint(result: "SegmentResult") -> str:
    """What to choose when the text is Chinese or Japanese but the language is one whose words
    are split at spaces: each run of characters is then one token, and a pair that differs in
    one character matched nothing (0 for 猫坐在垫子上 / 猫坐在垫子上面 under en, 0.8676 under zh:
    a tester, given no hint)."""
    config = result.config
    if config.tokenizer in ("char", "segmenter") or config.language in ("zh", "ja"):
        return ""
    texts = [*result.candidate_tokens.texts, *result.reference_tokens.texts]
    joined = " ".join(texts)
    if joined.isascii():
        return ""
    for code, name, script in _UNSPACED_SCRIPTS:
        if script.search(joined) is None:  # one scan of the pair first: most non-ASCII text has none
            continue
        run = next((t for t in texts if len(script.findall(t)) >= _UNSPACED_RUN), None)
        if run is not None:
            shown = run if len(run) <= 12 else run[:12] + "…"
            return (f"the text is written in {name} without spaces, so with language {config.language} a run of "
                    f"characters is one token ({shown!r}: {len(run)} characters) and no word inside it can match "
                    f"another: choose {name} ({code}) as the language (--lang {code} on the command line, "
                    f"language={code!r} in the library, Language in the app's sidebar; paper mode)")
    return ""


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class MultiReferenceResult:
    """A candidate against several references: every per-reference result, the best kept
    (ties: the first)."""

    candidate: str
    references: tuple[str, ...]
    per_reference: tuple[SegmentResult, ...]
    best_index: int
    signature: str

    @property
    def best(self) -> SegmentResult:
        return self.per_reference[self.best_index]

    @property
    def score(self) -> float:
        return self.best.score

    @property
    def stats(self) -> MeteorStats:
        return self.best.stats


@dataclass(frozen=True)
class SkippedSegment:
    index: int  # position in the input
    reason: str


def nothing_scored(skipped: Sequence[SkippedSegment]) -> NothingScored:
    """The error of a corpus of which no segment could be scored: the reasons, in brief."""
    if not skipped:
        return NothingScored("no segment could be scored: the corpus is empty")
    return NothingScored("no segment could be scored: "
                         + reasons_in_brief(f"segment {s.index + 1}: {s.reason}" for s in skipped), skipped)


@dataclass(frozen=True)
class Meteor15Aggregate:
    """METEOR 1.5 corpus score: the segments' statistics summed as the jar sums them (a
    segment matched completely in one chunk adds no chunk) and put through its formula."""

    stats: WeightedStats
    weighted: WeightedBreakdown


@dataclass(frozen=True)
class CorpusResult:
    segments: tuple[MultiReferenceResult, ...]
    stats: MeteorStats  # summed over segments, each at its best reference
    breakdown: MeteorBreakdown  # corpus METEOR from the summed statistics (spec section 1)
    mean_segment_score: float  # not the corpus METEOR: reported beside it, labelled
    signature: str
    indices: tuple[int, ...] = ()  # input position of each scored segment
    skipped: tuple[SkippedSegment, ...] = ()  # segments that could not be scored, with the reason
    meteor15: Optional[Meteor15Aggregate] = None  # METEOR 1.5 mode only

    @property
    def score(self) -> float:
        return self.breakdown.score
