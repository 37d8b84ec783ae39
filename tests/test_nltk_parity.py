"""NLTK mode equals nltk.translate.meteor_score.meteor_score on the same token lists."""
import random

from nltk.translate.meteor_score import align_words, meteor_score

from meteor_core import PRESETS, MeteorConfig, MeteorParams, Scorer

# Repeated function words, inflections that share Porter stems, and WordNet synonyms
# (car/auto/automobile/motorcar, big/large, fast/quick, sofa/couch, begin/start ...).
VOCAB = ("the the the a a , . of and cat cats dog dogs sat sit sitting on mat mats car cars auto "
         "automobile motorcar gondola big large great fast quick rapid run running ran runs sofa "
         "couch begin start started starts buy purchase bought happy glad people person like "
         "likes foreign cars house home Party party military army commands command").split()


def _pairs(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        cand = [rng.choice(VOCAB) for _ in range(rng.randint(1, 14))]
        refs = [[rng.choice(VOCAB) for _ in range(rng.randint(1, 14))] for _ in range(rng.choice((1, 1, 2, 3)))]
        yield cand, refs


def test_nltk_mode_equals_nltk_on_2000_pairs(wordnet_reader):
    scorer = Scorer(MeteorConfig(mode="nltk"))
    compared = synonym_links = stem_links = 0
    for cand, refs in _pairs(2000, seed=20261130):
        expected = meteor_score(refs, cand)
        got = scorer.score(cand, refs)
        assert abs(got.score - expected) <= 1e-12, (cand, refs, got.score, expected)
        compared += 1
        for link in got.best.links:
            synonym_links += link.stage == "synonym"
            stem_links += link.stage == "stem"
    assert compared == 2000
    # The generator must really exercise the later stages, or parity proves little.
    assert synonym_links > 100 and stem_links > 100


def test_nltk_mode_exposes_nltks_own_alignment(wordnet_reader):
    scorer = Scorer(MeteorConfig(mode="nltk"))
    for cand, refs in _pairs(300, seed=7):
        result = scorer.score(cand, refs[:1])
        matches, _, _ = align_words(cand, refs[0])
        assert sorted((l.candidate, l.reference) for l in result.best.links) == sorted(matches)


def test_synonym_stage_queries_stems_in_nltk_mode(wordnet_reader):
    # "automobile" is stemmed to "automobil" before WordNet: nltk never matches it to "car".
    scorer = Scorer(MeteorConfig(mode="nltk"))
    assert scorer.score(["automobile"], [["car"]]).best.stats.matches == 0
    assert Scorer(MeteorConfig()).score(["automobile"], [["car"]]).best.stats.matches == 1


def test_nltk_mode_parameters_equal_nltks_parameters(wordnet_reader):
    # alpha, beta and gamma reach the formula in nltk mode as in nltk's own function.
    for params in (PRESETS["meteor-0.6-perl-en"].params, MeteorParams(0.5, 1.0, 1.0)):
        scorer = Scorer(MeteorConfig(mode="nltk", params=params))
        for cand, refs in _pairs(200, seed=11):
            expected = meteor_score(refs, cand, alpha=params.alpha, beta=params.beta, gamma=params.gamma)
            assert abs(scorer.score(cand, refs).score - expected) <= 1e-12, (cand, refs, params)
