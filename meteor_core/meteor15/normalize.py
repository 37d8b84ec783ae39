"""METEOR 1.5's text handling, reproduced: the `-norm` normalizer, `-lower`, the way the jar
splits a line into words, and the Java string semantics its matchers rely on.

Behaviour learned from the public source of METEOR 1.5 (cmu-mtlab/meteor, Normalizer.java and
the classes that call it); written anew. Java details that change tokens and are kept here:
  * Java's regex `\\s` is ASCII whitespace only and `\\p{Digit}` / `\\p{Lower}` are ASCII only;
  * `String.trim()` strips every character <= U+0020, not Unicode whitespace;
  * words are split by `java.util.StringTokenizer`, whose only delimiters are space, tab,
    newline, carriage return and form feed (a no-break space stays inside a word);
  * the matchers compare words by `String.hashCode()` (32-bit, over UTF-16 code units).
"""
from __future__ import annotations

import re
from typing import Mapping

from ..caches import word_cache

# Letters the jar treats as alphabetic: ASCII, Western European, Cyrillic and a few extensions.
_ALPHA = ("A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e"
          "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f")
_ALNUM = "0-9" + _ALPHA
_JAVA_SPACE = " \t\n\x0b\x0c\r"  # Java regex \s

# Every character that is not a letter, digit, space, dot, apostrophe, backquote, comma,
# hyphen or curly single quote becomes a token of its own.
_SEPARATE = re.compile("([^" + _ALNUM + _JAVA_SPACE + ".'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_MULTI_DOT_NEXT = re.compile(r"DOTMULTI\.([^.])")
_COMMA_AB = re.compile(r"([^0-9]),([^0-9])")
_COMMA_DIGIT_A = re.compile(r"([0-9]),([^0-9])")
_COMMA_A_DIGIT = re.compile(r"([^0-9]),([0-9])")
_SINGLE_QUOTES = re.compile("[`\u2018\u2019]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d]|''")
_INNER_DASH = re.compile("([" + _ALNUM + ".])-([" + _ALNUM + "])")
# English apostrophes: split off, keeping "'s", "'t", "'re" ... attached to what follows.
_APOS_NONALPHA_BOTH = re.compile("([^" + _ALPHA + "])'([^" + _ALPHA + "])")
_APOS_BEFORE_ALPHA = re.compile("([^" + _ALPHA + "0-9])'([" + _ALPHA + "])")
_APOS_AFTER_ALPHA = re.compile("([" + _ALPHA + "])'([^" + _ALPHA + "])")
_APOS_INSIDE_WORD = re.compile("([" + _ALPHA + "])'([" + _ALPHA + "])")
_APOS_DECADE = re.compile("([0-9])'(s)")
_HAS_ALPHA = re.compile("[" + _ALPHA + "]")
_STARTS_LOWER = re.compile("[a-z]")
_STARTS_DIGIT = re.compile("[0-9]")
_NOT_ALNUM = re.compile("[^" + _ALNUM + "]")
_SPACES = re.compile("[  \u2000-\u200a\u202f\u205f\u3000\u00a0]+")
_TOKEN_DELIMITERS = re.compile("[ \t\n\r\x0c]+")
_TRIMMED = "".join(chr(c) for c in range(0x21))

#: Nonbreaking-prefix kinds in the jar's prefix files.
PREFIX_ANY = 1
PREFIX_NUMERIC_ONLY = 2

#: Normalization levels, named after the jar's options.
NORM_NONE = "none"  # no option: words as given
NORM_LOWER = "lower"  # -lower
NORM_KEEP_PUNCT = "norm"  # -norm (implies -lower)
NORM_NO_PUNCT = "norm-nopunct"  # -norm -noPunct
NORMALIZATIONS = (NORM_KEEP_PUNCT, NORM_NO_PUNCT, NORM_LOWER, NORM_NONE)


def java_trim(text: str) -> str:
    """`String.trim()`: strips characters <= U+0020 at both ends."""
    return text.strip(_TRIMMED)


def split_words(text: str) -> list[str]:
    """`StringTokenizer(text)`: words between runs of space, tab, newline, CR, form feed."""
    return [w for w in _TOKEN_DELIMITERS.split(text) if w]


def java_lower(text: str) -> str:
    """`String.toLowerCase()` outside a Turkish locale. Python's full Unicode lower-casing
    agrees with Java's for the cases that matter here (dotted capital I, final sigma). Each
    follows its own Unicode version, so capitals added recently can differ (U+2C2F: lowered
    by Python 3.11, Unicode 14; kept by Java 17, Unicode 13): documented in README, not
    emulated, as the jar's own answer changes with the Java that runs it."""
    return text.lower()


@word_cache
def java_hash(word: str) -> int:
    """`String.hashCode()`: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, 32-bit."""
    h = 0
    if word.isascii() or max(word) <= "\uffff":
        for ch in word:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
    else:
        units = word.encode("utf-16-le", "surrogatepass")
        for k in range(0, len(units), 2):
            h = (31 * h + (units[k] | units[k + 1] << 8)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def parse_prefix_file(text: str) -> dict[str, int]:
    """A nonbreaking-prefix file: one prefix per line, `#` comments, `#NUMERIC_ONLY#` marks
    prefixes that do not end a sentence only when a number follows ("No. 5")."""
    prefixes: dict[str, int] = {}
    for line in text.splitlines():
        fields = split_words(line)
        if not fields or fields[0].startswith("#"):
            continue
        kind = PREFIX_NUMERIC_ONLY if len(fields) > 1 and fields[1] == "#NUMERIC_ONLY#" else PREFIX_ANY
        prefixes[fields[0]] = kind
    return prefixes


def normalize_line(line: str, prefixes: Mapping[str, int], keep_punctuation: bool = True) -> str:
    """The jar's `-norm` tokenization for English (before lower-casing), as one string of
    space-separated tokens. `prefixes` is the nonbreaking-prefix table (empty if missing)."""
    text = f" {line} "
    text = _SEPARATE.sub(r" \1 ", text)
    # Runs of dots are hidden from the dot rules below as DOTMULTI markers, restored at the end.
    text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:
        text = _MULTI_DOT_NEXT.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    # Commas split except between two digits.
    text = _COMMA_AB.sub(r"\1 , \2", text)
    text = _COMMA_DIGIT_A.sub(r"\1 , \2", text)
    text = _COMMA_A_DIGIT.sub(r"\1 , \2", text)
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub(' " ', text)
    text = text.replace("\u2013", "-").replace("--", "-")
    # A hyphen between word characters becomes a space, so "well-known" can match "well known".
    text = _INNER_DASH.sub(r"\1 \2", text)
    text = _APOS_NONALPHA_BOTH.sub(r"\1 ' \2", text)
    text = _APOS_BEFORE_ALPHA.sub(r"\1 ' \2", text)
    text = _APOS_AFTER_ALPHA.sub(r"\1 ' \2", text)
    text = _APOS_INSIDE_WORD.sub(r"\1 '\2", text)
    text = _APOS_DECADE.sub(r"\1 '\2", text)
    words = split_words(text)
    rebuilt = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if len(word) > 1 and word.endswith("."):
            prefix = word[:-1]
            kind = prefixes.get(prefix)
            if "." in prefix and _HAS_ALPHA.search(prefix):
                rebuilt.append(word.replace(".", ""))  # "U.S." -> "US"
            elif kind == PREFIX_ANY or (following is not None and _STARTS_LOWER.match(following)):
                rebuilt.append(word)
            elif kind == PREFIX_NUMERIC_ONLY and following is not None and _STARTS_DIGIT.match(following):
                rebuilt.append(word)
            else:
                rebuilt.append(prefix + " .")
        else:
            rebuilt.append(word)
        rebuilt.append(" ")
    text = "".join(rebuilt)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    if not keep_punctuation:
        text = _NOT_ALNUM.sub(" ", text)
    return java_trim(_SPACES.sub(" ", text))


def words_of(text: str, normalization: str, prefixes: Mapping[str, int]) -> list[str]:
    """The words the jar aligns for one side, under one of NORMALIZATIONS."""
    if normalization in (NORM_KEEP_PUNCT, NORM_NO_PUNCT):
        text = normalize_line(text, prefixes, keep_punctuation=normalization == NORM_KEEP_PUNCT)
    if normalization != NORM_NONE:
        text = java_lower(text)
    return split_words(text)
