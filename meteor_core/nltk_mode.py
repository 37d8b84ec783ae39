"""NLTK mode: the alignment nltk.translate.meteor_score (nltk 3.10.x) computes, reproduced step
by step so every link keeps its stage and evidence (nltk itself returns only a float).

What nltk does, and this module does the same (spec section 2):
  * each stage scans hypothesis words from the end and takes the highest-position unused
    reference word with the same form: greedy, not fewest crossings;
  * the stem stage hands its *stemmed* leftovers to the synonym stage, so WordNet is asked
    about stems ("automobil", not "automobile");
  * synonym rule: the reference word equals a single-word lemma name of some synset of the
    hypothesis word (asymmetric).
"""
from __future__ import annotations

from functools import partial
from typing import Sequence

from .caches import word_cache
from .stages import StageEdge, porter_stem

#: nltk's stems (lowercased, as its PorterStemmer does), cached per word (bounded): nltk mode
#: stemmed every leftover word of every pair again (the paper stem stage caches its own key).
_nltk_stem = word_cache(partial(porter_stem, lowercase=True))


def _match_by_form(hyp: list[tuple[int, str]], ref: list[tuple[int, str]], label: str):
    """nltk's _match_enums on (original position, form) lists."""
    ref_positions: dict[str, list[int]] = {}
    for j, (_, word) in enumerate(ref):
        ref_positions.setdefault(word, []).append(j)
    links, hyp_used, ref_used = [], set(), set()
    for i in range(len(hyp) - 1, -1, -1):
        positions = ref_positions.get(hyp[i][1])
        if positions:
            j = positions.pop()
            hyp_used.add(i)
            ref_used.add(j)
            evidence = hyp[i][1] if not label else f"{label} {hyp[i][1]!r}"
            links.append(StageEdge(hyp[i][0], ref[j][0], evidence))
    hyp_left = [pair for i, pair in enumerate(hyp) if i not in hyp_used]
    ref_left = [pair for j, pair in enumerate(ref) if j not in ref_used]
    return links, hyp_left, ref_left


@word_cache  # bounded; a pure function of the word for a given WordNet
def _lemma_sources(wordnet, word: str) -> dict[str, str]:
    """Single-word lemma name -> the first synset of `word` that has it (WordNet's order).
    Callers only read it."""
    source: dict[str, str] = {}
    for synset in wordnet.synsets(word):
        for lemma in synset.lemmas():
            name = lemma.name()
            if name.find("_") < 0 and name not in source:
                source[name] = synset.name()
    return source


def _match_wordnet(hyp, ref, wordnet):
    """nltk's _enum_wordnetsyn_match, keeping the synset that supplied the lemma."""
    ref_positions: dict[str, list[int]] = {}
    for j, (_, word) in enumerate(ref):
        ref_positions.setdefault(word, []).append(j)
    links, hyp_used, ref_used = [], set(), set()
    for i in range(len(hyp) - 1, -1, -1):
        word = hyp[i][1]
        source = _lemma_sources(wordnet, word)
        candidates = set(source) | {word}
        best_j, best_word = -1, None
        for syn in candidates:
            positions = ref_positions.get(syn)
            if positions and positions[-1] > best_j:
                best_j, best_word = positions[-1], syn
        if best_word is not None:
            ref_positions[best_word].pop()
            hyp_used.add(i)
            ref_used.add(best_j)
            evidence = f"{source.get(best_word, '?')} (lemma {best_word!r} of {word!r})"
            links.append(StageEdge(hyp[i][0], ref[best_j][0], evidence))
    return links, [p for i, p in enumerate(hyp) if i not in hyp_used], [p for j, p in enumerate(ref) if j not in ref_used]


def align_nltk(candidate_words: Sequence[str], reference_words: Sequence[str], wordnet) -> tuple[tuple[str, tuple[StageEdge, ...]], ...]:
    """Return ((stage name, links), ...) for exact, stem, synonym, as nltk aligns them.

    `candidate_words`/`reference_words` are already preprocessed (nltk: str.lower)."""
    hyp = list(enumerate(candidate_words))
    ref = list(enumerate(reference_words))
    exact, hyp, ref = _match_by_form(hyp, ref, "")
    # nltk's stem stage lowercases even when preprocess kept case (PorterStemmer.stem's
    # to_lowercase defaults to True), so keep_case changes only the exact stage here, as in nltk.
    hyp = [(i, _nltk_stem(w)) for i, w in hyp]
    ref = [(j, _nltk_stem(w)) for j, w in ref]
    stem, hyp, ref = _match_by_form(hyp, ref, "stem")
    if wordnet is not None:
        synonym, hyp, ref = _match_wordnet(hyp, ref, wordnet)
    else:
        synonym = []
    return (("exact", tuple(exact)), ("stem", tuple(stem)), ("synonym", tuple(synonym)))
