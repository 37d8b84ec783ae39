"""frozen.build skips the dataclass __init__ for speed; this keeps it honest: every object the
scorer builds that way has exactly its class's fields (a field added to a result class and
forgotten in a build() call fails here, not as an AttributeError in a user's session)."""
import dataclasses
import pickle

import pytest

from meteor_core import MeteorConfig, Scorer


def _objects(value, seen):
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for field in dataclasses.fields(value):
            yield from _objects(getattr(value, field.name), seen)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _objects(item, seen)


@pytest.mark.parametrize("mode", ["paper", "nltk"])
def test_built_results_have_exactly_their_fields(mode, wordnet_reader):
    result = Scorer(MeteorConfig(mode=mode)).score("the cats sat quickly on a mat", ["a cat sat fast on the mat",
                                                                                     "the dog"])
    checked = {}
    for obj in _objects(result, set()):
        names = {f.name for f in dataclasses.fields(obj)}
        assert names <= set(vars(obj)), (type(obj).__name__, names - set(vars(obj)))
        checked[type(obj).__name__] = checked.get(type(obj).__name__, 0) + 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, dataclasses.fields(obj)[0].name, None)
    assert {"MultiReferenceResult", "SegmentResult", "Token", "Link", "ChunkSpan", "StageSnapshot",
            "MeteorStats"} <= set(checked)
    # the same object after a round trip, equal and with the same hash where hashable
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert dataclasses.replace(result.best, crossings=result.best.crossings) == result.best
