"""The spec's worked examples (section 6) and teaching notes (section 8), to 1e-6."""
from fractions import Fraction

import pytest

from meteor_core import score
from meteor_core.report import bleu_for

EXACT_WS = dict(stages=("exact",), tokenizer="whitespace")
COUPON_REF = "o cupom vale para toda a loja até domingo"


@pytest.mark.parametrize(
    "candidate, reference, m, p, r, chunks, penalty, expected",
    [
        ("o cupom vale só até domingo", COUPON_REF, 5, Fraction(5, 6), Fraction(5, 9), 2, 0.032, 0.556322),
        ("até domingo o cupom vale para toda a loja", COUPON_REF, 9, 1, 1, 2, 0.005487, 0.994513),
        ("the president spoke to the audience", "the president then spoke to the audience",
         6, 1, Fraction(6, 7), 2, 0.018519, 0.853462),
        ("the dog", "the cat and the dog", 2, 1, Fraction(2, 5), 1, 0.0625, 0.398936),
    ],
)
def test_spec_table(candidate, reference, m, p, r, chunks, penalty, expected):
    best = score(candidate, reference, **EXACT_WS).best
    assert best.stats.matches == m
    assert best.stats.chunks == chunks
    assert best.breakdown.precision == pytest.approx(float(p), abs=1e-12)
    assert best.breakdown.recall == pytest.approx(float(r), abs=1e-12)
    assert best.breakdown.penalty == pytest.approx(penalty, abs=1e-6)
    assert best.score == pytest.approx(expected, abs=1e-6)


def test_coupon_fmean_by_hand():
    # Fmean = 10PR/(R+9P) with P=5/6, R=5/9: 50/87; penalty 0.5*(2/5)^3 = 4/125.
    best = score("o cupom vale só até domingo", COUPON_REF, **EXACT_WS).best
    assert best.breakdown.fmean == pytest.approx(50 / 87, abs=1e-12)
    assert best.score == pytest.approx(50 / 87 * (1 - 4 / 125), abs=1e-12)
    assert [(c.candidate_start, c.candidate_end, c.reference_start, c.reference_end)
            for c in best.chunk_spans] == [(0, 3, 0, 3), (4, 6, 7, 9)]


def test_identical_strings_still_pay_penalty_unless_asked():
    text = "the cat sat on the mat"
    assert score(text, text, **EXACT_WS).score == pytest.approx(1 - 0.5 / 6 ** 3, abs=1e-6)  # 0.997685
    zeroed = score(text, text, zero_penalty_single_chunk=True, **EXACT_WS)
    assert zeroed.score == 1.0
    assert "METEOR 1.5" in zeroed.best.breakdown.note


def test_no_match_is_zero_with_a_reason():
    best = score("alpha beta", "gamma delta", **EXACT_WS).best
    assert best.score == 0.0 and best.breakdown.penalty == 0.0
    assert "undefined" in best.breakdown.note


def test_bleu_examples():
    reordered = score("até domingo o cupom vale para toda a loja", COUPON_REF, **EXACT_WS)
    assert bleu_for(reordered).score == pytest.approx(0.8034, abs=1e-4)
    short = bleu_for(score("o cupom vale só até domingo", COUPON_REF, **EXACT_WS))
    assert short.score == 0.0
    assert short.brevity_penalty == pytest.approx(0.607, abs=1e-3)
    assert [(o.matched, o.total) for o in short.orders] == [(5, 6), (3, 5), (1, 4), (0, 3)]
    assert "4-gram" in short.zero_reason


def test_cat_mat_paper_vs_nltk(wordnet_reader):
    cand, ref = "the cat sat on a mat", "the cat sat on the mat"
    paper = score(cand, ref)
    nltk_mode = score(cand, ref, mode="nltk")
    assert paper.score == pytest.approx(0.8067, abs=1e-4)
    assert nltk_mode.score == pytest.approx(0.7433, abs=1e-4)
    assert paper.best.stats.chunks == 2 and nltk_mode.best.stats.chunks == 3
    # nltk aligns hyp "the" (0) to reference position 4.
    assert nltk_mode.best.link_for_candidate(0).reference == 4


def test_gondola_nltk_misses_a_match(wordnet_reader):
    cand, ref = "the auto and the car", "the gondola and the motorcar"
    assert score(cand, ref).best.stats.matches == 5
    assert score(cand, ref, mode="nltk").best.stats.matches == 4


def test_feline_glossary_example(wordnet_reader):
    # Glossaries claim feline~cat through WordNet, one chunk, 0.830. In WordNet 3.0 "feline"
    # (feline.n.01 = felid) is a hypernym of cat, not a synonym: no synset is shared, so only
    # the, sat, on, mat match, in 3 chunks. P = R = Fmean = 4/6; penalty 0.5 (3/4)^3 = 27/128.
    best = score("The feline sat on a mat", "The cat sat on the mat").best
    assert best.link_for_candidate(1) is None
    assert wordnet_reader.synsets("feline") and not (
        set(wordnet_reader.synsets("feline")) & set(wordnet_reader.synsets("cat")))
    assert (best.stats.matches, best.stats.chunks) == (4, 3)
    assert best.score == pytest.approx(4 / 6 * (1 - 27 / 128), abs=1e-12)


def test_meaning_example_teaching_note(wordnet_reader):
    ref = "people like foreign cars"
    assert score("people like visiting places abroad", ref).score == pytest.approx(0.457, abs=1e-3)
    assert score("consumers prefer imported cars", ref).score == pytest.approx(0.125, abs=1e-3)


def test_reordered_example_fewest_chunks_vs_crossings():
    ref, cand = "the cat sat on the mat", "on the mat sat the cat"
    crossings = score(cand, ref, **EXACT_WS)
    chunks = score(cand, ref, objective="chunks", zero_penalty_single_chunk=True, **EXACT_WS)
    assert crossings.best.stats.chunks == 6 and crossings.score == pytest.approx(0.5, abs=1e-12)
    # 3 chunks of 6 matches: 1 - 0.5 (1/2)^3 = 0.9375 (the option's zeroing needs one chunk)
    assert chunks.best.stats.chunks == 3 and chunks.score == pytest.approx(0.9375, abs=1e-12)


def test_snapshots_hold_every_link_so_far_and_the_result_is_optimal_only_if_every_stage_is(wordnet_reader):
    """A mutation audit's finds: a snapshot holding only its own stage's links, and the
    result's flag taken from any stage instead of all, passed every test. "cats a" vs "a
    cat": exact links a-a, stem adds cats-cat, which crosses it (the walkthrough says so)."""
    from meteor_core import MeteorConfig, Scorer

    best = Scorer(MeteorConfig()).score("cats a", ["a cat"]).best
    pairs = [[(link.candidate, link.reference) for link in snap.links] for snap in best.snapshots]
    assert pairs == [[(1, 0)], [(0, 1), (1, 0)], [(0, 1), (1, 0)]]
    assert [[(link.candidate, link.reference) for link in snap.new_links] for snap in best.snapshots] == [
        [(1, 0)], [(0, 1)], []]
    assert [(snap.unmatched_candidate, snap.unmatched_reference) for snap in best.snapshots] == [
        ((0,), (1,)), ((), ()), ((), ())]
    assert best.crossings == 1
    # one stage stopped by its budget: the result is not proven, whatever the others say
    limited = Scorer(MeteorConfig(node_budget=5)).score("a b c", ["a a c c c"]).best
    assert [snap.optimal for snap in limited.snapshots] == [False, True, True] and limited.optimal is False


def test_the_mean_segment_score_counts_only_scored_segments():
    """A mutation audit's find: dividing by every segment (skipped ones too) passed the tests.
    "the cat" scores 15/16 (P = R = 1, one chunk of two: penalty 0.5 * (1/2)^3); the second
    segment is refused, so the mean is 15/16, not 15/32."""
    from meteor_core import MeteorConfig, Scorer

    result = Scorer(MeteorConfig()).score_corpus(["the cat", "\x01"], [["the cat"], ["the dog"]], skip_invalid=True)
    assert [s.index for s in result.skipped] == [1]
    assert result.mean_segment_score == pytest.approx(Fraction(15, 16))


@pytest.mark.parametrize("candidate, reference, evidence", [
    ("big", "large", "large.a.01"),  # big and large share 4 synsets; alphabetically big.s.12 comes first
    ("large", "big", "large.a.01"),
    ("get", "acquire", "get.v.01"),  # not grow.v.08, the alphabetically first shared one
])
def test_synonym_evidence_is_the_first_shared_synset_in_wordnet_sense_order(wordnet_reader, candidate, reference,
                                                                            evidence):
    """The evidence names the most common shared sense (the candidate word's sense order); a
    mutation that named the alphabetically first passed every test."""
    (link,) = score(candidate, [reference]).best.links
    assert (link.stage, link.evidence) == ("synonym", evidence)


def test_nltk_mode_says_its_synonym_rule_stems_both_sides(wordnet_reader):
    """A teacher-tester: the app said nltk matches a reference word that is a WordNet lemma of
    the candidate's stem, which predicts big~large ("large" is a lemma of big's synsets); nltk
    stems the reference too (large -> larg), so it does not match. The texts now say so."""
    from nltk.translate.meteor_score import meteor_score

    from meteor_core import MeteorConfig, Scorer
    from meteor_core.methods import describe

    result = score("a big house", ["a large house"], mode="nltk")
    assert result.score == meteor_score([["a", "large", "house"]], ["a", "big", "house"], wordnet=wordnet_reader)
    assert [l.stage for l in result.best.links] == ["exact", "exact"]  # no synonym link
    assert score("a big house", ["a large house"]).best.matches_by_stage()["synonym"] == 1  # paper mode: it matches
    synonym = next(s for s in Scorer(MeteorConfig(mode="nltk")).stage_status if s.stage == "synonym")
    assert "the reference word's Porter stem" in synonym.description and "big~large fails" in synonym.description
    assert any("big~large does not match" in note for note in describe(MeteorConfig(mode="nltk")).notes)


def test_references_whose_scores_are_equal_as_fractions_tie_and_the_first_wins():
    """Ties: the first (spec). 'd c b a x y' and 'a' both score exactly 1/3 against 'a b c d e f'
    (m = 4, P = R = 2/3, 4 chunks, penalty 0.5 (4/4)^3; and m = 1, P = 1/6, R = 1, penalty
    0.5 (1/1)^3), but as floats 0.3333333333333333 and 0.33333333333333337: the second was
    chosen, and the corpus score made of each segment's best reference followed it (a helper:
    0.7302 instead of 0.5330)."""
    from meteor_core import MeteorConfig, Scorer

    result = score("a b c d e f", ["d c b a x y", "a"])
    assert [r.stats.matches for r in result.per_reference] == [4, 1]
    assert result.best_index == 0
    assert score("a b c d e f", ["a", "d c b a x y"]).best_index == 0  # the first, whichever it is
    corpus = Scorer(MeteorConfig()).score_corpus(["a b c d e f", "a b"], [["d c b a x y", "a"], ["a b"]])
    # summed: m = 4 + 2, |c| = 6 + 2, |r| = 6 + 2, chunks = 4 + 1
    p = r = Fraction(6, 8)
    fmean = p * r / (Fraction(9, 10) * p + Fraction(1, 10) * r)
    assert corpus.score == pytest.approx(float(fmean * (1 - Fraction(1, 2) * Fraction(5, 6) ** 3)), abs=1e-12)
    # A float difference bigger than rounding still decides: "a b c" beats "a" outright.
    assert score("a b c", ["a", "a b c"]).best_index == 1


def test_ties_between_references_are_exact_for_any_beta_and_fast_for_a_huge_one():
    """A helper: under METEOR 0.6's parameters (beta 0.83, not whole) 'c b a x y' and 'a' both
    score exactly 0.45 against 'a b c d' (Fmean 5/8 each, chunks/m 1 each), as floats
    0.4499999999999999 and 0.44999999999999996, and the second was chosen; and with beta 1e20
    the exact power ran for minutes. Equal Fmeans are decided by chunks/m, without the power."""
    from meteor_core import MeteorConfig, MeteorParams
    from meteor_core.formula import exact_score
    from meteor_core.params import PRESETS

    perl = MeteorConfig(params=PRESETS["meteor-0.6-perl-en"].params)
    assert perl.params.beta == 0.83
    result = score("a b c d", ["c b a x y", "a"], perl)
    assert [r.score for r in result.per_reference] == [0.4499999999999999, 0.44999999999999996]
    assert result.best_index == 0
    huge = score("a b c", ["c a b", "a b c"], MeteorConfig(params=MeteorParams(beta=1e20)))
    assert exact_score(huge.per_reference[0].stats, MeteorParams(beta=1e20)) is None  # no power of 1e20 taken
    # Both round to 1.0; the second's penalty 0.5 (1/3)^1e20 is below the first's 0.5 (2/3)^1e20.
    assert [r.score for r in huge.per_reference] == [1.0, 1.0] and huge.best_index == 1
    # gamma 0: no penalty at all, so equal Fmeans are a tie whatever chunks/m: the first.
    flat = MeteorConfig(params=MeteorParams(beta=0.2, gamma=0.0))
    assert score("a b c", ["c a b", "a b c"], flat).best_index == 0
