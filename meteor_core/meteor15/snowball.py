"""The Snowball English ("Porter2") stemmer in the version METEOR 1.5 ships.

Written from the published Snowball algorithm (snowballstem.org, english.sbl as of 2006-2010),
not from nltk: nltk's EnglishStemmer differs from it on words such as "realization" (nltk
"realize", Snowball "realiz") and maps the curly apostrophe to "'", which the jar's stemmer does
not. Tested word for word against the jar's own stemmer (tests/test_meteor15_oracle.py).

Java strings are UTF-16; a character outside the Basic Multilingual Plane counts as two
non-vowels there, so such words are stemmed in their UTF-16 form.
"""
from __future__ import annotations

from ..caches import word_cache

_VOWELS = frozenset("aeiouy")
_VOWELS_WXY = frozenset("aeiouywxY")
_VALID_LI = frozenset("cdeghkmnrt")

_EXCEPTIONS = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
    "idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli",
    "singly": "singl",
    "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos",
    "bias": "bias", "andes": "andes",
}
_INVARIANT_AFTER_1A = frozenset(
    ("inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"))
_REGION_PREFIXES = ("gener", "commun", "arsen")

_STEP1A = ("sses", "ied", "ies", "us", "ss", "s")
_STEP1B = ("eedly", "ingly", "edly", "eed", "ing", "ed")
_DOUBLES = frozenset(("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"))
_STEP2 = {
    "ization": "ize", "ational": "ate", "fulness": "ful", "ousness": "ous", "iveness": "ive",
    "tional": "tion", "biliti": "ble", "lessli": "less",
    "entli": "ent", "ation": "ate", "alism": "al", "aliti": "al", "ousli": "ous", "iviti": "ive",
    "fulli": "ful",
    "enci": "ence", "anci": "ance", "abli": "able", "izer": "ize", "ator": "ate", "alli": "al",
    "bli": "ble", "ogi": "og", "li": "",
}
_STEP3 = {
    "ational": "ate", "tional": "tion", "alize": "al", "icate": "ic", "iciti": "ic", "ative": "",
    "ical": "ic", "ness": "", "ful": "",
}
_STEP4 = ("ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti",
          "ous", "ive", "ize", "ion", "al", "er", "ic")


def _longest_suffix(word: str, suffixes) -> str:
    """Snowball's `among`: the longest listed suffix the word ends with ('' if none)."""
    best = ""
    for suffix in suffixes:
        if len(suffix) > len(best) and word.endswith(suffix):
            best = suffix
    return best


def _is_short_syllable_end(word: str, end: int) -> bool:
    """`shortv` at position `end`: word[:end] ends non-vowel, vowel, non-vowel (last not w, x,
    Y), or is exactly vowel + non-vowel."""
    if end >= 3 and word[end - 1] not in _VOWELS_WXY and word[end - 2] in _VOWELS \
            and word[end - 3] not in _VOWELS:
        return True
    return end == 2 and word[1] not in _VOWELS and word[0] in _VOWELS


def _regions(word: str) -> tuple[int, int]:
    def after_vowel_consonant(start: int) -> int:
        k = start
        while k < len(word) and word[k] not in _VOWELS:
            k += 1
        k += 1
        while k < len(word) and word[k] in _VOWELS:
            k += 1
        return k + 1 if k < len(word) else -1

    n = len(word)
    p1 = p2 = n
    prefix = next((p for p in _REGION_PREFIXES if word.startswith(p)), None)
    first = len(prefix) if prefix else after_vowel_consonant(0)
    if first >= 0:
        p1 = first
        second = after_vowel_consonant(first)
        if second >= 0:
            p2 = second
    return p1, p2


def _prelude(word: str) -> tuple[str, bool]:
    if word.startswith("'"):
        word = word[1:]
    chars = list(word)
    y_found = False
    if chars and chars[0] == "y":
        chars[0] = "Y"
        y_found = True
    # Left to right, so a y turned into Y no longer counts as the vowel before the next y.
    for k in range(len(chars) - 1):
        if chars[k] in _VOWELS and chars[k + 1] == "y":
            chars[k + 1] = "Y"
            y_found = True
    return "".join(chars), y_found


def _step1a(word: str) -> str:
    for suffix in ("'s'", "'s", "'"):
        if word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    suffix = _longest_suffix(word, _STEP1A)
    start = len(word) - len(suffix)
    if suffix == "sses":
        return word[:start] + "ss"
    if suffix in ("ied", "ies"):
        return word[:start] + ("i" if start >= 2 else "ie")
    if suffix == "s":
        # delete if a vowel occurs before the letter just before the s
        if start >= 1 and any(ch in _VOWELS for ch in word[: start - 1]):
            return word[:start]
    return word


def _step1b(word: str, p1: int) -> str:
    suffix = _longest_suffix(word, _STEP1B)
    if not suffix:
        return word
    start = len(word) - len(suffix)
    if suffix in ("eed", "eedly"):
        return word[:start] + "ee" if start >= p1 else word
    if not any(ch in _VOWELS for ch in word[:start]):
        return word
    word = word[:start]
    if word.endswith(("at", "bl", "iz")):
        return word + "e"
    if word[-2:] in _DOUBLES:
        return word[:-1]
    if len(word) == p1 and _is_short_syllable_end(word, len(word)):
        return word + "e"
    return word


def _step1c(word: str) -> str:
    if len(word) >= 3 and word[-1] in "yY" and word[-2] not in _VOWELS:
        return word[:-1] + "i"
    return word


def _step2(word: str, p1: int) -> str:
    suffix = _longest_suffix(word, _STEP2)
    start = len(word) - len(suffix)
    if not suffix or start < p1:
        return word
    if suffix == "ogi":
        return word[:start] + "og" if start >= 1 and word[start - 1] == "l" else word
    if suffix == "li":
        return word[:start] if start >= 1 and word[start - 1] in _VALID_LI else word
    return word[:start] + _STEP2[suffix]


def _step3(word: str, p1: int, p2: int) -> str:
    suffix = _longest_suffix(word, _STEP3)
    start = len(word) - len(suffix)
    if not suffix or start < p1:
        return word
    if suffix == "ative":
        return word[:start] if start >= p2 else word
    return word[:start] + _STEP3[suffix]


def _step4(word: str, p2: int) -> str:
    suffix = _longest_suffix(word, _STEP4)
    start = len(word) - len(suffix)
    if not suffix or start < p2:
        return word
    if suffix == "ion":
        return word[:start] if start >= 1 and word[start - 1] in "st" else word
    return word[:start]


def _step5(word: str, p1: int, p2: int) -> str:
    if word.endswith("e"):
        start = len(word) - 1
        if start >= p2 or (start >= p1 and not _is_short_syllable_end(word, start)):
            return word[:start]
    elif word.endswith("l"):
        start = len(word) - 1
        if start >= p2 and start >= 1 and word[start - 1] == "l":
            return word[:start]
    return word


def _stem_units(word: str) -> str:
    exception = _EXCEPTIONS.get(word)
    if exception is not None:
        return exception
    if len(word) < 3:
        return word
    word, y_found = _prelude(word)
    p1, p2 = _regions(word)
    word = _step1a(word)
    if word not in _INVARIANT_AFTER_1A:
        word = _step1b(word, p1)
        word = _step1c(word)
        word = _step2(word, p1)
        word = _step3(word, p1, p2)
        word = _step4(word, p2)
        word = _step5(word, p1, p2)
    return word.replace("Y", "y") if y_found else word


@word_cache
def stem(word: str) -> str:
    """The stem METEOR 1.5 compares in its stem module (input already lower-cased)."""
    if word.isascii() or max(word) <= "\uffff":
        return _stem_units(word)
    # UTF-16 code units, as the jar sees them; pairs are never split (only ASCII is removed).
    utf16 = "".join(chr(unit) for unit in _code_units(word))
    return _stem_units(utf16).encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def _code_units(word: str):
    for ch in word:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            yield 0xD800 + (code >> 10)
            yield 0xDC00 + (code & 0x3FF)
        else:
            yield code
