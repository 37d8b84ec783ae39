"""Everything one screen of the Segment Explorer shows, computed in one call: the result in the
chosen mode, the same pair in the other mode (paper <-> nltk) with the links that differ, and
BLEU. The app renders this object; it does no scoring of its own."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .bleu import BleuResult
from .params import BUILTIN_STAGES, MeteorConfig
from .report import bleu_for
from .result import MultiReferenceResult
from .scorer import ReferencesInput, Scorer, TextOrTokens, scorer_for
from .stages import SynonymTable


@dataclass(frozen=True)
class ModeComparison:
    """The same pair scored by the other mode, on the winning reference of the chosen mode."""

    other_mode: str
    other: MultiReferenceResult
    only_in_chosen: tuple[tuple[int, int], ...]  # (candidate, reference) links
    only_in_other: tuple[tuple[int, int], ...]

    @property
    def differs(self) -> bool:
        return bool(self.only_in_chosen or self.only_in_other)


@dataclass(frozen=True)
class Exploration:
    result: MultiReferenceResult
    bleu: BleuResult
    comparison: Optional[ModeComparison]  # None when the other mode cannot run (user tables, not English)


def explore(candidate: TextOrTokens, references: ReferencesInput, config: MeteorConfig,
            synonym_tables: Sequence[SynonymTable] = ()) -> Exploration:
    scorer = Scorer(config, synonym_tables) if synonym_tables else scorer_for(config)
    result = scorer.score(candidate, references)
    comparison = None
    if not synonym_tables and config.language == "en":  # nltk mode exists for English only
        if config.mode == "paper":
            other_config = config.with_changes(mode="nltk", stages=BUILTIN_STAGES)
        else:
            other_config = config.with_changes(mode="paper")
        other = scorer_for(other_config).score(candidate, references)
        mine = {(l.candidate, l.reference) for l in result.best.links}
        theirs = {(l.candidate, l.reference) for l in other.per_reference[result.best_index].links}
        comparison = ModeComparison(other_config.mode, other, tuple(sorted(mine - theirs)),
                                    tuple(sorted(theirs - mine)))
    return Exploration(result, bleu_for(result), comparison)
