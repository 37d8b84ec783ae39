"""Matching stages. A stage says which (candidate word, reference word) pairs it relates and
why (the evidence); the aligner decides which of those pairs to use.

Two shapes cover every stage:
  * KeyStage: a and b match iff key(a) == key(b) (exact, stem). The relation is an
    equivalence, which lets the aligner use the uncrossing lemma (spec section 3).
  * FeatureStage: a and b match iff their feature sets intersect (WordNet synsets, groups of a
    user synonym table). Symmetric but not transitive: a general bipartite graph.
A user-supplied stage is one more object of either shape; the aligner needs no change.
"""
from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Optional, Sequence

from .caches import word_cache
from .errors import MeteorInputError
from .tokenize import matching_form


class StageEdge(NamedTuple):
    candidate: int
    reference: int
    evidence: str


class WordGraph(NamedTuple):
    """What a stage relates among the free words, by word type rather than by token pair, so
    that 1,000 occurrences of "the" on each side are two groups and one pair, not a million
    edges. Every candidate position of `candidate_groups[a]` relates to every reference
    position of `reference_groups[b]` for each (a, b) in `pairs`; positions ascend in a group.
    `one_to_one`: group a pairs only with group a (key stages), so each pair is a whole
    connected component of the token graph."""

    candidate_groups: list[list[int]]
    reference_groups: list[list[int]]
    pairs: Optional[list[tuple[int, int]]]  # None when one_to_one
    one_to_one: bool


EMPTY_GRAPH = WordGraph([], [], None, True)


def _groups(words: Sequence[str], positions: Iterable[int]) -> dict[str, list[int]]:
    """word -> its positions among `positions` (ascending)."""
    found: dict[str, list[int]] = {}
    get = found.get
    for i in positions:  # a plain loop: no generator layer per word
        word = words[i]
        group = get(word)
        if group is None:
            found[word] = [i]
        else:
            group.append(i)
    return found


class Stage:
    name: str = ""
    description: str = ""
    equivalence: bool = False

    @property
    def available(self) -> bool:
        return True

    @property
    def unavailable_reason(self) -> str:
        return ""

    def relate(self, candidate_words: Sequence[str], reference_words: Sequence[str],
               candidate_free: Sequence[int], reference_free: Sequence[int]) -> WordGraph:
        """The stage's relation among the free words (what the aligner reads). A stage that
        defines only edges() gets one group per position here."""
        edges = self.edges(candidate_words, reference_words, candidate_free, reference_free)
        cand_index: dict[int, int] = {}
        ref_index: dict[int, int] = {}
        pairs = set()
        for e in sorted(edges):
            a = cand_index.setdefault(e.candidate, len(cand_index))
            b = ref_index.setdefault(e.reference, len(ref_index))
            pairs.add((a, b))
        return WordGraph([[i] for i in cand_index], [[j] for j in ref_index], sorted(pairs), False)

    def evidence(self, candidate_words: Sequence[str], reference_words: Sequence[str], i: int, j: int) -> str:
        """Why candidate word i and reference word j match (asked only for chosen links)."""
        return next((e.evidence for e in self.edges(candidate_words, reference_words, [i], [j])), "")

    def evidence_of(self, candidate_words: Sequence[str], reference_words: Sequence[str],
                    pairs: Sequence[tuple[int, int]]) -> list[str]:
        """evidence() of each chosen (candidate, reference) pair, in one call."""
        evidence = self.evidence
        return [evidence(candidate_words, reference_words, i, j) for i, j in pairs]

    def edges(self, candidate_words: Sequence[str], reference_words: Sequence[str],
              candidate_free: Iterable[int], reference_free: Iterable[int]) -> list[StageEdge]:
        """Every related (candidate, reference) pair among the free words, with evidence. For
        display and custom stages; the aligner reads relate()."""
        if type(self).relate is Stage.relate:
            raise NotImplementedError("a stage defines relate() or edges()")
        graph = self.relate(candidate_words, reference_words, list(candidate_free), list(reference_free))
        pairs = graph.pairs if graph.pairs is not None else [(a, a) for a in range(len(graph.candidate_groups))]
        return sorted(StageEdge(i, j, self.evidence(candidate_words, reference_words, i, j))
                      for a, b in pairs for i in graph.candidate_groups[a] for j in graph.reference_groups[b])

    def signature(self) -> str:
        return self.name


class KeyStage(Stage):
    equivalence = True

    def __init__(self, name: str, key: Optional[Callable[[str], str]], description: str, evidence_label: str,
                 signature: str = ""):
        """key None: the word itself (the exact stage), without a cache lookup per word."""
        self.name = name
        self.description = description
        self._identity = key is None
        self._key = (lambda w: w) if key is None else word_cache(key)
        self._evidence_label = evidence_label
        self._signature = signature or name

    def key(self, word: str) -> str:
        return self._key(word)

    def relate(self, candidate_words, reference_words, candidate_free, reference_free) -> WordGraph:
        if self._identity:
            by_ref = _groups(reference_words, reference_free)
            by_cand = _groups(candidate_words, candidate_free)
        else:
            key = self._key
            by_ref = {}
            for j in reference_free:
                k = key(reference_words[j])
                group = by_ref.get(k)
                if group is None:
                    by_ref[k] = [j]
                else:
                    group.append(j)
            by_cand = {}
            for i in candidate_free:
                k = key(candidate_words[i])
                if k in by_ref:
                    group = by_cand.get(k)
                    if group is None:
                        by_cand[k] = [i]
                    else:
                        group.append(i)
        keys = [k for k in by_cand if k in by_ref]
        return WordGraph([by_cand[k] for k in keys], [by_ref[k] for k in keys], None, True)

    def evidence(self, candidate_words, reference_words, i, j) -> str:
        k = self._key(candidate_words[i])
        return f"{self._evidence_label} {k!r}" if self._evidence_label else k

    def evidence_of(self, candidate_words, reference_words, pairs) -> list[str]:
        if self._identity and not self._evidence_label:  # the exact stage: the word itself
            return [candidate_words[i] for i, _ in pairs]
        return super().evidence_of(candidate_words, reference_words, pairs)

    def signature(self) -> str:
        return self._signature


#: One empty feature set for every word without features (numbers, names, most non-English
#: words): a new empty frozenset per cached word took 216 bytes.
_NO_FEATURES = frozenset()


class FeatureStage(Stage):
    equivalence = False

    def __init__(self, name: str, features: Callable[[str], tuple[str, ...]], description: str,
                 signature: str = "", available: bool = True, unavailable_reason: str = "",
                 describe: Callable[[str], str] = str):
        self.name = name
        self._describe = describe
        self.description = description
        self._features = word_cache(features)
        self._feature_set = word_cache(lambda word: frozenset(self._features(word)) or _NO_FEATURES)
        self._evidence = lru_cache(maxsize=4096)(self._first_shared)
        self._signature = signature or name
        self._available = available
        self._unavailable_reason = unavailable_reason

    @property
    def available(self) -> bool:
        return self._available

    @property
    def unavailable_reason(self) -> str:
        return self._unavailable_reason

    def features(self, word: str) -> tuple[str, ...]:
        return self._features(word) if self._available else ()

    def relate(self, candidate_words, reference_words, candidate_free, reference_free) -> WordGraph:
        if not self._available:
            return EMPTY_GRAPH
        feature_set = self._feature_set
        by_ref = {w: p for w, p in _groups(reference_words, reference_free).items() if feature_set(w)}
        if not by_ref:
            return EMPTY_GRAPH
        by_cand = {w: p for w, p in _groups(candidate_words, candidate_free).items() if feature_set(w)}
        if not by_cand:
            return EMPTY_GRAPH
        ref_words = list(by_ref)
        cand_groups, pairs = [], []
        if len(by_cand) * len(ref_words) <= 1024:  # few word types: test every pair (C-level set test)
            ref_sets = [feature_set(w) for w in ref_words]
            every_ref_feature = frozenset().union(*ref_sets)
            for word, positions in by_cand.items():
                mine = feature_set(word)
                if mine.isdisjoint(every_ref_feature):  # the usual case: one test, not one per word
                    continue
                related = [b for b, theirs in enumerate(ref_sets) if not mine.isdisjoint(theirs)]
                if related:
                    a = len(cand_groups)
                    cand_groups.append(positions)
                    pairs.extend((a, b) for b in related)
        else:  # many: through an index from feature to reference words
            by_feature: dict[str, list[int]] = {}
            for b, word in enumerate(ref_words):
                for feature in feature_set(word):
                    by_feature.setdefault(feature, []).append(b)
            for word, positions in by_cand.items():
                related: set[int] = set()
                for feature in feature_set(word):
                    holders = by_feature.get(feature)
                    if holders:
                        related.update(holders)
                if related:
                    a = len(cand_groups)
                    cand_groups.append(positions)
                    pairs.extend((a, b) for b in sorted(related))
        if not pairs:
            return EMPTY_GRAPH
        return WordGraph(cand_groups, [by_ref[w] for w in ref_words], pairs, False)

    def evidence(self, candidate_words, reference_words, i, j) -> str:
        return self._evidence(candidate_words[i], reference_words[j])

    def _first_shared(self, a: str, b: str) -> str:
        # The first shared feature in the candidate word's own order (WordNet's sense order):
        # deterministic, and it names the most common shared sense.
        other = set(self.features(b))
        return self._describe(next(f for f in self.features(a) if f in other))

    def signature(self) -> str:
        return self._signature if self._available else f"{self.name}(unavailable)"


def exact_stage(unit: str = "word") -> KeyStage:
    """unit: what the tokens are, for the description ("character or word" where the char
    tokenizer splits Chinese and Japanese characters and keeps other words whole)."""
    return KeyStage("exact", None, f"same {unit} (after case folding unless keep-case)", "", "exact")


@lru_cache(maxsize=1)
def _porter():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


def porter_stem(word: str, lowercase: bool = True) -> str:
    return _porter().stem(word, to_lowercase=lowercase)


def stem_stage(keep_case: bool = False) -> KeyStage:
    return KeyStage("stem", lambda w: porter_stem(w, lowercase=not keep_case),
                    "same Porter stem (nltk PorterStemmer)", "stem", "stem(porter)")


def wordnet_synonym_stage() -> FeatureStage:
    """Synonyms: the union of WordNet synsets of a (all POS, morphy applied by nltk) intersects
    that of b (spec section 1, Decision: symmetric). Evidence: the shared synset's name."""
    from .wordnet import load_wordnet

    reader, status = load_wordnet()

    return FeatureStage(
        "synonym", reader.synset_keys if reader is not None else (lambda w: ()),
        "share a WordNet synset", f"synonym(wn{status.version or '-'})",
        available=status.available, unavailable_reason=status.message,
        describe=reader.synset_name if reader is not None else str,
    )


@dataclass(frozen=True)
class SynonymTable:
    """Groups of interchangeable words. A word may sit in several groups."""

    name: str
    groups: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        # Held in the form tokens are matched by, however the table was made: one built directly
        # with "ZORP" never matched "zorp" (a tester); from_text's words are in that form already.
        object.__setattr__(self, "groups", tuple(tuple(form for form in map(matching_form, group) if form)
                                                 for group in self.groups))

    @classmethod
    def from_text(cls, text: str, name: str = "user", source: str = "") -> "SynonymTable":
        """CSV or TSV, one group per row (two or more words: a pair is a group of two).
        Blank lines and lines starting with # are skipped; a row of one word is an error, and
        so is an entry with a space: tokens never hold one, so "New York" or a quoted "big,
        large" could never match (a tester's table was accepted and matched nothing there).
        Words are kept in their matching form (NFC, lowercase, no format characters), as tokens
        are matched: a table written in NFD, or saved with a BOM (Excel's "CSV UTF-8"), matched
        nothing in the word it touched (a tester). `source`: how messages name the table (its
        path; default its name)."""
        where = f"synonym table {source or repr(name)}"
        text = text.removeprefix("\ufeff")
        sample = "\n".join(text.splitlines()[:5])
        delimiter = "\t" if "\t" in sample else ","
        groups = []
        for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1):
            words = tuple(form for form in (matching_form(cell.strip()) for cell in row) if form)
            if not words or words[0].startswith("#"):
                continue
            if len(words) < 2:
                raise MeteorInputError(f"{where} line {number}: a row needs two or more words, got {row!r}")
            spaced = next((word for word in words if any(character.isspace() for character in word)), None)
            if spaced is not None:
                raise MeteorInputError(f"{where} line {number}: {spaced!r} is more than one word; entries are single "
                                       "words (tokens never hold a space), one per cell")
            groups.append(words)
        if not groups:
            raise MeteorInputError(f"{where} has no groups")
        return cls(name, tuple(groups))

    @classmethod
    def from_file(cls, path: str | Path) -> "SynonymTable":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise MeteorInputError(f"synonym table {path}: not UTF-8 ({error})") from None
        except OSError as error:
            raise MeteorInputError(f"synonym table {path}: {error.strerror}") from None
        return cls.from_text(text, name=path.stem, source=str(path))

    def stage(self) -> FeatureStage:
        index: dict[str, list[str]] = {}
        for number, group in enumerate(self.groups, start=1):
            label = f"{self.name}#{number}: {' ~ '.join(group)}"
            for word in group:
                index.setdefault(word, []).append(label)
        frozen = {word: tuple(labels) for word, labels in index.items()}
        # The signature names the table's content too: two tables of one name and size gave
        # 0.9375 and 0.25 under the same signature (a tester).
        digest = hashlib.sha256("\n".join("\t".join(group) for group in self.groups).encode()).hexdigest()[:8]
        return FeatureStage(f"table:{self.name}", lambda w: frozen.get(w.lower(), ()),
                            f"same group in synonym table {self.name!r}",
                            f"table:{self.name}({len(self.groups)}groups,sha256:{digest})")


class UnavailableStage(Stage):
    """A stage the language or the machine cannot run: kept in the pipeline so every result
    says so (never a silent downgrade)."""

    def __init__(self, name: str, description: str, reason: str):
        self.name = name
        self.description = description
        self._reason = reason

    @property
    def available(self) -> bool:
        return False

    @property
    def unavailable_reason(self) -> str:
        return self._reason

    def edges(self, candidate_words, reference_words, candidate_free, reference_free):
        return []

    def signature(self) -> str:
        return f"{self.name}(unavailable)"


class ThesaurusStage(Stage):
    """Synonyms from a MyThes thesaurus: a ~ b when b is listed among a's synonyms or a among
    b's (symmetric). The thesaurus has no lemmatizer: only the listed forms match."""

    equivalence = False

    def __init__(self, thesaurus, language_name: str):
        self.name = "synonym"
        self.description = f"listed as synonyms in the {language_name} MyThes thesaurus"
        self._thesaurus = thesaurus
        self._relation = lru_cache(maxsize=4096)(thesaurus.relation)
        self._synonyms = word_cache(self._listed_synonyms)

    def _listed_synonyms(self, word: str) -> frozenset[str]:
        return frozenset(s for _, synonyms in self._thesaurus.meanings(word) for s in synonyms)

    def relate(self, candidate_words, reference_words, candidate_free, reference_free) -> WordGraph:
        """a ~ b iff b (lowercased) is among a's listed synonyms or a among b's: found from
        each word's own synonym list (one thesaurus lookup per word type, not per pair)."""
        by_cand = {w: p for w, p in _groups(candidate_words, candidate_free).items() if any(ch.isalpha() for ch in w)}
        by_ref = _groups(reference_words, reference_free)
        if not by_cand or not by_ref:
            return EMPTY_GRAPH
        cand_words, ref_words = list(by_cand), list(by_ref)
        cand_by_lower: dict[str, list[int]] = {}
        for a, word in enumerate(cand_words):
            cand_by_lower.setdefault(word.lower(), []).append(a)
        ref_by_lower: dict[str, list[int]] = {}
        for b, word in enumerate(ref_words):
            ref_by_lower.setdefault(word.lower(), []).append(b)
        pairs = set()
        for a, word in enumerate(cand_words):
            for synonym in self._synonyms(word):
                for b in ref_by_lower.get(synonym, ()):
                    pairs.add((a, b))
        for b, word in enumerate(ref_words):
            for synonym in self._synonyms(word):
                for a in cand_by_lower.get(synonym, ()):
                    pairs.add((a, b))
        return WordGraph([by_cand[w] for w in cand_words], [by_ref[w] for w in ref_words], sorted(pairs), False)

    def evidence(self, candidate_words, reference_words, i, j) -> str:
        return self._relation(candidate_words[i], reference_words[j]) or ""

    def signature(self) -> str:
        return f"synonym(mythes:{self._thesaurus.path.name})"


def language_stem_stage(language: str, keep_case: bool) -> Stage:
    from .languages import resolve

    lang = resolve(language)
    if lang.code == "en":
        return stem_stage(keep_case)
    if not lang.snowball:
        return UnavailableStage("stem", "same stem", f"no stemmer for {lang.name}: only exact (and table) matches")
    from nltk.stem.snowball import SnowballStemmer

    stemmer = SnowballStemmer(lang.snowball)
    key = (lambda w: _with_case_of(w, stemmer.stem(w))) if keep_case else stemmer.stem
    return KeyStage("stem", key, f"same Snowball {lang.snowball} stem (nltk)", "stem",
                    f"stem(snowball-{lang.snowball})")


def _with_case_of(word: str, stem: str) -> str:
    """Snowball always lowercases; with keep_case give the stem the word's own case, letter by
    letter, as Porter does with to_lowercase=False ("Lojas" -> "Loj", "lojas" -> "loj")."""
    if not word.lower().startswith(stem):
        return stem if word == word.lower() else word  # the stem rewrote the word: differ by case
    return word[: len(stem)]


def language_synonym_stage(language: str, tables_given: bool = False) -> Stage:
    """tables_given: user synonym tables run as stages of their own; the advice to add one is
    then left out of the reason (it was printed beside a table in use: a tester)."""
    from .languages import Thesaurus, resolve, thesaurus_path

    lang = resolve(language)
    if lang.code == "en":
        return wordnet_synonym_stage()
    if lang.thesaurus:
        path = thesaurus_path(lang)
        if path is None:
            return UnavailableStage("synonym", "thesaurus synonyms",
                                    f"the {lang.name} thesaurus is not installed: the synonym stage is unavailable. "
                                    f"Fix: apt-get install {lang.debian_package}")
        return ThesaurusStage(Thesaurus(path), lang.name)
    advice = ("the synonym table(s) given run as their own stage" if tables_given
              else "a user synonym table (CSV/TSV: the command line's --synonyms, the library's "
                   "synonym_tables) can add domain terms")
    # Not "on this machine": no package gives one (a newcomer read it as something to install).
    return UnavailableStage("synonym", "synonyms", f"this project has no synonym resource for {lang.name}; {advice}")


class CaseKeepingStage(Stage):
    """A synonym source under keep_case: words written in different case ("Cat" / "cat", "Geese" /
    "goose", "Big" / "large": see case_class) are not related, as exact and stem keep them apart
    under keep_case. WordNet looks words up case-blind, so "Cat" ~ "cat" came through the synonym
    stage as its own synonym (evidence cat.n.01) while "The" ~ "the" did not (a teacher), and
    "Geese" ~ "goose", "Is" ~ "was" likewise (a tester). The jar without -lower finds no synonym
    for a capitalized word at all; here words in the same case still match ("Big" ~ "Large",
    "houses" ~ "house")."""

    def __init__(self, inner: Stage):
        self._inner = inner
        self.name, self.description, self.equivalence = inner.name, inner.description, inner.equivalence

    @property
    def available(self) -> bool:
        return self._inner.available

    @property
    def unavailable_reason(self) -> str:
        return self._inner.unavailable_reason

    def relate(self, candidate_words, reference_words, candidate_free, reference_free) -> WordGraph:
        graph = self._inner.relate(candidate_words, reference_words, candidate_free, reference_free)
        if graph.pairs is None:  # a key stage relates equal keys only: nothing to leave out
            return graph
        kept = [(a, b) for a, b in graph.pairs if case_class(candidate_words[graph.candidate_groups[a][0]])
                == case_class(reference_words[graph.reference_groups[b][0]])]
        if not kept:
            return EMPTY_GRAPH
        return graph if len(kept) == len(graph.pairs) else graph._replace(pairs=kept)

    def evidence(self, candidate_words, reference_words, i, j) -> str:
        return self._inner.evidence(candidate_words, reference_words, i, j)

    def evidence_of(self, candidate_words, reference_words, pairs) -> list[str]:
        return self._inner.evidence_of(candidate_words, reference_words, pairs)

    def signature(self) -> str:
        return self._inner.signature()


def case_class(word: str) -> str:
    """How a word is written, as keep_case compares words: "lower", "upper", "title", or, for
    any other mix ("iPhone"), the word itself (only the same word is in its case)."""
    if word == word.lower():
        return "lower"
    if word == word.upper():
        return "upper"
    if word == word[:1].upper() + word[1:].lower():
        return "title"
    return word


def build_stages(names: Sequence[str], keep_case: bool = False,
                 tables: Sequence[SynonymTable] = (), language: str = "en", unit: str = "word") -> tuple[Stage, ...]:
    by_table = {f"table:{t.name}": t for t in tables}
    result = []
    for name in names:
        if name == "exact":
            result.append(exact_stage(unit))
        elif name == "stem":
            result.append(language_stem_stage(language, keep_case))
        elif name == "synonym":
            stage = language_synonym_stage(language, bool(tables))
            result.append(CaseKeepingStage(stage) if keep_case and stage.available else stage)
        elif name in by_table:
            result.append(by_table[name].stage())
        else:
            raise MeteorInputError(f"stage {name!r} needs a synonym table of that name")
    for name, table in by_table.items():
        if name not in names:
            result.append(table.stage())
    return tuple(result)
