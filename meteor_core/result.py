"""Immutable results. Computed once by the scorer; the CLI, the app and the tests only read
them. Spans are half-open index ranges into the token tuples, never copied strings."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .formula import MeteorBreakdown, MeteorStats
from .params import MeteorConfig
from .tokenize import Token


@dataclass(frozen=True)
class Link:
    candidate: int
    reference: int
    stage: str
    evidence: str


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class SegmentResult:
    """One candidate scored against one reference."""

    candidate_tokens: tuple[Token, ...]
    reference_tokens: tuple[Token, ...]
    links: tuple[Link, ...]
    chunk_spans: tuple[ChunkSpan, ...]
    crossings: int
    stats: MeteorStats
    breakdown: MeteorBreakdown
    snapshots: tuple[StageSnapshot, ...]
    stage_status: tuple[StageStatus, ...]
    optimal: bool
    config: MeteorConfig

    # thin views -----------------------------------------------------------------------
    @property
    def score(self) -> float:
        return self.breakdown.score

    @property
    def matches(self) -> int:
        return self.stats.matches

    @property
    def chunks(self) -> int:
        return self.stats.chunks

    def matches_by_stage(self) -> dict[str, int]:
        counts = {status.stage: 0 for status in self.stage_status}
        for link in self.links:
            counts[link.stage] = counts.get(link.stage, 0) + 1
        return counts

    def link_for_candidate(self, index: int) -> Optional[Link]:
        return next((l for l in self.links if l.candidate == index), None)

    def link_for_reference(self, index: int) -> Optional[Link]:
        return next((l for l in self.links if l.reference == index), None)

    @property
    def warnings(self) -> tuple[str, ...]:
        notes = [s.message for s in self.stage_status if not s.available]
        if not self.optimal:
            notes.append("alignment search hit its node budget: best alignment found is shown, "
                         "optimality not proven")
        return tuple(notes)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class CorpusResult:
    segments: tuple[MultiReferenceResult, ...]
    stats: MeteorStats  # summed over segments, each at its best reference
    breakdown: MeteorBreakdown  # corpus METEOR from the summed statistics (spec section 1)
    mean_segment_score: float  # not the corpus METEOR: reported beside it, labelled
    signature: str
    indices: tuple[int, ...] = ()  # input position of each scored segment
    skipped: tuple[SkippedSegment, ...] = ()  # segments that could not be scored, with the reason

    @property
    def score(self) -> float:
        return self.breakdown.score
