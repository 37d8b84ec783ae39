"""score_corpus takes the same inputs in every mode, on any number of workers (a tester found
METEOR 1.5 mode without the checks the paper scorer had, and generators that one worker read
and two could not send)."""
import numpy as np
import pandas as pd
import pytest

from meteor_core import MeteorConfig, MeteorInputError, Scorer
from meteor_core.compat.pycocoevalcap import CaptionsError, Meteor
from meteor_core.errors import MeteorParameterError
from meteor_core.parallel import resolve_workers
from meteor_core.stages import SynonymTable

MODES = ("paper", "nltk", "meteor15")


@pytest.fixture(scope="module", params=MODES)
def scorer(request, wordnet_reader):
    return Scorer(MeteorConfig(mode=request.param))


def test_generators_are_read_once_in_every_mode(scorer):
    # One exact match of one word in "a b" against "a b": every mode scores identical texts
    # in one chunk; paper and nltk give Fmean 1 with penalty 0.5 (1/2)^3 = 1/16, METEOR 1.5 its
    # one-chunk rule 1.0.
    expected = 1.0 if scorer.config.mode == "meteor15" else 15 / 16
    assert scorer.score_corpus(iter(["a b"]), iter([["a b"]])).score == pytest.approx(expected, abs=1e-12)
    assert scorer.score_corpus((c for c in ["a b"]), (r for r in [["a b"]])).score == pytest.approx(expected, abs=1e-12)


def test_series_with_other_labels_are_refused_in_every_mode(scorer):
    candidates = pd.Series(["the cat sat on the mat", "a dog barked loudly"], index=[1, 0])
    references = pd.Series(["a dog barked loudly", "the cat sat on the mat"], index=[0, 1])
    with pytest.raises(MeteorInputError, match="different labels"):
        scorer.score_corpus(candidates, references)  # METEOR 1.5 mode scored them 0.0 by position
    same = scorer.score_corpus(candidates, references.reindex(candidates.index))
    assert same.score == 1.0 if scorer.config.mode == "meteor15" else same.score > 0.9


@pytest.mark.parametrize("candidates, references, message", [
    ("abc", [["a"]] * 3, "candidates must be a list of candidate strings, not one string"),
    (["a b"], "a b", "references must be one entry per candidate"),
    ([b"a b"][0], [["a b"]], "not bytes"),
])
def test_one_string_for_a_whole_side_is_refused(scorer, candidates, references, message):
    # "abc" was three one-letter candidates: 0.1667 (a tester)
    with pytest.raises(MeteorInputError, match=message):
        scorer.score_corpus(candidates, references)


def test_generator_segments_score_the_same_on_two_workers(scorer):
    """300 segments (a pool starts at 200): references given as generators, a candidate as a
    generator of tokens, a reference list holding a generator of tokens."""
    def inputs():
        candidates = [(t for t in "a dog runs".split()) if k % 3 == 0 else "a dog runs" for k in range(300)]
        references = [(r for r in ["a dog ran", "the dog runs"]) if k % 3 == 1 else
                      [(t for t in "a dog ran".split())] if k % 3 == 2 else ["a dog ran"] for k in range(300)]
        return candidates, references

    one = scorer.score_corpus(*inputs(), workers=1)
    two = scorer.score_corpus(*inputs(), workers=2)
    assert [s.score for s in one.segments] == [s.score for s in two.segments]
    assert one.score == two.score
    # an endless generator of references is read at most one past the limit, same message
    for workers in (1, 2):
        candidates = ["a"] * 250
        references = [["a"]] * 249 + [(f"ref {k}" for k in iter(int, 1))]
        with pytest.raises(MeteorInputError, match="segment 250: more than 100 references"):
            scorer.score_corpus(candidates, references, workers=workers)


def test_workers_take_any_integer_type():
    assert resolve_workers(np.int64(2)) == 2
    for bad in (True, 1.5, "2", -1, np.float64(2)):
        with pytest.raises(MeteorParameterError, match="workers must be a positive integer"):
            resolve_workers(bad)


def test_signature_names_the_budget_and_the_synonym_tables_content():
    default = Scorer(MeteorConfig()).signature()
    assert "budget:" not in default
    assert "|budget:300|" in Scorer(MeteorConfig(node_budget=300)).signature() + "|"
    # nltk and METEOR 1.5 modes have no node budget
    assert "budget:" not in Scorer(MeteorConfig(mode="nltk", node_budget=300)).signature()
    config = MeteorConfig(stages=("exact", "table:mine"))
    car_auto = Scorer(config, [SynonymTable("mine", (("car", "auto"),))])
    car_bus = Scorer(config, [SynonymTable("mine", (("car", "bus"),))])
    # 0.9375 and 0.25 under one signature before
    assert car_auto.score("a car", ["a auto"]).score == pytest.approx(15 / 16)
    assert car_bus.score("a car", ["a auto"]).score == pytest.approx(0.25)
    assert car_auto.signature() != car_bus.signature()
    assert "table:mine(1groups,sha256:" in car_auto.signature()
    assert car_auto.signature() == Scorer(config, [SynonymTable("mine", (("car", "auto"),))]).signature()
    # built directly with capitals, a table matched nothing (0.3333) where from_text's matched (0.9815)
    table = Scorer(MeteorConfig(stages=("exact", "table:t")), [SynonymTable("t", (("ZORP", "Blick"),))])
    assert table.score("a zorp dog", ["a blick dog"]).score == pytest.approx(0.9814814814814815)


def test_dropin_refuses_what_the_original_cannot_score(meteor15_data):
    meteor = Meteor()
    with pytest.raises(CaptionsError, match="image 1: res must map each image to a list of one caption"):
        meteor.compute_score({1: ["a dog"]}, {1: {"a dog"}})  # a set: TypeError before
    with pytest.raises(CaptionsError, match="image 1: gts must map each image to a list of reference captions, "
                                            "not a dict"):
        meteor.compute_score({1: {"x": "a"}}, {1: ["a"]})  # its keys were scored: 0.0
    with pytest.raises(CaptionsError, match="no images"):
        meteor.compute_score({}, {})  # (0.0, []) before; the jar fails
    with pytest.raises(MeteorInputError, match="image 1: res caption contains control character U"):
        meteor.compute_score({1: ["a dog runs"]}, {1: ["a dog\x00runs"]})
    with pytest.raises(MeteorInputError, match="image 1: gts reference 2 contains control character U"):
        meteor.compute_score({1: ["a dog runs", "a\x1bdog"]}, {1: ["a dog runs"]})
    assert meteor.compute_score({1: {"a dog runs"}}, {1: ["a dog runs"]}) == (1.0, [1.0])
