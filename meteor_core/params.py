"""Parameters, presets and the scoring configuration (all frozen, all validated)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .errors import MeteorParameterError
from .tokenize import MAX_TOKENS, TOKENIZERS

MODES = ("paper", "nltk")
OBJECTIVES = ("crossings", "chunks")
BUILTIN_STAGES = ("exact", "stem", "synonym")
#: nltk SmoothingFunction methods; "none" is method0 (no smoothing), the paper's BLEU.
SMOOTHING_METHODS = ("none",) + tuple(f"method{k}" for k in range(1, 8))

#: Nodes the exact aligner may expand per stage before it returns its best alignment so far
#: and flags the result optimal=False. Real MT pairs need well under 1,000.
DEFAULT_NODE_BUDGET = 20_000


@dataclass(frozen=True)
class MeteorParams:
    """alpha weights precision against recall in Fmean; gamma and beta shape the penalty."""

    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "gamma"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise MeteorParameterError(f"{name} must be a finite number, got {value!r}")
        if not 0.0 <= self.alpha <= 1.0:
            raise MeteorParameterError(f"alpha must be in [0, 1], got {self.alpha}")
        if self.beta < 0:
            raise MeteorParameterError(f"beta must be >= 0, got {self.beta}")
        if not 0.0 <= self.gamma <= 1.0:
            # gamma > 1 could make the penalty exceed 1 and the score negative.
            raise MeteorParameterError(f"gamma must be in [0, 1], got {self.gamma}")


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    params: MeteorParams
    source: str


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset("2005", "Banerjee & Lavie 2005", MeteorParams(0.9, 3.0, 0.5),
               "ACL 2005 workshop paper: Fmean = 10PR/(R+9P), penalty 0.5 (c/m)^3"),
        Preset("nltk", "NLTK default", MeteorParams(0.9, 3.0, 0.5),
               "nltk.translate.meteor_score defaults (same values as 2005)"),
        Preset("meteor-0.6-perl-en", "METEOR 0.6 Perl English", MeteorParams(0.8, 0.83, 0.28),
               "Lavie & Agarwal 2007 tuned English parameters"),
    )
}
DEFAULT_PRESET = "2005"


@dataclass(frozen=True)
class MeteorConfig:
    """Everything that decides how a score is made. Recorded in the signature."""

    mode: str = "paper"
    objective: str = "crossings"
    stages: tuple[str, ...] = BUILTIN_STAGES
    params: MeteorParams = field(default_factory=MeteorParams)
    tokenizer: str = "default"
    keep_case: bool = False
    drop_punctuation: bool = False
    zero_penalty_single_chunk: bool = False
    node_budget: int = DEFAULT_NODE_BUDGET
    max_tokens: int = MAX_TOKENS
    bleu_smoothing: str = "none"
    language: str = "en"

    def __post_init__(self) -> None:
        from .languages import LANGUAGES, resolve

        lang = resolve(self.language)
        if lang is None:
            raise MeteorParameterError(
                f"unknown language {self.language!r}; choose one of {', '.join(LANGUAGES)}")
        object.__setattr__(self, "language", lang.code)
        if self.tokenizer == "segmenter" and not lang.segmenter:
            raise MeteorParameterError(f"the segmenter tokenizer is for zh and ja, not {lang.code}")
        if self.mode not in MODES:
            raise MeteorParameterError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.objective not in OBJECTIVES:
            raise MeteorParameterError(
                f"objective must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.tokenizer not in TOKENIZERS:
            raise MeteorParameterError(
                f"tokenizer must be one of {', '.join(TOKENIZERS)}, got {self.tokenizer!r}")
        stages = tuple(self.stages)
        object.__setattr__(self, "stages", stages)
        if not stages:
            raise MeteorParameterError("at least one stage is needed (e.g. exact)")
        if len(set(stages)) != len(stages):
            raise MeteorParameterError(f"stages repeat: {', '.join(stages)}")
        for name in stages:
            if name not in BUILTIN_STAGES and not name.startswith("table:"):
                raise MeteorParameterError(
                    f"unknown stage {name!r}; built-in stages are {', '.join(BUILTIN_STAGES)}")
        if self.mode == "nltk" and lang.code != "en":
            raise MeteorParameterError(
                f"nltk mode reproduces nltk's English pipeline (Porter, WordNet); use paper mode for {lang.name}")
        if self.mode == "nltk":
            if stages != BUILTIN_STAGES[: len(stages)] or len(stages) != 3:
                raise MeteorParameterError(
                    "nltk mode reproduces nltk's fixed pipeline exact -> stem -> synonym; "
                    "choose paper mode to select stages")
        if not isinstance(self.node_budget, int) or self.node_budget < 1:
            raise MeteorParameterError(f"node_budget must be a positive integer, got {self.node_budget!r}")
        if self.bleu_smoothing not in SMOOTHING_METHODS:
            raise MeteorParameterError(
                f"bleu_smoothing must be one of {', '.join(SMOOTHING_METHODS)}, got {self.bleu_smoothing!r}")

    def with_changes(self, **changes) -> "MeteorConfig":
        return replace(self, **changes)
