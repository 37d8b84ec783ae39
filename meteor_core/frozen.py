"""Building frozen dataclass instances in hot loops.

A frozen dataclass's generated __init__ sets each field through object.__setattr__ (to get
past its own __setattr__, which refuses); that costs about four times a plain class's
__init__, and a scored pair builds dozens of tokens and links. The result classes have
__slots__ (a Link with its instance dict took ~370 bytes, with slots ~120; a kept analysis
about half the memory), and `build` fills the slots through their descriptors: the object
is the same as the generated __init__ makes (same class, fields, equality, hash, pickling,
dataclasses.replace, still frozen afterwards)."""
from __future__ import annotations

from dataclasses import FrozenInstanceError, fields
from operator import attrgetter

new_object = object.__new__


def field_setters(cls) -> tuple:
    """The setters of a slots dataclass's fields, in field order: setter(obj, value). Written
    inline in the hottest loops (a token, a link), which saves a Python call per object."""
    return tuple(getattr(cls, field.name).__set__ for field in fields(cls))


def slotted(cls):
    """Class decorator (under @dataclass(frozen=True, slots=True, weakref_slot=True)): keeps the
    class's field setters by name for build(), and pickles through them. The dataclass's own
    pickling of a frozen slots class calls fields() per object: pickling a result took twice as
    long (68 us, 33 with instance dicts; now 38-42, and 34-41 to unpickle where dicts took
    40-46), and every result of a worker process crosses that way. Weak references as before
    slots (weakref_slot)."""
    names = [field.name for field in fields(cls)]
    setters = field_setters(cls)
    cls._setters = dict(zip(names, setters))
    getter = attrgetter(*names)
    one_field = len(names) == 1  # attrgetter of one name returns the value, not a tuple

    def __getstate__(self):
        return (getter(self),) if one_field else getter(self)

    def __setstate__(self, state):
        if isinstance(state, dict):  # pickled before the classes had slots: their instance dict
            state = tuple(state[name] for name in names)
        if len(state) != len(setters):  # zip would stop at the shorter, leaving fields unset
            raise TypeError(f"{cls.__name__}: {len(state)} values to unpickle, the class has {len(setters)} fields")
        for setter, value in zip(setters, state):
            setter(self, value)

    cls.__getstate__, cls.__setstate__ = __getstate__, __setstate__
    # Python 3.11's frozen __setattr__ of a slots class raises "TypeError: super(type, obj): obj
    # must be an instance or subtype of type" for a name that is not a field (result.score = 1,
    # score being a property), which `except FrozenInstanceError` misses (a tester).
    cls.__setattr__, cls.__delattr__ = _refuse_assignment, _refuse_deletion
    return cls


def _refuse_assignment(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}" if name in type(self)._setters else
                              f"cannot assign to {name!r}: {type(self).__name__} is immutable")


def _refuse_deletion(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}" if name in type(self)._setters else
                              f"cannot delete {name!r}: {type(self).__name__} is immutable")


def build(cls, values: dict):
    """An instance of the @slotted frozen dataclass `cls` whose fields are `values` (every
    field, no others; a field left out raises AttributeError when read, which
    tests/test_frozen.py checks for every class built so). A __post_init__ is skipped, so only
    for classes whose __post_init__ would leave these values as they are."""
    obj = new_object(cls)
    setters = cls._setters
    for name, value in values.items():
        setters[name](obj, value)
    return obj
