"""meteor_core: METEOR (Banerjee & Lavie 2005) with its alignment kept, plus an nltk-compatible
mode and BLEU alongside. No UI code here: the app, the CLI and the tests read the same frozen
result objects.

    from meteor_core import score
    result = score("the cat sat on a mat", ["the cat sat on the mat"])
    result.score, result.best.links, result.best.chunk_spans
"""
# nltk whole, now, while this package is imported (once, under Python's import lock): imported
# lazily from two threads at once, its circular imports gave both "cannot import name 'load'
# from partially initialized module 'nltk.data'" and broke nltk for the rest of the process (a
# helper: a score and a BLEU on two threads of a fresh process, 5 of 5 runs). Every scoring
# needs it (Porter stems, WordNet, BLEU), so only a bare --help pays for it (~0.1 s).
import nltk  # noqa: F401

from .errors import MeteorInputError, MeteorParameterError
from .formula import MeteorBreakdown, MeteorStats, compute
from .params import (BUILTIN_STAGES, DEFAULT_PRESET, MODES, OBJECTIVES, PRESETS, SMOOTHING_METHODS,
                     MeteorConfig, MeteorParams)
from .result import (ChunkSpan, CorpusResult, Link, MultiReferenceResult, SegmentResult,
                     StageSnapshot, StageStatus)
from .scorer import Scorer, __version__, score
from .stages import SynonymTable
from .tokenize import MAX_REFERENCES, MAX_TOKENS, Token, tokenize

__all__ = [
    "BUILTIN_STAGES", "ChunkSpan", "CorpusResult", "DEFAULT_PRESET", "Link", "MAX_REFERENCES", "MAX_TOKENS",
    "MODES", "MeteorBreakdown", "MeteorConfig", "MeteorInputError", "MeteorParameterError",
    "MeteorParams", "MeteorStats", "MultiReferenceResult", "OBJECTIVES", "PRESETS",
    "SMOOTHING_METHODS", "Scorer", "SegmentResult", "StageSnapshot", "StageStatus",
    "SynonymTable", "Token", "__version__", "compute", "score", "tokenize",
]
