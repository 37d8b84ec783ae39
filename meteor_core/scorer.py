"""The one entry point that turns (candidate, references) into result objects."""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from itertools import compress, count, repeat
from operator import add, mul, ne, sub
from typing import Callable, Optional, Sequence

from .align import align_stages
from .errors import MeteorInputError
from .formula import ZERO_STATS, MeteorStats, compare_exactly, compute
from .frozen import build, field_setters, new_object
from .nltk_mode import align_nltk
from .params import DEFAULT_NODE_BUDGET, MeteorConfig, refuse_user_synonym_tables
from .result import ChunkSpan, CorpusResult, Link, MultiReferenceResult, SegmentResult, StageSnapshot, StageStatus
from .stages import Stage, SynonymTable, build_stages
from .references import ReferencesInput, score_each_reference  # ReferencesInput: re-exported
from .tokenize import TextOrTokens, Token, Tokens, tokenize, unit_of_tokens  # TextOrTokens: re-exported

# Versions that change scores under the same signature: 0.2.0 numbers stay whole ("3.5"); 0.3.0 an
# emoji is one token; 0.4.0 with case:kept the synonym stage leaves out words written in different
# case, and paper mode scores an empty candidate 0 instead of refusing it; 0.5.0 French and Italian
# split an elided word off the next ("l'automobile" is "l'" + "automobile"), and a capital dotted I
# (Turkish İ) matches i; 0.6.0 a typographic apostrophe (’, ʼ) matches the typed one ('), a
# decomposed I + U+0307 matches i, an emoji's variation selector is left out of its form, and French
# "quelqu'un" and "presqu'île" stay whole.
__version__ = "0.6.0"

# As C-level calls for map(): _ZERO_ABOVE(j) is j < 0 (unmatched), _ZERO_AT_MOST(j) is j >= 0 (matched).
_ZERO_ABOVE = (0).__gt__
_ZERO_AT_MOST = (0).__le__
_LINK_SETTERS = field_setters(Link)
_SPAN_SETTERS = field_setters(ChunkSpan)


NLTK_STAGE_DESCRIPTIONS = {
    "exact": "same lowercased word, greedy right-to-left (nltk)",
    "stem": "same Porter stem, greedy right-to-left (nltk)",
    "synonym": "the reference word's Porter stem is a WordNet lemma name of the hypothesis word's Porter stem "
               "(nltk: both sides stemmed, one direction; big~large fails, large -> larg)",
}


def _nltk_description(stage: Stage, keep_case: bool) -> str:
    description = NLTK_STAGE_DESCRIPTIONS.get(stage.name, stage.description)
    if keep_case and stage.name == "exact":
        # nltk lowercases; under keep-case The and the are no exact match here (the stem stage
        # can link them), which "same lowercased word" denied (a tester)
        description = description.replace("same lowercased word", "same word, case kept (keep-case; nltk lowercases)")
    return description


class Scorer:
    """Holds the resolved stages (WordNet loaded once) for a configuration."""

    def __new__(cls, config: Optional[MeteorConfig] = None, synonym_tables: Sequence[SynonymTable] = ()):
        # METEOR 1.5 mode is its own pipeline (the jar's normalizer, pooled modules, beam
        # search): a Meteor15Scorer, with the same methods and result types.
        if cls is Scorer and config is not None and config.mode == "meteor15":
            from .meteor15.scorer import Meteor15Scorer

            return Meteor15Scorer(config, synonym_tables)
        return super().__new__(cls)

    def __init__(self, config: Optional[MeteorConfig] = None, synonym_tables: Sequence[SynonymTable] = ()):
        self.config = config or MeteorConfig()
        self.synonym_tables = tuple(synonym_tables)
        if self.synonym_tables:
            refuse_user_synonym_tables(self.config.mode)
        self._unit = self.config.token_unit
        if self.config.mode == "paper":
            # the char tokenizer keeps words in other scripts whole: "same character or word"
            self.stages: tuple[Stage, ...] = build_stages(self.config.stages, self.config.keep_case,
                                                          self.synonym_tables, self.config.language,
                                                          "character or word" if self._unit == "character" else "word")
        else:
            self.stages = build_stages(("exact", "stem", "synonym"), self.config.keep_case)  # English only
        self.stage_status = tuple(
            StageStatus(s.name, s.available,
                        _nltk_description(s, self.config.keep_case) if self.config.mode == "nltk" else s.description,
                        s.unavailable_reason)
            for s in self.stages)
        self._wordnet = None
        self._signature: Optional[str] = None
        if self.config.mode == "nltk" and self.stages[-1].available:
            from .wordnet import load_wordnet

            self._wordnet = load_wordnet()[0]

    def __reduce__(self):
        # Pickled as what makes it (its stages are rebuilt, WordNet loaded once per process):
        # scorer.score handed to Dask or a process pool failed on a local lambda (a tester).
        return Scorer, (self.config, self.synonym_tables)

    # -- signature ----------------------------------------------------------------------
    def signature(self) -> str:
        if self._signature is None:
            self._signature = self._make_signature()
        return self._signature

    def _make_signature(self) -> str:
        import nltk

        c = self.config
        p = c.params
        parts = [
            f"meteor-lens:{__version__}",
            f"lang:{c.language}",
            f"mode:{c.mode}",
            f"obj:{c.objective if c.mode == 'paper' else 'nltk-greedy'}",
            "stages:" + "+".join(s.signature() for s in self.stages),
            f"a:{p.alpha:g}", f"b:{p.beta:g}", f"g:{p.gamma:g}",
            f"tok:{self._tokenizer_signature()}", f"case:{'kept' if c.keep_case else 'lc'}",
            f"punct:{'dropped' if c.drop_punctuation else 'kept'}",
        ]
        if c.zero_penalty_single_chunk:
            parts.append("pen0:1chunk")
        if c.mode == "paper" and c.node_budget != DEFAULT_NODE_BUDGET:
            # a smaller budget can return another (flagged) alignment: 0.6540 at 300 where the
            # default proves 0.7240, under the same signature before (a tester)
            parts.append(f"budget:{c.node_budget}")
        parts.append(f"nltk:{nltk.__version__}")
        return "|".join(parts)

    def _tokenizer_signature(self) -> str:
        from .languages import resolve

        lang = resolve(self.config.language)
        if self.config.tokenizer == "segmenter":
            import importlib.metadata as md

            return f"{lang.segmenter}-{md.version(lang.segmenter)}"
        if self.config.tokenizer == "default" and lang.char_level:
            return "char"
        if self.config.tokenizer == "nltk":
            from .tokenize import punkt_available

            # Without the sentence model each text is one sentence: word_tokenize(text, preserve_line=True)
            return "nltk+punkt" if punkt_available() else "nltk-one-sentence"
        return self.config.tokenizer

    # -- tokenization -------------------------------------------------------------------
    def tokenize(self, text: TextOrTokens, field: str) -> Tokens:
        c = self.config
        return tokenize(text, field=field, tokenizer=c.tokenizer, keep_case=c.keep_case,
                        drop_punctuation=c.drop_punctuation, max_tokens=c.max_tokens, language=c.language,
                        unicode_normalize=c.mode != "nltk",  # nltk mode matches as nltk: str.lower only
                        # An empty candidate is an output (a system may output nothing): it scores 0
                        # (m = 0), as nltk and the jar score it. Refused in paper mode before, it left
                        # corpus scores and comparisons: 300 of 1,984 outputs blanked cost a system
                        # 0.0014 of corpus METEOR (a tester). An empty reference is missing data: refused.
                        allow_empty=field == "candidate")

    # -- scoring ------------------------------------------------------------------------
    def score_tokens(self, candidate: Sequence[Token], reference: Sequence[Token]) -> SegmentResult:
        candidate, reference = Tokens.of(candidate), Tokens.of(reference)
        # an empty candidate scores 0 (the result's note says why); see tokenize
        _refuse_empty_reference(reference)
        cand_words, ref_words = candidate.norms, reference.norms
        n, m = len(cand_words), len(ref_words)
        if self.config.mode == "paper":
            per_stage = align_stages(cand_words, ref_words, self.stages, self.config.objective,
                                     self.config.node_budget)
        else:
            per_stage = [(name, sorted((e.candidate, e.reference, e.evidence) for e in links), len(links), True, 0)
                         for name, links in align_nltk(cand_words, ref_words, self._wordnet)]
        # Built once, straight into frozen objects (frozen.build: through the slots' setters).
        set_candidate, set_reference, set_stage, set_evidence, set_candidate_end, set_reference_end = _LINK_SETTERS
        (set_chunk_candidate_start, set_chunk_candidate_end,
         set_chunk_reference_start, set_chunk_reference_end) = _SPAN_SETTERS
        snapshots = []
        by_candidate: list[Optional[Link]] = [None] * n
        reference_of = [-1] * n  # -1: unmatched so far
        reference_free = [True] * m
        cumulative: tuple[Link, ...] = ()
        unmatched_c, unmatched_r = tuple(range(n)), tuple(range(m))
        for name, raw, candidate_edges, optimal, nodes in per_stage:
            new = []
            for i, j, evidence in raw:  # raw: candidate order
                link = new_object(Link)  # frozen.build, inline (every slot: an unset one cannot be read)
                set_candidate(link, i)
                set_reference(link, j)
                set_stage(link, name)
                set_evidence(link, evidence)
                set_candidate_end(link, None)
                set_reference_end(link, None)
                new.append(link)
                by_candidate[i] = link
                reference_of[i] = j
                reference_free[j] = False
            if new:  # C-level passes (filter, compress) rather than generator loops, per stage
                cumulative = tuple(filter(None, by_candidate))
                unmatched_c = tuple(compress(range(n), map(_ZERO_ABOVE, reference_of)))  # j < 0
                unmatched_r = tuple(compress(range(m), reference_free))
            new = tuple(new)
            snapshots.append(build(StageSnapshot, {
                "stage": name, "new_links": new, "links": cumulative, "unmatched_candidate": unmatched_c,
                "unmatched_reference": unmatched_r, "candidate_edges": candidate_edges, "optimal": optimal,
                "nodes": nodes}))
        # Chunks, then crossings per chunk, in candidate order, no sorting. C-level passes find
        # the chunks: link k continues link k - 1's chunk iff both its positions are one more,
        # i.e. iff it has the same diagonal (j - i) and the same i - k (no gap in the candidate);
        # one integer key holds both (0 <= i - k <= n), and a chunk is a run of equal keys.
        linked = list(map(_ZERO_AT_MOST, reference_of))  # j >= 0
        cand_linked = list(compress(range(n), linked))
        ref_linked = list(compress(reference_of, linked))
        keys = list(map(add, map(mul, map(sub, ref_linked, cand_linked), repeat(n + 1)),
                        map(sub, cand_linked, count())))
        starts = [0, *compress(range(1, len(keys)), map(ne, keys[1:], keys))] if keys else []
        spans = []
        partners: list[int] = []  # reference positions of earlier chunks, ascending (for crossings)
        crossings = 0
        for start, stop in zip(starts, [*starts[1:], len(keys)]):
            i, j, length = cand_linked[start], ref_linked[start], stop - start
            # Earlier links further right cross each link of the chunk; none lies inside the
            # chunk's reference range (one link per position), so the count is the same for all.
            at = bisect_left(partners, j)
            crossings += length * (len(partners) - at)
            partners[at:at] = range(j, j + length)
            span = new_object(ChunkSpan)  # frozen.build, inline
            set_chunk_candidate_start(span, i)
            set_chunk_candidate_end(span, i + length)
            set_chunk_reference_start(span, j)
            set_chunk_reference_end(span, j + length)
            spans.append(span)
        spans = tuple(spans)
        stats = build(MeteorStats, {"matches": len(cumulative), "candidate_length": n, "reference_length": m,
                                    "chunks": len(spans)})
        # the note for m = 0 names this pair's tokens ("no word matched" for English under Chinese)
        unit = self._unit if stats.matches else unit_of_tokens(self._unit, candidate.texts, reference.texts)
        breakdown = compute(stats, self.config.params, self.config.zero_penalty_single_chunk, unit)
        return build(SegmentResult, {
            "candidate_tokens": candidate, "reference_tokens": reference, "links": cumulative,
            "chunk_spans": spans, "crossings": crossings, "stats": stats, "breakdown": breakdown,
            "snapshots": tuple(snapshots), "stage_status": self.stage_status,
            "optimal": all(s.optimal for s in snapshots), "config": self.config, "meteor15": None})

    def score(self, candidate: TextOrTokens, references: ReferencesInput) -> MultiReferenceResult:
        """Score a candidate against one or more references (strings or token lists)."""
        return score_each_reference(candidate, references, self.tokenize, self.score_tokens, self.signature(),
                                    self.config.max_references, self.config.max_tokens,
                                    self._compare_exactly if self.config.mode == "paper" else None)

    def _compare_exactly(self, a: SegmentResult, b: SegmentResult) -> Optional[int]:
        """Two results' paper scores compared as values (ties between references: references.best_of)."""
        return compare_exactly(a.stats, b.stats, self.config.params, self.config.zero_penalty_single_chunk)

    def score_corpus(self, candidates: Sequence[TextOrTokens], references: Sequence[ReferencesInput],
                     progress: Optional[Callable[[int, int], None]] = None,
                     skip_invalid: bool = False, workers: Optional[int] = 1) -> CorpusResult:
        """Segment results plus corpus METEOR from summed statistics (each segment at its best
        reference) and the mean of segment scores. With skip_invalid, a segment that cannot be
        scored is listed in `skipped` with the reason instead of stopping the run.
        workers: processes to score on (None or 0: all cores); the results are the same."""
        from .parallel import score_corpus_segments

        segments, indices, skipped = score_corpus_segments(self, candidates, references, progress, skip_invalid,
                                                           workers)
        total = ZERO_STATS
        for segment in segments:
            total = total + segment.stats
        breakdown = compute(total, self.config.params, self.config.zero_penalty_single_chunk, self._unit)
        mean = sum(s.score for s in segments) / len(segments)
        return CorpusResult(tuple(segments), total, breakdown, mean, self.signature(), tuple(indices), tuple(skipped))


def _refuse_empty_reference(reference: Tokens) -> None:
    """tokenize() never gives an empty reference; token sequences made elsewhere might."""
    if not reference:
        raise MeteorInputError("reference is empty (no tokens)")


def score(candidate: TextOrTokens, references: ReferencesInput, config: Optional[MeteorConfig] = None,
          **config_changes) -> MultiReferenceResult:
    """Convenience: score(candidate, references, mode="paper", ...)."""
    config = (config or MeteorConfig()).with_changes(**config_changes) if config_changes else (config or MeteorConfig())
    return scorer_for(config).score(candidate, references)


@lru_cache(maxsize=32)
def scorer_for(config: MeteorConfig) -> Scorer:
    """A shared Scorer per configuration (stages and their word caches built once). Bounded:
    an app whose users try many parameter values must not keep every Scorer alive."""
    return Scorer(config)
