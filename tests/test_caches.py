"""Per-word caches: bounded, and cheap per word they keep (a long job sees unlimited words)."""
from __future__ import annotations

import functools
import gc

from meteor_core import MeteorConfig, Scorer
from meteor_core.caches import WORD_CACHE_SIZE


def _meteor_core_caches() -> list:
    return [o for o in gc.get_objects() if isinstance(o, functools._lru_cache_wrapper)
            and getattr(o, "__module__", "").startswith("meteor_core")]


def test_per_word_caches_keep_at_most_word_cache_size_words():
    scorer = Scorer(MeteorConfig())
    words = [f"w{k}" for k in range(WORD_CACHE_SIZE + 500)]  # each one new to every cache
    for start in range(0, len(words), 200):
        # all candidates: the synonym stage looks up every candidate word, the others only
        # reference words when a candidate has synsets
        scorer.score(words[start:start + 200], [["nothing"]])
    caches = _meteor_core_caches()
    full = [c for c in caches if c.cache_info().currsize == WORD_CACHE_SIZE]
    # the stem stage's keys, the synonym stage's synset keys and sets, WordNet's lemma entries
    assert len(full) >= 4, [c.cache_info() for c in caches]
    over = [(c.__qualname__, c.cache_info()) for c in caches
            if c.cache_info().maxsize is None or c.cache_info().currsize > WORD_CACHE_SIZE]
    assert over == []


def test_words_without_synsets_share_one_empty_set():
    scorer = Scorer(MeteorConfig())
    synonym = next(stage for stage in scorer.stages if stage.name == "synonym")
    assert synonym._feature_set("qzx1") is synonym._feature_set("qzx2")  # 216 bytes each before
    assert synonym._feature_set("qzx1") == frozenset()
    assert synonym._feature_set("dog")  # a word with synsets keeps its own
