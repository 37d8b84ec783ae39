import re
import math

import pytest

from meteor_core import MAX_TOKENS, MeteorConfig, MeteorInputError, MeteorParameterError, MeteorParams, score, tokenize


@pytest.mark.parametrize("candidate, message", [
    ("", "candidate is empty"),
    ("   \n\t", "candidate is empty"),
    ("the \x1b[31mcat", "control character U+001B at character 4"),
    (" ".join(["w"] * (MAX_TOKENS + 1)), f"candidate has {MAX_TOKENS + 1} tokens; the limit is {MAX_TOKENS}"),
])
def test_bad_candidate(candidate, message):
    with pytest.raises(MeteorInputError, match=re.escape(message)):
        score(candidate, "the cat")


def test_bad_reference_is_named():
    with pytest.raises(MeteorInputError, match="reference 2 is empty"):
        score("the cat", ["the cat", " "])
    with pytest.raises(MeteorInputError, match="at least one reference"):
        score("the cat", [])


@pytest.mark.parametrize("kwargs, message", [
    (dict(alpha=1.5), "alpha must be in"), (dict(alpha=-0.1), "alpha must be in"),
    (dict(beta=-1), "beta must be >= 0"), (dict(gamma=-0.5), "gamma must be in"),
    (dict(alpha=float("nan")), "finite"),
])
def test_bad_parameters(kwargs, message):
    with pytest.raises(MeteorParameterError, match=message):
        MeteorParams(**kwargs)


def test_bad_options():
    with pytest.raises(MeteorParameterError, match="unknown stage"):
        MeteorConfig(stages=("exact", "paraphrase"))
    with pytest.raises(MeteorParameterError, match="mode must be"):
        MeteorConfig(mode="fast")
    with pytest.raises(MeteorParameterError, match="nltk mode"):
        MeteorConfig(mode="nltk", stages=("exact",))


def test_extremes_never_nan():
    for params in (MeteorParams(0.0, 0.0, 0.0), MeteorParams(1.0, 0.0, 1.0), MeteorParams(1.0, 100.0, 1.0)):
        result = score("a b c", "c b a", params=params, stages=("exact",))
        assert not math.isnan(result.score) and 0 <= result.score <= 1


def test_tokenizer_keeps_offsets_and_pretokenized_input():
    tokens = tokenize("Don't stop, e-mail me!")
    assert [t.text for t in tokens] == ["Don't", "stop", ",", "e-mail", "me", "!"]
    assert [t.norm for t in tokens][0] == "don't"
    text = "Don't stop, e-mail me!"
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert [t.text for t in tokenize("A b", keep_case=True)] == ["A", "b"]
    assert [t.norm for t in tokenize("A, b.", drop_punctuation=True)] == ["a", "b"]
    assert [t.text for t in tokenize("a,b c", tokenizer="whitespace")] == ["a,b", "c"]
    pre = tokenize(["New", "York"])
    assert [(t.text, t.start, t.end) for t in pre] == [("New", 0, 3), ("York", 4, 8)]
    with pytest.raises(MeteorInputError, match="contains whitespace"):
        tokenize(["New York"])


def test_unicode_words():
    assert [t.text for t in tokenize("até domingo — São Paulo")] == ["até", "domingo", "—", "São", "Paulo"]
