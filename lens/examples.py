"""Worked examples offered in the app (candidate, references, note)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    key: str
    label: str  # at most 26 characters: the sidebar's select box shows no more (tests/test_app.py)
    candidate: str
    references: tuple[str, ...]
    note: str
    language: str = "en"


EXAMPLES = (
    Example("coupon", "Coupon (pt): BLEU is 0", "o cupom vale só até domingo",
            ("o cupom vale para toda a loja até domingo",),
            "5 of 6 candidate words match in 2 chunks: P = 5/6, R = 5/9, penalty 0.5 (2/5)^3 = 0.032. "
            "BLEU is 0: no 4-gram in common.", "pt-BR"),
    Example("coupon-reordered", "Coupon (pt), reordered",
            "até domingo o cupom vale para toda a loja", ("o cupom vale para toda a loja até domingo",),
            "All 9 words match in 2 chunks: METEOR 0.995, while BLEU drops to 0.803 because the seam breaks 4-grams.",
            "pt-BR"),
    Example("president", "The paper's president", "the president spoke to the audience",
            ("the president then spoke to the audience",),
            "6 matches, 2 chunks, recall 6/7: METEOR 0.853."),
    Example("stem-synonym", "Stem and synonym both fire", "the cars started quickly and the auto stopped",
            ("the car starts fast and the automobile halted",),
            "cars~car and started~starts share Porter stems; auto~automobile (car.n.01) and stopped~halted (stop.v.01) share WordNet synsets. quickly and fast do not: WordNet puts them in different synsets."),
    Example("cat-feline", "Glossary: feline ~ cat?", "The feline sat on a mat",
            ("The cat sat on the mat",),
            "Glossaries say feline~cat through WordNet, one chunk, 0.830. In WordNet 3.0 'feline' is a hypernym of "
            "'cat', not a synonym: they share no synset, and 'a'/'the' do not match either."),
    Example("cat-mat-nltk", "nltk vs paper: cat on mat", "the cat sat on a mat", ("the cat sat on the mat",),
            "NLTK aligns greedily from the end and links candidate 'the' to the second 'the': 3 chunks, 0.7433. "
            "The paper's fewest-crossings alignment gives 2 chunks, 0.8067."),
    Example("objectives", "Crossings vs chunks", "on the mat sat the cat", ("the cat sat on the mat",),
            "Fewest crossings links each 'the' in order (6 chunks, METEOR 0.5); fewest chunks (METEOR 1.5 style) "
            "crosses them and gets 3 chunks."),
    Example("pt-stem", "pt stems: chegou, chegaram", "eles chegaram cedo à loja", ("ele chegou cedo ao armazém",),
            "With language pt-BR, Snowball stems chegaram and chegou to 'cheg' and the MyThes thesaurus lists "
            "armazém among the synonyms of loja. With exact matching alone they would be different words.",
            "pt-BR"),
    Example("multi-ref", "Several references", "this is a good test", ("this is a test", "this is also a test"),
            "Each reference is scored; the best one counts."),
    Example("meaning", "Words, not meaning", "people like visiting places abroad",
            ("people like foreign cars",),
            "Compare with 'consumers prefer imported cars' (0.125): WordNet relates none of like/prefer, "
            "foreign/imported, people/consumers."),
)
BY_KEY = {e.key: e for e in EXAMPLES}
#: What the app opens with: English (the paper's language), and every stage fires.
DEFAULT_EXAMPLE = BY_KEY["stem-synonym"]
