"""meteor_core.methods: what each configuration does, in words, and the step-through built from
a result. The texts must be true for the mode and objective (nltk is greedy, the chunks
objective prefers chunks), chunks appear only from the chunks step on, every step changes what
is drawn, and crossing pairs are exactly the pairs with (i - k)(j - l) < 0."""
import itertools

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import MODES, MeteorConfig, MeteorParams, score
from meteor_core.methods import METHODS, crossing_pairs, describe, objective_contrast, walkthrough
from meteor_core.result import Link


def _steps(candidate, reference, **config):
    return walkthrough(score(candidate, [reference], **config).best)


def _drawn(step):
    """Everything a step puts on screen besides its text."""
    return (tuple(step.links), tuple(step.new_links), tuple(step.crossings), step.show_chunks, step.formula)


def test_every_mode_is_described():
    assert set(MODES) <= set(METHODS), "a mode without a description cannot be shown on /how"


def test_descriptions_say_what_each_configuration_does():
    paper = describe(MeteorConfig())
    chunks = describe(MeteorConfig(objective="chunks"))
    nltk = describe(MeteorConfig(mode="nltk"))
    assert "fewest crossings" in paper.selection and paper.minimizes_crossings and paper.searches
    assert chunks.selection.index("fewest chunks") < chunks.selection.index("fewest crossings")
    assert not chunks.minimizes_crossings
    assert "greedy" in nltk.selection and "crossings" not in nltk.selection.replace("no search for fewer crossings", "")
    assert not nltk.searches and nltk.fixed_stages and not paper.fixed_stages


def test_nltk_steps_do_not_claim_a_search(wordnet_reader):
    steps = _steps("the cat sat on a mat", "the cat sat on the mat", mode="nltk")
    text = " ".join(s.text for s in steps)
    assert "from the last to the first" in text
    assert "largest one-to-one set" not in text and "fewest crossings" not in text
    crossings = next(s for s in steps if s.key == "crossings")
    # nltk links candidate "the" [0] to reference "the" [4]: it crosses cat, sat, on.
    assert {(a.candidate, a.reference, b.candidate, b.reference) for a, b in crossings.crossings} == {
        (0, 4, 1, 1), (0, 4, 2, 2), (0, 4, 3, 3)}
    assert "does not look at crossings" in crossings.text


def test_objective_is_named_in_each_stage_step(wordnet_reader):
    by_crossings = _steps("on the mat sat the cat", "the cat sat on the mat")
    by_chunks = _steps("on the mat sat the cat", "the cat sat on the mat", objective="chunks")
    exact_crossings = next(s for s in by_crossings if s.key == "stage:exact").text
    exact_chunks = next(s for s in by_chunks if s.key == "stage:exact").text
    assert "the one with the fewest crossings over the whole alignment, then the fewest chunks" in exact_crossings
    assert "the one with the fewest chunks, then the fewest crossings" in exact_chunks
    assert "Crossings so far (pairs of links that cross; see the crossings step): 8." in exact_crossings
    assert "see the crossings step): 11." in exact_chunks
    assert "6 chunks" in next(s for s in by_crossings if s.key == "chunks").text
    assert "3 chunks" in next(s for s in by_chunks if s.key == "chunks").text


def test_chunks_only_from_the_chunks_step_and_every_step_changes_the_screen(wordnet_reader):
    # The default pair: all three stages add links; complete after synonym, two chunks.
    for config in ({}, {"objective": "chunks"}, {"mode": "nltk"}, {"stages": ("exact", "stem")}):
        steps = _steps("the cars started quickly and the auto stopped", "the car starts fast and the automobile halted",
                       **config)
        keys = [s.key for s in steps]
        first_chunks = keys.index("chunks")
        assert not any(s.show_chunks for s in steps[:first_chunks]), config
        assert all(s.show_chunks for s in steps[first_chunks:]), config
        for before, after in zip(steps, steps[1:]):
            assert _drawn(before) != _drawn(after), (config, before.key, after.key)
        assert len(set(s.label for s in steps)) == len(steps)


def test_idle_stages_are_told_not_stepped(wordnet_reader):
    # Identical sentences: exact matches everything, stem and synonym have nothing left.
    steps = _steps("the cat sat", "the cat sat")
    assert [s.key for s in steps] == ["tokens", "stage:exact", "chunks", "P and R", "Fmean", "penalty", "score"]
    exact = steps[1].text
    assert "Then stem has nothing left to match. Then synonym has nothing left to match." in exact
    # A stage that finds nothing before one that does: told in the next productive step.
    steps = _steps("cars", "car")
    assert steps[1].key == "stage:stem" and steps[1].text.startswith("First, exact finds no qualifying pair")


def test_unavailable_stage_is_a_warning_in_a_step():
    steps = _steps("eles chegaram", "ele chegou", language="de")  # German: no synonym resource
    warned = [w for s in steps for w in s.warnings]
    assert any("synonym stage is unavailable" in w for w in warned)


def test_no_match_is_one_step():
    steps = _steps("a b", "c d", stages=("exact",))
    assert len(steps) == 1 and "No word matches" in steps[0].text and "undefined" in steps[0].text


def test_formula_steps_carry_this_pairs_numbers(wordnet_reader):
    steps = {s.key: s for s in _steps("the president spoke to the audience", "the president then spoke to the audience",
                                     stages=("exact",))}
    assert "6/6 = 1.0000" in steps["P and R"].text and "6/7 = 0.8571" in steps["P and R"].text
    assert "0.5 × (2/6)^3 = 0.0185" in steps["penalty"].text
    assert "= 0.8535" in steps["score"].text  # spec section 6: 0.853462
    assert "recall weighs 9 times as much as precision" in steps["Fmean"].text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=9))
def test_crossing_pairs_are_the_pairs_that_cross(pairs):
    seen_c, seen_r, links = set(), set(), []
    for c, r in pairs:  # one-to-one, as alignments are
        if c not in seen_c and r not in seen_r:
            seen_c.add(c)
            seen_r.add(r)
            links.append(Link(c, r, "exact", ""))
    expected = {frozenset({(a.candidate, a.reference), (b.candidate, b.reference)})
                for a, b in itertools.combinations(links, 2)
                if (a.candidate - b.candidate) * (a.reference - b.reference) < 0}
    found = [frozenset({(a.candidate, a.reference), (b.candidate, b.reference)})
             for a, b in crossing_pairs(links, 10**6)]
    assert len(found) == len(set(found)) and set(found) == expected
    assert len(crossing_pairs(links, limit=2)) == min(2, len(expected))


def test_meteor15_steps_carry_the_jars_numbers(meteor15_data):
    result = score("the cars started quickly and the auto stopped", ["the car starts fast and the automobile halted"],
                   mode="meteor15").best
    w = result.meteor15.weighted
    steps = {s.key: s for s in walkthrough(result)}
    assert list(steps) == ["tokens", "stage:exact", "stage:stem", "stage:synonym", "stage:paraphrase", "search",
                           "chunks", "P and R", "Fmean", "penalty", "score"]
    assert "Function words in the jar's English list: 3 in the candidate, 3 in the reference" in steps["tokens"].text
    assert "quickly and [3:5] → fast and [3:5], paraphrase" in steps["stage:paraphrase"].details[0]
    assert "proposed 14 matches to the pool" in steps["stage:paraphrase"].text
    assert "beam search (width 40)" in steps["search"].text and "Among the words still unmatched" not in \
        " ".join(s.text for s in steps.values())
    assert f"P = {w.precision:.4f}" in steps["P and R"].text and f"R = {w.recall:.4f}" in steps["P and R"].text
    assert f"= {w.fmean:.4f}" in steps["Fmean"].text and f"= {w.score:.4f}" in steps["score"].text
    assert "fragmentation to 0" in steps["penalty"].text  # one chunk: the jar's rule
    # The search step's highlighted links are the matches fixed before it, and its legend says
    # so ("new in this step" read as the search's choice: a teacher); module steps keep theirs.
    assert steps["search"].new_links_label == "fixed before the search"
    fixed_first = score("the cat sat on a mat", ["the cat sat on the mat"], mode="meteor15").best
    search = next(s for s in walkthrough(fixed_first) if s.key == "search")
    assert len(search.new_links) == 4 and len(search.links) == 5  # 4 fixed first, 1 chosen by the search
    assert "fixed first (highlighted)" in search.text
    assert steps["stage:exact"].new_links_label == "new in this step"
    from lens.figures import alignment_diagram
    legend = [t.name for t in alignment_diagram(fixed_first, links=search.links, new_links=search.new_links,
                                                new_links_label=search.new_links_label).data if t.name]
    assert f"fixed before the search ({len(search.new_links)})" in legend
    drawn = [_drawn(s) for s in steps.values()]
    assert all(a != b for a, b in zip(drawn, drawn[1:]))
    summary = describe(result.config).summary
    assert "one pool" in summary and "not proven" not in summary and not describe(result.config).has_objective


def test_steps_say_when_the_search_gave_up_and_when_not_every_crossing_is_drawn():
    """A tester's find (a 330-token pair): the stage step said it kept the set with the fewest
    crossings although the node budget ran out, and the crossings step said "the crossing pairs
    are highlighted" for 4,483 crossings of which 200 were."""
    import random

    from meteor_core import MeteorConfig, Scorer

    rng = random.Random(3)
    words = ["the", ",", "a", "of"] * 40
    shuffled = words[:]
    rng.shuffle(shuffled)
    result = Scorer(MeteorConfig(stages=("exact",), node_budget=300)).score(words, [shuffled[:-20]]).best
    assert not result.optimal and result.crossings > 200
    steps = {step.key: step for step in walkthrough(result)}
    assert "the best set found: the search ran out of its node budget" in steps["stage:exact"].text
    assert f"{result.crossings:,} crossings (the first 200 crossing pairs are highlighted)" in steps["crossings"].text
    assert len(steps["crossings"].crossings) == 200
    small = Scorer(MeteorConfig(stages=("exact",))).score("the cat sat on a mat", ["on a mat the cat sat"]).best
    steps = {step.key: step for step in walkthrough(small)}
    assert small.optimal and "ran out" not in steps["stage:exact"].text
    assert "(the crossing pairs are highlighted)" in steps["crossings"].text


def test_teaching_texts_define_their_terms_and_fit_the_pair(wordnet_reader):
    """A teacher's findings: the penalty step gave beta and gamma no words, P and R used m
    unnamed, Fmean was "pulled toward R" when P = R."""
    steps = {s.key: s for s in _steps("the president spoke to the audience", "the president then spoke to the audience",
                                     stages=("exact",))}
    assert "With m = 6 matched words: precision P" in steps["P and R"].text
    penalty = steps["penalty"].text
    assert "chunks / matches is the fragmentation" in penalty and "gamma = 0.5 is the largest share" in penalty
    assert "beta = 3 sets how fast the penalty falls" in penalty
    assert "pulled toward R." in steps["Fmean"].text  # P 1, R 6/7
    equal = {s.key: s for s in _steps("the car stopped", "the car halted", stages=("exact",))}
    assert "here P = R, so Fmean equals both." in equal["Fmean"].text and "pulled" not in equal["Fmean"].text


def test_penalty_texts_tell_the_truth_at_beta_0_and_under_the_one_chunk_rule(meteor15_data):
    """A teacher: with beta = 0 "sets how fast it falls" (it does not fall) and METEOR 1.5's
    "penalty 0: every word matched in one chunk" beside a penalty of 0.6 (gamma * 0^0); and
    paper mode's one-chunk rule shown as "0.5 × (1/6)^3 = 0.0000"."""
    same = "the cat sat on the mat"
    flat = {s.key: s.text for s in _steps(same, same + " now", params=MeteorParams(0.9, 0.0, 0.5))}["penalty"]
    assert "beta = 0 makes the penalty gamma whatever the fragmentation" in flat and "falls" not in flat
    ruled = {s.key: s.text for s in _steps(same, same, zero_penalty_single_chunk=True)}["penalty"]
    # 0.5 * (1/6)^3 = 1/432 = 0.0023, the value the rule replaced
    assert ruled.startswith("Penalty = 0: every word matched in one chunk and the option No penalty")
    assert "0.5 × (1/6)^3 = 0.0023" in ruled and "= 0.0000" not in ruled
    jar_beta_0 = MeteorParams(0.85, 0.0, 0.6, 0.75)
    jar = score(same, [same], mode="meteor15", params=jar_beta_0).best.meteor15.weighted
    assert (jar.penalty, jar.score) == (0.6, pytest.approx(0.4))  # the jar: 0.4 with -p "0.85 0 0.6 0.75"
    assert jar.note.startswith("fragmentation 0: every word matched in one chunk") and "gamma = 0.6" in jar.note
    assert score(same, [same], mode="meteor15").best.meteor15.weighted.note.startswith("penalty 0:")
    steps = {s.key: s.text for s in _steps(same, same, mode="meteor15", params=jar_beta_0)}
    assert "Penalty 0" not in steps["score"] and "the penalty is gamma * 0^0 = gamma = 0.6" in steps["score"]


def test_meteor15_texts_say_why_a_proposal_is_not_kept_and_when_nothing_is_left(meteor15_data):
    """A teacher: "cats" / "cat" scores 0 in METEOR 1.5 mode beside "stem proposed 1 match, none of
    them kept" and "No word matches", with no reason; "1 candidate and 1 reference words"; the
    search "chose the rest" when nothing was left; its distance rule seemed broken by the
    feline pair's the -> the[4] (the jar's own choice: it charges distance to skipping paths)."""
    (only,) = walkthrough(score("cats", ["cat"], mode="meteor15").best)
    assert only.text.startswith("The candidate has 1 token, the reference 1:")
    assert "No link is kept (exact proposes no match; stem proposed 1 match, not kept by the search (the search " \
           "weighs a stem match 0.5 per word, rounded down on each side, so a one-word one counts 0" in only.text
    steps = {s.key: s for s in walkthrough(score("cat", ["cat"], mode="meteor15").best)}
    assert "1 candidate word and 1 reference word are matched" in steps["chunks"].text
    assert "nothing was left for the search: 1 link in all." in steps["search"].text
    feline = score("The feline sat on a mat", ["The cat sat on the mat"], mode="meteor15").best
    assert f"{feline.score:.4f}" == "0.2890"  # the jar's number
    assert ("how far apart a match's two positions are is added to the partial alignments that leave the match out"
            in {s.key: s for s in walkthrough(feline)}["search"].text)


def test_meteor15_search_step_reads_as_sentences(wordnet_reader, meteor15_data):
    """A teacher: the ranking rule sat between "the jar's beam search" and its verb ("... so a
    farther link can win a tie chose the rest")."""
    from meteor_core import score
    from meteor_core.methods import walkthrough

    result = score("he did not go to school because he was sick", ["because he was ill he did not attend school"],
                   mode="meteor15").best
    text = next(s.text for s in walkthrough(result) if s.key == "search")
    assert "then the jar's beam search (width 40) chose the rest: 9 links in all. It goes over reference positions, " \
           "ranking partial alignments by weighted matches" in text
    assert text.endswith("so a farther link can win a tie. The beam keeps its best candidate, not a proven optimum.")


def test_keep_case_names_the_words_it_keeps_apart():
    """/how said only "Case is kept." (a teacher): now the tokens step names the pairs equal but
    for case that never match, in text order; words in the same case class are not listed."""
    from meteor_core import MeteorConfig, Scorer

    config = MeteorConfig(keep_case=True, stages=("exact",))
    result = Scorer(config).score("The Cat sat on THE mat", ["the cat sat on the Mat"]).best
    text = walkthrough(result)[0].text
    assert text.endswith("Case is kept. Words written in different case (lowercase, Title, UPPER) never match, at "
                         "any stage: The / the, Cat / cat, THE / the, mat / Mat stay apart here.")
    assert result.stats.matches == 2  # sat, on: the four pairs named did not match
    same = Scorer(config).score("the cat", ["the cat"]).best
    assert walkthrough(same)[0].text.endswith("Case is kept.")
    folded = Scorer(MeteorConfig(stages=("exact",))).score("The Cat", ["the cat"]).best
    assert walkthrough(folded)[0].text.endswith("Matching compares lowercased forms.")


def test_objective_contrast_names_the_other_alignment_with_hand_checked_numbers(wordnet_reader):
    """the cat sat on the mat / on the mat sat the cat: m = 6, P = R = Fmean = 1. Fewest
    crossings links the two 'the' in order: 8 crossings, 6 chunks, penalty 0.5 (6/6)^3 = 0.5,
    score 0.5. Fewest chunks swaps them: 11 crossings, 3 chunks, penalty 0.5 (3/6)^3 = 1/16,
    score 15/16 = 0.9375."""
    cand, ref = "the cat sat on the mat", "on the mat sat the cat"
    crossings = score(cand, [ref], config=MeteorConfig(objective="crossings")).best
    chunks = score(cand, [ref], config=MeteorConfig(objective="chunks")).best
    assert (crossings.stats.chunks, crossings.crossings, crossings.score) == (6, 8, 0.5)
    assert (chunks.stats.chunks, chunks.crossings, chunks.score) == (3, 11, 15 / 16)
    assert objective_contrast(crossings, chunks).startswith(
        "With fewest chunks instead (the sidebar's Alignment objective), the pair aligns in 3 chunks with "
        "11 crossings: METEOR 0.9375 instead of 0.5000.")
    assert "6 chunks with 8 crossings: METEOR 0.5000 instead of 0.9375" in objective_contrast(chunks, crossings)
    # both objectives agree (2 chunks, no crossing): nothing to say
    same = [score("the president spoke to the audience", ["the president then spoke to the audience"],
                  config=MeteorConfig(objective=o)).best for o in ("crossings", "chunks")]
    assert objective_contrast(*same) == ""
    # A teacher: under a small budget the fewest-chunks search stops at 7 chunks (brute force over the
    # 2,880 maximum alignments: 6 chunks, 0.9606) and the box said "the pair aligns in 7 chunks"
    cand = "the cat and the dog and the bird saw the cat and the dog"
    ref = "the dog and the cat saw the bird and the cat and the dog"
    shown = score(cand, [ref], node_budget=50).best
    stopped = score(cand, [ref], objective="chunks", node_budget=50).best
    assert shown.optimal and not stopped.optimal and stopped.stats.chunks == 7
    assert "the best alignment found within the search budget (not proven optimal" in objective_contrast(shown, stopped)
    assert score(cand, [ref], objective="chunks").best.stats.chunks == 6


def test_the_crossings_step_lists_each_crossing_pair_in_words(wordnet_reader):
    """Where several links cross at one point the diagram's marks overlap, and a teacher could not
    count the 8 crossings the step names: the pairs are listed (brute force is the judge)."""
    result = score("the cat sat on the mat", ["on the mat sat the cat"]).best
    step = next(s for s in walkthrough(result) if s.key == "crossings")
    brute = {(a.candidate, b.candidate) for a, b in itertools.combinations(result.links, 2)
             if (a.candidate - b.candidate) * (a.reference - b.reference) < 0}
    assert len(brute) == result.crossings == 8 == len(step.details)
    listed = set()
    for line in step.details:
        first, second = line.split(". ", 1)[1].split(" crosses ")
        positions = [int(side.split("[")[1].rstrip("]")) for side in (*first.split(" → "), *second.split(" → "))]
        assert (positions[0] - positions[2]) * (positions[1] - positions[3]) < 0, line
        listed.add(tuple(sorted((positions[0], positions[2]))))
    assert listed == {tuple(sorted(p)) for p in brute}
    assert step.details[1] == "2. the [0] → the [1] crosses on [3] → on [0]"
    # many crossings: twelve listed, the rest counted
    words = [f"w{k}" for k in range(8)]
    reversed_pair = score(" ".join(words), [" ".join(reversed(words))]).best  # every pair crosses: 28
    step = next(s for s in walkthrough(reversed_pair) if s.key == "crossings")
    assert reversed_pair.crossings == 28 and len(step.details) == 13 and step.details[-1] == "… and 16 more"


def test_with_stem_off_the_synonym_step_says_it_links_what_stem_would(wordnet_reader):
    """A teacher turned the stem stage off to show what stemming adds and the score stayed
    0.8648: WordNet's word forms link cars ~ car and started ~ starts. The synonym step says so."""
    from meteor_core import score
    from meteor_core.methods import walkthrough

    pair = ("the cars started quickly and the auto stopped", ["the car starts fast and the automobile halted"])
    without = score(*pair, stages=("exact", "synonym")).best
    assert without.score == score(*pair).best.score  # what the teacher saw
    text = next(s.text for s in walkthrough(without) if s.key == "stage:synonym")
    assert ("With the stem stage off, WordNet links 2 pairs that share a Porter stem too (cars [1] → car [1], "
            "started [2] → starts [2])") in text
    with_stem = next(s.text for s in walkthrough(score(*pair).best) if s.key == "stage:synonym")
    assert "stem stage off" not in with_stem


def test_the_tokens_step_says_french_elisions_are_split(wordnet_reader):
    """A teacher: /how said "Tokens are words and punctuation marks." beside "J'" and "aime"."""
    from meteor_core import score
    from meteor_core.methods import walkthrough

    text = walkthrough(score("J'aime l'école", ["J'aime l'école"], language="fr").best)[0].text
    assert "Tokens are words and punctuation marks, an elided word with its apostrophe apart from the next" in text
    assert "elided" not in walkthrough(score("I like school", ["I like school"]).best)[0].text


def test_the_penalty_step_says_why_one_chunk_still_costs_in_the_2005_formula():
    """A teacher: "cat" / "cat" scored 0.5000 and identical 6-word sentences 0.9977, and the
    penalty step said only "1/m when all are one chunk": with one matched word that is the full
    gamma, and nothing said why a perfect match scores below 1 or which option changes it."""
    steps = lambda c, r: {s.key: s for s in _steps(c, r)}  # noqa: E731
    one = steps("cat", "cat")["penalty"].text
    assert ("Every matched word is in one chunk, yet the 2005 formula still charges gamma (1/m)^beta: 0.5000 here, the "
            "full gamma, as one matched word is a chunk of its own; so a perfect match scores below 1 (0.5000 here). "
            "The option No penalty for one chunk (METEOR 1.5's convention) sets it to 0.") in one
    six = steps("the cat sat on the mat", "the cat sat on the mat")["penalty"].text
    assert "yet the 2005 formula still charges gamma (1/m)^beta: 0.0023 here; so a perfect match" in six
    assert "yet the 2005 formula" not in steps("the cat sat", "a cat sat")["penalty"].text  # not a perfect match
    nltk = {s.key: s for s in _steps("cat", "cat", mode="nltk")}["penalty"].text
    assert "nltk's meteor_score charges it too; paper mode's option No penalty for one chunk" in nltk


@pytest.mark.parametrize("language, candidate, reference", [("zh", "我喜欢猫", "我很喜欢猫"),
                                                            ("ja", "猫が好きです", "私は猫が好き")])
def test_character_tokens_are_called_characters(language, candidate, reference):
    """Chinese and Japanese tokens are single characters by default: the steps and terms called
    them words ("The 4 matched words" for four characters)."""
    from meteor_core.methods import positions, terms, token_noun

    result = score(candidate, [reference], language=language).best
    assert (token_noun(result.config), token_noun(result.config, 2)) == ("character", "characters")
    texts = {step.key: step.text for step in walkthrough(result)}
    for key in ("chunks", "P and R", "penalty"):
        assert "character" in texts[key] and "word" not in texts[key], texts[key]
    assert "Among the characters still unmatched" in texts["stage:exact"]
    assert "candidate-reference character pair" in texts["stage:exact"]
    assert "reference character(s)" in texts["stage:exact"]
    assert "word" not in terms(result.config) and "word" not in describe(result.config).summary
    assert positions(result.config).startswith("A number in brackets is a character's position")
    assert "(“猫 [1]” is the second character)" in positions(result.config)  # not an English word as the example
    own = positions(result)  # the pair's own second token
    assert f"(“{result.candidate_tokens.texts[1]} [1]” is the candidate's second character)" in own
    english = score("the dog sat", ["a dog sat"]).best
    assert "(“dog [1]” is the candidate's second word)" in positions(english)
    # one token: itself, at 0 (the generic “cat [1]” stood under "cat [0] → cat [0]": a tester)
    assert "(“dog [0]” is the candidate's first word)" in positions(score("dog", ["a dog"]).best)
    assert "(“https://example.org/a/v… [1]” is" in positions(score("see https://example.org/a/very/long/path",
                                                                   ["see it"], tokenizer="whitespace").best)
    # a word segmenter's tokens are words
    segmented = score(candidate, [reference], language=language, tokenizer="segmenter").best
    assert token_noun(segmented.config, 2) == "words" and "matched words" in \
        next(s.text for s in walkthrough(segmented) if s.key == "penalty")


def test_the_char_tokenizer_on_english_text_keeps_saying_words(wordnet_reader):
    """A helper: English with the char tokenizer (which splits only Chinese and Japanese
    characters: "abc" stays one token) was told "Tokens are single characters" and "No
    character matches"."""
    from meteor_core.methods import token_noun

    result = score("abc", ["acb"], tokenizer="char", mode="nltk").best
    assert len(result.candidate_tokens) == 1 and token_noun(result.config, 2) == "words"
    texts = {step.key: step.text for step in walkthrough(result)}
    assert "single Chinese and Japanese characters, other words and numbers whole" in texts["tokens"]
    assert "No word matches" in texts["tokens"] and "character matches" not in texts["tokens"]


def test_english_step_texts_still_say_words(wordnet_reader):
    from meteor_core.methods import POSITIONS, TERMS, terms

    result = score("the cat sat on the mat", ["on the mat sat the cat"]).best
    texts = {step.key: step.text for step in walkthrough(result)}
    assert texts["chunks"] == ("The 6 matched words group into 6 chunks: runs of adjacent candidate words linked, in "
                               "the same order, to adjacent reference words (numbered bands). Fewer, longer chunks "
                               "mean the word order agrees.")
    assert texts["P and R"].startswith("With m = 6 matched words: precision")
    assert "Among the words still unmatched, its rule allows 8 candidate-reference word pairs" in texts["stage:exact"]
    assert texts["stage:exact"].endswith("Unmatched now: 0 candidate and 0 reference word(s). Then stem has nothing "
                                         "left to match. Then synonym has nothing left to match.")
    assert terms(result.config) == f"{TERMS} {POSITIONS}"
    assert TERMS.startswith("Terms: a link joins a candidate word to a reference word it matches;")
    assert POSITIONS == ("A number in brackets is a word's position, counted from 0 as in the JSON output (“cat [1]” "
                         "is the second word); chunks are numbered from 1.")


@pytest.mark.parametrize("candidate, reference, unit", [
    ("我 love 猫", "我爱猫", "token"),  # characters and a word: "love [1]" was "the second character"
    ("the dog sat on the mat", "the cat sat on the mat", "word"),  # English under Chinese: words
    ("我喜欢猫", "我很喜欢猫", "character"),
])
def test_a_pair_under_chinese_names_its_own_tokens(candidate, reference, unit):
    """A tester, with lang=zh: English words were called characters ("“dog [1]” is the candidate's
    second character", "The 5 matched characters group into 2 chunks"), though the tokens step
    says the char tokenizer keeps other words whole. The texts now name this pair's tokens."""
    from meteor_core.methods import positions, token_noun

    result = score(candidate, [reference], language="zh").best
    assert result.token_unit == unit and token_noun(result, 2) == f"{unit}s"
    assert positions(result).startswith(f"A number in brackets is a {unit}'s position")
    texts = {step.key: step.text for step in walkthrough(result)}
    assert f"matched {unit}" in texts["chunks"] and f"matched {unit}" in texts["P and R"]
    assert "same character or word (after" in texts["stage:exact"]  # what the stage does in Chinese
    nothing = score(candidate, ["完全不同"] if unit == "word" else ["xyz qq"], language="zh").best
    assert nothing.breakdown.note.startswith(f"no {nothing.token_unit} matched: ")
    one = score("猫", ["I love cats"], language="zh").best  # a mix, and its one token is the example
    assert one.token_unit == "token" and "(“猫 [0]” is the candidate's first token)" in positions(one)


@pytest.mark.parametrize("candidate, reference, language, example", [
    ("Well, cat sat", "a cat sat", "en", "(“cat [2]” is the candidate's third word)"),  # was “, [1]”
    ("Hello !", "hello", "en", "(“Hello [0]” is the candidate's first word)"),  # the only word
    ("! ?", "a cat", "en", "(“? [1]” is the candidate's second word)"),  # no word: the second token
    (", , , , , , , , , , , a b", "a b", "en", "(“b [12]” is the candidate's 13th word)"),
    (". " * 21 + "a b", "a b", "en", "(“b [22]” is the candidate's 23rd word)"),
    ("我，爱猫", "我爱猫", "zh", "(“爱 [2]” is the candidate's third character)"),
    ("猫、が好き", "猫が好き", "ja", "(“が [2]” is the candidate's third character)"),
])
def test_the_positions_example_is_a_word(candidate, reference, language, example):
    """A helper: the example was the candidate's second token, so "Well, cat sat" taught
    "“, [1]” is the candidate's second word". It is the second token with a letter or digit now,
    at its own position."""
    from meteor_core.methods import positions

    assert example in positions(score(candidate, [reference], language=language).best)


def test_the_2005_to_15_table_names_the_pairs_tokens():
    """A helper: the table said "words" of paper mode under Chinese and Japanese too."""
    from meteor_core.methods import changes_2005_to_15

    def paper(subject):
        return {change.topic: change.paper for change in changes_2005_to_15(subject)}

    english = paper(None)  # no pair and no configuration: words
    assert english["weighting"].startswith("every word counts 1") and english["fragmentation"] == "chunks / matched words"
    assert english["tokens"] == "words and punctuation marks, lowercased"
    assert paper(score("the cat", ["a cat"]).best) == english
    japanese = score("猫が好き", ["私は猫が好き"], language="ja").best
    assert paper(japanese)["fragmentation"] == "chunks / matched characters"
    assert paper(japanese.config)["matching"].startswith("character to character: exact")
    mixed = paper(score("我 love 猫", ["我爱猫"], language="zh").best)  # the pair's unit, as its steps
    assert mixed["weighting"].startswith("every token counts 1") and mixed["fragmentation"] == "chunks / matched tokens"
    assert not [c for c in changes_2005_to_15(japanese) if "{" in c.paper]  # every placeholder filled


def test_the_2005_to_15_table_matches_with_the_pairs_own_stages():
    """A helper: the matching row said "exact, Porter stem, WordNet synonym" under French (Snowball
    and MyThes) and Chinese (no stemmer, no synonyms), where the steps said otherwise."""
    from meteor_core.methods import changes_2005_to_15

    def matching(result):
        return next(change.paper for change in changes_2005_to_15(result) if change.topic == "matching")

    assert matching(score("the cat", ["a cat"]).best) == \
        "word to word: exact, Porter stem, WordNet synonym, one stage after another"
    assert matching(score("le chat noir", ["le chat"], language="fr").best) == (
        "word to word, one stage after another. exact: same word (after case folding unless keep-case); "
        "stem: same Snowball french stem (nltk); synonym: listed as synonyms in the French MyThes thesaurus")
    assert matching(score("我爱猫", ["我喜欢猫"], language="zh").best) == (
        "character to character, exact only: same character or word (after case folding unless keep-case). "
        "No stem or synonym stage here")
    assert matching(score("the cat", ["a cat"], stages=("exact", "stem")).best).endswith(
        "exact: same word (after case folding unless keep-case); stem: same Porter stem (nltk PorterStemmer)")
    # the paper column describes paper mode, not the modules of a METEOR 1.5 pair (it listed its paraphrase)
    assert matching(score("the cat", ["a cat"], mode="meteor15").best) == \
        "word to word: exact, Porter stem, WordNet synonym, one stage after another"


def test_terms_of_a_pair_use_its_unit_and_its_example():
    """The Method and terms box said "characters" and “猫 [1]” for "我 love 猫" while the steps and
    the table below it said tokens and the pair's own example (a helper)."""
    from meteor_core.methods import terms

    result = score("我 love 猫", ["我爱猫"], language="zh").best
    assert "chunks / matched tokens" in terms(result) and "(“love [1]” is the candidate's second token)" in terms(result)
    assert "chunks / matched characters" in terms(result.config)
    meteor15 = score("the black cat", ["a black cat"], mode="meteor15").best
    assert "(“black [1]” is the candidate's second word)" in terms(meteor15)


def test_the_positions_note_explains_a_phrase_span_with_the_pairs_own():
    """A tester: METEOR 1.5 lists "said that [1:3] → stated that [1:3]", and nothing said that
    [1:3] is words 1 and 2 (the end left out)."""
    from meteor_core.methods import positions

    result = score("he said that it is a big problem for the people",
                   ["he stated that it is a major issue for the public"], mode="meteor15").best
    phrase = next(link for link in result.links if link.is_phrase)
    assert (phrase.candidate, phrase.candidate_stop) == (1, 3)
    assert positions(result).endswith(" A span [a:b] is the words from position a up to b, b left out: [1:3] is "
                                      "words 1 and 2.")
    assert "span" not in positions(score("the cat", ["the cat"]).best)  # no phrase link, no span to explain


def test_the_meteor15_column_says_english_only_for_any_other_language():
    """A tester: it said so under Chinese and Japanese, not under German, which the mode refuses too."""
    from meteor_core.methods import changes_2005_to_15

    def tokens_row(result):
        return next(change.meteor15 for change in changes_2005_to_15(result) if change.topic == "tokens")

    assert tokens_row(score("der Hund", ["der Hund"], language="de").best).endswith(
        "; English only (the jar's -l en data): its tokens are words")
    assert "English only" not in tokens_row(score("the dog", ["the dog"]).best)


def test_the_2005_to_15_tokens_row_says_whether_case_was_kept():
    from meteor_core.methods import changes_2005_to_15

    def tokens(subject):
        return next(change.paper for change in changes_2005_to_15(subject) if change.topic == "tokens")

    assert tokens(score("The cat", ["the cat"]).best) == "words and punctuation marks, lowercased"
    assert tokens(score("The cat", ["the cat"], keep_case=True).best) == "words and punctuation marks, case kept"
    assert tokens(None) == "words and punctuation marks, lowercased"


def test_the_positions_note_under_a_list_names_a_token_of_that_list():
    """A tester: under "has to [12:14] → must [1]" the note said “y [1]” is the candidate's second
    word (not in the list); under exact-only "The [0] → the [0]" it named “cat [1]”, unlinked."""
    from meteor_core.methods import step_positions

    def notes(result):
        return {step.key: step_positions(result, step) for step in walkthrough(result) if step.details}

    paraphrase = notes(score("x y z w v u t s r q p he has to go", ["he must go"], mode="meteor15").best)
    assert "(“must [1]” is the reference's second word)" in paraphrase["stage:paraphrase"]
    assert paraphrase["stage:paraphrase"].endswith("[12:14] is words 12 and 13.")
    assert "(“he [11]” is the candidate's 12th word)" in paraphrase["stage:exact"]
    assert "span" not in paraphrase["stage:exact"]  # no phrase in the exact stage's list
    exact_only = notes(score("The cat sat on the mat", ["the cats sat on a mat"], stages=("exact",)).best)
    assert "(“sat [2]” is the candidate's third word)" in exact_only["stage:exact"]  # linked, past [0]
    crossing = notes(score("the cat sat on the mat", ["on the mat sat the cat"]).best)
    assert "(“cat [1]” is the candidate's second word)" in crossing["crossings"]  # "1. cat [1] → cat [5] crosses ..."
    arabic = notes(score("القطة جلست على الحصيرة", ["القطة جلست على السجادة"], language="ar").best)
    # isolated as the list isolates it (the browser showed “[1] جلست” under "جلست [1]")
    assert "(“\u2068جلست\u2069 [1]” is the candidate's second word)" in arabic["stage:exact"]


def test_the_2005_to_15_tokens_rows_follow_the_pairs_tokenizer_in_its_own_mode():
    """A tester: under the whitespace tokenizer or Drop punctuation the paper column said "words and
    punctuation marks", and METEOR 1.5's said "-norm" under its whitespace and -noPunct settings,
    where the tokens step said otherwise. Each column follows a pair of its own mode only."""
    from meteor_core.methods import changes_2005_to_15

    def tokens(result):
        return next((change.paper, change.meteor15) for change in changes_2005_to_15(result) if change.topic == "tokens")

    pair = ("The cat, sat", ["the cats sat"])
    assert tokens(score(*pair, tokenizer="whitespace").best)[0] == "the text split at spaces, lowercased"
    assert tokens(score(*pair, drop_punctuation=True).best)[0] == (
        "words and punctuation marks; tokens of punctuation or symbols only are then left out, lowercased")
    paper, meteor15 = tokens(score(*pair, mode="meteor15", tokenizer="whitespace", keep_case=True).best)
    assert (paper, meteor15) == ("words and punctuation marks, lowercased",
                                 "the text split at spaces, case kept (no normalization)")
    assert tokens(score(*pair, mode="meteor15", drop_punctuation=True).best)[1] == (
        "words from the jar's normalizer without punctuation (-norm -noPunct)")
    assert tokens(score(*pair, mode="meteor15").best) == tokens(None)  # the defaults, written out in full
