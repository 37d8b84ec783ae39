"""Parameters, presets and the scoring configuration (all frozen, all validated)."""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from typing import Iterable, Optional, Sequence

from .errors import MeteorParameterError
from .tokenize import MAX_REFERENCES, MAX_TOKENS, TOKENIZERS, UNORDERED

MODES = ("paper", "nltk", "meteor15")
OBJECTIVES = ("crossings", "chunks")
BUILTIN_STAGES = ("exact", "stem", "synonym")
#: METEOR 1.5's modules (its -m), in its default English order.
METEOR15_STAGES = ("exact", "stem", "synonym", "paraphrase")
#: Its default English module weights (-w), given by position: with -m listing k modules the
#: jar keeps the first k of these, whatever the modules are, and pads with 0.
METEOR15_WEIGHTS = (1.0, 0.6, 0.8, 0.6)
#: nltk SmoothingFunction methods; "none" is method0 (no smoothing), the paper's BLEU.
SMOOTHING_METHODS = ("none",) + tuple(f"method{k}" for k in range(1, 8))

#: Nodes the exact aligner may expand per stage before it returns its best alignment so far
#: and flags the result optimal=False. Real MT pairs need well under 1,000; 50,000 proves every
#: pair of 160 tokens per side in bench/bench_length.py (20,000 left one of 20 unproven).
DEFAULT_NODE_BUDGET = 50_000


def _check_number(name: str, value) -> float:
    """The value as a float (numpy's and Fraction's numbers too); booleans, text, NaN and
    infinities refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise MeteorParameterError(f"{name} must be a finite number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer past float's range (10**400)
        number = math.inf
    if not math.isfinite(number):
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise MeteorParameterError(f"{name} must be a finite number, got {shown}")
    return number + 0.0  # -0.0 becomes 0.0: one configuration, one signature ("g:-0" was a second)


@dataclass(frozen=True)
class MeteorParams:
    """alpha weights precision against recall in Fmean; gamma and beta shape the penalty.
    delta (METEOR 1.5 only) weighs content words against function words; None elsewhere."""

    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5
    delta: Optional[float] = None

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "gamma"):
            object.__setattr__(self, name, _check_number(name, getattr(self, name)))
        if self.delta is not None:
            object.__setattr__(self, "delta", _check_number("delta", self.delta))
            if not 0.0 <= self.delta <= 1.0:
                raise MeteorParameterError(f"delta must be in [0, 1], got {self.delta}")
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
        Preset("meteor-1.5-en", "METEOR 1.5 English", MeteorParams(0.85, 0.2, 0.6, 0.75),
               "Denkowski & Lavie 2014, the jar's -l en default (task rank); delta weighs content "
               "vs function words (meteor15 mode; other modes use alpha, beta, gamma only)"),
    )
}
DEFAULT_PRESET = "2005"
#: The preset each mode starts from.
MODE_PRESETS = {"paper": "2005", "nltk": "nltk", "meteor15": "meteor-1.5-en"}


def default_params(mode: str) -> MeteorParams:
    params = PRESETS[MODE_PRESETS.get(mode, DEFAULT_PRESET)].params
    return params if mode == "meteor15" else replace(params, delta=None)


def default_stages(mode: str) -> tuple[str, ...]:
    return METEOR15_STAGES if mode == "meteor15" else BUILTIN_STAGES


def stage_names(text: str, field: str = "stages") -> tuple[str, ...]:
    """Stage names from a comma- (or space-) separated list, as the CLI and app links give them.
    A name left out ("exact,,stem", "exact,stem,") is a typo, refused with where it is: both ran
    the stages named without a word (a tester; the app's links still did)."""
    pieces = [piece.strip() for piece in text.split(",")]
    if len(pieces) > 1 and not all(pieces):
        # every place at once ("exact,,stem," said only the end, then the middle: a tester)
        places = (["at the start"] * (not pieces[0]) + ["between two commas"] * (not all(pieces[1:-1]))
                  + ["at the end"] * (not pieces[-1]))
        where = places[0] if len(places) == 1 else ", ".join(places[:-1]) + " and " + places[-1]
        raise MeteorParameterError(f"{field} {text!r} has an empty name {where}; give names separated by "
                                   "commas, e.g. exact,stem")
    return tuple(text.replace(",", " ").split())


def refuse_user_synonym_tables(mode: str) -> None:
    """User synonym tables are a paper-mode stage: the other modes' refusal, said before any
    table is read (the CLI read the file first, and an empty one got "synonym table 'null'
    has no groups" in nltk mode: a tester)."""
    if mode == "nltk":
        raise MeteorParameterError("nltk mode has no user synonym tables; use paper mode")
    if mode == "meteor15":
        raise MeteorParameterError("meteor15 mode uses the jar's own synonym files; user synonym tables "
                                   "are a paper-mode stage")


def default_weights(stages: Sequence[str]) -> tuple[float, ...]:
    """The jar's -m rule: the first len(stages) default weights, by position, padded with 0."""
    return tuple(METEOR15_WEIGHTS[k] if k < len(METEOR15_WEIGHTS) else 0.0 for k in range(len(stages)))


def resolve_params(mode: str, preset: Optional[str] = None, alpha: Optional[float] = None,
                   beta: Optional[float] = None, gamma: Optional[float] = None,
                   delta: Optional[float] = None) -> MeteorParams:
    """Parameters from a preset (the mode's own by default) with any value overridden: the one
    place the CLI and the app turn user input into MeteorParams. delta is METEOR 1.5's only."""
    if preset is not None and preset not in PRESETS:
        raise MeteorParameterError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    if delta is not None and mode != "meteor15":
        raise MeteorParameterError("delta (content vs function words) is a METEOR 1.5 parameter: use mode meteor15")
    base = PRESETS[preset].params if preset is not None else default_params(mode)
    if mode == "meteor15" and delta is None:
        delta = base.delta if base.delta is not None else PRESETS["meteor-1.5-en"].params.delta
    return MeteorParams(base.alpha if alpha is None else alpha, base.beta if beta is None else beta,
                        base.gamma if gamma is None else gamma, delta)


def number(text: str) -> float:
    """A number typed as text (a link, the command line): what float() reads, except digit
    separators: float("0_5") is 5.0, surely a typo of 0.5 (a tester's link), and a number too
    small for a float: float("1e-400") is 0.0, which was used without a word (a tester's link).
    ValueError (the MeteorParameterError) names the text."""
    try:
        if "_" in text:
            raise ValueError
        value = float(text)
    except ValueError:
        raise MeteorParameterError(f"not a number: {text!r}") from None
    if value == 0 and any(digit in "123456789" for digit in text.lower().partition("e")[0]):
        raise MeteorParameterError(f"{text!r} is too small for a float (it would be read as 0); give 0 or a "
                                   "number of at least 1e-300")
    return value


def parse_weights(text: str) -> tuple[float, ...]:
    """Module weights as the jar's -w takes them: numbers separated by spaces (or commas)."""
    values = []
    for piece in text.replace(",", " ").split():
        try:
            values.append(number(piece))
        except ValueError:
            raise MeteorParameterError(f"module weights must be numbers, got {piece!r}") from None
    if not values:
        raise MeteorParameterError("module weights: give one number per module, e.g. '1.0 0.6 0.8 0.6'")
    return tuple(values)


#: METEOR 1.5 normalization chosen by the shared tokenizer options (the jar's four levels).
METEOR15_NORMALIZATION = {
    ("default", False, False): "norm",  # -norm
    ("default", False, True): "norm-nopunct",  # -norm -noPunct
    ("whitespace", False, False): "lower",  # -lower
    ("whitespace", True, False): "none",  # no option
}


@dataclass(frozen=True)
class MeteorConfig:
    """Everything that decides how a score is made. Recorded in the signature."""

    mode: str = "paper"
    objective: str = "crossings"
    stages: tuple[str, ...] = None  # type: ignore[assignment]  # None: the mode's default
    params: MeteorParams = None  # type: ignore[assignment]  # None: the mode's default
    tokenizer: str = "default"
    keep_case: bool = False
    drop_punctuation: bool = False
    zero_penalty_single_chunk: bool = False
    node_budget: int = DEFAULT_NODE_BUDGET
    max_tokens: int = MAX_TOKENS
    max_references: int = MAX_REFERENCES
    bleu_smoothing: str = "none"
    language: str = "en"
    weights: Optional[tuple[float, ...]] = None  # METEOR 1.5 module weights; None: the jar's default

    def __post_init__(self) -> None:
        from .languages import LANGUAGES, resolve

        # Switches must be real booleans: the string "false" is truthy and switched them on.
        # numpy's bool (a flag read from a DataFrame) is one, made a Python bool.
        for name in ("keep_case", "drop_punctuation", "zero_penalty_single_chunk"):
            value = getattr(self, name)
            if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
                object.__setattr__(self, name, bool(value))
            elif not isinstance(value, bool):
                raise MeteorParameterError(f"{name} must be True or False, got {value!r}")
        if not isinstance(self.language, str):
            raise MeteorParameterError(f"language must be a language code such as 'en', got {self.language!r}")
        lang = resolve(self.language)
        if lang is None:
            raise MeteorParameterError(
                f"unknown language {self.language!r}; choose one of {', '.join(LANGUAGES)}")
        object.__setattr__(self, "language", lang.code)
        if self.tokenizer == "nltk" and lang.code != "en":
            raise MeteorParameterError(f"the nltk tokenizer (word_tokenize, English) is for en, not {lang.code}")
        if self.tokenizer == "segmenter" and not lang.segmenter:
            raise MeteorParameterError(f"the segmenter tokenizer is for zh and ja, not {lang.code}")
        if self.mode not in MODES:
            raise MeteorParameterError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.stages is None:
            object.__setattr__(self, "stages", default_stages(self.mode))
        if self.params is None:
            object.__setattr__(self, "params", default_params(self.mode))
        if not isinstance(self.params, MeteorParams):
            raise MeteorParameterError(f"params must be MeteorParams, got {self.params!r}")
        if self.mode == "meteor15":
            self._check_meteor15(lang)
        elif self.params.delta is not None:
            raise MeteorParameterError("delta (content vs function words) is a METEOR 1.5 parameter: use mode meteor15")
        elif self.weights is not None:
            raise MeteorParameterError("module weights are a METEOR 1.5 option: use mode meteor15")
        if self.objective not in OBJECTIVES:
            raise MeteorParameterError(
                f"objective must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.tokenizer not in TOKENIZERS:
            raise MeteorParameterError(
                f"tokenizer must be one of {', '.join(TOKENIZERS)}, got {self.tokenizer!r}")
        if isinstance(self.stages, str):  # tuple("exact") would be five one-letter stages
            raise MeteorParameterError(f"stages must be a sequence of stage names such as ('exact', 'stem'), "
                                       f"not the string {self.stages!r}")
        if isinstance(self.stages, UNORDERED):  # order decides the result
            raise MeteorParameterError(f"stages must be in pipeline order (a list or tuple), not a "
                                       f"{type(self.stages).__name__}: {self.stages!r}")
        try:
            stages = tuple(self.stages)
        except TypeError:
            raise MeteorParameterError(f"stages must be a sequence of stage names such as ('exact', 'stem'), "
                                       f"got {self.stages!r}") from None
        for name in stages:
            if not isinstance(name, str):
                raise MeteorParameterError(f"stages must be stage names (strings), got {name!r} in {stages!r}")
        object.__setattr__(self, "stages", stages)
        if not stages:
            raise MeteorParameterError("at least one stage is needed (e.g. exact)")
        if len(set(stages)) != len(stages):
            raise MeteorParameterError(f"stages repeat: {', '.join(stages)}")
        for name in stages:
            if self.mode == "meteor15":
                break
            if name == "paraphrase":
                raise MeteorParameterError(
                    f"unknown stage 'paraphrase' in {self.mode} mode: paraphrase is a METEOR 1.5 module (mode meteor15)")
            if name not in BUILTIN_STAGES and not name.startswith("table:"):
                raise MeteorParameterError(
                    f"unknown stage {name!r}; built-in stages are {', '.join(BUILTIN_STAGES)}")
        if self.mode == "nltk" and lang.code != "en":
            raise MeteorParameterError(
                f"nltk mode reproduces nltk's English pipeline (Porter, WordNet); use paper mode for {lang.name}")
        if self.mode == "nltk" and self.zero_penalty_single_chunk:
            raise MeteorParameterError(
                "nltk mode reproduces nltk's meteor_score, which charges the penalty for a single chunk too; "
                "the single-chunk rule (zero_penalty_single_chunk) is for paper mode")
        if self.mode == "nltk":
            if stages != BUILTIN_STAGES[: len(stages)] or len(stages) != 3:
                raise MeteorParameterError(
                    "nltk mode reproduces nltk's fixed pipeline exact -> stem -> synonym; "
                    "choose paper mode to select stages")
        for name in ("max_tokens", "max_references", "node_budget"):
            value = getattr(self, name)
            # numbers.Integral takes numpy's integers too (np.int64 from a DataFrame); never bool
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise MeteorParameterError(f"{name} must be a positive integer, got {value!r}")
            object.__setattr__(self, name, int(value))
        if self.bleu_smoothing not in SMOOTHING_METHODS:
            raise MeteorParameterError(
                f"bleu_smoothing must be one of {', '.join(SMOOTHING_METHODS)}, got {self.bleu_smoothing!r}")

    def _check_meteor15(self, lang) -> None:
        if lang.code != "en":
            raise MeteorParameterError(
                f"meteor15 mode reproduces METEOR 1.5 with its English data (-l en); use paper mode for {lang.name}")
        stages = tuple(self.stages)
        for name in stages:
            if name not in METEOR15_STAGES:
                raise MeteorParameterError(
                    f"unknown METEOR 1.5 module {name!r}; its modules are {', '.join(METEOR15_STAGES)}")
        if self.params.delta is None:
            object.__setattr__(self, "params", replace(self.params, delta=PRESETS["meteor-1.5-en"].params.delta))
        if self.weights is None:
            object.__setattr__(self, "weights", default_weights(stages))
        if isinstance(self.weights, (str, bytes)) or not isinstance(self.weights, Iterable):
            raise MeteorParameterError(f"weights must be a sequence of numbers, one per module, such as "
                                       f"(1.0, 0.6), got {self.weights!r}")
        weights = tuple(_check_number("module weight", w) for w in self.weights)
        for w in weights:
            if not 0.0 <= w <= 1.0:
                raise MeteorParameterError(f"module weights must be in [0, 1], got {w}")
        if len(weights) != len(stages):
            raise MeteorParameterError(
                f"{len(weights)} module weight(s) for {len(stages)} module(s) ({' '.join(stages)}): give one each")
        object.__setattr__(self, "weights", weights)
        if (self.tokenizer, self.keep_case, self.drop_punctuation) not in METEOR15_NORMALIZATION:
            given = f"tokenizer {self.tokenizer}" + (", keep_case" if self.keep_case else "") + (
                ", drop_punctuation" if self.drop_punctuation else "")
            raise MeteorParameterError(
                "meteor15 mode reproduces the jar's normalization, which comes in four forms: tokenizer default "
                "(-norm), default with drop_punctuation (-norm -noPunct), whitespace (-lower), whitespace with "
                f"keep_case (no normalization); got {given}")

    @property
    def token_unit(self) -> str:
        """What one token is called: "character" where the tokens are single Chinese or Japanese
        characters (the char tokenizer, their default; it keeps other words whole, so English
        under it still has words), else "word" (nltk and METEOR 1.5 modes are English only)."""
        from .languages import resolve

        return "character" if self.tokenizer in ("default", "char") and resolve(self.language).char_level else "word"

    @property
    def meteor15_normalization(self) -> str:
        """The jar's normalization level this configuration stands for (meteor15 mode)."""
        return METEOR15_NORMALIZATION[(self.tokenizer, self.keep_case, self.drop_punctuation)]

    def with_changes(self, **changes) -> "MeteorConfig":
        """A copy with some fields changed. Switching mode also switches the stages, params and
        weights that were the old mode's defaults to the new mode's defaults. Leaving METEOR 1.5
        mode drops its own settings, delta and the module weights, whatever their values (other
        modes have no function words or modules to weigh; a chosen delta refused the switch
        while chosen weights went: a tester) and its modules the new mode has not (paraphrase);
        alpha, beta and gamma chosen stay."""
        new_mode = changes.get("mode", self.mode)
        if new_mode != self.mode:
            if "stages" not in changes and self.stages == default_stages(self.mode):
                changes["stages"] = None
            elif "stages" not in changes and self.mode == "meteor15":
                # the chosen modules the new mode has ("paraphrase" refused the switch: a tester)
                kept = tuple(stage for stage in self.stages if stage in BUILTIN_STAGES)
                changes["stages"] = kept or None
            # alpha, beta and gamma are the old mode's defaults unless chosen, whatever delta is
            # (a chosen delta alone carried METEOR 1.5's beta 0.2 into paper mode: a tester)
            if "params" not in changes and replace(self.params, delta=None) == replace(default_params(self.mode),
                                                                                       delta=None):
                changes["params"] = None
            elif "params" not in changes and new_mode != "meteor15" and self.params.delta is not None:
                changes["params"] = replace(self.params, delta=None)
            if "weights" not in changes:
                changes["weights"] = None
        elif "stages" in changes and "weights" not in changes and self.mode == "meteor15" \
                and self.weights == default_weights(self.stages):
            changes["weights"] = None
        unknown = sorted(set(changes) - set(self.__dataclass_fields__))
        if unknown:
            hint = (" (alpha, beta, gamma and delta are MeteorParams fields: params=MeteorParams(alpha=...))"
                    if set(unknown) & {"alpha", "beta", "gamma", "delta"} else "")
            raise MeteorParameterError(f"unknown setting {unknown[0]!r}{hint}; settings are "
                                       f"{', '.join(self.__dataclass_fields__)}")
        return replace(self, **changes)
