"""METEOR 1.5's aligner, reproduced: every module's matches pooled, unambiguous one-to-one
matches fixed first, then its beam search over reference positions.

Behaviour learned from the public source (cmu-mtlab/meteor: Aligner, Stage, the four matchers,
PartialAlignment, Constants.PARTIAL_COMPARE_TOTAL, MeteorScorer) and written anew. The result is
the jar's alignment, quirks included, not an optimum of anything:
  * words are compared by Java `String.hashCode()`;
  * identical sentences run only the first module;
  * the search weights are 1.0 for exact and 0.5 for every other module, added into *int*
    fields, so `total = int(total + words * weight)`: a one-word stem, synonym or paraphrase
    match adds 0 and survives only where it saves a chunk or nothing else competes;
  * candidates are ranked by (weighted matches, fewer chunks, smaller distance), where the
    distance a path carries is not its own: the jar adds a new match's distance to the parent
    path after copying it, so siblings and the "skip" path inherit it;
  * 40 partial alignments are kept per reference position (Java's stable sort, kept here).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from operator import itemgetter
from typing import Optional, Sequence

from ..caches import word_cache
from ..errors import MeteorInputError
from .data import MAX_PHRASE_WORDS, Meteor15Data
from .normalize import java_hash, java_lower
from .snowball import stem

BEAM_SIZE = 40
#: Possible matches (all modules pooled) one pair may have. The jar has no limit; its search
#: does work in proportion to this number (each match can be tried from 40 partial
#: alignments), so a pair of long, repetitive texts is refused instead of taking minutes.
#: Real sentence pairs have tens to a few thousand (see bench/validate_meteor15.py); 2,000
#: tokens of news prose about 80,000 (1,894 tokens of joined WMT22 segments: 71,080, scored in
#: 3.2 s), where 20,000 refused documents of 750 words (a tester). At 40-70 us per possible
#: match, this bounds a pair at about 7 s.
MAX_MATCHES = 100_000
#: Possible matches of one candidate's references together: two such documents. Without it 66
#: references near the old per-pair limit took 45 s in one call (a tester).
MATCHES_PER_CALL = 2 * MAX_MATCHES
MODULES = ("exact", "stem", "synonym", "paraphrase")
#: What the jar's scorer hands its aligner as search weights (MeteorScorer), by module kind.
SEARCH_WEIGHTS = {"exact": 1.0, "stem": 0.5, "synonym": 0.5, "paraphrase": 0.5}


class Match:
    """One possible match: reference words [start, start + length) with candidate words
    [match_start, match_start + match_length), found by module number `module`."""

    __slots__ = ("start", "length", "match_start", "match_length", "module", "mask2", "mask1", "entry",
                 "table_side")

    def __init__(self, start: int, length: int, match_start: int, match_length: int, module: int,
                 entry: int = -1, table_side: str = ""):
        self.start = start
        self.length = length
        self.match_start = match_start
        self.match_length = match_length
        self.module = module
        self.mask2 = ((1 << length) - 1) << start
        self.mask1 = ((1 << match_length) - 1) << match_start
        self.entry = entry  # paraphrase table entry number (file order), -1 for other modules
        self.table_side = table_side  # which side holds the table's phrase ("reference"/"candidate")


@dataclass(frozen=True)
class JarAlignment:
    """The jar's chosen matches (by reference start) and what the search saw."""

    matches: tuple[Match, ...]  # sorted by reference position
    fixed: frozenset[int]  # ids of matches fixed before the search (unambiguous one-to-one)
    candidates_per_module: tuple[int, ...]  # matches each module proposed (pooled)
    identical: bool  # the sentences were identical: only the first module ran
    chunks: int


# A partial alignment is a list, copied with list.copy() (the search makes thousands):
# [rank key, next reference index, end of the last match in the candidate (-1: none open),
#  used candidate words (bits), used reference words (bits), chosen matches as a linked list
#  (match, rest)]. The jar's comparator (more weighted matches, then fewer chunks, then less
# distance) is folded into the one integer key, which is all the search needs of those three
# numbers: Python's stable sort on it orders paths exactly as Java's stable sort does.
_KEY, _IDX, _LAST, _USED1, _USED2, _CHAIN = range(6)
_CHUNK = 1 << 40  # one chunk; more than any distance the search can accumulate
_POINT = 1 << 52  # one weighted match point; more than any chunks * _CHUNK + distance


_by_key = itemgetter(_KEY)


class _Pool(list):
    """The matches of every module, one list per reference position, with a running count
    checked against MAX_MATCHES before matches are made."""

    def __init__(self, positions: int, call_allowance: Optional[int] = None):
        super().__init__([] for _ in range(positions))
        self.size = 0
        self.limit = MAX_MATCHES if call_allowance is None else min(MAX_MATCHES, call_allowance)

    def reserve(self, count: int) -> None:
        self.size += count
        if self.size > self.limit:
            if self.limit == MAX_MATCHES:
                raise MeteorInputError(
                    f"this pair has more than {MAX_MATCHES:,} possible matches (long or repetitive texts): this "
                    "reimplementation of METEOR 1.5's search refuses it, to keep a pair under about 7 s (the jar, "
                    "faster, scores it); score shorter segments")
            raise MeteorInputError(
                f"this candidate's references have more than {MATCHES_PER_CALL:,} possible matches together (long "
                "or repetitive texts): this reimplementation of METEOR 1.5's search refuses them, to keep a call under "
                "about 14 s; score it against fewer or shorter references at a time")


class Matcher:
    """Builds the pooled match lists for a list of modules (names from MODULES)."""

    def __init__(self, modules: Sequence[str], data: Optional[Meteor15Data]):
        self.modules = tuple(modules)
        self.data = data
        self.search_weights = tuple(SEARCH_WEIGHTS[m] for m in self.modules)
        self.synsets = word_cache(self._synsets)

    # -- modules ------------------------------------------------------------------------------
    def _exact(self, k, h1, h2, out):
        by_key: dict[int, list[int]] = {}
        for i, key in enumerate(h1):
            by_key.setdefault(key, []).append(i)
        out.reserve(sum(len(by_key.get(key, ())) for key in h2))
        for j, key in enumerate(h2):
            for i in by_key.get(key, ()):
                out[j].append(Match(j, 1, i, 1, k))

    def _stem(self, k, w1, w2, h1, h2, out):
        by_key: dict[int, list[int]] = {}
        for i, w in enumerate(w1):
            by_key.setdefault(java_hash(stem(w)), []).append(i)
        for j, w in enumerate(w2):
            found = [i for i in by_key.get(java_hash(stem(w)), ()) if h1[i] != h2[j]]  # different words only
            out.reserve(len(found))
            out[j].extend(Match(j, 1, i, 1, k) for i in found)

    def _synsets(self, word: str) -> frozenset[int]:
        """The synsets the jar's synonym module gives a word: its own plus those of its base
        forms (exception list, else WordNet's suffix rules applied as the jar does)."""
        data = self.data
        own = data.synsets(word)
        bases = data.exception_bases(word)
        if bases is not None:
            derived = frozenset().union(*(data.synsets(b) for b in bases))
        else:
            derived = data.synsets(_morph(word, data.has_synset_entry))
        return own | derived if derived else own

    def _synonym(self, k, w1, w2, h1, h2, out):
        sets1 = [self.synsets(w) for w in w1]
        index: dict[int, set[int]] = {}
        for i, sets in enumerate(sets1):
            for s in sets:
                index.setdefault(s, set()).add(i)
        for j, w in enumerate(w2):
            related: set[int] = set()
            for s in self.synsets(w):
                related |= index.get(s, set())
            found = [i for i in sorted(related) if h1[i] != h2[j]]  # different words only
            out.reserve(len(found))
            out[j].extend(Match(j, 1, i, 1, k) for i in found)

    def _paraphrase(self, k, w1, w2, out):
        crcs1, crcs2 = _ngram_crcs(w1), _ngram_crcs(w2)
        known = self.data.known_crcs({crc for crc, _, _ in crcs1} | {crc for crc, _, _ in crcs2})
        grams1 = [(crc, i, " ".join(w1[i:i + n])) for crc, i, n in crcs1 if crc in known]
        grams2 = [(crc, i, " ".join(w2[i:i + n])) for crc, i, n in crcs2 if crc in known]
        ids = self.data.phrase_ids((crc, text) for crc, _, text in grams1 + grams2)
        if not ids:
            return
        found1 = [(i, text.count(" ") + 1, ids[text]) for _, i, text in grams1 if text in ids]
        found2 = [(j, text.count(" ") + 1, ids[text]) for _, j, text in grams2 if text in ids]
        where1: dict[int, list[int]] = {}
        for i, _, phrase_id in found1:
            where1.setdefault(phrase_id, []).append(i)
        where2: dict[int, list[int]] = {}
        for j, _, phrase_id in found2:
            where2.setdefault(phrase_id, []).append(j)
        length = {i: text.count(" ") + 1 for text, i in ids.items()}
        found = set(where1) | set(where2)
        by_ref: dict[int, list[tuple[int, int]]] = {}
        for ref, para, entry in self.data.paraphrase_entries(found, found):
            by_ref.setdefault(ref, []).append((entry, para))
        for lst in by_ref.values():
            lst.sort()
        # Phrases of the reference found in the table (by start, then length), paraphrases
        # looked for in the candidate; then the other way round: the jar's two passes, in its
        # order (the n-grams come sorted by start, then length).
        for j, n, ref in found2:
            for entry, para in by_ref.get(ref, ()):
                out.reserve(len(where1.get(para, ())))
                for i in where1.get(para, ()):
                    out[j].append(Match(j, n, i, length[para], k, entry, "reference"))
        for i, n, ref in found1:
            for entry, para in by_ref.get(ref, ()):
                out.reserve(len(where2.get(para, ())))
                for j in where2.get(para, ()):
                    out[j].append(Match(j, length[para], i, n, k, entry, "candidate"))

    # -- alignment ----------------------------------------------------------------------------
    def align(self, words1: Sequence[str], words2: Sequence[str], call_allowance: Optional[int] = None) -> JarAlignment:
        """words1: the candidate (the jar's test), words2: the reference. call_allowance: the
        possible matches the call's earlier references left of MATCHES_PER_CALL."""
        h1 = [java_hash(w) for w in words1]
        h2 = [java_hash(w) for w in words2]
        identical = len(h1) == len(h2) and h1 == h2
        modules = self.modules[:1] if identical else self.modules
        out = _Pool(len(words2), call_allowance)
        counts = []
        for k, module in enumerate(modules):
            before = out.size
            if module == "exact":
                self._exact(k, h1, h2, out)
            elif module == "stem":
                self._stem(k, words1, words2, h1, h2, out)
            elif module == "synonym" and self.data is not None:
                self._synonym(k, words1, words2, h1, h2, out)
            elif module == "paraphrase" and self.data is not None:
                self._paraphrase(k, words1, words2, out)
            counts.append(out.size - before)
        counts += [0] * (len(self.modules) - len(counts))
        best, fixed = self._search(out, len(words1), len(words2))
        chosen = tuple(m for m in best if m is not None)
        return JarAlignment(chosen, fixed, tuple(counts), identical, count_chunks(best))

    def _search(self, out: list[list[Match]], n1: int, n2: int) -> tuple[list[Optional[Match]], frozenset[int]]:
        coverage1 = [0] * n1
        coverage2 = [0] * n2
        for lst in out:
            for m in lst:
                for j in range(m.start, m.start + m.length):
                    coverage2[j] += 1
                for i in range(m.match_start, m.match_start + m.match_length):
                    coverage1[i] += 1
        fixed: list[Optional[Match]] = [None] * n2
        used1 = used2 = 0
        for j, lst in enumerate(out):
            if len(lst) == 1:
                m = lst[0]
                if all(coverage2[x] == 1 for x in range(m.start, m.start + m.length)) and \
                        all(coverage1[x] == 1 for x in range(m.match_start, m.match_start + m.match_length)):
                    fixed[j] = m
                    used2 |= m.mask2
                    used1 |= m.mask1
        weights = self.search_weights
        # Per match what a path needs. The search weights are 1.0 and 0.5, so the jar's
        # int(total + words * weight) is exactly total + floor(words * weight).
        steps = [[(m.mask2, m.mask1, int(m.match_length * weights[m.module]) + int(m.length * weights[m.module]),
                   m.match_start, m.start + m.length, m.match_start + m.match_length, abs(m.start - m.match_start), m)
                  for m in lst] for lst in out]
        # From the first reference position no match covers on, every step only closes open
        # chunks, all at once; the ranking that follows is the one the remaining steps would
        # make, so the search can stop there.
        quiet_from = max((m.start + m.length for lst in out for m in lst), default=0)
        next_paths = [[0, 0, -1, used1, used2, None]]
        paths = next_paths
        for current in range(n2 + 1):
            paths = sorted(next_paths, key=_by_key)
            next_paths = []
            add = next_paths.append
            if current >= quiet_from:  # includes current == n2: close the last chunk, done
                for path in paths[:BEAM_SIZE]:
                    if path[_LAST] != -1:
                        path[_KEY] += _CHUNK
                        path[_LAST] = -1
                    add(path)
                break
            bit = 1 << current
            step = steps[current]
            for path in paths[:BEAM_SIZE]:
                if path[_USED2] & bit:
                    idx = path[_IDX]
                    if current < idx:
                        add(path)
                    elif fixed[idx] is not None:  # a match fixed before the search
                        m = fixed[idx]
                        w = weights[m.module]
                        key = path[_KEY] - (int(m.match_length * w) + int(m.length * w)) * _POINT \
                            + abs(m.start - m.match_start)
                        if path[_LAST] != -1 and m.match_start != path[_LAST]:
                            key += _CHUNK
                        path[_KEY] = key
                        path[_IDX] = m.start + m.length
                        path[_LAST] = m.match_start + m.match_length
                        add(path)
                    continue
                last = path[_LAST]
                for mask2, mask1, gain, match_start, end2, end1, distance, m in step:
                    if path[_USED2] & mask2 or path[_USED1] & mask1:
                        continue
                    child = path.copy()
                    child[_KEY] = path[_KEY] - gain * _POINT + (_CHUNK if last != -1 and match_start != last else 0)
                    child[_IDX] = end2
                    child[_LAST] = end1
                    child[_USED1] |= mask1
                    child[_USED2] |= mask2
                    child[_CHAIN] = (m, path[_CHAIN])
                    add(child)
                    path[_KEY] += distance  # sic: the jar adds the new match's distance to the parent
                if last != -1:
                    path[_KEY] += _CHUNK
                    path[_LAST] = -1
                path[_IDX] += 1
                add(path)
            if not next_paths:  # the jar warns and carries on with its best path
                next_paths.append(paths[0])
        best = sorted(next_paths, key=_by_key)[0]
        matches = list(fixed)
        chain = best[_CHAIN]
        while chain is not None:
            m, chain = chain
            matches[m.start] = m
        return matches, frozenset(id(m) for m in fixed if m is not None)


def count_chunks(matches: Sequence[Optional[Match]]) -> int:
    """Chunks of a final alignment (indexed by reference position), as the jar counts them."""
    chunks = 0
    idx = 0
    last_end = -1
    while idx < len(matches):
        m = matches[idx]
        if m is None:
            if last_end != -1:
                chunks += 1
                last_end = -1
            idx += 1
        else:
            if last_end != -1 and m.match_start != last_end:
                chunks += 1
            idx = m.start + m.length
            last_end = m.match_start + m.match_length
    return chunks + (1 if last_end != -1 else 0)


def _ngram_crcs(words: Sequence[str]) -> list[tuple[int, int, int]]:
    """(CRC-32 of the n-gram's text, start, n) for every n-gram up to the table's longest
    phrase; the CRC is extended word by word instead of hashing each joined string."""
    encoded = [w.encode("utf-8", "surrogatepass") for w in words]
    spaced = [b" " + e for e in encoded]
    out = []
    for i in range(len(words)):
        crc = zlib.crc32(encoded[i])
        out.append((crc, i, 1))
        for n in range(2, min(MAX_PHRASE_WORDS, len(words) - i) + 1):
            crc = zlib.crc32(spaced[i + n - 1], crc)
            out.append((crc, i, n))
    return out


# WordNet 3.0's detachment rules (noun, verb, adjective suffixes), as the jar applies them.
_SUFFIXES = ("s", "ses", "xes", "zes", "ches", "shes", "men", "ies",
             "s", "ies", "es", "es", "ed", "ed", "ing", "ing",
             "er", "est", "er", "est")
_ENDINGS = ("", "s", "x", "z", "ch", "sh", "man", "y",
            "", "y", "e", "", "e", "", "e", "",
            "", "", "e", "e")


def _morph(word: str, known) -> str:
    """The jar's base-form guess: the first rule whose result is a word of the synonym file;
    "" when none is (and the word itself for words ending in "ss" or of 1-2 characters)."""
    if word.endswith("ss") or len(word) <= 2:
        return word
    for suffix, ending in zip(_SUFFIXES, _ENDINGS):
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)] + ending
            if known(base):
                return base
    return ""


def is_function_word(word: str, function_words: frozenset[str]) -> bool:
    return java_lower(word) in function_words
