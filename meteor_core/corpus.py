"""Corpus analysis for the Corpus Explorer and System Comparison: one call scores a corpus
(METEOR and BLEU per segment), sums the statistics, correlates with human scores when given,
and lists every row that could not be scored with file, line and reason. Several systems on
the same references are paired by file line (never by the id column, which may repeat) and
tested for significance (meteor_core.significance)."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Optional, Sequence

from . import sacrebleu_view
from .bleu import BleuResult, corpus_bleu, corpus_zero_reason
from .sacrebleu_view import SacreBleu
from .corpus_io import CorpusInput, RowProblem
from .errors import MeteorInputError, MeteorParameterError, NothingScored, reasons_in_brief
from .params import MeteorConfig
from .references import reference_named
from .report import bleu_for, bleu_references
from .result import CorpusResult, MultiReferenceResult
from .scorer import Scorer, scorer_for
from .significance import (BLEU_SMOOTHING_FROM_SUMS, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS,
                           SignificanceReport, bleu_from_sums, bleu_statistics, meteor_from_sums,
                           check_settings, meteor_statistics, paired_significance)
from .stats import kendall_tau_b, pearson, spearman

Progress = Optional[Callable[[int, int], None]]


@dataclass(frozen=True)
class Correlation:
    metric: str
    pearson: Optional[float]
    spearman: Optional[float]
    kendall_tau_b: Optional[float]
    n: int  # segments with a human score
    # Why the three are None (all three are undefined in the same cases), for the CLI and the app
    why_undefined: Optional[str] = None


#: Which of the two corpus numbers the tool a mode reproduces reports, per mode: (key of
#: CorpusAnalysis.summary(), what reports it). nltk has no corpus function, and HF evaluate's
#: meteor averages nltk's segment scores; the jar's EVAL line (and pycocoevalcap) sums the
#: statistics. A captioning tester compared the headline number with HF's mean.
REPORTED_BY = {
    "nltk": ("mean_segment_meteor", "what HF evaluate's meteor reports on the same tokens; nltk has no corpus METEOR"),
    "meteor15": ("corpus_meteor", "what the jar's EVAL line and pycocoevalcap report"),
}


@dataclass(frozen=True)
class CorpusAnalysis:
    corpus: CorpusResult
    ids: tuple[str, ...]  # of the scored segments, same order as corpus.segments
    human: Optional[tuple[Optional[float], ...]]  # None where the human score was not a number
    bleu: tuple[BleuResult, ...]
    corpus_bleu: float
    problems: tuple[RowProblem, ...]  # rows kept out before scoring, with the reason
    unscored: tuple[RowProblem, ...]  # segments the scorer rejected (file, line, reason)
    correlations: tuple[Correlation, ...]
    lines: tuple[int, ...] = ()  # file line of each scored segment (unique key)
    data_lines: int = 0
    source: str = ""
    id_source: str = "line number"
    human_notes: tuple[RowProblem, ...] = ()  # of scored segments only
    human_source: str = ""  # where the human scores come from; "" when there are none
    # BLEU as MT papers print it: sacreBLEU's corpus BLEU on the raw strings (13a, case kept, 0-100)
    sacrebleu: Optional[SacreBleu] = None  # over every segment read, scored or not (as sacreBLEU scores files)
    corpus_bleu_zero_reason: str = ""  # why corpus_bleu is 0 ("" when it is not)
    reference_notes: tuple[RowProblem, ...] = ()  # empty reference cells, of scored segments
    # Of each scored segment, where its references stood as given (CorpusInput.reference_positions)
    reference_positions: tuple[tuple[int, ...], ...] = ()
    # METEOR 1.5 mode scores every reference as given, empty ones too (the jar does); the other
    # modes leave empty ones out. The notes and their summaries say which.
    empty_references_scored: bool = False
    # A long table scored as one corpus: each scored segment's system (CorpusInput.systems), and
    # the column naming them; the rows then carry a "system" field after the id.
    systems: tuple[str, ...] = ()
    system_column: str = ""

    @property
    def sacrebleu_segments(self) -> int:
        """Segments sacreBLEU counts: every one read (scored or refused by the scorer)."""
        return len(self.corpus.segments) + len(self.unscored)

    @property
    def sacrebleu_counts_unscored(self) -> bool:
        """Whether sacreBLEU counts segments the other numbers leave out (so a page says it)."""
        return bool(self.unscored)

    @cached_property
    def tokens_held(self) -> int:
        """Tokens of the scored candidates and of every reference they were scored against:
        what the analysis's memory grows with (bench/bench_memory.py: 196 bytes a token for WMT22
        cs-en's 12 systems, 327 for de-en's shorter segments; see corpus_ui.KEPT_TOKENS), for a
        cache to weigh it by."""
        return sum(s.stats.candidate_length + sum(r.stats.reference_length for r in s.per_reference)
                   for s in self.corpus.segments)

    @cached_property
    def index_of_line(self) -> dict[int, int]:
        return {line: k for k, line in enumerate(self.lines)}

    @property
    def not_scored(self) -> tuple[RowProblem, ...]:
        """Every data line that was not scored, in line order."""
        return tuple(sorted(self.problems + self.unscored, key=lambda p: p.line))

    def segment(self, line: int) -> MultiReferenceResult:
        return self.corpus.segments[self.index_of_line[line]]

    @cached_property
    def lines_not_proven_optimal(self) -> tuple[int, ...]:
        """File lines of the scored segments whose alignment search hit its node budget: the
        alignment shown is the best found, and a better one could move the score a little (a
        tester: 104 of 500 paragraphs of 240+ tokens, and no summary counted them)."""
        return tuple(line for line, seg in zip(self.lines, self.corpus.segments) if not seg.best.optimal)

    @cached_property
    def empty_reference_lines(self) -> tuple[int, ...]:
        """File lines scored with no reference token at all: METEOR 1.5 mode scores them 0, as
        the jar does; the other modes refuse them (so the counts differ between modes)."""
        return tuple(line for line, seg in zip(self.lines, self.corpus.segments) if _no_reference_words(seg))

    def counts_sentence(self) -> str:
        scored, not_scored = len(self.corpus.segments), len(self.not_scored)
        empty = len(self.empty_reference_lines)
        # Said: the same file gave "17 scored, 3 not scored" in paper mode and 18 and 2 in METEOR
        # 1.5 mode, without a word (a helper).
        why = (f" ({empty:,} of them with no reference words at all: 0, as the METEOR 1.5 jar scores them; the other "
               "modes do not score such lines)" if empty else "")
        return (f"{self.data_lines:,} data line{'s' if self.data_lines != 1 else ''}, {scored:,} scored{why}, "
                f"{not_scored:,} not scored")

    @property
    def rows(self) -> list[dict]:
        """One flat row per scored segment (the table view and the CSV/JSON export): where it
        is and what it says first, then the numbers at full precision."""
        out = []
        for k, (seg_id, seg, bleu) in enumerate(zip(self.ids, self.corpus.segments, self.bleu)):
            best = seg.best
            row = {"id": seg_id, **({"system": self.systems[k]} if self.systems else {}), "line": self.lines[k],
                   "candidate": seg.candidate, "reference": seg.references[seg.best_index], "meteor": best.score,
                   "bleu": bleu.score}
            if self.human is not None:
                row["human"] = self.human[k]
            row.update({
                "precision": best.breakdown.precision, "recall": best.breakdown.recall,
                "fmean": best.breakdown.fmean, "penalty": best.breakdown.penalty, "chunks": best.stats.chunks,
                "matches": best.stats.matches, "candidate_length": best.stats.candidate_length,
                "reference_length": best.stats.reference_length,
            })
            for stage, count in best.matches_by_stage().items():
                row[f"matches_{stage}"] = count
            given = self.reference_positions[k] if self.reference_positions else None
            row.update({"best_reference": given[seg.best_index] if given else seg.best_index + 1,
                        "optimal": best.optimal})
            out.append(row)
        return out

    def summary(self) -> dict:
        b, s = self.corpus.breakdown, self.corpus.stats
        by_stage: dict[str, int] = {}
        for seg in self.corpus.segments:
            for stage, count in seg.best.matches_by_stage().items():
                by_stage[stage] = by_stage.get(stage, 0) + count
        return {
            "data_lines": self.data_lines,
            "segments_scored": len(self.corpus.segments),
            "segments_not_scored": len(self.not_scored),
            "segments_not_proven_optimal": len(self.lines_not_proven_optimal),
            "lines_not_proven_optimal": list(self.lines_not_proven_optimal),
            "segment_id": self.id_source,
            "human_scores": self.human_source or None,
            "corpus_meteor": b.score, "mean_segment_meteor": self.corpus.mean_segment_score,
            "corpus_bleu": self.corpus_bleu, "corpus_bleu_zero_reason": self.corpus_bleu_zero_reason,
            "sacrebleu": sacrebleu_view.to_dict(self.sacrebleu) if self.sacrebleu else None,
            "sacrebleu_segments": self.sacrebleu_segments,
            "precision": b.precision, "recall": b.recall, "fmean": b.fmean, "penalty": b.penalty,
            "matches": s.matches, "candidate_length": s.candidate_length, "reference_length": s.reference_length,
            "chunks": s.chunks, "matches_by_stage": by_stage,
            "correlations": [c.__dict__ for c in self.correlations],
            "not_scored": [str(p) for p in self.not_scored],
            "human_scores_ignored": [str(p) for p in self.human_notes],
            "empty_references_left_out": [] if self.empty_references_scored else [str(p) for p in self.reference_notes],
            # METEOR 1.5 mode: scored as the jar scores them (no words: 0), not left out
            **({"empty_references_scored": [str(p) for p in self.reference_notes]} if self.empty_references_scored
               else {}),
            "signature": self.corpus.signature,
            "note": "corpus_meteor is computed from matches, lengths and chunks summed over segments (each at its "
                    "best reference); mean_segment_meteor is the plain average of segment scores",
        }


def _correlations(metric_scores: dict[str, Sequence[float]], human: Sequence[Optional[float]]) -> tuple[Correlation, ...]:
    """Over the segments that have a human score."""
    keep = [k for k, h in enumerate(human) if h is not None]
    people = [human[k] for k in keep]
    out = []
    for name, values in metric_scores.items():
        x = [values[k] for k in keep]
        why = None
        if len(keep) < 2:
            why = (f"{len(keep)} scored segment{' has' if len(keep) == 1 else 's have'} a human score that is a "
                   "number; 2 are needed")
        elif min(x) == max(x):
            why = f"every {name} score is the same ({x[0]:.4f})"
        elif min(people) == max(people):
            why = f"every human score is the same ({people[0]:g})"
        out.append(Correlation(name, pearson(x, people), spearman(x, people), kendall_tau_b(x, people), len(keep),
                               why))
    return tuple(out)


def _skipped_rows(data: CorpusInput, skipped) -> tuple[RowProblem, ...]:
    """The segments the scorer refused, with the file and line each came from."""
    return tuple(RowProblem(_file_of_reason(data, s.index, s.reason), data.lines[s.index], s.reason)
                 for s in skipped)


def _file_of_reason(data: CorpusInput, index: int, reason: str) -> str:
    """The file a refusal is about: with plain-text input, a reason about a reference names
    its reference file, not the candidate file (a tester saw an empty reference line listed
    under the candidates' file)."""
    if data.reference_files:
        files = data.reference_files[index]
        if reason.startswith(f"all {len(files)} references are blank"):  # every reference file's line
            return " and ".join(dict.fromkeys(files))
        number = reference_named(reason, len(files))
        if number is not None:
            return files[number - 1]
    return data.source or "input"


def _no_reference_words(segment: MultiReferenceResult) -> bool:
    """Scored without a reference word (every reference empty): METEOR 1.5 mode only, as the jar."""
    return all(r.stats.reference_length == 0 for r in segment.per_reference)


def _jar_note(message: str) -> str:
    """A note on empty references (corpus_io, "...: left out, ..."), as METEOR 1.5 mode treats them."""
    subject = message.split(": left out", 1)[0]
    return f"{subject}: scored, as the jar scores every reference (no words: 0; the best only if none matches)"


def analyze_corpus(data: CorpusInput, config: MeteorConfig, progress: Progress = None,
                   scorer: Optional[Scorer] = None, workers: Optional[int] = None) -> CorpusAnalysis:
    """Every scoring of a corpus goes through here (the app, the CLI, System Comparison).
    scorer: one with synonym tables (the CLI's --synonyms); default: the shared one for config.
    workers: processes to score on (None: all cores; small corpora stay in this process)."""
    scorer = scorer or scorer_for(config)
    references, positions = data.references, data.reference_positions
    as_given = config.mode == "meteor15" and bool(data.given_references)
    if as_given:  # every reference as given, as the jar scores them (references.references_to_score)
        references = tuple(data.references_as_given(k) for k in range(len(data.candidates)))
        positions = tuple(tuple(range(1, len(refs) + 1)) for refs in references)
    try:
        corpus = scorer.score_corpus(data.candidates, references, progress=progress, skip_invalid=True,
                                     workers=workers)
    except NothingScored as error:
        # Why, with file and line: the lines kept out before scoring and those the scorer
        # refused (testers saw "the corpus is empty", then reasons without a line).
        problems = sorted([*data.problems, *_skipped_rows(data, error.skipped)], key=lambda p: p.line)
        if not problems:
            raise
        raise NothingScored("no segment could be scored: " + reasons_in_brief(map(str, problems)),
                            error.skipped) from None
    bleu = tuple(bleu_for(seg) for seg in corpus.segments)
    candidates = [seg.best.candidate_tokens.norms for seg in corpus.segments]
    references = [bleu_references(seg) for seg in corpus.segments]
    ids = tuple(data.ids[k] for k in corpus.indices)
    lines = tuple(data.lines[k] for k in corpus.indices)
    human = tuple(data.human[k] for k in corpus.indices) if data.human is not None else None
    correlations = ()
    if human is not None:
        correlations = _correlations({"METEOR": [s.score for s in corpus.segments], "BLEU": [b.score for b in bleu]}, human)
    unscored = _skipped_rows(data, corpus.skipped)
    # sacreBLEU as it scores the files: every segment read, an empty output included (0 matches,
    # its reference length counted). Over the scored ones only, a system that output nothing on
    # hard segments scored higher (65.59 where sacrebleu gives 65.36: a tester).
    # And every reference as given: sacreBLEU keeps an empty one, whose length 0 can be the
    # closest to a short output (without it, 41.87 where sacrebleu gave 42.90 on the files: a tester).
    sacre = sacrebleu_view.corpus_bleu(list(data.candidates),
                                       [data.references_as_given(k) for k in range(len(data.candidates))])
    # Notes are about segments that were scored ("segment scored, ..."): not of a row the
    # scorer then refused (a tester saw both said of one line).
    scored = set(lines)
    human_notes = tuple(p for p in data.human_notes if p.line in scored)
    reference_notes = tuple(RowProblem(p.file, p.line, _jar_note(p.message) if as_given else p.message)
                            for p in data.reference_notes if p.line in scored)
    if as_given:
        # A line with no reference words is scored too (0), and listed with the others: the
        # counts named it while this list left it out (a helper).
        noted = {p.line for p in reference_notes}
        blank = tuple(RowProblem(_file_of_reason(data, k, "reference 1 is empty"), line,
                                 "no reference has a word: scored 0, as the jar scores it")
                      for k, line, seg in zip(corpus.indices, lines, corpus.segments)
                      if line not in noted and _no_reference_words(seg))
        reference_notes = tuple(sorted(reference_notes + blank, key=lambda p: p.line))
    return CorpusAnalysis(
        corpus, ids, human, bleu, corpus_bleu(candidates, references, config.bleu_smoothing, bleu), data.problems,
        unscored, correlations, lines, data.data_lines, data.source, data.id_source, human_notes,
        data.human_source, sacre, corpus_zero_reason(bleu, config.bleu_smoothing), reference_notes,
        tuple(positions[k] for k in corpus.indices) if positions else (), as_given,
        tuple(data.systems[k] for k in corpus.indices) if data.systems else (), data.system_column)


# -- several systems ---------------------------------------------------------------------
@dataclass(frozen=True)
class SystemComparison:
    """N systems on the same references. Segments are paired by file line; the ranking and
    the significance tests use the segments scored in every system (`common_lines`)."""

    names: tuple[str, ...]
    analyses: tuple[CorpusAnalysis, ...]
    common_lines: tuple[int, ...]
    significance: SignificanceReport
    config: MeteorConfig

    @property
    def left_out(self) -> tuple[int, ...]:
        """Lines scored in some system but not in all: not part of the ranking."""
        common = set(self.common_lines)
        return tuple(sorted({line for a in self.analyses for line in a.lines} - common))

    @property
    def scored_nowhere(self) -> int:
        """Data lines no system scored, so that common + left out + these = the data lines."""
        return max(a.data_lines for a in self.analyses) - len(self.common_lines) - len(self.left_out)

    def left_out_sentence(self) -> str:
        """What the ranking leaves out, in words ("" when nothing): the counts add up."""
        parts = []
        if self.left_out:
            parts.append(f"{len(self.left_out):,} line(s) scored in some systems only")
        if self.scored_nowhere:
            parts.append(f"{self.scored_nowhere:,} line(s) scored in none")
        return " and ".join(parts) + " left out" if parts else ""

    def ranking(self) -> list[dict]:
        """One row per system, best corpus METEOR first, on the paired segments."""
        sig = self.significance
        rows = []
        for k, (name, analysis) in enumerate(zip(self.names, self.analyses)):
            meteor, bleu = sig.score(name, "METEOR"), sig.score(name, "BLEU")
            segment_scores = [analysis.segment(line).score for line in self.common_lines]
            rows.append({"system": name, "corpus_meteor": meteor.score, "meteor_ci_low": meteor.ci_low,
                         "meteor_ci_high": meteor.ci_high,
                         "mean_segment_meteor": sum(segment_scores) / len(segment_scores),
                         "corpus_bleu": bleu.score, "bleu_ci_low": bleu.ci_low, "bleu_ci_high": bleu.ci_high,
                         "segments": len(self.common_lines)})
        rows.sort(key=lambda r: -r["corpus_meteor"])
        for place, row in enumerate(rows, start=1):
            # Equal scores share a rank (1, 1, 3): two identical systems were ranked 1 and 2 (a tester).
            tied = place > 1 and row["corpus_meteor"] == rows[place - 2]["corpus_meteor"]
            row["rank"] = rows[place - 2]["rank"] if tied else place
        return rows

    def mean_segment_order(self) -> tuple[str, ...]:
        """The systems by mean segment METEOR, best first, where that order differs from the
        ranking's (corpus METEOR); () where they agree. nltk mode's tools (nltk, HF evaluate)
        report the mean, and two systems 0.0001 apart can swap (a tester: WMT22 de-en)."""
        rows = self.ranking()
        by_mean = sorted(rows, key=lambda r: -r["mean_segment_meteor"])
        return tuple(r["system"] for r in by_mean) if by_mean != rows else ()

    def mean_order_note(self, mode: str, column: str = "mean segment METEOR") -> str:
        """Where the mode's usual number is the mean of segment scores (nltk mode) and it orders
        the systems differently from the ranking, a sentence that says so; "" otherwise. The app
        said it and the command line did not (a tester: the opposite order with no word)."""
        reported_key, reported_by = REPORTED_BY.get(mode, ("", ""))
        by_mean = self.mean_segment_order()
        if reported_key != "mean_segment_meteor" or not by_mean:
            return ""
        return (f"In this mode the usual number is the mean of segment scores ({reported_by}). By that "
                f"number ({column}) the order is {', '.join(by_mean)}, not the rank shown.")

    @property
    def signature(self) -> str:
        """How the scores (the METEOR signature) and the tests (resamples, trials, seed) were made."""
        return self.analyses[0].corpus.signature + "|" + self.significance.signature

    def to_dict(self) -> dict:
        """The comparison as the CLI's `compare --json` and the app's export both write it."""
        sig = self.significance
        return {
            "systems": self.ranking(),
            # systems and pairs once, at the top (they were also under "significance", named
            # otherwise: testers); "significance" says how the tests were run
            "pairs": [p.to_dict() for p in sig.pairs],
            "significance": {k: v for k, v in sig.to_dict().items() if k not in ("pairs", "systems")},
            "segments_compared": len(self.common_lines),
            "lines_left_out": list(self.left_out),
            "lines_scored_nowhere": self.scored_nowhere,
            "systems_input": {name: a.summary() | {"segments_note": a.counts_sentence()}
                              for name, a in zip(self.names, self.analyses)},
            "signature": self.signature,
        }

    def pair_rows(self, a: int, b: int) -> list[dict]:
        """Per segment scored in both systems a and b, paired by line: deltas (b - a), largest
        METEOR change first."""
        if a == b:
            raise MeteorInputError("choose two different systems")
        first, second = self.analyses[a], self.analyses[b]
        out = []
        for line in first.lines:
            if line not in second.index_of_line:
                continue
            i, j = first.index_of_line[line], second.index_of_line[line]
            sa, sb = first.corpus.segments[i], second.corpus.segments[j]
            d_meteor = sb.score - sa.score
            d_bleu = second.bleu[j].score - first.bleu[i].score
            out.append({"id": first.ids[i], "line": line, "candidate_a": sa.candidate, "candidate_b": sb.candidate,
                        # each system's best reference: they can differ (a tester saw only A's);
                        # named as the candidates are ("reference" and "reference_b" read as a
                        # reference column and a second one: a tester)
                        "best_reference_a": sa.references[sa.best_index],
                        "best_reference_b": sb.references[sb.best_index],
                        "meteor_a": sa.score, "meteor_b": sb.score,
                        "meteor_delta": d_meteor, "bleu_a": first.bleu[i].score, "bleu_b": second.bleu[j].score,
                        "bleu_delta": d_bleu, "disagree": (d_meteor > 0 > d_bleu) or (d_meteor < 0 < d_bleu)})
        out.sort(key=lambda r: (-abs(r["meteor_delta"]), r["line"]))
        return out


def compare_systems(corpora: Sequence[CorpusInput], config: MeteorConfig, names: Sequence[str],
                    progress: Progress = None, resamples: int = DEFAULT_RESAMPLES, trials: int = DEFAULT_TRIALS,
                    seed: int = DEFAULT_SEED, scorer: Optional[Scorer] = None,
                    workers: Optional[int] = None, tests_progress: Progress = None) -> SystemComparison:
    """Score each system (analyze_corpus), pair segments by line, test every pair.
    progress counts segments scored; tests_progress, resamples and trials run."""
    try:
        check_settings(resamples, trials, seed)  # before the scoring, not after it
    except ValueError as error:
        raise MeteorParameterError(str(error)) from None
    return compare_analyses(analyze_systems(corpora, config, names, progress, scorer, workers), names, config,
                            resamples, trials, seed, tests_progress)


def analyze_systems(corpora: Sequence[CorpusInput], config: MeteorConfig, names: Sequence[str],
                    progress: Progress = None, scorer: Optional[Scorer] = None,
                    workers: Optional[int] = None) -> tuple[CorpusAnalysis, ...]:
    """analyze_corpus for each system, one progress count over all of them."""
    names = tuple(names)
    if len(corpora) != len(names):
        raise ValueError("one name per system")
    if len(corpora) < 2:
        raise MeteorInputError("choose at least two systems to compare")
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise MeteorInputError(f"system names must differ; repeated: {', '.join(repeated)}")
    total = sum(len(c.candidates) for c in corpora)
    analyses, done = [], 0
    for name, corpus in zip(names, corpora):
        offset = done
        try:
            analyses.append(analyze_corpus(corpus, config, (lambda d, t, o=offset: progress(o + d, total))
                                           if progress else None, scorer, workers))
        except MeteorInputError as error:  # say which system
            raise MeteorInputError(f"{name}: {error}") from None
        done += len(corpus.candidates)
    return tuple(analyses)


def compare_analyses(analyses: Sequence[CorpusAnalysis], names: Sequence[str], config: MeteorConfig,
                     resamples: int = DEFAULT_RESAMPLES, trials: int = DEFAULT_TRIALS,
                     seed: int = DEFAULT_SEED, progress: Progress = None) -> SystemComparison:
    """Pair scored systems by line and run the significance tests (no rescoring: the app
    changes resamples or seed without scoring again). progress(done, total): resamples and
    trials run (paired_significance)."""
    names = tuple(names)
    common = set(analyses[0].lines)
    for analysis in analyses[1:]:
        common &= set(analysis.index_of_line)
    common_lines = tuple(sorted(common))
    if not common_lines:
        # Per system, so the user sees which one is off (the bare sentence gave no lead: a tester).
        scored = "; ".join(f"{name}: {len(a.lines):,} scored" for name, a in zip(names, analyses))
        raise MeteorInputError(f"no segment was scored in every system: nothing to compare ({scored}); systems are "
                               "paired by file line (or, for a long table, by segment id and references)")
    segments = [[a.segment(line) for line in common_lines] for a in analyses]
    for system, scored in zip(names[1:], segments[1:]):
        differ = next((line for line, s, first in zip(common_lines, scored, segments[0])
                       if s.references != first.references), None)
        if differ is not None:  # the systems' scores would not be comparable
            raise MeteorInputError(f"{names[0]} and {system} are scored against different references "
                                   f"(line {differ}); compare systems on the same references")
    notes = []
    for name, scored in zip(names, segments):
        # A human translation among the systems that is also one of the references ranks first
        # for that alone (WMT's HUMAN-refA beside refA: a tester); said, not refused (a
        # reference scored as a system is a known sanity check).
        same = sum(s.candidate in s.references for s in scored)
        if same * 2 > len(scored):
            notes.append(f"{name}'s output equals a reference on {same:,} of {len(scored):,} segments: a reference "
                         "scored as a system ranks first for that reason alone")
    for a in range(len(analyses)):
        for b in range(a + 1, len(analyses)):
            # Line by line, on the lines both scored (comparing the lists of scored candidates in
            # order called two systems identical when their empty lines differed: a tester).
            if all(x.candidate == y.candidate for x, y in zip(segments[a], segments[b])):
                notes.append(f"{names[a]} and {names[b]} have identical outputs on every line both scored")
    smoothing = config.bleu_smoothing
    if smoothing not in BLEU_SMOOTHING_FROM_SUMS:
        notes.append(f"BLEU significance uses unsmoothed corpus BLEU: nltk's {smoothing} depends on more than "
                     "the summed n-gram counts")
        smoothing = "none"
    bleus = [[a.bleu[a.index_of_line[line]] for line in common_lines] for a in analyses]
    if config.mode == "meteor15":  # the jar's weighted statistics and aggregate rule
        statistics = {"METEOR": [_meteor15_statistics(s) for s in segments]}
        functions = {"METEOR": _meteor15_from_sums(config)}
    else:
        statistics = {"METEOR": [meteor_statistics(s) for s in segments]}
        functions = {"METEOR": meteor_from_sums(config.params, config.zero_penalty_single_chunk)}
    statistics["BLEU"] = [bleu_statistics(b) for b in bleus]
    functions["BLEU"] = bleu_from_sums(smoothing)
    for name, analysis, stats in zip(names, analyses, statistics["METEOR"]):
        # The tests recompute corpus METEOR from matches, lengths and chunks. A mode whose corpus
        # score needs other statistics would be tested on the wrong number: say so.
        if len(analysis.lines) == len(common_lines):
            recomputed = float(functions["METEOR"](stats.sum(axis=0, keepdims=True))[0])
            if abs(recomputed - analysis.corpus.score) > 1e-9:
                notes.append(f"{name}: corpus METEOR from summed matches, lengths and chunks is {recomputed:.6f}, "
                             f"but this mode's corpus score is {analysis.corpus.score:.6f}; the METEOR tests use "
                             "the former")
    report = paired_significance(names, statistics, functions, resamples, trials, seed, notes=notes, progress=progress)
    return SystemComparison(names, tuple(analyses), common_lines, report, config)


def _meteor15_statistics(segments: Sequence[MultiReferenceResult]):
    import numpy as np

    from .meteor15.formula import statistics_row

    return np.array([statistics_row(s.best.meteor15.stats) for s in segments], dtype=np.float64)


def _meteor15_from_sums(config: MeteorConfig):
    import numpy as np

    from .meteor15.formula import score_rows

    p = config.params
    modules = tuple(zip(config.stages, config.weights))
    return lambda sums: np.array(score_rows(sums, modules, p.alpha, p.beta, p.gamma, p.delta))


# -- exports ---------------------------------------------------------------------------
#: A cell starting with one of these is read as a formula by spreadsheets (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def neutralize_formula(value):
    """Text that a spreadsheet would run as a formula gets a leading apostrophe (OWASP's
    advice); numbers and other text are unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def rows_to_csv(rows: Sequence[dict]) -> str:
    """CSV for spreadsheets: full precision numbers, formula-like text neutralized."""
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: neutralize_formula(v) for k, v in row.items()})
    return out.getvalue()
