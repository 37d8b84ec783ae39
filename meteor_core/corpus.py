"""Corpus analysis for the Corpus Explorer and System Comparison: one call scores a corpus
(METEOR and BLEU per segment), sums the statistics, correlates with human scores when given,
and lists every row that could not be scored with the reason."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .bleu import BleuResult, corpus_bleu
from .corpus_io import CorpusInput, RowProblem
from .params import MeteorConfig
from .report import bleu_for
from .result import CorpusResult
from .scorer import Scorer, scorer_for
from .stats import kendall_tau_b, pearson, spearman

Progress = Optional[Callable[[int, int], None]]


@dataclass(frozen=True)
class Correlation:
    metric: str
    pearson: Optional[float]
    spearman: Optional[float]
    kendall_tau_b: Optional[float]
    n: int


@dataclass(frozen=True)
class CorpusAnalysis:
    corpus: CorpusResult
    ids: tuple[str, ...]  # of the scored segments, same order as corpus.segments
    human: Optional[tuple[float, ...]]
    bleu: tuple[BleuResult, ...]
    corpus_bleu: float
    problems: tuple[RowProblem, ...]  # rows kept out before scoring, with the reason
    unscored: tuple[tuple[str, str], ...]  # (id, reason) for segments the scorer rejected
    correlations: tuple[Correlation, ...]

    @property
    def rows(self) -> list[dict]:
        """One flat row per scored segment (the table view and the CSV/JSON export)."""
        out = []
        for k, (seg_id, seg, bleu) in enumerate(zip(self.ids, self.corpus.segments, self.bleu)):
            best = seg.best
            row = {
                "id": seg_id, "meteor": best.score, "bleu": bleu.score,
                "precision": best.breakdown.precision, "recall": best.breakdown.recall,
                "fmean": best.breakdown.fmean, "penalty": best.breakdown.penalty, "chunks": best.stats.chunks,
                "matches": best.stats.matches, "candidate_length": best.stats.candidate_length,
                "reference_length": best.stats.reference_length,
            }
            for stage, count in best.matches_by_stage().items():
                row[f"matches_{stage}"] = count
            row.update({"best_reference": seg.best_index + 1, "optimal": best.optimal,
                        "candidate": seg.candidate, "reference": seg.references[seg.best_index]})
            if self.human is not None:
                row["human"] = self.human[k]
            out.append(row)
        return out

    def summary(self) -> dict:
        b, s = self.corpus.breakdown, self.corpus.stats
        by_stage: dict[str, int] = {}
        for seg in self.corpus.segments:
            for stage, count in seg.best.matches_by_stage().items():
                by_stage[stage] = by_stage.get(stage, 0) + count
        return {
            "segments_scored": len(self.corpus.segments),
            "segments_not_scored": len(self.problems) + len(self.unscored),
            "corpus_meteor": b.score, "mean_segment_meteor": self.corpus.mean_segment_score,
            "corpus_bleu": self.corpus_bleu,
            "precision": b.precision, "recall": b.recall, "fmean": b.fmean, "penalty": b.penalty,
            "matches": s.matches, "candidate_length": s.candidate_length, "reference_length": s.reference_length,
            "chunks": s.chunks, "matches_by_stage": by_stage,
            "correlations": [c.__dict__ for c in self.correlations],
            "not_scored": [str(p) for p in self.problems] + [f"segment {i}: {r}" for i, r in self.unscored],
            "signature": self.corpus.signature,
            "note": "corpus_meteor is computed from matches, lengths and chunks summed over segments (each at its "
                    "best reference); mean_segment_meteor is the plain average of segment scores",
        }


def _correlations(metric_scores: dict[str, Sequence[float]], human: Sequence[float]) -> tuple[Correlation, ...]:
    return tuple(Correlation(name, pearson(values, human), spearman(values, human), kendall_tau_b(values, human),
                             len(human)) for name, values in metric_scores.items())


def analyze_corpus(data: CorpusInput, config: MeteorConfig, progress: Progress = None,
                   scorer: Optional[Scorer] = None, workers: Optional[int] = None) -> CorpusAnalysis:
    """scorer: one with synonym tables (the CLI's --synonyms); default: the shared one for config.
    workers: processes to score on (None: all cores; small corpora stay in this process)."""
    scorer = scorer or scorer_for(config)
    corpus = scorer.score_corpus(data.candidates, data.references, progress=progress, skip_invalid=True,
                                 workers=workers)
    bleu = tuple(bleu_for(seg) for seg in corpus.segments)
    candidates = [[t.norm for t in seg.best.candidate_tokens] for seg in corpus.segments]
    references = [[[t.norm for t in r.reference_tokens] for r in seg.per_reference] for seg in corpus.segments]
    ids = tuple(data.ids[k] for k in corpus.indices)
    human = tuple(data.human[k] for k in corpus.indices) if data.human is not None else None
    correlations = ()
    if human is not None:
        correlations = _correlations({"METEOR": [s.score for s in corpus.segments], "BLEU": [b.score for b in bleu]}, human)
    return CorpusAnalysis(
        corpus, ids, human, bleu, corpus_bleu(candidates, references, config.bleu_smoothing), data.problems,
        tuple((data.ids[s.index], s.reason) for s in corpus.skipped), correlations)


@dataclass(frozen=True)
class SystemComparison:
    a: CorpusAnalysis
    b: CorpusAnalysis
    names: tuple[str, str]

    @property
    def rows(self) -> list[dict]:
        """Segments scored in both systems, with deltas (b - a), sorted by |METEOR delta|."""
        b_by_id = {row["id"]: row for row in self.b.rows}
        out = []
        for row_a in self.a.rows:
            row_b = b_by_id.get(row_a["id"])
            if row_b is None:
                continue
            d_meteor = row_b["meteor"] - row_a["meteor"]
            d_bleu = row_b["bleu"] - row_a["bleu"]
            out.append({"id": row_a["id"], f"meteor_{self.names[0]}": row_a["meteor"],
                        f"meteor_{self.names[1]}": row_b["meteor"], "meteor_delta": d_meteor,
                        f"bleu_{self.names[0]}": row_a["bleu"], f"bleu_{self.names[1]}": row_b["bleu"],
                        "bleu_delta": d_bleu,
                        "disagree": (d_meteor > 0 > d_bleu) or (d_meteor < 0 < d_bleu)})
        out.sort(key=lambda r: -abs(r["meteor_delta"]))
        return out


def compare_systems(a: CorpusInput, b: CorpusInput, config: MeteorConfig, names: tuple[str, str] = ("A", "B"),
                    progress: Progress = None) -> SystemComparison:
    total = len(a.candidates) + len(b.candidates)
    first = analyze_corpus(a, config, (lambda d, t: progress(d, total)) if progress else None)
    second = analyze_corpus(b, config, (lambda d, t: progress(len(a.candidates) + d, total)) if progress else None)
    return SystemComparison(first, second, names)
