"""Several references, one rule for every mode: each reference scored against the same
candidate tokens, the first with the highest score is the best (as the METEOR 1.5 jar keeps
it). The scorers of each mode (scorer.Scorer, meteor15.scorer.Meteor15Scorer) call this."""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Sized
from itertools import islice
from typing import Callable, Optional, Sequence, Union

from .errors import MeteorInputError
from .frozen import build
from .result import MultiReferenceResult, SegmentResult
from .tokenize import MAX_REFERENCES, MAX_TOKENS, UNORDERED, TextOrTokens, Token, token_pieces

#: Said of a JSON references list with nothing in it, by corpus and batch alike.
EMPTY_LIST = "is an empty list: give at least one reference"


class RepeatedKey(ValueError):
    """A JSON object with a key twice: json keeps the last one without a word."""


def _object_without_repeated_keys(pairs: list) -> dict:
    item = dict(pairs)
    if len(item) != len(pairs):
        seen: set = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise RepeatedKey(f"the key {json.dumps(repeated, ensure_ascii=False)} comes twice in one object: which one "
                          "is meant is not clear; give it once")
    return item


def json_line(text: str):
    """json.loads of one JSON Lines record, refusing an object with a key twice (RepeatedKey):
    {"candidate": "a b", ..., "candidate": "x"} scored "x" in batch and corpus alike (a tester;
    a table's repeated column name was refused already)."""
    return json.loads(text, object_pairs_hook=_object_without_repeated_keys)


def json_error_reason(error: json.JSONDecodeError) -> str:
    """json's message with the column ("Unterminated string starting at column 39"), for batch
    and corpus alike; some of json's messages end in "at" already ("Invalid control character at")."""
    return f"{error.msg.removesuffix(' at')} at column {error.colno}"


def json_kind(value) -> str:
    """What a JSON value is, in JSON's words (for corpus and batch messages alike)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        other = next((v for v in value if v is not None and not isinstance(v, str)), None)
        return "a list holding " + (json_kind(other) if other is not None else "strings")
    return type(value).__name__

#: The tokens of all references of one candidate together may be those of this many
#: references of the longest allowed (max_tokens). Each pair's work is bounded; this bounds a
#: call's (a few seconds).
LONGEST_REFERENCES_PER_CALL = 10

ReferencesInput = Union[str, Sequence[TextOrTokens]]


def reference_field(number: int, count: int) -> str:
    """How messages name reference `number` (1-based) of `count`."""
    return "reference" if count == 1 else f"reference {number}"


def reference_named(message: str, count: int) -> Optional[int]:
    """The inverse of reference_field: the number (1-based) of the reference of `count` that a
    refusal's message is about, or None when it is about no one reference (the candidate, all
    references). Kept beside reference_field so that the two change together."""
    words = message.split(" ", 2)
    if words[0] != "reference" or count < 1:
        return None
    if count == 1:
        return 1
    return int(words[1]) if len(words) > 1 and words[1].isdigit() and 1 <= int(words[1]) <= count else None


def _blank(text: str) -> bool:
    """Nothing but whitespace and invisible format characters (a zero-width space): no token.
    Such a reference sank its whole segment ("reference 2 is empty") where a blank one is left
    out (a tester)."""
    if not text.strip():
        return True
    return not text.isascii() and all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text)


def blank_positions(references: Sequence[str]) -> list[int]:
    """Where the blank references are (empty, or only spaces and invisible characters)."""
    return [k for k, r in enumerate(references) if isinstance(r, str) and _blank(r)]


def all_blank(references: Sequence[str]) -> bool:
    """Two or more references, every one blank: nothing to score against (paper and nltk modes
    refuse it, saying so of them all; one blank reference is the tokenizer's to refuse)."""
    return len(references) > 1 and len(blank_positions(references)) == len(references)


def entry_names(positions: Sequence[int]) -> str:
    """"references[0], references[3]": entries of a JSON line's "references" list, named by list
    index as best_reference counts them (batch's warnings and errors)."""
    return ", ".join(f"references[{k}]" for k in positions)


def without_blank(references: Sequence[str]) -> tuple[list[str], list[int]]:
    """(the references that are not blank, the position of each among those given: what
    best_reference reports, so that it names the entry as given). Files, tables and frames
    with fewer references on some lines leave those cells empty: such a segment is scored
    against the references it has (a tester lost 3 of 6 rows to "reference 2 is empty").
    When all are blank they are kept, so that the scorer says why it cannot score."""
    blank = set(blank_positions(references))
    kept = [k for k in range(len(references)) if k not in blank]
    if not kept:
        kept = list(range(len(references)))
    return [references[k] for k in kept], kept


def references_to_score(references: Sequence[str], mode: str) -> tuple[list, list[int]]:
    """What a mode scores of a segment's references as given, and the position of each.
    Paper and nltk modes: without_blank. METEOR 1.5 mode: every one, as the jar scores them. An
    empty reference has no words and scores 0, and the jar keeps the first of equal scores, so
    where the candidate matches no reference an empty first one is the best and adds no
    reference words to a corpus score (left out, the next one's words lowered corpus recall:
    0.3093 for the jar's 0.4993, a tester); and the jar's tokenizer makes a word of a reference
    of invisible characters (a zero-width space), which without_blank takes for blank (0.4268
    for the jar's 0.3563: a tester)."""
    if mode == "meteor15":
        return list(references), list(range(len(references)))
    return without_blank(references)


def read_references(references, max_references: int = MAX_REFERENCES) -> list:
    """The references as a list, reading at most one past the limit: a generator that never
    ends is refused by the caller's count, not drained. TypeError when not iterable."""
    return list(islice(references, max_references + 1))


def as_reference_list(references: ReferencesInput, max_references: int = MAX_REFERENCES) -> list[TextOrTokens]:
    if isinstance(references, str):
        return [references]
    if isinstance(references, (bytes, bytearray)):  # would be read as a list of integers
        raise MeteorInputError("references must be a string or a list of references, not bytes: decode them first")
    if isinstance(references, UNORDERED):
        # Which reference is "first" among equal scores (best_index) changed from run to run.
        raise MeteorInputError(f"references must be an ordered list, not a {type(references).__name__}")
    total = len(references) if isinstance(references, Sized) else None  # said in the message
    try:
        references = read_references(references, max_references)
    except TypeError:
        raise MeteorInputError(f"references must be a string or a list of references, not "
                               f"{type(references).__name__}") from None
    if not references:
        raise MeteorInputError("at least one reference is needed")
    if len(references) > max_references:
        # Short one-word strings only (a bounded look): tokens where a list of references belongs.
        one_word = all(isinstance(r, str) and len(r) <= 100 and len(r.split()) == 1 for r in references)
        hint = " (each is one word: were one reference's tokens given as the list of references?)" if one_word else ""
        count = f"{total:,}" if total is not None else f"more than {max_references:,}"
        raise MeteorInputError(f"{count} references; the limit is {max_references:,} per candidate{hint}")
    for number, r in enumerate(references, start=1):
        if r is None or isinstance(r, (bytes, bytearray, int, float)):
            # as token_pieces says it (before, [R, None] was said to "mix strings and token lists")
            raise MeteorInputError(f"{reference_field(number, len(references))} must be a string or a list of token "
                                   f"strings, not {type(r).__name__}")
    if all(isinstance(r, str) for r in references):
        return references
    if all(not isinstance(r, str) for r in references):
        return [token_pieces(r, reference_field(number, len(references)))
                for number, r in enumerate(references, start=1)]
    raise MeteorInputError("references mix strings and token lists; give one kind")


def score_each_reference(candidate: TextOrTokens, references: ReferencesInput,
                         tokenize: Callable[[TextOrTokens, str], Sequence[Token]],
                         score_tokens: Callable[[Sequence[Token], Sequence[Token]], SegmentResult],
                         signature: str, max_references: int = MAX_REFERENCES,
                         max_tokens: int = MAX_TOKENS,
                         compare: Optional[Callable[[SegmentResult, SegmentResult], Optional[int]]] = None,
                         all_blank_refused: bool = True) -> MultiReferenceResult:
    """The candidate is tokenized once; `field` names say which reference a bad input was.
    Every reference is tokenized before any is aligned, so that a call whose references hold
    more than LONGEST_REFERENCES_PER_CALL * max_tokens tokens together is refused before the
    work starts: each pair is bounded, but 100 references of 2,000 tokens took 36 s in paper
    mode (a tester). all_blank_refused: several references all blank are refused, said of them
    all (METEOR 1.5 mode scores them, 0, as the jar does)."""
    if not isinstance(candidate, str):  # read a one-shot iterable once: tokens and text both come from it
        candidate = token_pieces(candidate, "candidate")
    reference_list = as_reference_list(references, max_references)  # too many: refused before any alignment
    if not isinstance(candidate, str) and len(reference_list) > 1 and all(
            isinstance(r, str) and r.split() == [r] for r in reference_list):
        # nltk's shape is meteor_score([reference_tokens], candidate_tokens); score(tokens,
        # reference_tokens) silently scored against each token as a one-word reference (0.3333
        # for "the cat sat on a mat" vs "the cat sat on the mat" instead of 0.8067).
        raise MeteorInputError(
            f"the candidate is a list of tokens but the references are {len(reference_list)} one-word strings: "
            "were one reference's tokens given as the list of references? Pass [reference_tokens] for one "
            "tokenized reference (as nltk's meteor_score([reference_tokens], candidate_tokens)), or strings")
    cand_tokens = tokenize(candidate, "candidate")
    if all_blank_refused and all_blank(reference_list):
        # Said of them all: "reference 1 is empty" named one, as if the others were there (a tester)
        raise MeteorInputError(f"all {len(reference_list)} references are blank: no reference to score against")
    reference_tokens = [tokenize(reference, reference_field(number, len(reference_list)))
                        for number, reference in enumerate(reference_list, start=1)]
    total = sum(map(len, reference_tokens))
    max_reference_tokens = LONGEST_REFERENCES_PER_CALL * max_tokens
    if total > max_reference_tokens:
        raise MeteorInputError(
            f"the {len(reference_list)} references hold {total:,} tokens together; the limit is "
            f"{max_reference_tokens:,} per candidate (ten references of the longest allowed), which bounds "
            "a call's time: score this candidate against fewer or shorter references at a time")
    per_reference = [score_tokens(cand_tokens, tokens) for tokens in reference_tokens]
    best_index = best_of(per_reference, compare)
    return build(MultiReferenceResult, {
        "candidate": candidate if isinstance(candidate, str) else " ".join(candidate),
        "references": tuple(r if isinstance(r, str) else " ".join(r) for r in reference_list),
        "per_reference": tuple(per_reference), "best_index": best_index, "signature": signature})


#: Scores closer than this may be equal values rounded differently: a float's rounding error in
#: compute() is a few units in the last place (~1e-16), far below it.
_NEAR = 1e-12


def best_of(per_reference: Sequence[SegmentResult],
            compare: Optional[Callable[[SegmentResult, SegmentResult], Optional[int]]] = None) -> int:
    """The position of the best score, the first among equal ones. With `compare` (paper mode:
    formula.compare_exactly), scores within rounding of each other are compared as the values
    they are, so that two references scoring 1/3 tie whatever floats 1/3 rounded to; without it
    (nltk and METEOR 1.5 modes, which reproduce tools that compare floats), or where it cannot
    decide, the floats do."""
    best = 0
    for index in range(1, len(per_reference)):
        a, b = per_reference[index].score, per_reference[best].score
        sign = compare(per_reference[index], per_reference[best]) if compare is not None and abs(a - b) <= _NEAR \
            else None
        if (a > b) if sign is None else sign > 0:
            best = index
    return best


def corpus_pairs(candidates, references) -> tuple[Sequence, Sequence]:
    """A corpus's candidates and reference entries, checked once for every mode's score_corpus
    (METEOR 1.5 mode lacked these checks: generators raised a TypeError, and two Series
    with different labels scored 0.0 where the paper scorer refused them, a tester).
    Generators are read once, here: their lengths are compared and a pool needs both."""
    for name, value, instead in (("candidates", candidates, "a list of candidate strings"),
                                 ("references", references, "one entry per candidate (a string or a list of "
                                                             "references each)")):
        if isinstance(value, (str, bytes, bytearray)):
            # a string is iterable: "abc" was scored as three one-letter candidates (a tester)
            raise MeteorInputError(f"{name} must be {instead}, not "
                                   f"{'one string' if isinstance(value, str) else 'bytes'}: wrap it in a list")
    candidates = candidates if isinstance(candidates, Sized) else list(candidates)
    references = references if isinstance(references, Sized) else list(references)
    _refuse_unpaired_labels(candidates, references)
    if len(candidates) != len(references):
        raise MeteorInputError(
            f"{len(candidates)} candidates but {len(references)} reference entries; they must pair up")
    return candidates, references


def _refuse_unpaired_labels(candidates, references) -> None:
    """Two pandas Series (anything with a non-callable .index) whose labels differ: this pairs
    by position, meteor_core.frames.score_series by label, and the same two Series gave 0.8519
    here and 0 there (a tester). Refused, saying how to choose; the core does not import pandas."""
    labels = [getattr(x, "index", None) for x in (candidates, references)]
    if any(label is None or callable(label) for label in labels):
        return
    if list(labels[0]) != list(labels[1]):
        raise MeteorInputError("candidates and references are indexed series with different labels: score_corpus "
                               "pairs them by position, frames.score_series by label. Pass .tolist() of each to "
                               "pair by position, or reindex the references to the candidates' labels")
