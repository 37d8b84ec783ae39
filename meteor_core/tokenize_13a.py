"""sacreBLEU's default tokenization (13a, after mteval-v13a.pl), written so that Python 3.11
runs it about 2.5x faster than the `sacrebleu` package's own tokenizer: that one applies four
regular expressions whose replacement templates ("\\1 \\2 ") Python expands in Python code,
once per match, and the first one matches every space and punctuation mark of the line.

The same four rules, each as a C-level pass:
  1. put a space on each side of every character of RULE1_CHARACTERS (split on them, join
     with spaces: "a+b" -> "a + b");
  2. a period or comma after a non-digit gets a space on each side (matches do not overlap:
     "a.." pads only the first period, as the regular expression does);
  3. a period or comma before a non-digit gets a space on each side (no overlap either);
  4. a hyphen after a digit gets a space on each side (a digit is consumed only by the match
     of the hyphen right after it, so a lookbehind gives the same matches).
Rules 2 and 3 split on sacreBLEU's own patterns and replace only the captured period or
comma by its padded form, which is exactly what their templates produce.

tests/test_sacrebleu_view.py compares this with sacreBLEU's Tokenizer13a on every string of
up to 5 characters over an alphabet of the characters the rules look at, and on random text.
"""
from __future__ import annotations

import re
from functools import lru_cache

#: Rule 1's characters: sacreBLEU's class [{-~[-` -&(-+:-@/], i.e. ASCII space to "&",
#: "(" to "+", "/", ":" to "@", "[" to "`" and "{" to "~".
RULE1_CHARACTERS = "".join(chr(c) for first, last in ((0x20, 0x26), (0x28, 0x2B), (0x2F, 0x2F), (0x3A, 0x40),
                                                      (0x5B, 0x60), (0x7B, 0x7E))
                           for c in range(first, last + 1))
_RULE1 = re.compile("([" + re.escape(RULE1_CHARACTERS) + "])")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_HYPHEN_AFTER_DIGIT = re.compile(r"(?<=[0-9])-")
_PADDED = {".": " . ", ",": " , "}.__getitem__


#: Lines up to this long are cached (nearly every real segment: WMT's average is about 130
#: characters): at most CACHED_LINES lines of this length and their tokens, about 12 MB at worst.
#: At 2,000 characters each corpus of long random lines (tests/test_browser_corpus.py) added about 4 MB.
CACHED_LINE_CHARS = 400
#: What the cache is for: a reference shared by many systems, met again one test set later when
#: the systems are scored one after another (a candidate and a reference per line, so test sets
#: of up to 8,000 segments). Candidates are rarely met again; at 65,536 lines they filled the
#: cache of each batch worker with 40 MB on a stream of distinct lines (19 MB more RSS per process).
CACHED_LINES = 16384


def tokenize_13a(line: str) -> str:
    """The 13a tokens of `line`, joined by single spaces (what sacreBLEU's Tokenizer13a
    returns). Cached: a reference shared by many systems is tokenized once."""
    return _cached_13a(line) if len(line) <= CACHED_LINE_CHARS else _tokenize_13a(line)


def _tokenize_13a(line: str) -> str:
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = " ".join(_RULE1.split(f" {line} "))
    parts = _PERIOD_COMMA_AFTER_NON_DIGIT.split(line)  # [text, non-digit, mark, text, ...]
    if len(parts) > 1:
        parts[2::3] = map(_PADDED, parts[2::3])
        line = "".join(parts)
    parts = _PERIOD_COMMA_BEFORE_NON_DIGIT.split(line)  # [text, mark, non-digit, text, ...]
    if len(parts) > 1:
        parts[1::3] = map(_PADDED, parts[1::3])
        line = "".join(parts)
    if "-" in line:
        line = _HYPHEN_AFTER_DIGIT.sub(" - ", line)
    return " ".join(line.split())


_cached_13a = lru_cache(maxsize=CACHED_LINES)(_tokenize_13a)
