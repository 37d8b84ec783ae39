"""The bound of every per-word cache (a word's stem, synsets, matching form, lemma entry).

A long job or a long-running app sees an unbounded number of distinct words, so each such
cache keeps the most recently used WORD_CACHE_SIZE words and drops the rest. Measured on every
WMT22 to-en output and reference (132,143 rows, 5.4M tokens, 36,896 distinct words): an LRU of
16,384 words misses on 0.80% of tokens, one of 65,536 (the bound before) on 0.68%, a few tenths of
a second over that whole job. On a stream of new words (70,000 batch lines, each with a new
number) one scoring process grew by 90 MB with caches of 65,536 and 41 MB with 16,384, flat from
20,000 lines on; a worker pool holds these caches once per worker."""
from __future__ import annotations

from functools import lru_cache

WORD_CACHE_SIZE = 16384


def word_cache(function):
    """function(word) cached for the last WORD_CACHE_SIZE words (lru_cache: safe across threads)."""
    return lru_cache(maxsize=WORD_CACHE_SIZE)(function)
