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

from typing import Mapping, Sequence

from ..errors import MeteorInputError
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


class Meteor:
    """Same interface as pycocoevalcap 1.2's Meteor (the jar in -stdio mode)."""

    def __init__(self):
        self.config = MeteorConfig(mode="meteor15", max_tokens=MAX_TOKENS, max_references=MAX_REFERENCES)
        self._scorer = Scorer(self.config)

    def method(self) -> str:
        return "METEOR"

    def compute_score(self, gts: Mapping, res: Mapping) -> tuple[float, list[float]]:
        assert gts.keys() == res.keys()
        stats = []
        for image_id in gts.keys():
            assert len(res[image_id]) == 1
            try:
                stats.append(self._stats(res[image_id][0], gts[image_id]))
            except MeteorInputError as error:  # which of thousands of images (a tester)
                raise MeteorInputError(f"image {image_id!r}: {error}") from None
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
