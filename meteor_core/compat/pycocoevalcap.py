"""`pycocoevalcap.meteor.meteor.Meteor` without Java: swap

    from pycocoevalcap.meteor.meteor import Meteor
for
    from meteor_core.compat.pycocoevalcap import Meteor

and `Meteor().compute_score(gts, res)` returns the same (corpus score, per-image scores).

What the original does, reproduced here: for every image (in `gts.keys()` order) it cleans the
hypothesis (`'|||'` removed, then each double space made single, once), sends the jar
`SCORE ||| ref1 ||| ... ||| refN ||| hyp` (METEOR 1.5, `-l en -norm`), which splits the line
at `|||`, trims the fields and scores the hypothesis against each reference, keeping the best;
then one `EVAL` line, answered with each image's score and the score of the statistics summed
over all images (not the mean of the image scores).
"""
from __future__ import annotations

from typing import Collection, Mapping, Sequence

from ..errors import MeteorInputError, reasons_in_brief
from ..meteor15.formula import aggregate, compute
from ..meteor15.normalize import java_trim
from ..params import MeteorConfig
from ..result import WeightedStats
from ..scorer import Scorer

#: Captions are short and have about 5 references; the limits only keep a runaway input bounded
#: (the jar has none). The library's own 100 references refused an image of 120 that the
#: original scores (a tester).
MAX_TOKENS = 20_000
MAX_REFERENCES = 10_000


class CaptionsError(MeteorInputError, AssertionError):
    """`gts` / `res` not in pycocoevalcap's shape. An AssertionError too, as the original's bare
    asserts raise one, so code written for it still catches it; a MeteorInputError with a
    message that names the image (a tester: the original's asserts said nothing, a string
    instead of a list of references was scored a character per reference: 0.1509 for 0.3837)."""


def _check_captions(image_id, hypotheses, references) -> None:
    # A sequence: the original reads res[id][0] (a set passed a Collection check here and
    # then failed with "'set' object is not subscriptable": a tester).
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise CaptionsError(f"image {image_id!r}: res must map each image to a list of one caption "
                            f"([caption]), not a {type(hypotheses).__name__}")
    if len(hypotheses) != 1:
        raise CaptionsError(f"image {image_id!r}: res holds {len(hypotheses)} captions; pycocoevalcap scores "
                            "one per image")
    if isinstance(references, (str, Mapping)) or not isinstance(references, Collection):  # a dict: its keys
        raise CaptionsError(f"image {image_id!r}: gts must map each image to a list of reference captions, not a "
                            f"{type(references).__name__}" + (" (each character would be a reference)"
                                                              if isinstance(references, str) else ""))
    captions = [("res", next(iter(hypotheses)))] + [(f"gts reference {k + 1}", r) for k, r in enumerate(references)]
    for where, caption in captions:
        if not isinstance(caption, str):
            raise CaptionsError(f"image {image_id!r}: {where} is {type(caption).__name__}, not text")


def _in_caption_terms(message: str) -> str:
    """The scorer's message with its fields named as the caller's dicts name them: the
    hypothesis is the res caption, reference k the gts caption k ("candidate contains control
    character U+0000" named no caption of theirs: a tester)."""
    if message.startswith("candidate"):
        return "res caption" + message[len("candidate"):]
    if message.startswith("reference"):
        return "gts " + message
    return message


class Meteor:
    """Same interface as pycocoevalcap 1.2's Meteor (the jar in -stdio mode)."""

    def __init__(self):
        self.config = MeteorConfig(mode="meteor15", max_tokens=MAX_TOKENS, max_references=MAX_REFERENCES)
        self._scorer = Scorer(self.config)

    def method(self) -> str:
        return "METEOR"

    def compute_score(self, gts: Mapping, res: Mapping) -> tuple[float, list[float]]:
        if gts.keys() != res.keys():
            raise CaptionsError("gts and res must hold the same image ids: " + "; ".join(
                f"only in {name}: {reasons_in_brief(sorted(map(repr, ids)), separator=', ')}"
                for name, ids in (("gts", gts.keys() - res.keys()), ("res", res.keys() - gts.keys())) if ids))
        if not gts:
            # The original's jar has no statistics to score and fails; 0.0 would hide a pipeline
            # that filtered out every image (a tester).
            raise CaptionsError("gts and res hold no images: there is nothing to score")
        stats = []
        for image_id in gts.keys():
            _check_captions(image_id, res[image_id], gts[image_id])
            try:
                stats.append(self._stats(res[image_id][0], gts[image_id]))
            except MeteorInputError as error:  # which of thousands of images (a tester)
                raise MeteorInputError(f"image {image_id!r}: {_in_caption_terms(str(error))}") from None
        p = self.config.params
        scores = [compute(s, p.alpha, p.beta, p.gamma, p.delta).score for s in stats]
        total = aggregate(stats, tuple(zip(self.config.stages, self.config.weights)))
        return compute(total, p.alpha, p.beta, p.gamma, p.delta).score, scores

    def _stats(self, hypothesis: str, references: Sequence[str]) -> WeightedStats:
        hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
        line = " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))
        if "\n" in line or "\r" in line:
            raise MeteorInputError("a caption contains a line break: pycocoevalcap sends one line per image to "
                                   "the jar, which would read it as two requests and fail")
        fields = line.split("|||")
        while fields and fields[-1] == "":  # Java's String.split drops trailing empty fields
            fields.pop()
        refs = [java_trim(f) for f in fields[1:-1]]
        result = self._scorer.score(java_trim(fields[-1]), refs)
        return result.best.meteor15.stats

    def _score(self, hypothesis: str, references: Sequence[str]) -> float:
        """One image's score (the original's helper of the same name)."""
        p = self.config.params
        return compute(self._stats(hypothesis, references), p.alpha, p.beta, p.gamma, p.delta).score
