"""Tokenization with surface forms and character offsets kept for display.

Tokens are never copied strings detached from their source: each one records the half-open
character span [start, end) it came from, so the app can highlight the original text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence, Union

from .errors import MeteorInputError, MeteorParameterError

#: Hard cap per side. The exact aligner is fast on real sentences, but a cap keeps worst-case
#: memory and time predictable for a web app; 2,000 tokens is far above any MT segment.
MAX_TOKENS = 2000

TOKENIZERS = ("default", "whitespace", "char", "segmenter")

# Words (Unicode letters/digits, with inner apostrophes or hyphens: "don't", "e-mail") or
# single punctuation/symbol characters.
_DEFAULT_PATTERN = re.compile(r"\w+(?:['\u2019\-]\w+)*|[^\w\s]", re.UNICODE)
_WHITESPACE_PATTERN = re.compile(r"\S+")
# Character level for scripts written without spaces: each CJK character (Han, kana) is a
# token; runs of other letters/digits stay words; punctuation stays one character per token.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CHAR_PATTERN = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+(?:['\u2019\\-][^\\W{_CJK}]+)*|[^\\w\\s]", re.UNICODE)
# Unicode category Cc is exactly U+0000-U+001F and U+007F-U+009F; tab, newline, CR are whitespace.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Token:
    """One token: its surface text, the normalized form used for matching, and its span."""

    text: str
    norm: str
    start: int
    end: int


TextOrTokens = Union[str, Sequence[str]]


def _check_controls(text: str, field: str) -> None:
    found = _CONTROL.search(text)
    if found:
        offset, ch = found.start(), found.group(0)
        raise MeteorInputError(
                f"{field} contains control character U+{ord(ch):04X} at character {offset}; "
                "remove it (only tab and newline are accepted as whitespace)"
            )


def is_punctuation(text: str) -> bool:
    """True for tokens made only of punctuation or symbols (no letter or digit)."""
    return not any(ch.isalnum() for ch in text)


def _split(text: str, tokenizer: str, language: str) -> list[tuple[str, int, int]]:
    from .languages import resolve

    lang = resolve(language)
    if tokenizer == "default" and lang is not None and lang.char_level:
        tokenizer = "char"
    if tokenizer == "segmenter":
        if lang is None or not lang.segmenter:
            raise MeteorParameterError(f"no word segmenter for language {language!r}; use default or whitespace")
        return _segment(text, lang.segmenter)
    pattern = {"default": _DEFAULT_PATTERN, "whitespace": _WHITESPACE_PATTERN, "char": _CHAR_PATTERN}[tokenizer]
    return [(m.group(0), m.start(), m.end()) for m in pattern.finditer(text)]


def _segment(text: str, package: str) -> list[tuple[str, int, int]]:
    """Word segmentation with offsets; whitespace pieces dropped."""
    try:
        if package == "jieba":
            import jieba

            jieba.setLogLevel(60)
            pieces = [(w, start, end) for w, start, end in jieba.tokenize(text)]
        else:
            from .languages import janome_tokenizer

            pieces, position = [], 0
            for token in janome_tokenizer().tokenize(text):
                start = text.find(token.surface, position)
                start = position if start < 0 else start
                pieces.append((token.surface, start, start + len(token.surface)))
                position = start + len(token.surface)
    except ImportError:
        raise MeteorParameterError(f"the word segmenter {package} is not installed (pip install {package}); "
                                   "use character tokens instead") from None
    return [(w, a, b) for w, a, b in pieces if w.strip()]


def tokenize(
    text: TextOrTokens,
    *,
    field: str = "text",
    tokenizer: str = "default",
    keep_case: bool = False,
    drop_punctuation: bool = False,
    max_tokens: int = MAX_TOKENS,
    language: str = "en",
) -> tuple[Token, ...]:
    """Split `text` into tokens (or accept a pre-tokenized sequence as is).

    Pre-tokenized input keeps its tokens unchanged; their offsets refer to the tokens joined
    by single spaces, which is how they are displayed.
    """
    if tokenizer not in TOKENIZERS:
        raise MeteorParameterError(f"unknown tokenizer {tokenizer!r}; choose one of {', '.join(TOKENIZERS)}")
    if isinstance(text, str):
        _check_controls(text, field)
        spans = _split(text, tokenizer, language)
    else:
        pieces = list(text)
        joined = " ".join(p if isinstance(p, str) else "" for p in pieces)
        # Fast check: every token a non-empty string without whitespace <=> the joined text
        # splits back into exactly the same tokens. Only on failure look for the culprit.
        if joined.split(" ") != pieces or len(joined.split()) != len(pieces):
            for position, piece in enumerate(pieces):
                if not isinstance(piece, str):
                    raise MeteorInputError(f"{field} token {position} is not a string: {piece!r}")
                if not piece or any(ch.isspace() for ch in piece):
                    raise MeteorInputError(
                        f"{field} token {position} ({piece!r}) is empty or contains whitespace")
        _check_controls(joined, field)
        spans = []
        offset = 0
        for piece in pieces:
            end = offset + len(piece)
            spans.append((piece, offset, end))
            offset = end + 1
    if drop_punctuation:
        spans = [span for span in spans if not is_punctuation(span[0])]
    if not spans:
        raise MeteorInputError(f"{field} is empty (no tokens after tokenization)")
    if len(spans) > max_tokens:
        raise MeteorInputError(
            f"{field} has {len(spans)} tokens; the limit is {max_tokens} per side"
        )
    return tuple(
        Token(surface, surface if keep_case else surface.lower(), start, end)
        for surface, start, end in spans
    )

