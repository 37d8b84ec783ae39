"""METEOR 1.5 mode: text in, the project's result types out, numbers equal to the jar's.

`Scorer(MeteorConfig(mode="meteor15"))` hands its work to `Meteor15Scorer`, which has the same
public methods (score, score_corpus, signature, tokenize, score_tokens) and returns the same
result types as the other modes, with METEOR 1.5's extras in `SegmentResult.meteor15` and
`CorpusResult.meteor15`.
"""
from __future__ import annotations

import re
from typing import Callable, Optional, Sequence

from ..align import count_crossings
from ..errors import MeteorParameterError, TooManyCharacters, TooManyTokens
from ..formula import MeteorBreakdown, MeteorStats
from ..params import MeteorConfig, refuse_user_synonym_tables
from ..result import (ChunkSpan, CorpusResult, Link, Meteor15Aggregate, Meteor15Detail, ModuleMatches,
                      MultiReferenceResult, SegmentResult, SkippedSegment, StageSnapshot, StageStatus,
                      WeightedBreakdown, WeightedStats)
from ..references import ReferencesInput, score_each_reference
from ..tokenize import (TextOrTokens, Token, Tokens, check_text, joined_words, max_chars, refuse_format_only,
                        token_pieces)
from . import data as data_module
from .align import BEAM_SIZE, MATCHES_PER_CALL, JarAlignment, Match, Matcher, is_function_word
from .formula import aggregate, compute, stats_of_row
from .normalize import words_of
from .snowball import stem


DESCRIPTIONS = {
    "exact": "same word (METEOR 1.5 exact module)",
    "stem": "same Snowball English stem (the jar's stemmer)",
    "synonym": "share a synset in the jar's WordNet-derived synonym files",
    "paraphrase": "phrase and paraphrase in the jar's table paraphrase-en (phrase to phrase)",
}
NEEDS_DATA = ("synonym", "paraphrase")


class Meteor15Scorer:
    """Resources (the converted jar data) opened once per configuration; thread-safe."""

    def __reduce__(self):
        # as Scorer's: what makes it, its data opened again where it is unpickled
        return Meteor15Scorer, (self.config,)

    def __init__(self, config: MeteorConfig, synonym_tables: Sequence = ()):
        if config.mode != "meteor15":
            raise MeteorParameterError(f"Meteor15Scorer needs mode meteor15, got {config.mode!r}")
        if tuple(synonym_tables):
            refuse_user_synonym_tables(config.mode)
        self.config = config
        self.synonym_tables = ()
        self.data, self.data_status = data_module.load_data()
        self.matcher = Matcher(config.stages, self.data)
        self.normalization = config.meteor15_normalization
        missing = "" if self.data_status.available else self.data_status.message
        self.stage_status = tuple(
            StageStatus(name, not (missing and name in NEEDS_DATA), DESCRIPTIONS[name],
                        missing if name in NEEDS_DATA else "")
            for name in config.stages)
        self.notes: tuple[str, ...] = (missing,) if missing else ()
        self._function_words = self.data.function_words if self.data else frozenset()
        self._prefixes = self.data.prefixes if self.data else {}
        self._modules = tuple(zip(config.stages, config.weights))
        self._signature: Optional[str] = None

    # -- signature ------------------------------------------------------------------------------
    def signature(self) -> str:
        if self._signature is None:
            from ..scorer import __version__

            c, p = self.config, self.config.params
            self._signature = "|".join([
                f"meteor-lens:{__version__}", "lang:en", "mode:meteor15",
                "modules:" + "+".join(c.stages), "w:" + ",".join(f"{w:g}" for w in c.weights),
                f"a:{p.alpha:g}", f"b:{p.beta:g}", f"g:{p.gamma:g}", f"d:{p.delta:g}",
                f"norm:{self.normalization}", f"beam:{BEAM_SIZE}",
                f"data:{self.data_status.version if self.data_status.available else 'MISSING'}",
            ])
        return self._signature

    # -- tokens ---------------------------------------------------------------------------------
    def words(self, text: "TextOrTokens", field: str) -> list[str]:
        """The words the jar aligns for one side (after its normalization)."""
        limit = max_chars(self.config.max_tokens)
        if not isinstance(text, str):
            # Token lists follow the other modes' rule (a token is a word: ["New York"] or ""
            # was re-split or dropped here without a word, a tester), then the jar's
            # normalization runs on them as on text.
            pieces = token_pieces(text, field)
            text = joined_words(pieces, field, limit)
            if not text.isascii():
                refuse_format_only(pieces, field)
        if len(text) > limit:
            raise TooManyCharacters(f"{field} has {len(text):,} characters; the limit is {limit:,} per side")
        check_text(text, field)  # the other modes' rule: no control characters, no lone surrogates
        words = words_of(text, self.normalization, self._prefixes)
        if len(words) > self.config.max_tokens:
            raise TooManyTokens(f"{field} has {len(words):,} tokens; the limit is {self.config.max_tokens:,} per side")
        return words

    def tokenize(self, text: "TextOrTokens", field: str) -> Tokens:
        words = self.words(text, field)  # first: it checks that tokens are strings
        return _locate(words, text if isinstance(text, str) else " ".join(text))

    # -- one pair -------------------------------------------------------------------------------
    def score_tokens(self, candidate: Sequence[Token], reference: Sequence[Token],
                     call_allowance: Optional[int] = None) -> SegmentResult:
        candidate, reference = Tokens.of(candidate), Tokens.of(reference)  # empty sides score 0, as in the jar
        words1, words2 = list(candidate.norms), list(reference.norms)
        alignment = self.matcher.align(words1, words2, call_allowance)
        function1 = tuple(is_function_word(w, self._function_words) for w in words1)
        function2 = tuple(is_function_word(w, self._function_words) for w in words2)
        stats = _weighted_stats(alignment.matches, self._modules, function1, function2, alignment.chunks)
        p = self.config.params
        weighted = compute(stats, p.alpha, p.beta, p.gamma, p.delta)
        links = sorted(((self._link(m, words1, words2), id(m) in alignment.fixed) for m in alignment.matches),
                       key=lambda pair: (pair[0].candidate, pair[0].reference))
        link_list = tuple(link for link, _ in links)
        spans = sorted(_chunk_spans(alignment.matches), key=lambda c: (c.candidate_start, c.reference_start))
        detail = Meteor15Detail(
            stats, weighted, function1, function2, tuple(k for k, (_, fixed) in enumerate(links) if fixed),
            alignment.candidates_per_module, alignment.identical, self.notes)
        return SegmentResult(
            candidate_tokens=candidate, reference_tokens=reference, links=link_list, chunk_spans=tuple(spans),
            crossings=count_crossings([(l.candidate, l.reference) for l in link_list]),
            stats=MeteorStats(stats.candidate_matches, stats.candidate_length, stats.reference_length, stats.chunks),
            breakdown=_breakdown(weighted), snapshots=self._snapshots(link_list, alignment, len(words1), len(words2)),
            stage_status=self.stage_status, optimal=True, config=self.config, meteor15=detail)

    def _link(self, m: Match, words1: Sequence[str], words2: Sequence[str]) -> Link:
        name = self.config.stages[m.module]
        cand = words1[m.match_start:m.match_start + m.match_length]
        ref = words2[m.start:m.start + m.length]
        if name == "exact":
            evidence = cand[0]
        elif name == "stem":
            evidence = f"stem {stem(cand[0])!r}"
        elif name == "synonym":
            shared = sorted(self.matcher.synsets(cand[0]) & self.matcher.synsets(ref[0]))
            evidence = "synset " + ", ".join(f"{s:08d}" for s in shared[:3]) + (" ..." if len(shared) > 3 else "")
        else:
            phrase, para = (ref, cand) if m.table_side == "reference" else (cand, ref)
            evidence = f"paraphrase table entry {m.entry + 1}: {' '.join(phrase)!r} -> {' '.join(para)!r}"
        return Link(m.match_start, m.start, name, evidence, m.match_start + m.match_length, m.start + m.length)

    def _snapshots(self, links: tuple[Link, ...], alignment: JarAlignment, n1: int, n2: int):
        """One step per module: the links of the final alignment that module made. (The jar
        pools all modules' matches before one search; this is a view, not its order of work.)"""
        out, cumulative = [], []
        for k, name in enumerate(self.config.stages):
            new = tuple(l for l in links if l.stage == name)
            cumulative = sorted(cumulative + list(new), key=lambda l: (l.candidate, l.reference))
            used1 = {i for l in cumulative for i in range(l.candidate, l.candidate_stop)}
            used2 = {j for l in cumulative for j in range(l.reference, l.reference_stop)}
            out.append(StageSnapshot(name, new, tuple(cumulative), tuple(i for i in range(n1) if i not in used1),
                                     tuple(j for j in range(n2) if j not in used2),
                                     alignment.candidates_per_module[k], True, 0))
        return tuple(out)

    # -- public entry points --------------------------------------------------------------------
    def score(self, candidate: TextOrTokens, references: ReferencesInput) -> MultiReferenceResult:
        left = MATCHES_PER_CALL  # local to the call: a Scorer is shared between threads

        def score_within_the_call(cand: Sequence[Token], ref: Sequence[Token]) -> SegmentResult:
            nonlocal left
            result = self.score_tokens(cand, ref, left)
            left -= sum(result.meteor15.proposed_matches)
            return result

        return score_each_reference(candidate, references, self.tokenize, score_within_the_call, self.signature(),
                                    self.config.max_references, self.config.max_tokens, all_blank_refused=False)

    def score_corpus(self, candidates: Sequence, references: Sequence,
                     progress: Optional[Callable[[int, int], None]] = None,
                     skip_invalid: bool = False, workers: Optional[int] = 1) -> CorpusResult:
        """Segment results and the jar's corpus score: its statistics summed over segments (each
        at its best reference) and scored once, as `EVAL` and pycocoevalcap compute it.
        workers: processes to score on (None or 0: all cores); the results are the same."""
        from ..parallel import score_corpus_segments

        return self.corpus_result(*score_corpus_segments(self, candidates, references, progress, skip_invalid,
                                                         workers))

    def corpus_result(self, segments: Sequence[MultiReferenceResult], indices: Sequence[int] = (),
                      skipped: Sequence[SkippedSegment] = ()) -> CorpusResult:
        total = self.aggregate([s.best.meteor15.stats for s in segments])
        p = self.config.params
        weighted = compute(total, p.alpha, p.beta, p.gamma, p.delta)
        mean = sum(s.score for s in segments) / len(segments)
        return CorpusResult(
            tuple(segments),
            MeteorStats(total.candidate_matches, total.candidate_length, total.reference_length, total.chunks),
            _breakdown(weighted), mean, self.signature(), tuple(indices) or tuple(range(len(segments))),
            tuple(skipped), meteor15=Meteor15Aggregate(total, weighted))

    def aggregate(self, stats: Sequence[WeightedStats]) -> WeightedStats:
        return aggregate(stats, self._modules)

    def breakdown_of_summed_rows(self, summed: Sequence[int]) -> MeteorBreakdown:
        """The corpus breakdown from `statistics_row`s summed over segments (what the frames
        functions give each row, so that an engine can add them up): corpus_result's breakdown
        of those segments."""
        p = self.config.params
        return _breakdown(compute(stats_of_row(summed, self._modules), p.alpha, p.beta, p.gamma, p.delta))


def _weighted_stats(matches: Sequence[Match], modules, function1, function2, chunks: int) -> WeightedStats:
    counts = [[0, 0, 0, 0] for _ in modules]
    for m in matches:
        c = counts[m.module]
        for i in range(m.match_start, m.match_start + m.match_length):
            c[1 if function1[i] else 0] += 1
        for j in range(m.start, m.start + m.length):
            c[3 if function2[j] else 2] += 1
    return WeightedStats(
        len(function1), len(function2), sum(function1), sum(function2),
        tuple(ModuleMatches(name, weight, *c) for (name, weight), c in zip(modules, counts)), chunks,
        sum(c[0] + c[1] for c in counts), sum(c[2] + c[3] for c in counts))


def _breakdown(w: WeightedBreakdown) -> MeteorBreakdown:
    return MeteorBreakdown(w.precision, w.recall, w.fmean, w.fragmentation, w.penalty, w.score, w.note,
                           w.single_chunk_rule)


def _chunk_spans(matches: Sequence[Match]) -> list[ChunkSpan]:
    """The jar's chunks: runs of matches adjacent on both sides, in reference order."""
    spans: list[list[int]] = []
    for m in sorted(matches, key=lambda m: m.start):
        if spans and m.start == spans[-1][3] and m.match_start == spans[-1][1]:
            spans[-1][1] = m.match_start + m.match_length
            spans[-1][3] = m.start + m.length
        else:
            spans.append([m.match_start, m.match_start + m.match_length, m.start, m.start + m.length])
    return [ChunkSpan(*s) for s in spans]


def _locate(words: Sequence[str], original: str) -> Tokens:
    """Tokens with the character span each word most likely came from. The jar rewrites text
    ("U.S.A." -> "usa", curly quotes, "well-known" -> "well known"), so a run of words not
    found as such shares out the text between the found words around it: one piece each when
    the pieces (split at whitespace) and the words are as many, else the whole stretch. (They
    got an empty span on the space before: "usa" of "the U.S.A. now" at 9-9, a tester.)"""
    lowered = original.lower()
    haystack = lowered if len(lowered) == len(original) else original
    flags = 0 if haystack is lowered else re.IGNORECASE
    spans: list = []
    position = 0
    for word in words:
        start = haystack.find(word, position) if not flags else -1
        if start < 0:
            found = re.compile(re.escape(word), flags).search(haystack, position) if flags else None
            start = found.start() if found else -1
        if start < 0 or start - position > 40:
            spans.append(None)
            continue
        spans.append((start, start + len(word)))
        position = start + len(word)
    k = 0
    while k < len(spans):
        if spans[k] is not None:
            k += 1
            continue
        j = next((t for t in range(k, len(spans)) if spans[t] is not None), len(spans))
        lo = spans[k - 1][1] if k else 0
        hi = spans[j][0] if j < len(spans) else len(original)
        pieces = [(m.start(), m.end()) for m in _NON_SPACE.finditer(original, lo, hi)]
        if len(pieces) == j - k:
            spans[k:j] = pieces
        else:
            stretch = (pieces[0][0], pieces[-1][1]) if pieces else (lo, lo)
            spans[k:j] = [stretch] * (j - k)
        k = j
    return Tokens(words, words, [a for a, _ in spans], [b for _, b in spans])


_NON_SPACE = re.compile(r"\S+")
