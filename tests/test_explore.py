"""meteor_core.explore: the mode comparison says what makes the two modes differ (stages,
alignment, stemmer/synonym source, parameters) and compares like with like."""
import pytest

from meteor_core import MeteorConfig
from meteor_core.explore import explore

DEFAULT_PAIR = ("the cars started quickly and the auto stopped", ["the car starts fast and the automobile halted"])


def _kinds(exploration):
    return [c.kind for c in exploration.comparison.causes]


def test_greedy_alignment_is_an_alignment_difference(wordnet_reader):
    e = explore("the cat sat on a mat", ["the cat sat on the mat"], MeteorConfig())
    assert e.comparison.differs and _kinds(e) == ["alignment"]
    assert e.comparison.same_stages is None  # paper already runs nltk's three stages
    text = e.comparison.causes[0].text
    assert "the [0] → the [4] (exact) in nltk" in text and "2 vs 3 chunks, 0 vs 3 crossings" in text
    assert e.result.score == pytest.approx(0.8066666666666668)  # spec section 2: paper 0.8067, nltk 0.7433
    assert e.comparison.other.score == pytest.approx(0.7433333333)


def test_fewer_stages_are_told_apart_from_the_method(wordnet_reader):
    """The issue's case: with exact+stem only, the old text blamed the alignment for what the
    synonym stage nltk mode still runs does."""
    candidate, references = DEFAULT_PAIR
    e = explore(candidate, references, MeteorConfig(stages=("exact", "stem")))
    assert _kinds(e) == ["stages", "relation"]
    stages = e.comparison.causes[0].text
    assert "nltk mode runs exact, stem, synonym; this view uses exact, stem" in stages
    assert f"{e.comparison.same_stages.score:.4f}" == "0.8648" and "instead of 0.6050" in stages
    assert "auto [6] → automobile [6] (synonym), which nltk mode's stages cannot relate" in e.comparison.causes[1].text


def test_same_alignment_with_fewer_stages_says_nothing_about_stages(wordnet_reader):
    e = explore("the cat sat on a mat", ["the cat sat on the mat"], MeteorConfig(stages=("exact", "stem")))
    assert e.comparison.same_stages is not None and _kinds(e) == ["alignment"]


def test_synonym_source_is_a_relation_difference_both_ways(wordnet_reader):
    candidate, references = DEFAULT_PAIR
    for mode in ("paper", "nltk"):
        e = explore(candidate, references, MeteorConfig(mode=mode))
        assert _kinds(e) == ["relation"], mode  # nltk asks WordNet about the stem "auto": no automobile


def test_no_comparison_outside_english():
    e = explore("eles chegaram cedo", ["ele chegou cedo"], MeteorConfig(language="pt-BR"))
    assert e.comparison is None


def test_identical_alignments_have_no_causes(wordnet_reader):
    e = explore("the cat sat", ["the cat sat"], MeteorConfig())
    assert not e.comparison.differs and e.comparison.causes == ()
