"""Everything one screen of the Segment Explorer shows, computed in one call: the result in the
chosen mode, the same pair in the other mode (paper <-> nltk) with what makes the two differ,
BLEU beside METEOR and sacreBLEU as papers report it. The app renders this object; it does no
scoring of its own."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .align import align_paper
from .bleu import BleuResult
from .nltk_mode import align_nltk
from .params import BUILTIN_STAGES, MeteorConfig
from .report import bleu_for
from .result import Link, MultiReferenceResult, SegmentResult
from .sacrebleu_view import SacreBleuView
from .sacrebleu_view import view as sacrebleu_view
from .scorer import ReferencesInput, Scorer, TextOrTokens, scorer_for
from .stages import SynonymTable
from .wordnet import load_wordnet


@dataclass(frozen=True)
class Cause:
    """One reason the two modes score the pair differently."""

    kind: str  # "stages" | "parameters" | "alignment" | "relation"
    text: str  # plain text (quotes the user's words)


@dataclass(frozen=True)
class ModeComparison:
    """The same pair scored by the other mode, on the winning reference of the chosen mode, and
    what makes the scores differ.

    Like with like: when the chosen configuration uses other stages than the other mode runs
    (nltk always runs exact, stem, synonym), the chosen mode is also scored with the other
    mode's stages (`same_stages`), so the stage choice and the method are told apart."""

    other_mode: str
    other: MultiReferenceResult
    only_in_chosen: tuple[tuple[int, int], ...]  # (candidate, reference) links
    only_in_other: tuple[tuple[int, int], ...]
    same_stages: Optional[MultiReferenceResult]  # chosen mode with the other's stages; None if already equal
    causes: tuple[Cause, ...]

    @property
    def differs(self) -> bool:
        return bool(self.only_in_chosen or self.only_in_other)


@dataclass(frozen=True)
class Exploration:
    result: MultiReferenceResult
    bleu: BleuResult
    comparison: Optional[ModeComparison]  # None when the other mode cannot run (user tables, not English)
    sacrebleu: SacreBleuView


def _other_config(config: MeteorConfig) -> MeteorConfig:
    if config.mode == "paper":
        return config.with_changes(mode="nltk", stages=BUILTIN_STAGES)
    return config.with_changes(mode="paper", stages=BUILTIN_STAGES)


def _relates(config: MeteorConfig, candidate_word: str, reference_word: str) -> Optional[str]:
    """The stage of `config` that can link these two words (alone, nothing else matched), if any."""
    if config.mode == "nltk":
        stages = scorer_for(config).stages
        wordnet = load_wordnet()[0] if stages[-1].available else None  # as the nltk-mode Scorer does
        for stage, links in align_nltk([candidate_word], [reference_word], wordnet):
            if links:
                return stage
        return None
    for outcome in align_paper([candidate_word], [reference_word], scorer_for(config).stages):
        if outcome.links:
            return outcome.stage
    return None


def _word_pair(result: SegmentResult, link: tuple[int, int]) -> tuple[str, str]:
    return result.candidate_tokens[link[0]].norm, result.reference_tokens[link[1]].norm


def _describe_link(result: SegmentResult, link: Link) -> str:
    return (f"{result.candidate_tokens[link.candidate].text} [{link.candidate}] → "
            f"{result.reference_tokens[link.reference].text} [{link.reference}] ({link.stage})")


def _causes(chosen: SegmentResult, like: SegmentResult, other: SegmentResult) -> list[Cause]:
    """Why `like` (chosen mode, other's stages) and `other` align differently: a differing link
    whose two words the other mode cannot relate at all is a relation difference (stemmer,
    synonym source); one it could relate but did not choose is an alignment difference."""
    mode, other_mode = like.config.mode, other.config.mode
    mine = {(l.candidate, l.reference): l for l in like.links}
    theirs = {(l.candidate, l.reference): l for l in other.links}
    relation, alignment = [], []
    for pairs, source, target, source_mode, target_mode in (
            (set(mine) - set(theirs), like, other, mode, other_mode),
            (set(theirs) - set(mine), other, like, other_mode, mode)):
        for pair in sorted(pairs):
            link = (mine if source is like else theirs)[pair]
            stage = _relates(target.config, *_word_pair(source, pair))
            if stage is None:
                relation.append(f"{source_mode} links {_describe_link(source, link)}, which {target_mode} mode's "
                                f"stages cannot relate")
            else:
                alignment.append(_describe_link(source, link) + f" in {source_mode}")
    causes = []
    if relation:
        causes.append(Cause("relation", "Stemmer / synonym source: " + "; ".join(relation) + "."))
    if alignment:
        chunks = f"{like.stats.chunks} vs {other.stats.chunks} chunks"
        causes.append(Cause(
            "alignment",
            f"Alignment: both modes can relate these words but choose differently ({mode}: "
            f"{_choice(like.config)}; {other_mode}: {_choice(other.config)}): " + "; ".join(alignment)
            + f". Result: {like.stats.matches} vs {other.stats.matches} matches, {chunks}, "
              f"{like.crossings} vs {other.crossings} crossings."))
    return causes


def _choice(config: MeteorConfig) -> str:
    from .methods import describe

    method = describe(config)
    return f"fewest {config.objective} after the most matches" if method.searches else "greedy right-to-left scan"


def _compare(candidate: TextOrTokens, references: ReferencesInput, config: MeteorConfig,
             result: MultiReferenceResult) -> ModeComparison:
    other_config = _other_config(config)
    other = scorer_for(other_config).score(candidate, references)
    k = result.best_index
    chosen = result.best
    causes: list[Cause] = []
    same_stages = None
    like = chosen
    if tuple(config.stages) != tuple(other_config.stages):
        same_stages = scorer_for(config.with_changes(stages=other_config.stages)).score(candidate, references)
        like = same_stages.per_reference[k]
        if abs(like.score - chosen.score) > 1e-12 or like.links != chosen.links:
            causes.append(Cause(
                "stages",
                f"Stages: {other_config.mode} mode runs {', '.join(other_config.stages)}; this view uses "
                f"{', '.join(config.stages)}. With {other_config.mode}'s stages, {config.mode} mode gives "
                f"{like.score:.4f} (instead of {chosen.score:.4f})."))
    if config.params != other_config.params:
        causes.append(Cause("parameters", f"Parameters: {config.params} vs {other_config.params}."))
    causes += _causes(chosen, like, other.per_reference[k])
    mine = {(l.candidate, l.reference) for l in chosen.links}
    theirs = {(l.candidate, l.reference) for l in other.per_reference[k].links}
    return ModeComparison(other_config.mode, other, tuple(sorted(mine - theirs)), tuple(sorted(theirs - mine)),
                          same_stages, tuple(causes))


def explore(candidate: TextOrTokens, references: ReferencesInput, config: MeteorConfig,
            synonym_tables: Sequence[SynonymTable] = ()) -> Exploration:
    scorer = Scorer(config, synonym_tables) if synonym_tables else scorer_for(config)
    result = scorer.score(candidate, references)
    comparison = None
    if not synonym_tables and config.language == "en":  # nltk mode exists for English only
        comparison = _compare(candidate, references, config, result)
    bleu = bleu_for(result)
    return Exploration(result, bleu, comparison, sacrebleu_view(result, bleu))
