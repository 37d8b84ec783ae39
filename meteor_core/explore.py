"""Everything one screen of the Segment Explorer shows, computed in one call: the result in the
chosen mode, the same pair in every other mode (paper, nltk, METEOR 1.5) with what makes each
differ from the chosen one, BLEU beside METEOR and sacreBLEU as papers report it. The app
renders this object; it does no scoring of its own."""
from __future__ import annotations

import unicodedata

from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from .align import align_paper
from .bleu import BleuResult
from .errors import MeteorInputError
from .formula import compute
from .methods import plural, search_of
from .nltk_mode import align_nltk
from .params import BUILTIN_STAGES, MODES, MeteorConfig
from .report import bleu_for
from .result import Link, MultiReferenceResult, SegmentResult, isolate, span_label
from .sacrebleu_view import SacreBleuView
from .sacrebleu_view import view as sacrebleu_view
from .scorer import ReferencesInput, Scorer, TextOrTokens, scorer_for
from .stages import SynonymTable, case_class
from .wordnet import load_wordnet

#: What relates two words in each mode's stage of that name (for "why" texts).
RELATION_SOURCES = {
    ("paper", "stem"): "Porter stems", ("nltk", "stem"): "Porter stems",
    ("meteor15", "stem"): "the jar's Snowball stems",
    ("paper", "synonym"): "a shared WordNet 3.0 synset (nltk's WordNet)",
    ("nltk", "synonym"): "WordNet lemma names of the candidate's Porter stem, against the reference's Porter stem "
                         "(nltk's rule)",
    ("meteor15", "synonym"): "the jar's own WordNet-derived synonym files",
    ("meteor15", "paraphrase"): "the jar's paraphrase table",
}
MODE_NAMES = {"paper": "paper", "nltk": "nltk", "meteor15": "METEOR 1.5"}
#: How a mode comes to relate a word and the same word in another case.
CASE_FOLDING = {
    "paper": "paper mode lowercases every word unless Keep case is on",
    "nltk": "nltk's Porter stemmer lowercases every word, so nltk relates them at its stem stage even with "
            "case kept (nltk's preprocess left as the identity)",
    "meteor15": "METEOR 1.5 lowercases every word (-norm)",
}


def _in_another_case(candidate_words: Sequence[str], reference_words: Sequence[str]) -> bool:
    return len(candidate_words) == len(reference_words) == 1 and \
        case_class(candidate_words[0]) != case_class(reference_words[0])


@dataclass(frozen=True)
class Cause:
    """One reason two modes score the pair differently."""

    # "single chunk" | "stages" | "parameters" | "tokens" | "paraphrase" | "case" (a word in another case, kept
    # apart by Keep case) | "relation" (stemmer, synonym source)
    # | "weight" (a one-word stem or synonym link METEOR 1.5's search counts 0)
    # | "alignment" (both could relate the words: the search chose differently)
    kind: str
    text: str  # plain text (quotes the user's words)


@dataclass(frozen=True)
class ModeComparison:
    """The same pair scored by another mode, on the winning reference of the chosen mode, and
    what makes the scores differ.

    Like with like: when paper and nltk mode are compared and the chosen configuration uses
    other stages than the other mode runs (nltk always runs exact, stem, synonym), the chosen
    mode is also scored with the other mode's stages (`same_stages`), so the stage choice and
    the method are told apart. METEOR 1.5 is compared as it is run by default (`-l en -norm`,
    with `-noPunct` when punctuation is dropped), and paper and nltk with their defaults when
    compared with it: the "Which METEOR?" view."""

    other_mode: str
    other: MultiReferenceResult
    only_in_chosen: tuple[Link, ...]  # links of the chosen result the other does not have
    only_in_other: tuple[Link, ...]  # links of the other result (its own tokens)
    same_stages: Optional[MultiReferenceResult]  # chosen mode with the other's stages; None if already equal
    causes: tuple[Cause, ...]
    same_tokens: bool = True  # both modes see the same tokens (links compared by position)
    reference_index: int = 0  # the chosen mode's best reference, on which the links are compared

    @property
    def differs(self) -> bool:
        return bool(self.only_in_chosen or self.only_in_other)

    @property
    def other_best(self) -> SegmentResult:
        """The other mode on the chosen mode's best reference (what the causes are about)."""
        return self.other.per_reference[self.reference_index]


@dataclass(frozen=True)
class Exploration:
    result: MultiReferenceResult
    bleu: BleuResult
    comparison: Optional[ModeComparison]  # the first of `comparisons` (paper <-> nltk, METEOR 1.5 -> paper)
    sacrebleu: SacreBleuView
    comparisons: tuple[ModeComparison, ...] = ()  # every other mode, in MODES order
    #: (mode, why) for each other mode that refused this pair (METEOR 1.5's limit on possible
    #: matches, say): the comparison is left out, this view's own result stands.
    left_out: tuple[tuple[str, str], ...] = ()

    def comparison_with(self, mode: str) -> Optional[ModeComparison]:
        return next((c for c in self.comparisons if c.other_mode == mode), None)


def _config_for(config: MeteorConfig, mode: str) -> MeteorConfig:
    """The configuration `mode` is compared in. Paper <-> nltk: the same parameters and
    tokenizer, the other's stages. With METEOR 1.5 on either side: each mode as it is usually
    run (its default stages and parameters), so the panel answers "which METEOR is this?"."""
    if "meteor15" in (mode, config.mode):
        # Punctuation dropped on one side is dropped on the other (the jar's -noPunct): a row
        # that kept it differed by tokens nobody asked to score (its -norm takes only lowercase).
        if mode == "meteor15":
            return MeteorConfig(mode="meteor15", language=config.language, bleu_smoothing=config.bleu_smoothing,
                                drop_punctuation=config.drop_punctuation)
        return MeteorConfig(mode=mode, language=config.language, bleu_smoothing=config.bleu_smoothing,
                            tokenizer=config.tokenizer, keep_case=config.keep_case,
                            drop_punctuation=config.drop_punctuation)
    # nltk charges the penalty for a single chunk too: it has no single-chunk rule to keep.
    rule = {"zero_penalty_single_chunk": False} if mode == "nltk" else {}
    return config.with_changes(mode=mode, stages=BUILTIN_STAGES, **rule)


def _other_modes(config: MeteorConfig) -> tuple[str, ...]:
    """paper <-> nltk first (the pair the diagram's overlay compares), then the rest."""
    first = {"paper": "nltk", "nltk": "paper", "meteor15": "paper"}[config.mode]
    return (first,) + tuple(m for m in MODES if m not in (config.mode, first))


def _relates(config: MeteorConfig, candidate_words: Sequence[str], reference_words: Sequence[str]) -> Optional[str]:
    """The stage of `config` that can link these words (alone, nothing else matched), if any."""
    if config.mode == "meteor15":
        scorer = scorer_for(config)
        alignment = scorer.matcher.align(list(candidate_words), list(reference_words))
        full = [m for m in alignment.matches
                if m.match_length == len(candidate_words) and m.length == len(reference_words)]
        if full:
            return config.stages[full[0].module]
        if len(candidate_words) == len(reference_words) == 1:
            # Alone, a one-word stem or synonym match gains nothing in the jar's search (its
            # weight 0.5 rounds down to 0), so it is not chosen although the module proposes it:
            # in a sentence it is. A proposal is what relating means.
            proposed = [k for k, count in enumerate(alignment.candidates_per_module) if count]
            return config.stages[proposed[0]] if proposed else None
        return None
    if len(candidate_words) != 1 or len(reference_words) != 1:
        return None  # word-to-word modes relate no phrases
    if config.mode == "nltk":
        stages = scorer_for(config).stages
        wordnet = load_wordnet()[0] if stages[-1].available else None  # as the nltk-mode Scorer does
        for stage, links in align_nltk(list(candidate_words), list(reference_words), wordnet):
            if links:
                return stage
        return None
    for outcome in align_paper(list(candidate_words), list(reference_words), scorer_for(config).stages):
        if outcome.links:
            return outcome.stage
    return None


def _words(tokens, start: int, stop: int) -> tuple[str, ...]:
    return tuple(t.norm for t in tokens[start:stop])


def _describe_link(result: SegmentResult, link: Link) -> str:
    return (f"{span_label(result.candidate_tokens, link.candidate, link.candidate_stop)} → "
            f"{span_label(result.reference_tokens, link.reference, link.reference_stop)} ({link.stage})")


def _keys(result: SegmentResult, by_position: bool) -> dict[tuple, Link]:
    """Links by what they relate: positions when both modes see the same tokens, else the
    words themselves, case folded (METEOR 1.5's -norm lowercases; paper mode with Keep case
    linking Big -> Large was said to differ from METEOR 1.5's big -> large: a teacher), numbered
    when the same words are linked more than once."""
    out: dict[tuple, Link] = {}
    seen: Counter = Counter()
    for l in result.links:
        if by_position:
            out[(l.candidate, l.candidate_stop, l.reference, l.reference_stop)] = l
        else:
            words = (tuple(w.lower() for w in _words(result.candidate_tokens, l.candidate, l.candidate_stop)),
                     tuple(w.lower() for w in _words(result.reference_tokens, l.reference, l.reference_stop)))
            seen[words] += 1
            out[words + (seen[words],)] = l
    return out


def _contains(tokens, words: tuple[str, ...], folded: bool = False, times: int = 1) -> bool:
    """True when `words` occur as consecutive tokens at least `times` times (`folded`: once case
    is folded)."""
    norms, n = [t.norm.lower() if folded else t.norm for t in tokens], len(words)
    words = tuple(w.lower() for w in words) if folded else words
    return sum(tuple(norms[k:k + n]) == words for k in range(len(norms) - n + 1)) >= times


def _differing(like: SegmentResult, other: SegmentResult, by_position: bool) -> tuple[list[Link], list[Link]]:
    mine, theirs = _keys(like, by_position), _keys(other, by_position)
    return ([mine[k] for k in mine if k not in theirs], [theirs[k] for k in theirs if k not in mine])


def _causes(like: SegmentResult, other: SegmentResult, by_position: bool,
            like_name: Optional[str] = None) -> list[Cause]:
    """Why `like` (chosen mode) and `other` align differently, link by link: a paraphrase (a
    module only METEOR 1.5 has); a link whose words the other mode cannot relate at all (its
    stemmer or synonym source); one it could relate but did not choose (its search). like_name:
    what to call `like` when it is not this view ("paper (with nltk's stages)"): its links were
    said as "paper links auto -> automobile" under a view whose stages drew no such link (a tester)."""
    mode, other_mode = like.config.mode, other.config.mode
    names = {**MODE_NAMES, mode: like_name} if like_name else MODE_NAMES
    mine, theirs = _differing(like, other, by_position)
    paraphrase, relation, alignment, tokens, covered, weighed_zero = [], [], [], [], [], []
    case: dict[tuple[str, str], list[str]] = {}  # (linking mode, mode that keeps case) -> links
    for links, source, target, source_mode, target_mode in ((mine, like, other, mode, other_mode),
                                                            (theirs, other, like, other_mode, mode)):
        # The how-manieth link of its words each link is (as _keys numbers them): the third "."
        # linked where the other mode's tokens hold one "." ("..." is one token there) is a
        # tokens difference, not a search's choice (a tester).
        occurrence = {id(link): key[-1] for key, link in _keys(source, False).items()}
        for link in sorted(links, key=lambda l: (l.candidate, l.reference)):
            words = (_words(source.candidate_tokens, link.candidate, link.candidate_stop),
                     _words(source.reference_tokens, link.reference, link.reference_stop))
            if by_position:
                forms = (_words(target.candidate_tokens, link.candidate, link.candidate_stop),
                         _words(target.reference_tokens, link.reference, link.reference_stop))
                # Same tokens, matched in another form (NFC, format characters): the cause when the
                # other mode relates these words as this one reads them, but not as it reads them.
                if forms != words and _relates(target.config, *forms) is None and \
                        _relates(target.config, *words) is not None:
                    tokens.append(f"{_describe_link(source, link)} in {names[source_mode]}, words "
                                  f"{names[target_mode]} mode matches as {isolate(' '.join(map(_visible, forms[0])))} "
                                  f"and {isolate(' '.join(map(_visible, forms[1])))}")
                    continue
            elif not (_contains(target.candidate_tokens, words[0], times=occurrence[id(link)])
                      and _contains(target.reference_tokens, words[1], times=occurrence[id(link)])):
                if target.config.keep_case and (_contains(target.candidate_tokens, words[0], folded=True)
                                                and _contains(target.reference_tokens, words[1], folded=True)):
                    # the other mode has these words, in another case: case, not tokens (a teacher:
                    # paper with Keep case against METEOR 1.5's lowercased -norm tokens)
                    case.setdefault((source_mode, target_mode), []).append(_describe_link(source, link))
                else:
                    tokens.append(f"{_describe_link(source, link)} in {names[source_mode]}")
                continue
            stage = _relates(target.config, *words)
            if stage is None and link.stage == "paraphrase":
                paraphrase.append(f"{_describe_link(source, link)}: {link.evidence}")
            elif stage is None and link.stage not in target.config.stages:
                relation.append(f"{names[source_mode]} links {_describe_link(source, link)}, which "
                                f"{names[target_mode]} mode cannot relate here: it runs no {link.stage} stage "
                                f"(stages {', '.join(target.config.stages)})")
            elif stage is None and target.config.keep_case and _in_another_case(*words):
                # Said as what it is: the stemmer named twice ("Porter stems; Porter stems") hid
                # that case was the difference (a teacher).
                case.setdefault((source_mode, target_mode), []).append(_describe_link(source, link))
            elif stage is None:
                how = [f"{names[m]}: {RELATION_SOURCES[(m, link.stage)]}" for m in (source_mode, target_mode)
                       if (m, link.stage) in RELATION_SOURCES]
                relation.append(f"{names[source_mode]} links {_describe_link(source, link)}, which "
                                f"{names[target_mode]} mode's "
                                f"stages cannot relate" + (f" ({link.stage}, " + "; ".join(how) + ")" if how else ""))
            else:
                phrase = _covering_phrase(target, link) if by_position else None
                if phrase is not None:
                    # Not the search: the other mode's paraphrase holds these words ("fence → fence"
                    # was listed as chosen differently, the paraphrase "the fence → a fence" not
                    # named beside it: a teacher).
                    covered.append(f"{_describe_link(source, link)} in {names[source_mode]}, whose words "
                                   f"{names[target_mode]} links in its paraphrase {_describe_link(target, phrase)}")
                elif target_mode == "meteor15" and link.stage != "exact" and \
                        link.candidate_stop - link.candidate == 1 == link.reference_stop - link.reference:
                    # Not a search that missed it: the jar's search counts such a link 0 ("running
                    # dogs" / "run dog": paper 0.9375, METEOR 1.5 0 was said to be "Search: choose
                    # differently", a teacher)
                    weighed_zero.append(_describe_link(source, link))
                else:
                    alignment.append(_describe_link(source, link) + f" in {names[source_mode]}")
    causes = []
    if tokens:
        causes.append(Cause("tokens", ("Links on words the other mode matches in another form: " if by_position
                                       else "Links on words the other mode's tokens do not have: ")
                            + _listed(tokens) + "."))
    if paraphrase or covered:
        causes.append(Cause("paraphrase", "Paraphrase (a METEOR 1.5 module, phrase to phrase; the other modes "
                                          "match single words only): " + _listed(paraphrase + covered) + "."))
    for (source_mode, target_mode), links in case.items():
        causes.append(Cause("case", f"Case: {names[source_mode]} links " + _listed(links) + ", words written "
                            f"in different case, which {names[target_mode]} mode keeps apart at every stage "
                            f"with Keep case on; {CASE_FOLDING[source_mode]}."))
    if relation:
        causes.append(Cause("relation", "Stemmer / synonym source: " + _listed(relation) + "."))
    if weighed_zero:
        causes.append(Cause("weight", f"{names['meteor15']}'s search weighs a stem, synonym or paraphrase "
                            "match 0.5 per word, rounded down on each side, so a one-word one counts 0 there and "
                            "its search may leave it out, where the other mode counts it as a whole match: "
                            + _listed(weighed_zero) + "."))
    if alignment:
        causes.append(Cause(
            "alignment",
            f"Search: both modes can relate these words but choose differently ({names[mode]}: "
            f"{search_of(like)}; {names[other_mode]}: {search_of(other)}): " + _listed(alignment)
            # the totals of every cause together: "Result:" read as this choice's own effect, where
            # a synonym link made the extra match (a tester)
            + f". The two alignments in all (every cause together): {like.stats.matches} vs {other.stats.matches} "
              f"matches, {like.stats.chunks} vs "
              f"{other.stats.chunks} chunks, {like.crossings} vs {other.crossings} crossings."))
    return causes


def _parameters_alone(chosen: SegmentResult, other_config: MeteorConfig, theirs: SegmentResult) -> str:
    """How far the other mode's alpha, beta and gamma alone move this view's score: the same
    counts (matches, lengths, chunks) through the same formula with its parameters. A teacher:
    on the paper's own example paper gives 0.8535 and METEOR 1.5 0.4275, and "Parameters" did not
    say that its beta 0.2 alone takes the score to 0.4540 (penalty 0.0185 -> 0.4816). Not from a
    METEOR 1.5 view: its P and R are weighted, and the counts would mix two formulas."""
    s, here = chosen.stats, chosen.breakdown
    if chosen.config.mode == "meteor15" or not s.matches:
        return ""
    alone = compute(s, other_config.params,
                    other_config.zero_penalty_single_chunk or other_config.mode == "meteor15")
    other = MODE_NAMES[other_config.mode]
    # Nothing left to explain, nothing said ("The rest, 1.0000 -> 1.0000, is ...": a teacher)
    rest = "" if abs(alone.score - theirs.score) <= 5e-5 else (
        f" The rest, {alone.score:.4f} -> {theirs.score:.4f}, is {other}'s weighting of words and modules "
        "and its alignment." if other_config.mode == "meteor15" else
        f" The rest, {alone.score:.4f} -> {theirs.score:.4f}, is the alignment.")
    return (f" Its alpha, beta and gamma alone, on this view's {plural(s.matches, 'match')} in "
            f"{plural(s.chunks, 'chunk')}: Fmean "
            f"{alone.fmean:.4f} (here {here.fmean:.4f}), penalty {alone.penalty:.4f} (here {here.penalty:.4f}), "
            f"METEOR {alone.score:.4f} (here {chosen.score:.4f}).{rest}")


def _parameters(config: MeteorConfig, with_rule: bool = True) -> str:
    p = config.params
    text = f"alpha {p.alpha:g}, beta {p.beta:g}, gamma {p.gamma:g}"
    if config.mode == "meteor15":
        weights = ", ".join(f"{s} {w:g}" for s, w in zip(config.stages, config.weights))
        text += (f", delta {p.delta:g} (content words weigh {p.delta:g}, function words {1 - p.delta:g}); "
                 f"module weights {weights}")
    # METEOR 1.5 always has the rule (its config flag is for paper mode): naming it only on the
    # paper side implied the jar charges a penalty there (a tester).
    if (config.zero_penalty_single_chunk or config.mode == "meteor15") and with_rule:
        text += "; no penalty when everything matches in one chunk"
    return text


#: Most items an explanation lists; the rest are counted (a 300-token pair's "Search" cause
#: listed about 100 links, its "Tokens" cause every token twice: a tester).
LISTED = 12


#: Pairs of up to this many tokens (both sides) have their tokens listed in full.
SHOWN_TOKENS = 40


def _listed(items: Sequence[str], separator: str = "; ") -> str:
    shown = separator.join(items[:LISTED])
    return shown + (f"{separator}and {len(items) - LISTED} more" if len(items) > LISTED else "")


def _visible(word: str) -> str:
    """A word with its combining marks and format characters as \\u codes: "café" typed as e and
    a combining accent looked the same as the composed one in the Tokens cause (a tester)."""
    if word.isascii():
        return word
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Mn", "Me", "Cf") else ch for ch in word)


def _same_tokens(chosen: SegmentResult, other: SegmentResult) -> bool:
    """Both modes cut both sides into the same tokens (texts and spans), whatever form each
    matches them in: then links compare by position."""
    return all((a.texts, a.starts, a.ends) == (b.texts, b.starts, b.ends)
               for a, b in ((chosen.candidate_tokens, other.candidate_tokens),
                            (chosen.reference_tokens, other.reference_tokens)))


def _tokens_cause(chosen: SegmentResult, other: SegmentResult, same_tokens: bool) -> Optional[Cause]:
    def norms(result: SegmentResult) -> Counter:
        return Counter(t.norm for t in (*result.candidate_tokens, *result.reference_tokens))

    def side(result: SegmentResult, only: Counter) -> str:
        c, r = result.candidate_tokens, result.reference_tokens
        if len(c) + len(r) <= SHOWN_TOKENS:  # short: the tokens themselves say it best
            return (f"{MODE_NAMES[result.config.mode]} sees {len(c)} + {len(r)} tokens "
                    f"({isolate(' '.join(_visible(t.norm) for t in c))} / {isolate(' '.join(_visible(t.norm) for t in r))})")
        words = [isolate(_visible(w)) for w in sorted(only, key=lambda w: (-only[w], w))]
        return (f"{MODE_NAMES[result.config.mode]} sees {len(c)} + {len(r)} tokens"
                + (f" (only in its tokens: {_listed(words, ', ')})" if words else ""))

    if [t.norm for t in chosen.candidate_tokens] == [t.norm for t in other.candidate_tokens] and \
            [t.norm for t in chosen.reference_tokens] == [t.norm for t in other.reference_tokens]:
        return None
    mine, theirs = norms(chosen), norms(other)
    if "meteor15" in (chosen.config.mode, other.config.mode):
        jar = chosen if chosen.config.mode == "meteor15" else other
        # as the jar was run (-norm was said with -noPunct or -lower on: testers)
        how = {"norm": "METEOR 1.5 uses the jar's normalizer (-norm)",
               "norm-nopunct": "METEOR 1.5 uses the jar's normalizer (-norm -noPunct)",
               "lower": "METEOR 1.5 splits at spaces and lowercases (-lower)",
               "none": "METEOR 1.5 splits at spaces, case kept (no normalization)",
               }[jar.config.meteor15_normalization] + ", the others their tokenizer"
    else:  # paper and nltk share the tokenizer: only the matching form differs (said as the jar's: a tester)
        how = ("paper mode matches words in Unicode NFC form without format characters (zero-width joiner, "
               "soft hyphen, ...) or emoji variation selectors, with \u2019 read as ' and \u0130 as i, nltk mode as "
               "written, lowercased only (invisible characters shown as \\u codes)")
    compared = ("Links are compared by position (the same tokens)" if same_tokens
                else "Links are compared by their words")
    return Cause("tokens", f"Tokens: {how}: {side(chosen, mine - theirs)}; {side(other, theirs - mine)}. "
                           f"{compared}.")


def _covering_phrase(result: SegmentResult, link: Link) -> Optional[Link]:
    """The phrase link of `result` that holds the candidate or reference word of `link` (same
    tokens, so positions compare), if any."""
    return next((p for p in result.links if p.is_phrase and (p.candidate <= link.candidate < p.candidate_stop
                                                             or p.reference <= link.reference < p.reference_stop)),
                None)


def _uses_a_stage_the_other_lacks(chosen: SegmentResult, other: SegmentResult) -> bool:
    return (any(l.stage not in other.config.stages for l in chosen.links)
            or any(l.stage not in chosen.config.stages for l in other.links))


def _single_chunk_cause(chosen: SegmentResult, other: SegmentResult) -> Optional[Cause]:
    """When one side set the penalty to 0 for a single chunk and the other charged it: on
    identical sentences the whole difference (paper 0.9977 vs METEOR 1.5 1.0), which the
    panel blamed on stages and parameters (a tester)."""
    if chosen.breakdown.single_chunk_rule == other.breakdown.single_chunk_rule:
        return None
    zeroed, charged = (chosen, other) if chosen.breakdown.single_chunk_rule else (other, chosen)
    if not charged.stats.matches:
        # Nothing matched on the other side: no penalty to compare ("paper charges 0.0000 (0
        # chunk(s), 0 matches)" where Keep case had linked nothing: a teacher).
        return None
    if zeroed.breakdown.penalty != 0:
        # METEOR 1.5's rule zeroes the fragmentation, and with beta = 0 its penalty is gamma
        # whatever the rule does: not a cause ("sets the penalty to 0" beside 0.6000, then a
        # cause that changed nothing: a teacher, a tester). The parameters cause say the rest.
        return None
    rule = ("its rule" if zeroed.config.mode == "meteor15" else "the option No penalty for one chunk")
    return Cause("single chunk",
                 f"One chunk: every word on both sides matched in one chunk, and {MODE_NAMES[zeroed.config.mode]} "
                 f"sets the penalty to 0 then ({rule}); {MODE_NAMES[charged.config.mode]} charges "
                 f"{charged.breakdown.penalty:.4f} ({plural(charged.stats.chunks, 'chunk')}, "
                 f"{plural(charged.stats.matches, 'match')}).")


def _compare(candidate: TextOrTokens, references: ReferencesInput, config: MeteorConfig,
             result: MultiReferenceResult, other_mode: str) -> ModeComparison:
    other_config = _config_for(config, other_mode)
    other = scorer_for(other_config).score(candidate, references)
    k = result.best_index
    chosen = result.best
    theirs = other.per_reference[k]
    causes: list[Cause] = []
    if other.best_index != k:
        # Its own number differs from the one compared here: say both, or the table's number
        # reads as what the other tool gives (nltk 0.6236 shown where nltk's meteor_score gives
        # 0.7212 with the five references: a captioning tester).
        count = len(result.per_reference)
        causes.append(Cause(
            "reference",
            f"Best reference: with all {count} references {MODE_NAMES[other_mode]} mode gives {other.score:.4f}, "
            f"on reference {other.best_index + 1}; this view's best is reference {k + 1}, on which the numbers "
            f"and links here are compared ({MODE_NAMES[other_mode]} {theirs.score:.4f} there)."))
    one_chunk = _single_chunk_cause(chosen, theirs)
    if one_chunk is not None:
        causes.append(one_chunk)
    same_stages = None
    like = chosen
    if tuple(config.stages) != tuple(other_config.stages):
        if "meteor15" not in (config.mode, other_mode):
            same_stages = scorer_for(config.with_changes(stages=other_config.stages)).score(candidate, references)
            like = same_stages.per_reference[k]
            if abs(like.score - chosen.score) > 1e-12 or like.links != chosen.links:
                causes.append(Cause(
                    "stages",
                    f"Stages: {other_config.mode} mode runs {', '.join(other_config.stages)}; this view uses "
                    f"{', '.join(config.stages)}. With {other_config.mode}'s stages, {config.mode} mode gives "
                    f"{like.score:.4f} (instead of {chosen.score:.4f})."))
        elif _uses_a_stage_the_other_lacks(chosen, theirs):
            # Named only when a link comes from a stage the other mode does not run: on identical
            # sentences "runs ... paraphrase" was listed though nothing but exact matched (a tester).
            causes.append(Cause("stages", f"Stages: {MODE_NAMES[other_mode]} runs {', '.join(other_config.stages)}; "
                                          f"{MODE_NAMES[config.mode]} here runs {', '.join(config.stages)}."))
    # The one-chunk rule among the parameters only where it set a penalty to 0 on this pair and
    # no cause says so already: named on "on the mat sat the cat" (6 chunks), it read as a reason
    # for the difference (a teacher).
    with_rule = one_chunk is None and (chosen.breakdown.single_chunk_rule or theirs.breakdown.single_chunk_rule)
    if _parameters(config, with_rule) != _parameters(other_config, with_rule):
        causes.append(Cause("parameters", f"Parameters: {MODE_NAMES[config.mode]} {_parameters(config, with_rule)}; "
                                          f"{MODE_NAMES[other_mode]} {_parameters(other_config, with_rule)}."
                            + _parameters_alone(chosen, other_config, theirs)))
    same_tokens = _same_tokens(chosen, theirs)
    tokens = _tokens_cause(chosen, theirs, same_tokens)
    # By position whenever the tokens are the same, though matched in other forms: compared by
    # their forms, "café" written with a combining accent was listed as linked only in each mode
    # and haloed, where both modes linked it (a tester).
    by_position = tokens is None or same_tokens
    link_causes = _causes(like, theirs, by_position,
                          None if like is chosen else f"{MODE_NAMES[config.mode]} (with {MODE_NAMES[other_mode]}'s stages)")
    if tokens is not None and (not same_tokens or any(c.kind == "tokens" for c in link_causes)):
        causes.append(tokens)  # with the same tokens, only when a link differs by its forms
    for cause in link_causes:
        if cause.kind == "tokens" and tokens is not None:  # one "tokens" cause: how they differ, then the links
            causes[causes.index(tokens)] = tokens = Cause("tokens", f"{tokens.text} {cause.text}")
        else:
            causes.append(cause)
    only_chosen, only_other = _differing(chosen, theirs, by_position)
    return ModeComparison(other_mode, other, tuple(only_chosen), tuple(only_other), same_stages, tuple(causes),
                          by_position, k)


#: Longest side for which "Which METEOR?" also runs METEOR 1.5 (a view the user did not ask
#: for): its beam search takes about 50 us per possible match, 0.5 s at 300 tokens, 5 s at
#: 1,000 (random text of 18 words), and made the page that slow.
COMPARE_METEOR15_TOKENS = 300


def explore(candidate: TextOrTokens, references: ReferencesInput, config: MeteorConfig,
            synonym_tables: Sequence[SynonymTable] = ()) -> Exploration:
    scorer = Scorer(config, synonym_tables) if synonym_tables else scorer_for(config)
    result = scorer.score(candidate, references)
    comparisons: list[ModeComparison] = []
    left_out: list[tuple[str, str]] = []
    others = _other_modes(config)
    if not synonym_tables and config.language == "en":  # nltk and METEOR 1.5 modes exist for English only
        longest = max(len(result.best.candidate_tokens), max(len(r.reference_tokens) for r in result.per_reference))
        for mode in others:
            if mode == "meteor15" and longest > COMPARE_METEOR15_TOKENS:
                left_out.append((mode, f"a pair over {COMPARE_METEOR15_TOKENS} tokens a side ({longest}): its search "
                                       "takes seconds at this length, so the comparison leaves it out; choose METEOR "
                                       "1.5 mode to score the pair with it"))
                continue
            try:
                comparisons.append(_compare(candidate, references, config, result, mode))
            except MeteorInputError as error:  # a limit of the other mode, not of this view
                left_out.append((mode, str(error)))
    bleu = bleu_for(result)
    first = comparisons[0] if comparisons and comparisons[0].other_mode == others[0] else None
    return Exploration(result, bleu, first, sacrebleu_view(result, bleu), tuple(comparisons), tuple(left_out))
