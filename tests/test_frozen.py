"""frozen.build skips the dataclass __init__ for speed; this keeps it honest: every object the
scorer builds that way has exactly its class's fields (a field added to a result class and
forgotten in a build() call fails here, not as an AttributeError in a user's session)."""
import dataclasses
import pickle

import pytest

from meteor_core import MeteorConfig, Scorer, score
from meteor_core.tokenize import Token, Tokens, tokenize


def _objects(value, seen):
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for field in dataclasses.fields(value):
            yield from _objects(getattr(value, field.name), seen)
    elif isinstance(value, (tuple, list, Tokens)):
        for item in value:
            yield from _objects(item, seen)


@pytest.mark.parametrize("mode", ["paper", "nltk", "meteor15"])
def test_built_results_have_exactly_their_fields(mode, wordnet_reader, request):
    if mode == "meteor15":
        request.getfixturevalue("meteor15_data")
    result = Scorer(MeteorConfig(mode=mode)).score("the cats sat quickly on a mat", ["a cat sat fast on the mat",
                                                                                     "the dog"])
    checked = {}
    for obj in _objects(result, set()):
        # A field build() left out cannot be read (an unset slot); no instance dict either.
        unset = [f.name for f in dataclasses.fields(obj) if not hasattr(obj, f.name)]
        assert not unset, (type(obj).__name__, unset)
        # Built per pair: slots, not an instance dict (a kept result is a third the memory).
        # The settings and stage statuses are the scorer's, one each for all its results.
        if type(obj).__name__ not in ("MeteorConfig", "MeteorParams", "StageStatus"):
            assert not hasattr(obj, "__dict__"), type(obj).__name__
        checked[type(obj).__name__] = checked.get(type(obj).__name__, 0) + 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, dataclasses.fields(obj)[0].name, None)
        # a name that is not a field (result.score = 1, a property) too: Python 3.11 raised
        # "TypeError: super(type, obj)..." there for a slots class, which
        # `except FrozenInstanceError` missed (a tester); deleting likewise
        for name in ("score", "not_a_field"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(obj, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(obj, dataclasses.fields(obj)[0].name)
    assert {"MultiReferenceResult", "SegmentResult", "Token", "Link", "ChunkSpan", "StageSnapshot",
            "MeteorStats"} <= set(checked)
    # the same object after a round trip, equal and with the same hash where hashable
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert dataclasses.replace(result.best, crossings=result.best.crossings) == result.best


def test_tokens_is_an_immutable_sequence_of_token_by_value():
    tokens = tokenize("The cat, the mat")
    assert len(tokens) == 5 and tokens[1] == Token("cat", "cat", 4, 7) and tokens[-1] == Token("mat", "mat", 13, 16)
    assert list(tokens) == [tokens[k] for k in range(5)] and tokens[1:3] == (tokens[1], tokens[2])
    assert tokens.texts == ("The", "cat", ",", "the", "mat") and tokens.norms[0] == "the"
    assert tokens == Tokens.of(list(tokens)) == tuple(tokens) and hash(tokens) == hash(Tokens.of(tuple(tokens)))
    assert tokens != tokenize("the cat, the mat") and tokens[2:] + tokens[:1] == tokens[2:] + (tokens[0],)
    assert list(reversed(tokens)) == list(tokens)[::-1] and tokens.index(tokens[3]) == 3 and tokens[4] in tokens
    assert pickle.loads(pickle.dumps(tokens)) == tokens
    assert hash(tokens) == hash(tuple(tokens)) and tokens in {tuple(tokens)}  # equal, so equal hashes
    # FrozenInstanceError (an AttributeError), as the results raise (a tester: except FrozenInstanceError missed it)
    with pytest.raises(dataclasses.FrozenInstanceError, match="immutable"):
        tokens.texts = ()
    with pytest.raises(dataclasses.FrozenInstanceError, match="immutable"):
        del tokens.texts
    with pytest.raises(TypeError, match="token 0 is a str, not a Token: make tokens with tokenize"):
        Tokens.of(["the", "cat"])
    with pytest.raises(ValueError, match="same length"):
        Tokens(("a",), ("a", "b"), (0,), (1,))


def test_kept_tokens_are_not_walked_by_the_garbage_collector(wordnet_reader):
    """The reason Tokens exists: a result's tokens add one object for the collector per side,
    not one per token (their tuples of strings and ints are untracked after a collection)."""
    import gc

    result = Scorer(MeteorConfig()).score(" ".join(["the cat sat on the mat"] * 20), ["a cat sat on a mat"] * 2)
    gc.collect()
    for tokens in (result.best.candidate_tokens, result.best.reference_tokens):
        assert gc.is_tracked(tokens) and len(tokens) >= 6
        assert [part for part in gc.get_referents(tokens) if gc.is_tracked(part) and part is not Tokens] == []


def test_a_result_rebuilt_with_a_tuple_of_tokens_still_has_tokens(wordnet_reader):
    from meteor_core.report import segment_to_dict

    best = Scorer(MeteorConfig()).score("the cat sat", ["the cat sat on the mat"]).best
    rebuilt = dataclasses.replace(best, candidate_tokens=tuple(best.candidate_tokens))
    assert isinstance(rebuilt.candidate_tokens, Tokens) and rebuilt == best and hash(rebuilt) == hash(best)
    assert segment_to_dict(rebuilt) == segment_to_dict(best)


def test_a_token_whose_matching_form_is_its_text_holds_one_string():
    """A kept result held two equal strings for most tokens (the text and its lowercase form):
    about 50 bytes a token of an analysis's ~190-230."""
    for tokens in (tokenize("the Cat sat ."), Scorer(MeteorConfig()).tokenize(["the", "Cat", "sat", "."], "candidate")):
        assert tokens.norms == ("the", "cat", "sat", ".")
        assert [norm is text for text, norm in zip(tokens.texts, tokens.norms)] == [True, False, True, True]


def test_a_word_is_one_string_in_every_result_that_holds_it():
    """A kept corpus held one string per token ("the" 40,000 times); tokens share one per
    word, also after pickling (a worker's results come back that way)."""
    made = ["".join(["wo", "rd"]) for _ in range(2)]  # two equal strings, not one object
    assert made[0] is not made[1]
    first, second = tokenize([made[0], "The"]), tokenize(["x", made[1], "the"])
    assert first.texts[0] is second.texts[1] and first.norms[1] is second.norms[2] is second.texts[2]
    again = pickle.loads(pickle.dumps(first))
    assert again.texts[0] is first.texts[0] and again.norms[1] is first.norms[1]


def test_tokens_from_a_numpy_array_are_scored_as_plain_strings():
    """numpy.str_ (tokens kept in an array) cannot be interned: "can't intern numpy.str_"
    refused such input once tokens were interned. They become plain strings."""
    np = pytest.importorskip("numpy")
    result = score(list(np.array(["the", "cat", "sat"])), [list(np.array(["the", "cat"]))])
    assert result.score == pytest.approx(score(["the", "cat", "sat"], [["the", "cat"]]).score)
    assert {type(t) for t in (*result.best.candidate_tokens.texts, *result.best.reference_tokens.norms)} == {str}


def test_a_result_pickled_before_slots_still_loads_and_a_wrong_state_is_refused(wordnet_reader):
    """A helper's find: a result pickled by 0.6.0 with instance dicts (state: that dict) loaded
    as garbage, each field holding its own name; a state of the wrong length left fields unset.
    Results also take weak references again, as before slots."""
    import copyreg
    import weakref

    from meteor_core.result import Link

    class PickledBeforeSlots:  # a Link as protocols 0 and 1 wrote it then: made bare, then given its __dict__
        def __reduce_ex__(self, protocol):  # (protocols 2-5 made it with __newobj__: the same __setstate__ call)
            return copyreg._reconstructor, (Link, object, None), {
                "candidate": 1, "reference": 2, "stage": "exact", "evidence": "cat", "candidate_end": None,
                "reference_end": None}

    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(PickledBeforeSlots(), protocol=protocol)) == Link(1, 2, "exact", "cat")
    with pytest.raises(TypeError, match=r"Link: 2 values to unpickle, the class has 6 fields"):
        Link.__new__(Link).__setstate__((5, 6))
    result = Scorer(MeteorConfig()).score("the cat", ["the cat"])
    assert weakref.ref(result)() is result and weakref.ref(result.best.links[0])() is result.best.links[0]
