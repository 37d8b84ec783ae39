"""METEOR 1.5 (Denkowski & Lavie 2014) in pure Python: the jar's normalizer, modules (exact,
Snowball stem, its WordNet-derived synonyms, its paraphrase table), alignment search and
formula, reproduced from its public source so that scores equal `java -jar meteor-1.5.jar
hyp ref -l en -norm`. Use it through `Scorer(MeteorConfig(mode="meteor15"))`; the data comes
from `python -m meteor_core setup-meteor15` (see data.py).
"""
from .data import DataStatus, install, load_data
from .scorer import Meteor15Scorer

__all__ = ["DataStatus", "Meteor15Scorer", "install", "load_data"]
