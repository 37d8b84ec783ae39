"""What a configuration does, in words, and a step-through of one result built from it.

`describe(config)` says how the configuration's mode aligns and scores; `walkthrough(result)`
turns one scored pair into steps (tokens, each stage that adds links, crossings, chunks, the
formula), each with its text filled in from this pair's numbers and what to draw. Pages render
these and never hard-code a method: a new mode is one more entry in METHODS.

Texts are plain text (no markup): they quote the user's words, so renderers show them as text."""
from __future__ import annotations

from bisect import bisect_right, insort
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from .align import count_crossings
from .params import METEOR15_STAGES, MeteorConfig
from .result import Link, SegmentResult, isolate, span_label
from .stages import case_class, porter_stem
from .tokenize import is_punctuation


@dataclass(frozen=True)
class MethodDescription:
    mode: str
    title: str  # "paper mode: Banerjee & Lavie 2005, exact search"
    selection: str  # how a stage chooses its links among the pairs it relates (one clause)
    searches: bool  # True: the largest one-to-one set, then `tie_breaks`; False: a greedy scan
    tie_breaks: str  # for searches: what decides among the largest sets
    minimizes_crossings: bool  # "fewest crossings" is part of how links are chosen
    fixed_stages: bool  # the mode runs its own stages whatever the configuration says
    notes: tuple[str, ...] = ()  # further true statements about the mode
    search: str = ""  # how the alignment is chosen, in a few words ("greedy right-to-left scan")
    has_objective: bool = False  # the alignment objective (crossings / chunks) applies
    pooled: bool = False  # every stage proposes into one pool, one search chooses (METEOR 1.5)
    unit: str = "word"  # what a token is called (token_noun): "character" for Chinese and Japanese

    @property
    def summary(self) -> str:
        if self.pooled:
            return f"{self.title}. {self.selection[0].upper()}{self.selection[1:]}."
        return f"{self.title}. Each stage {self.selection}."

    def stage_choice(self, related: int, kept: int) -> str:
        """What one stage did, in this mode's terms (`related`: pairs it could link; in a pooled
        mode, the matches it proposed)."""
        if self.pooled:
            return (f"it proposed {plural(related, 'match')} to the pool; the final alignment keeps "
                    f"{plural(kept, 'link')} of this module")
        if not self.searches:
            return f"it {self.selection}: {plural(kept, 'link')}"
        # "relates N pairs" was not defined anywhere (a teacher): the word pairs its rule allows.
        pairs = plural(related, f"candidate-reference {self.unit} pair")
        if related == kept:
            return f"its rule allows {pairs}, all compatible: it keeps all of them"
        return (f"its rule allows {pairs}; the largest one-to-one set has {plural(kept, 'link')}, and "
                f"among such sets it keeps the one with {self.tie_breaks}")


def _paper(config: MeteorConfig) -> MethodDescription:
    if config.objective == "chunks":
        tie_breaks = ("the fewest chunks, then the fewest crossings, then the leftmost partners (fewest chunks: a "
                      "teaching toggle in the spirit of METEOR 1.5)")
    else:
        tie_breaks = "the fewest crossings over the whole alignment, then the fewest chunks, then the leftmost partners"
    return MethodDescription(
        "paper", "paper mode: Banerjee & Lavie 2005, exact search",
        f"keeps the largest set of one-to-one links among the {token_noun(config, 2)} still unmatched, and among "
        f"those the one with {tie_breaks}", searches=True, tie_breaks=tie_breaks,
        minimizes_crossings=config.objective == "crossings",
        fixed_stages=False, search=f"fewest {config.objective} after the most matches (exact search)",
        has_objective=True,
        notes=("The search is exact (a dynamic program over candidate positions, pruned by bounds; few "
               "choices are simply enumerated); if it runs out of its work budget it keeps the best alignment "
               "found and says that optimality is not proven.",))


def _nltk(config: MeteorConfig) -> MethodDescription:
    return MethodDescription(
        "nltk", "nltk mode: reproduces nltk.translate.meteor_score",
        "scans the candidate words from the last to the first and links each to the last still-unused reference "
        "word that qualifies (greedy: no search for fewer crossings or chunks)",
        searches=False, tie_breaks="", minimizes_crossings=False, fixed_stages=True,
        search="greedy right-to-left scan",
        notes=("Stages are fixed: exact, then Porter stem, then WordNet synonym.",
               "The synonym stage receives the Porter stems of the words still unmatched, on both sides: a "
               "reference word qualifies when its stem is a lemma name of a WordNet synset of the candidate stem "
               "(one direction only). So big~large does not match (large is stemmed to larg), nor auto~automobile.",))


#: The words the method and the steps use, defined before the first step (a teacher: crossings
#: and chunks were used before any step said what they are).
#: {word} / {words}: token_noun's, so that Chinese and Japanese say "character".
_TERMS = ("Terms: a link joins a candidate {word} to a reference {word} it matches; two links cross when one goes "
          "to the right of the other on one row and to the left on the other; a chunk is a run of links "
          "adjacent and in the same order on both rows; the fragmentation is chunks / matched {words}.")
#: What the bracketed numbers in link texts are: a teacher read "the [0] → the [1]" against the
#: diagram's chunk numbers, which count from 1.
_POSITIONS = ("A number in brackets is a {word}'s position, counted from 0 as in the JSON output (“{example} "
              "[{index}]” is the {whose}{ordinal} {word}); chunks are numbered from 1.")
_EXAMPLE_CHARS = 24  # a pasted URL or a run of unspaced text can be a 2,000-character token
#: An English word was the example of a Chinese character (a helper); "token": a mix of both.
_EXAMPLE = {"word": "cat", "character": "猫", "token": "猫"}
TERMS = _TERMS.format(word="word", words="words")
POSITIONS = _POSITIONS.format(word="word", example="cat", index=1, ordinal="second", whose="")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def token_noun(subject: "MeteorConfig | SegmentResult", n: int = 1) -> str:
    """What one token is called in the texts, plural unless n == 1: a configuration's (its
    token_unit) or, better where there is one, a scored pair's (SegmentResult.token_unit: a mix
    of characters and words is "tokens"). Chinese and Japanese characters were called "words"."""
    noun = subject.token_unit
    return noun if n == 1 else f"{noun}s"


def _ordinal(index: int) -> str:
    """The position counted from 1, in words up to tenth ("11th", "22nd", "113th" after)."""
    number = index + 1
    if number <= len(_ORDINALS):
        return _ORDINALS[index]
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _example_index(texts: Sequence[str]) -> int:
    """Which candidate token the positions note shows: the second one with a letter or digit
    ("“, [1]” is the candidate's second word" taught nothing), else the only one, else the
    second token whatever it is."""
    words = [index for index, text in enumerate(texts) if not is_punctuation(text)]
    return words[1] if len(words) > 1 else words[0] if words else 1


def _listed_example(result: SegmentResult, listed: Sequence[Link]) -> Optional[tuple[int, str]]:
    """(position, side) of a one-token end of a listed link for the positions note: a word of the
    candidate first, then of the reference, then any one token; one past position 0 where there
    is one ("[1] is the second" shows the count from 0 better than "[0] is the first"). None when
    every end is a phrase."""
    ends = [(side, start) for word in (True, False) for side in ("candidate", "reference") for link in listed
            for start, stop in [(link.candidate, link.candidate_stop) if side == "candidate" else
                                (link.reference, link.reference_stop)]
            if stop - start == 1 and word != is_punctuation(_side_tokens(result, side).texts[start])]
    if not ends:
        return None
    side, start = next((end for end in ends if end[1] > 0), ends[0])
    return start, side


def _side_tokens(result: SegmentResult, side: str):
    return result.candidate_tokens if side == "candidate" else result.reference_tokens


def positions(subject: "MeteorConfig | SegmentResult", listed: Sequence[Link] = ()) -> str:
    """POSITIONS in the subject's unit (token_noun); for a scored pair, one of its tokens is the
    example (a class looks for “cat [1]” in a pair without a cat): one of the `listed` links' when
    given (the list the note stands under: “y [1]” stood under "has to [12:14] → must [1]", a
    tester), else one of the candidate's."""
    noun = token_noun(subject)
    candidate_texts = subject.candidate_tokens.texts if isinstance(subject, SegmentResult) else ()
    if not candidate_texts:
        return _POSITIONS.format(word=noun, example=_EXAMPLE[noun], index=1, ordinal="second", whose="")
    found = _listed_example(subject, listed) if listed else None
    if found is not None:
        index, side = found
    else:  # a one-token candidate is its own example: “cat [1]” stood under "cat [0] → cat [0]" (a tester)
        index, side = (_example_index(candidate_texts) if len(candidate_texts) > 1 else 0), "candidate"
    example = _side_tokens(subject, side).texts[index]
    if len(example) > _EXAMPLE_CHARS:  # the link list above has it whole
        example = example[:_EXAMPLE_CHARS - 1] + "…"
    # isolated as the link list isolates it: Arabic showed as “[1] جلست” under "جلست [1]" (a tester)
    text = _POSITIONS.format(word=noun, example=isolate(example), index=index, ordinal=_ordinal(index),
                             whose=f"{side}'s ")
    phrase = next((link for link in (listed or subject.links) if link.is_phrase), None)
    if phrase is not None:
        # METEOR 1.5's phrase links show spans ("said that [1:3]"), which the note did not explain
        # (a tester); the first one listed (or the pair's) is the example, on the side that is a phrase.
        start, stop = ((phrase.candidate, phrase.candidate_stop) if phrase.candidate_stop - phrase.candidate > 1
                       else (phrase.reference, phrase.reference_stop))
        covered = f"{start} and {start + 1}" if stop - start == 2 else f"{start} to {stop - 1}"
        text += f" A span [a:b] is the {noun}s from position a up to b, b left out: [{start}:{stop}] is {noun}s {covered}."
    return text


def terms(subject: "MeteorConfig | SegmentResult") -> str:
    """TERMS as the mode computes the fragmentation: METEOR 1.5 divides by the mean of the matched
    words of the two sides (a phrase link can match 2 words to 1), which its step 7 said while
    the terms above it said "chunks / matched words" (a tester). In a scored pair's unit and with
    its own example where there is one (as the steps and the table below them)."""
    config = subject.config if isinstance(subject, SegmentResult) else subject
    if config.mode == "meteor15":
        return TERMS.replace("chunks / matched words.", "chunks / the mean of the words matched on each side "
                                                        "(METEOR 1.5: a phrase can match two words to one).") \
            + " " + positions(subject)
    return f"{_TERMS.format(word=token_noun(subject), words=token_noun(subject, 2))} {positions(subject)}"


def step_positions(result: SegmentResult, step: "Step") -> str:
    """The positions note under a step's list (its details), its example from the links listed:
    a stage's new links, or the crossing pairs named."""
    listed = [link for pair in step.crossings[:LISTED_CROSSINGS] for link in pair] if step.key == "crossings" \
        else step.new_links
    return positions(result, listed)


#: How METEOR 1.5's search ranks partial alignments (meteor_core.meteor15.align).
METEOR15_RANKING = (
    # in steps a student can follow (a teacher found the quirk's sentence hard to read out)
    "ranking partial alignments by weighted matches first (an exact word counts 1, a word matched another "
    "way 0.5, and each side's total is rounded down, so a lone one-word stem, synonym or paraphrase match "
    "counts 0), then by fewer chunks, then by smaller distance. The jar counts that distance oddly, and it is "
    "reproduced: how far apart a match's two positions are is added to the partial alignments that leave the "
    "match out, not to the one that takes it, so a farther link can win a tie")
METEOR15_SEARCH = f"the jar's beam search (width 40) over reference positions, {METEOR15_RANKING}"


def _meteor15(config: MeteorConfig) -> MethodDescription:
    from .meteor15.align import BEAM_SIZE

    return MethodDescription(
        "meteor15", "METEOR 1.5 mode: reproduces the jar (Denkowski & Lavie 2014), java -jar meteor-1.5.jar "
                    "-l en -norm",
        f"all its modules ({', '.join(config.stages)}) propose matches into one pool, a paraphrase match "
        f"relating a phrase to a phrase; the matches nothing competes with are fixed first, the rest chosen by "
        f"{METEOR15_SEARCH.replace('width 40', f'width {BEAM_SIZE}')}",
        searches=True, tie_breaks="", minimizes_crossings=False, fixed_stages=False,
        search=f"beam search (width {BEAM_SIZE}), not an optimum", pooled=True,
        notes=("The beam search is the jar's, quirks included: its alignment is not proven optimal and can have "
               "more chunks than the best one.",
               "Identical sentences run only the first module. Everything matched in one chunk: no penalty.",
               "Function words (the jar's English list) weigh 1 - delta in precision and recall, content words "
               "delta; each module's matches count with its weight."))


#: mode -> what a configuration in that mode does. A new mode is one more entry.
METHODS: dict[str, Callable[[MeteorConfig], MethodDescription]] = {"paper": _paper, "nltk": _nltk,
                                                                   "meteor15": _meteor15}


@dataclass(frozen=True)
class Change:
    """One thing METEOR 1.5 does differently from the 2005 paper."""

    topic: str
    paper: str  # the 2005 definition (paper mode)
    meteor15: str  # METEOR 1.5 (meteor15 mode)


#: What changed between the 2005 paper and METEOR 1.5 (Denkowski & Lavie 2014), as the two modes
#: implement them. Plain text; {word} / {words} in the paper column: token_noun's (changes_2005_to_15).
_CHANGES_2005_TO_15: tuple[Change, ...] = (
    Change("parameters", "alpha 0.9, beta 3, gamma 0.5: the penalty cuts at most 50%",
           "alpha 0.85, beta 0.2, gamma 0.6, delta 0.75 (the jar's English defaults, tuned to human rankings): "
           "a penalty of up to 60%, and beta 0.2 makes even a little fragmentation cost a lot (2 chunks over "
           "6 matched words: 0.6 × (2/6)^0.2 = 0.48, where 2005 charges 0.5 × (2/6)^3 = 0.019)"),
    Change("weighting", "every {word} counts 1: P = m / |candidate|, R = m / |reference|",
           "content words weigh delta, function words (the jar's English list) 1 - delta, and each module's "
           "matches its weight (exact 1.0, stem 0.6, synonym 0.8, paraphrase 0.6)"),
    Change("Fmean", "P R / (alpha P + (1 - alpha) R)",
           "the same harmonic mean, on the weighted P and R: 1 / ((1 - alpha) / P + alpha / R)"),
    Change("fragmentation", "chunks / matched {words}",
           "chunks / the mean of the matched words on the two sides (a phrase can have other lengths on each "
           "side); 0 when every word matched in one chunk"),
    Change("matching", "{word} to {word}: exact, Porter stem, WordNet synonym, one stage after another",
           "exact, Snowball stem, its own WordNet-derived synonyms, and paraphrases from a phrase table "
           "(phrase to phrase), all proposed at once"),
    Change("tokens", "{tokens}, {case}",
           "the jar's normalizer (-norm): lowercased, punctuation split off, abbreviations and contractions "
           "handled its way (\"it's\" -> \"it 's\", \"U.S.\" -> \"us\")"),
    Change("search", "the largest one-to-one alignment with the fewest crossings (exact search here)",
           "unambiguous matches fixed, then a beam search of width 40 that keeps its best candidate: fast, "
           "not an optimum"),
)
def changes_2005_to_15(subject: "MeteorConfig | SegmentResult | None" = None) -> tuple[Change, ...]:
    """The 2005-to-1.5 table with paper mode's column in the subject's unit (token_noun; words
    without a subject): under Chinese it said "every word counts 1" of characters. METEOR 1.5
    mode is English only, so its column keeps words, and says so for a pair in any other
    language. The paper column's matching row is a paper-mode pair's own stages (_paper_matching)
    and its tokens row says whether case was kept."""
    noun = token_noun(subject) if subject is not None else "word"
    config = subject.config if isinstance(subject, SegmentResult) else subject
    mode = config.mode if config is not None else "paper"
    # Paper mode's tokens as its tokens step says them, under the pair's (or configuration's)
    # tokenizer and punctuation setting in paper mode, else its defaults: the row said "words and
    # punctuation marks" under the whitespace tokenizer and Drop punctuation (a tester).
    paper = config if mode == "paper" and config is not None else MeteorConfig()
    names = {"word": noun, "words": f"{noun}s", "tokens": _tokenization(paper),
             "case": "case kept" if paper.keep_case else "lowercased"}
    # a METEOR 1.5 pair's own normalization where it is not the jar's -norm (written out below)
    meteor15_tokens = (METEOR15_NORMALIZATION_TEXT[config.meteor15_normalization]
                       if isinstance(subject, SegmentResult) and mode == "meteor15"
                       and config.meteor15_normalization != "norm" else None)
    # METEOR 1.5 mode refuses other languages (its data here is the jar's English): said wherever
    # the pair is not English, German and French too (a tester), not only where tokens are characters.
    language = getattr(config, "language", "en")
    english_only = "" if noun == "word" and language == "en" else \
        "; English only (the jar's -l en data): its tokens are words"
    matching = _paper_matching(subject, noun)
    return tuple(replace(change, paper=matching if change.topic == "matching" and matching else
                         change.paper.format(**names),
                         meteor15=(meteor15_tokens or change.meteor15) + english_only if change.topic == "tokens"
                         else change.meteor15)
                 for change in _CHANGES_2005_TO_15)


_ENGLISH_STAGES = ("exact", "stem", "synonym")


def _paper_matching(subject: "MeteorConfig | SegmentResult | None", noun: str) -> str:
    """The matching row of a scored pair whose stages are not the English ones (another language,
    a stage off or unavailable), from its stages as they ran: under French or Chinese the table
    said "exact, Porter stem, WordNet synonym" while the steps said Snowball and MyThes, or that
    no stemmer or synonyms exist (a helper). "" otherwise (the row as written)."""
    if not isinstance(subject, SegmentResult) or subject.config.mode != "paper":
        return ""  # the column is paper mode's: a METEOR 1.5 pair's modules are the other column's
    statuses = subject.stage_status
    ran = [s for s in statuses if s.available]
    if (subject.config.language == "en" and len(ran) == len(statuses)
            and tuple(s.stage for s in statuses) == _ENGLISH_STAGES):
        return ""
    not_run = " or ".join(s.stage for s in statuses if not s.available)
    if len(ran) == 1:
        text = f"{noun} to {noun}, {ran[0].stage} only: {ran[0].description}"
    else:
        text = f"{noun} to {noun}, one stage after another. " + "; ".join(f"{s.stage}: {s.description}" for s in ran)
    return text + (f". No {not_run} stage here" if not_run else "")


def recall_weight(alpha: float) -> str:
    """How Fmean weighs R against P for 0 < alpha < 1, in words ("recall weighs 1 times as much
    as precision" at 0.5: a teacher-tester)."""
    if alpha == 0.5:
        return "recall and precision weigh the same (the plain harmonic mean)"
    if alpha > 0.5:
        return f"recall weighs {alpha / (1 - alpha):.3g} times as much as precision"
    return f"precision weighs {(1 - alpha) / alpha:.3g} times as much as recall"


def search_of(result) -> str:
    """How `result`'s alignment was chosen: the method's search, and, where the search ran out
    of its budget, that on this pair it is not proven (a page said "exact search" right under
    the warning that it was not: a tester)."""
    search = describe(result.config).search
    return search if result.optimal else f"{search}; not proven optimal on this pair (node budget)"


def describe(config: MeteorConfig) -> MethodDescription:
    try:
        method = METHODS[config.mode]
    except KeyError:
        raise KeyError(f"no description for mode {config.mode!r}: add one to meteor_core.methods.METHODS") from None
    return replace(method(config), unit=token_noun(config))


# -- crossings ----------------------------------------------------------------------------
def crossing_pairs(links: Sequence[Link], limit: int = 200) -> tuple[tuple[Link, Link], ...]:
    """Pairs of links that cross ((i - k)(j - l) < 0), at most `limit` of them (for drawing).
    Sweeps the candidate order keeping earlier links sorted by reference position: the earlier
    links with a larger reference position are exactly those that cross the current one."""
    earlier: list[tuple[int, int, Link]] = []  # (reference, candidate, link), sorted
    found = []
    for link in sorted(links, key=lambda l: (l.candidate, l.reference)):
        start = bisect_right(earlier, (link.reference, float("inf")))
        for _, candidate, other in earlier[start:]:
            if candidate < link.candidate:
                found.append((other, link))
                if len(found) >= limit:
                    return tuple(found)
        insort(earlier, (link.reference, link.candidate, link))
    return tuple(found)


# -- the step-through ---------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One step of the step-through: its text and what the diagram shows. Every step changes
    what is on screen: stages that add no link are told inside a neighbouring step."""

    key: str  # "tokens", "stage:<name>", "crossings", "chunks", "P and R", "Fmean", "penalty", "score"
    label: str  # short, for the step selector
    text: str
    details: tuple[str, ...] = ()  # one line per new link: words, positions, evidence
    warnings: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()  # drawn
    new_links: tuple[Link, ...] = ()  # drawn emphasised
    #: What the emphasised links are, for the legend: in METEOR 1.5's search step they are the
    #: matches fixed *before* the search ("new in this step" read as the search's choice: a teacher).
    new_links_label: str = "new in this step"
    crossings: tuple[tuple[Link, Link], ...] = ()  # crossing pairs, highlighted
    show_chunks: bool = False
    formula: str = ""  # which part of the formula this step shows ("" for none)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("ch") else "s")


def _link_words(result: SegmentResult, link: Link) -> str:
    """A link as its words and positions on both sides: "cat [1] → cat [5]"."""
    return (f"{span_label(result.candidate_tokens, link.candidate, link.candidate_stop)} → "
            f"{span_label(result.reference_tokens, link.reference, link.reference_stop)}")


def _link_line(result: SegmentResult, link: Link) -> str:
    evidence = "" if link.stage == "exact" else f": {link.evidence}"
    return f"{_link_words(result, link)}, {link.stage}{evidence}"


#: Crossing pairs listed under the crossings step's diagram (the rest are counted).
LISTED_CROSSINGS = 12


def _crossing_lines(result: SegmentResult, pairs: Sequence[tuple[Link, Link]], total: int) -> tuple[str, ...]:
    """The crossing pairs in words, to count along: where several cross at one point the
    diagram's marks sit on top of each other (a teacher could not count the 8 it names)."""
    lines = [f"{k}. {_link_words(result, a)} crosses {_link_words(result, b)}"
             for k, (a, b) in enumerate(pairs[:LISTED_CROSSINGS], start=1)]
    if total > len(lines):
        lines.append(f"… and {total - len(lines):,} more")
    return tuple(lines)


def _char_level(config: MeteorConfig) -> bool:
    """Chinese or Japanese: the languages whose default tokens are characters."""
    from .languages import resolve

    return resolve(config.language).char_level


def _tokenizer(config: MeteorConfig) -> str:
    """The tokenizer the configuration means: default is characters for Chinese and Japanese."""
    return "char" if config.tokenizer == "default" and _char_level(config) else config.tokenizer


def _tokenization(config: MeteorConfig) -> str:
    """What the tokens of paper and nltk mode are under this configuration ("words and
    punctuation marks"), for the tokens step and the 2005-to-1.5 table."""
    from .languages import resolve

    tokenizer = _tokenizer(config)
    how = {"default": "words and punctuation marks", "whitespace": "the text split at spaces",
           # Only Chinese and Japanese characters are split: "abc" is one token, "我用Python" three
           "char": "single Chinese and Japanese characters, other words and numbers whole",
           "segmenter": "words found by a word segmenter",
           "nltk": "words and punctuation as nltk's word_tokenize splits them (\"don't\" is do + n't)"}.get(tokenizer, tokenizer)
    if tokenizer == "default" and resolve(config.language).elisions:
        # the tokens a page shows split "J'aime" in two, the sentence said only "words" (a teacher)
        how += ", an elided word with its apostrophe apart from the next (\"l'école\" is l' + école)"
    if config.drop_punctuation:  # "words and punctuation marks" said so with the marks left out
        how = f"{how}; tokens of punctuation or symbols only are then left out"
    return how


def _tokens_text(result: SegmentResult) -> str:
    config = result.config
    how = _tokenization(config)
    case = "Case is kept." if config.keep_case else "Matching compares lowercased forms."
    if result.meteor15 is not None:
        how = METEOR15_NORMALIZATION_TEXT[config.meteor15_normalization]
        detail = result.meteor15
        function_c, function_r = sum(detail.candidate_function_words), sum(detail.reference_function_words)
        return (f"The candidate has {plural(result.stats.candidate_length, 'token')}, the reference "
                f"{result.stats.reference_length}: {how}. Function words in the jar's English list: "
                f"{function_c} in the candidate, {function_r} in the reference (italic on the diagram): they weigh "
                f"1 - delta = {1 - config.params.delta:g} in precision and recall, content words delta = {config.params.delta:g}.")
    if config.keep_case and config.mode == "paper":
        apart = _kept_apart_by_case(result)
        if apart:
            shown = ", ".join(f"{c} / {r}" for c, r in apart[:6]) + (f" and {len(apart) - 6} more" if len(apart) > 6 else "")
            case += (f" Words written in different case (lowercase, Title, UPPER) never match, at any stage: {shown} "
                     "stay apart here.")
    return (f"The candidate has {plural(result.stats.candidate_length, 'token')}, the reference "
            f"{result.stats.reference_length}. Tokens are {how}. {case}")


def _kept_apart_by_case(result: SegmentResult) -> list[tuple[str, str]]:
    """(candidate word, reference word) pairs equal but for case that Keep case keeps apart
    (stages.case_class): the page said "Case is kept." and left the user to find them."""
    references = list(dict.fromkeys(t.text for t in result.reference_tokens))
    return list(dict.fromkeys((c.text, r) for c in result.candidate_tokens for r in references  # in text order
                              if c.text != r and c.text.lower() == r.lower() and case_class(c.text) != case_class(r)))


#: The jar's normalization levels, as the tokens step tells them.
METEOR15_NORMALIZATION_TEXT = {
    "norm": "words from the jar's normalizer (-norm: lowercased, punctuation split off, abbreviations and "
            "contractions handled its way)",
    "norm-nopunct": "words from the jar's normalizer without punctuation (-norm -noPunct)",
    "lower": "the text split at spaces and lowercased (-lower)",
    "none": "the text split at spaces, case kept (no normalization)",
}


def _idle_stage_text(result: SegmentResult, index: int) -> tuple[str, str]:
    """(sentence, warning) for a stage that added no link."""
    snapshot = result.snapshots[index]
    status = next((s for s in result.stage_status if s.stage == snapshot.stage), None)
    if status is not None and not status.available:
        return (f"{snapshot.stage} is unavailable and adds nothing",
                f"The {snapshot.stage} stage is unavailable: {status.message}")
    if describe(result.config).pooled:
        if result.meteor15.identical and index > 0:
            return f"{snapshot.stage} did not run (identical sentences: the jar runs only its first module)", ""
        if snapshot.candidate_edges:
            kept = "not kept" if snapshot.candidate_edges == 1 else "none kept"
            # Why, for the modules the search weighs 0.5 per word (a teacher: "cats" / "cat" scored
            # 0 beside "stem proposed 1 match", with no reason given).
            why = "" if snapshot.stage == "exact" else (
                f" (the search weighs a {snapshot.stage} match 0.5 per word, rounded down on each side, so a "
                "one-word one counts 0 and is kept only where nothing competes for its words or it saves a chunk)")
            return f"{snapshot.stage} proposed {plural(snapshot.candidate_edges, 'match')}, {kept} by the search{why}", ""
        return f"{snapshot.stage} proposes no match", ""
    if not snapshot.unmatched_candidate or not snapshot.unmatched_reference:
        return f"{snapshot.stage} has nothing left to match", ""
    return f"{snapshot.stage} finds no qualifying pair among the {token_noun(result, 2)} left", ""


def _stem_stand_in(result: SegmentResult, snapshot) -> str:
    """With the stem stage off, the synonym links a stem would have made, said: a teacher turned
    stem off to show what it adds and nothing changed (WordNet's lemmas cover inflected forms:
    cars ~ car, started ~ starts)."""
    config = result.config
    if snapshot.stage != "synonym" or config.mode != "paper" or "stem" in config.stages or config.language != "en":
        return ""
    same = [l for l in snapshot.new_links if porter_stem(result.candidate_tokens[l.candidate].norm)
            == porter_stem(result.reference_tokens[l.reference].norm)]
    if not same:
        return ""
    shown = ", ".join(_link_words(result, l) for l in same[:4]) + (f" and {len(same) - 4} more" if len(same) > 4 else "")
    return (f" With the stem stage off, WordNet links {plural(len(same), 'pair')} that share a Porter stem too "
            f"({shown}): its word forms cover inflections, so turning stem off changes little here.")


def _stage_steps(result: SegmentResult, method: MethodDescription) -> tuple[list[Step], list[str], list[str]]:
    """One step per stage that adds links. Idle stages are told in the next productive step (or,
    after the last one, in the last). Returns (steps, sentences and warnings left for no step)."""
    steps: list[Step] = []
    pending: list[str] = []
    pending_warnings: list[str] = []
    total = len(result.snapshots)
    descriptions = {s.stage: s.description for s in result.stage_status}
    units = token_noun(result, 2)
    for index, snapshot in enumerate(result.snapshots):
        if not snapshot.new_links:
            sentence, warning = _idle_stage_text(result, index)
            if steps and index > 0 and all(not s.new_links for s in result.snapshots[index:]):
                previous = steps[-1]  # idle stages after the last productive one: told there
                steps[-1] = replace(previous, text=f"{previous.text} Then {sentence}.",
                                    warnings=previous.warnings + ((warning,) if warning else ()))
            else:
                pending.append(sentence)
                if warning:
                    pending_warnings.append(warning)
            continue
        before = f"First, {'; '.join(pending)}. " if pending else ""
        choice = method.stage_choice(snapshot.candidate_edges, len(snapshot.new_links))
        if method.searches and not method.pooled and not snapshot.optimal:
            choice += (" (the best set found: the search ran out of its node budget before proving that none is "
                       "better)")
        crossings = count_crossings([(l.candidate, l.reference) for l in snapshot.links])
        crossing_text = ""
        if method.minimizes_crossings or crossings:  # the pairs are highlighted in the crossings step
            crossing_text = " No two links cross." if not crossings else \
                f" Crossings so far (pairs of links that cross; see the crossings step): {crossings}."
        left = (f" Unmatched now: {len(snapshot.unmatched_candidate)} candidate and "
                f"{len(snapshot.unmatched_reference)} reference {method.unit}(s).")
        if method.pooled:  # every module saw every word; the search chose among all proposals at once
            left = (f" Unmatched after the modules shown so far: {len(snapshot.unmatched_candidate)} candidate and "
                    f"{len(snapshot.unmatched_reference)} reference word(s).")
            text = (f"{before}Module {index + 1} of {total}: {snapshot.stage}, {descriptions.get(snapshot.stage, '')}. "
                    f"Looking at all the words, {choice}.{left}")
        else:
            text = (f"{before}Stage {index + 1} of {total}: {snapshot.stage}, "
                    f"{descriptions.get(snapshot.stage, '')}. Among the {units} still unmatched, {choice}."
                    f"{crossing_text}{left}")
        text += _stem_stand_in(result, snapshot)
        steps.append(Step(f"stage:{snapshot.stage}", f"after {snapshot.stage}", text,
                          tuple(_link_line(result, l) for l in snapshot.new_links),
                          tuple(pending_warnings), snapshot.links, snapshot.new_links))
        pending, pending_warnings = [], []
    return steps, pending, pending_warnings


#: Where each kind of step comes in every mode's walkthrough (stage steps in stage order).
STEP_ORDER = ("tokens", "stage", "crossings", "search", "chunks", "P and R", "Fmean", "penalty", "score")


def _step_rank(key: str) -> tuple[int, int]:
    kind, _, stage = key.partition(":")
    stage_rank = METEOR15_STAGES.index(stage) if stage in METEOR15_STAGES else len(METEOR15_STAGES)
    return (STEP_ORDER.index(kind) if kind in STEP_ORDER else len(STEP_ORDER), stage_rank)


def corresponding_step(key: str, steps: Sequence[Step]) -> int:
    """The index in `steps` of the step that takes the place of the step `key` of another
    walkthrough (same pair, another mode): the step with the same key, else the first that comes
    after it (nltk's "crossings" and METEOR 1.5's "beam search" lead to "chunks"), else the
    last. A teacher on the penalty step who switches mode stays on the penalty step."""
    rank = _step_rank(key)
    for index, step in enumerate(steps):
        if _step_rank(step.key) >= rank:
            return index
    return len(steps) - 1


def walkthrough(result: SegmentResult) -> tuple[Step, ...]:
    """The steps from tokens to score for one scored pair, true for its configuration."""
    method = replace(describe(result.config), unit=token_noun(result))  # this pair's tokens
    s, b, p = result.stats, result.breakdown, result.config.params
    unit, units = method.unit, token_noun(result, 2)  # "character(s)" for Chinese and Japanese
    stage_steps, idle, idle_warnings = _stage_steps(result, method)
    tokens_text = _tokens_text(result)
    if not stage_steps:  # no stage found anything: nothing would change on the diagram
        told = "; ".join(idle) if idle else "no stage ran"
        nothing = "No link is kept" if method.pooled else f"No {unit} matches"  # pooled: matches were proposed
        return (Step("tokens", "tokens", f"{tokens_text} {nothing} ({told}). {b.note[0].upper()}{b.note[1:]}.",
                     warnings=tuple(idle_warnings)),)
    steps = [Step("tokens", "tokens", tokens_text)] + stage_steps
    if method.pooled:
        return tuple(steps + _meteor15_steps(result, method))
    links = result.links
    crossings = crossing_pairs(links)
    if crossings:
        if method.minimizes_crossings:
            why = ("Each stage chose, among its largest sets of links, one with the fewest crossings given the "
                   "links of earlier stages" + ("" if result.optimal else " (not proven: the search ran out of its "
                                                 "node budget)") + ".")
        elif method.searches:
            why = "This objective prefers fewer chunks and accepts crossings to get them."
        else:
            why = "This mode does not look at crossings: its greedy scan can create crossings a search would avoid."
        steps.append(Step(
            "crossings", "crossings",
            f"Two links cross when one goes to the right of the other on one row and to the left on the other: "
            f"(i - k)(j - l) < 0 for links (i, j) and (k, l). This alignment has "
            f"{plural(result.crossings, 'crossing')} ("
            + ("the crossing pairs are highlighted" if len(crossings) == result.crossings else
               f"the first {len(crossings)} crossing pairs are highlighted") + f"). {why}",
            links=links, crossings=crossings, details=_crossing_lines(result, crossings, result.crossings)))
    steps.append(Step(
        "chunks", "chunks",
        f"The {plural(s.matches, f'matched {unit}')} group" + ("s" if s.matches == 1 else "")
        + f" into {plural(s.chunks, 'chunk')}: runs of adjacent candidate {units} "
        f"linked, in the same order, to adjacent reference {units} (numbered bands). Fewer, longer chunks mean the "
        f"{unit} order agrees.", links=links, show_chunks=True))
    steps.append(Step(
        "P and R", "P and R",
        f"With m = {s.matches} matched {token_noun(result, s.matches)}: precision P = m / |candidate| = "
        f"{s.matches}/{s.candidate_length} = {b.precision:.4f}; recall R = m / "
        f"|reference| = {s.matches}/{s.reference_length} = {b.recall:.4f}.",
        links=links, show_chunks=True, formula="P and R"))
    if 0 < p.alpha < 1:
        weight = (f" With alpha = {p.alpha:g}, {recall_weight(p.alpha)}"
                  + ("; here P = R, so Fmean equals both." if b.precision == b.recall else
                     ", so Fmean is pulled toward R." if p.alpha > 0.5 else
                     ", so Fmean is pulled toward P." if p.alpha < 0.5 else "."))
    else:
        weight = " With alpha = 1, Fmean is R." if p.alpha == 1 else " With alpha = 0, Fmean is P."
    steps.append(Step(
        "Fmean", "Fmean", f"Fmean = P R / (alpha P + (1 - alpha) R) = {b.fmean:.4f}.{weight}",
        links=links, show_chunks=True, formula="Fmean"))
    if b.single_chunk_rule:
        # "0.5 × (1/6)^3 = 0.0000" was false arithmetic (a teacher): 0 by the rule, the formula's value beside it
        penalty_text = (f"Penalty = 0: every {unit} matched in one chunk and the option No penalty for one chunk is on "
                        f"(METEOR 1.5's convention"
                        + ("; with beta = 0 the jar itself would still charge gamma, as it zeroes the fragmentation"
                           if p.beta == 0 else "")
                        + f"). Without it: gamma (chunks / matches)^beta = {p.gamma:g} × "
                        f"({s.chunks}/{s.matches})^{p.beta:g} = {p.gamma * b.fragmentation ** p.beta:.4f}.")
    else:
        penalty_text = (f"Penalty = gamma (chunks / matches)^beta = {p.gamma:g} × ({s.chunks}/{s.matches})^{p.beta:g} "
                        f"= {b.penalty:.4f}.")
    penalty_text += (f" chunks / matches is the fragmentation: 1 when every matched {unit} is a chunk of its own, 1/m "
                     f"when all are one chunk. gamma = {p.gamma:g} is the largest share of the score the penalty can "
                     f"take; {beta_effect(p.beta)}. The denominator is the matched {units}, not the candidate length.")
    if not b.single_chunk_rule and s.chunks == 1 and s.matches == s.candidate_length == s.reference_length:
        # A teacher: "cat" / "cat" scored 0.5000, identical sentences 0.9977, and nothing said why.
        penalty_text += (f" Every matched {unit} is in one chunk, yet the 2005 formula still charges gamma (1/m)^beta: "
                         f"{b.penalty:.4f} here"
                         + (f", the full gamma, as one matched {unit} is a chunk of its own" if s.matches == 1 else "")
                         + f"; so a perfect match scores below 1 ({b.score:.4f} here). "
                         + ("nltk's meteor_score charges it too; paper mode's option No penalty for one chunk (METEOR "
                            "1.5's convention) sets it to 0." if result.config.mode == "nltk" else
                            "The option No penalty for one chunk (METEOR 1.5's convention) sets it to 0."))
    if b.note and not b.single_chunk_rule:
        penalty_text += f" {b.note[0].upper()}{b.note[1:]}."
    steps.append(Step("penalty", "penalty", penalty_text, links=links, show_chunks=True, formula="penalty"))
    steps.append(Step(
        "score", "score",
        f"METEOR = Fmean × (1 - Penalty) = {b.fmean:.4f} × {1 - b.penalty:.4f} = {b.score:.4f}.",
        links=links, show_chunks=True, formula="score"))
    return tuple(steps)


def beta_effect(beta: float, beta_name: str = "beta", gamma_name: str = "gamma") -> str:
    """What beta does to the penalty, for /how and the breakdown's note ("beta = 0 sets how fast
    it falls", and "with beta = 0 < 1 even a little fragmentation costs much", were said of a
    penalty that is gamma whatever the fragmentation: a teacher). The names: "β", "γ" where the
    page writes symbols."""
    if beta == 0:
        return f"{beta_name} = 0 makes the penalty {gamma_name} whatever the fragmentation (x^0 = 1)"
    if beta < 1:
        return f"{beta_name} = {beta:g} (below 1) makes even a little fragmentation cost much"
    if beta == 1:
        return f"{beta_name} = 1 makes the penalty grow in proportion to the fragmentation"
    return (f"{beta_name} = {beta:g} sets how fast the penalty falls as chunks get longer: a little fragmentation "
            "costs little")


#: Pairs up to this many tokens (both sides together) get the other objective's alignment on
#: the crossings and chunks steps: a teaching view, and the fewest-chunks search grows with length.
CONTRAST_MAX_TOKENS = 120


def other_objective(objective: str) -> str:
    return "chunks" if objective == "crossings" else "crossings"


def objective_contrast(shown: SegmentResult, other: SegmentResult) -> str:
    """What the other alignment objective makes of the same pair, when it aligns it otherwise,
    else "". A teacher's classic pair ("the cat sat on the mat" / "on the mat sat the cat") shows
    6 chunks and 0.5000 under fewest crossings; that fewest chunks finds 3 and 0.9375 was said
    only at the foot of the page."""
    if (other.stats, other.crossings) == (shown.stats, shown.crossings):
        return ""
    matched = ("" if other.stats.matches == shown.stats.matches else
               f" ({plural(other.stats.matches, f'matched {token_noun(shown)}')} instead of {shown.stats.matches})")
    # An alignment the search did not prove was presented as the objective's answer ("2 chunks
    # with 39 crossings" where the optimum has fewer chunks: a teacher).
    found = ("the best alignment found within the search budget (not proven optimal: the objective's optimum may "
             "score higher) has" if not other.optimal else "the pair aligns in")
    return (f"With fewest {other.config.objective} instead (the sidebar's Alignment objective), {found} "
            f"{plural(other.stats.chunks, 'chunk')} with {plural(other.crossings, 'crossing')}{matched}: "
            f"METEOR {other.score:.4f} instead of {shown.score:.4f}. The 2005 paper takes fewest crossings; "
            "METEOR 1.5 prefers fewer chunks.")


def _meteor15_steps(result: SegmentResult, method: MethodDescription) -> list[Step]:
    """After the modules: the jar's search, chunks and its weighted formula with this pair's
    numbers (the same numbers as result.meteor15.weighted)."""
    from .meteor15.align import BEAM_SIZE

    detail, p, links = result.meteor15, result.config.params, result.links
    s, w = detail.stats, detail.weighted
    proposed = ", ".join(f"{st.stage} {n}" for st, n in zip(result.stage_status, detail.proposed_matches))
    fixed = tuple(links[k] for k in detail.fixed_links)
    identical = " The sentences are identical, so only the first module ran." if detail.identical else ""
    steps = [Step(
        "search", "beam search",
        f"The modules proposed {plural(sum(detail.proposed_matches), 'match')} ({proposed}).{identical} "
        + (f"{plural(len(fixed), 'match')} that nothing competes with (one-to-one, every word covered once) "
           f"{'was' if len(fixed) == 1 else 'were'} fixed first (highlighted); then " if fixed else
           "No match is unambiguous (every one competes with another for a word), so ")
        + (f"nothing was left for the search: {plural(len(links), 'link')} in all." if fixed and len(fixed) == len(links)
           # The search's name, its choice, then how it ranks: the ranking between them ended in "a
           # farther link can win a tie chose the rest", which did not read (a teacher).
           else f"the jar's beam search (width {BEAM_SIZE}) chose {'the rest' if fixed else 'among them'}: "
                f"{plural(len(links), 'link')} in all. It goes over reference positions, {METEOR15_RANKING}. "
                "The beam keeps its best candidate, not a proven optimum."), links=links, new_links=fixed,
        new_links_label="fixed before the search")]
    steps.append(Step(
        "chunks", "chunks",
        f"The matched words group into {plural(s.chunks, 'chunk')}: runs of matches adjacent on both sides, in the "
        f"same order (numbered bands). {plural(s.candidate_matches, 'candidate word')} and "
        f"{plural(s.reference_matches, 'reference word')} are matched (a paraphrase can cover a different number of "
        "words on each side).",
        links=links, show_chunks=True))
    d = p.delta

    def side(name: str, length: int, function: int, weighted_matches: float, weighted_length: float) -> str:
        used = [m for m in s.modules if getattr(m, name + "_content") or getattr(m, name + "_function")]
        terms = " + ".join(f"{m.module} {m.weight:g}×({d:g}×{getattr(m, name + '_content')} + {1 - d:g}×"
                           f"{getattr(m, name + '_function')})" for m in used) or "0"
        return (f"{terms} = {weighted_matches:.4f} weighted matches over {d:g}×{length - function} + {1 - d:g}×"
                f"{function} = {weighted_length:.4f} weighted words")

    steps.append(Step(
        "P and R", "weighted P and R",
        f"Each matched word counts delta = {d:g} if it is a content word and 1 - delta = {1 - d:g} if it is a "
        f"function word, times its module's weight. Precision P: {side('candidate', s.candidate_length, s.candidate_function_words, w.candidate_weighted_matches, w.candidate_weighted_length)}"
        f": P = {w.precision:.4f}. Recall R: {side('reference', s.reference_length, s.reference_function_words, w.reference_weighted_matches, w.reference_weighted_length)}"
        f": R = {w.recall:.4f}.", links=links, show_chunks=True, formula="P and R"))
    steps.append(Step(
        "Fmean", "Fmean",
        f"Fmean = 1 / ((1 - alpha) / P + alpha / R) = 1 / ({1 - p.alpha:g} / {w.precision:.4f} + {p.alpha:g} / "
        f"{w.recall:.4f}) = {w.fmean:.4f}. With alpha = {p.alpha:g}, {recall_weight(p.alpha)}." if 0 < p.alpha < 1 else
        f"Fmean = 1 / ((1 - alpha) / P + alpha / R) = {w.fmean:.4f} (alpha = {p.alpha:g}).",
        links=links, show_chunks=True, formula="Fmean"))
    if w.single_chunk_rule:
        penalty = (f"Every word on both sides matched in one chunk: METEOR 1.5 sets the fragmentation to 0, so the "
                   f"penalty is gamma × 0^beta = {w.penalty:.4f}.")
    else:
        penalty = (f"Fragmentation = chunks / mean matched words = {s.chunks} / (({s.candidate_matches} + "
                   f"{s.reference_matches}) / 2) = {w.fragmentation:.4f}; penalty = gamma × frag^beta = {p.gamma:g} × "
                   f"{w.fragmentation:.4f}^{p.beta:g} = {w.penalty:.4f}."
                   + (f" {beta_effect(p.beta)[0].upper()}{beta_effect(p.beta)[1:]} (2005: beta 3, where a little "
                      f"costs little)." if p.beta < 1 else ""))
    steps.append(Step("penalty", "penalty", penalty, links=links, show_chunks=True, formula="penalty"))
    note = f" {w.note[0].upper()}{w.note[1:]}." if w.note else ""
    steps.append(Step(
        "score", "score",
        f"METEOR 1.5 = Fmean × (1 - penalty) = {w.fmean:.4f} × {1 - w.penalty:.4f} = {w.score:.4f}.{note}",
        links=links, show_chunks=True, formula="score"))
    return steps
