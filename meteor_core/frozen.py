"""Building frozen dataclass instances in hot loops.

A frozen dataclass's generated __init__ sets each field through object.__setattr__ (to get
past its own __setattr__, which refuses); that costs about four times a plain class's
__init__, and a scored pair builds dozens of tokens and links. `build` sets the instance
dict once instead: the object is the same (same class, fields, equality, hash, pickling,
dataclasses.replace, still frozen afterwards)."""
from __future__ import annotations

#: build()'s two steps, also written inline in the hottest loops (a token, a link): that saves
#: a Python call per object, about half of what building a token costs.
#: Use: obj = new_object(cls); set_attribute(obj, "__dict__", values)
new_object = object.__new__
set_attribute = object.__setattr__


def build(cls, values: dict):
    """An instance of the frozen dataclass `cls` whose fields are `values` (every field, in
    order, no others). Only for classes without __slots__; a __post_init__ is skipped, so
    only for classes whose __post_init__ would leave these values as they are."""
    obj = new_object(cls)
    set_attribute(obj, "__dict__", values)
    return obj
