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
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .errors import MeteorInputError


@dataclass(frozen=True)
class StageEdge:
    candidate: int
    reference: int
    evidence: str


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

    def edges(self, candidate_words: Sequence[str], reference_words: Sequence[str],
              candidate_free: Iterable[int], reference_free: Iterable[int]) -> list[StageEdge]:
        raise NotImplementedError

    def signature(self) -> str:
        return self.name


class KeyStage(Stage):
    equivalence = True

    def __init__(self, name: str, key: Callable[[str], str], description: str, evidence_label: str,
                 signature: str = ""):
        self.name = name
        self.description = description
        self._key = lru_cache(maxsize=65536)(key)
        self._evidence_label = evidence_label
        self._signature = signature or name

    def key(self, word: str) -> str:
        return self._key(word)

    def edges(self, candidate_words, reference_words, candidate_free, reference_free):
        by_key: dict[str, list[int]] = {}
        for j in reference_free:
            by_key.setdefault(self._key(reference_words[j]), []).append(j)
        found = []
        for i in candidate_free:
            k = self._key(candidate_words[i])
            for j in by_key.get(k, ()):
                found.append(StageEdge(i, j, f"{self._evidence_label} {k!r}" if self._evidence_label else k))
        return found

    def signature(self) -> str:
        return self._signature


class FeatureStage(Stage):
    equivalence = False

    def __init__(self, name: str, features: Callable[[str], tuple[str, ...]], description: str,
                 signature: str = "", available: bool = True, unavailable_reason: str = "",
                 describe: Callable[[str], str] = str):
        self.name = name
        self._describe = describe
        self.description = description
        self._features = lru_cache(maxsize=65536)(features)
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

    def edges(self, candidate_words, reference_words, candidate_free, reference_free):
        if not self._available:
            return []
        by_feature: dict[str, list[int]] = {}
        for j in reference_free:
            for feature in self.features(reference_words[j]):
                by_feature.setdefault(feature, []).append(j)
        if not by_feature:
            return []
        found = []
        for i in candidate_free:
            # Evidence: the first shared feature in the candidate word's own order (WordNet's
            # sense order), so it is deterministic and names the most common shared sense.
            first_shared: dict[int, str] = {}
            for feature in self.features(candidate_words[i]):
                for j in by_feature.get(feature, ()):
                    first_shared.setdefault(j, feature)
            for j in sorted(first_shared):
                found.append(StageEdge(i, j, self._describe(first_shared[j])))
        return found

    def signature(self) -> str:
        return self._signature if self._available else f"{self.name}(unavailable)"


def exact_stage() -> KeyStage:
    return KeyStage("exact", lambda w: w, "same word (after case folding unless keep-case)", "", "exact")


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

    @classmethod
    def from_text(cls, text: str, name: str = "user") -> "SynonymTable":
        """CSV or TSV, one group per row (two or more words: a pair is a group of two).
        Blank lines and lines starting with # are skipped; a row of one word is an error."""
        sample = "\n".join(text.splitlines()[:5])
        delimiter = "\t" if "\t" in sample else ","
        groups = []
        for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1):
            words = tuple(cell.strip().lower() for cell in row if cell.strip())
            if not words or words[0].startswith("#"):
                continue
            if len(words) < 2:
                raise MeteorInputError(
                    f"synonym table {name!r} line {number}: a row needs two or more words, got {row!r}")
            groups.append(words)
        if not groups:
            raise MeteorInputError(f"synonym table {name!r} has no groups")
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
        return cls.from_text(text, name=path.stem)

    def stage(self) -> FeatureStage:
        index: dict[str, list[str]] = {}
        for number, group in enumerate(self.groups, start=1):
            label = f"{self.name}#{number}: {' ~ '.join(group)}"
            for word in group:
                index.setdefault(word, []).append(label)
        frozen = {word: tuple(labels) for word, labels in index.items()}
        return FeatureStage(f"table:{self.name}", lambda w: frozen.get(w.lower(), ()),
                            f"same group in synonym table {self.name!r}",
                            f"table:{self.name}({len(self.groups)}groups)")


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
        self._relation = lru_cache(maxsize=65536)(thesaurus.relation)

    def edges(self, candidate_words, reference_words, candidate_free, reference_free):
        found = []
        refs = list(reference_free)
        for i in candidate_free:
            if not any(ch.isalpha() for ch in candidate_words[i]):
                continue
            for j in refs:
                evidence = self._relation(candidate_words[i], reference_words[j])
                if evidence:
                    found.append(StageEdge(i, j, evidence))
        return found

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


def language_synonym_stage(language: str) -> Stage:
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
    return UnavailableStage("synonym", "synonyms", f"no synonym resource for {lang.name} on this machine; "
                                                   "add a user synonym table (CSV/TSV) for domain terms")


def build_stages(names: Sequence[str], keep_case: bool = False,
                 tables: Sequence[SynonymTable] = (), language: str = "en") -> tuple[Stage, ...]:
    by_table = {f"table:{t.name}": t for t in tables}
    result = []
    for name in names:
        if name == "exact":
            result.append(exact_stage())
        elif name == "stem":
            result.append(language_stem_stage(language, keep_case))
        elif name == "synonym":
            result.append(language_synonym_stage(language))
        elif name in by_table:
            result.append(by_table[name].stage())
        else:
            raise MeteorInputError(f"stage {name!r} needs a synonym table of that name")
    for name, table in by_table.items():
        if name not in names:
            result.append(table.stage())
    return tuple(result)
