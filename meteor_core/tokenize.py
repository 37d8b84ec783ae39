"""Tokenization with surface forms and character offsets kept for display.

Tokens are never copied strings detached from their source: each one records the half-open
character span [start, end) it came from, so the app can highlight the original text.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence, Union

from .errors import MeteorInputError, MeteorParameterError

#: Hard cap per side. The exact aligner is fast on real sentences, but a cap keeps worst-case
#: memory and time predictable for a web app; 2,000 tokens is far above any MT segment.
MAX_TOKENS = 2000

TOKENIZERS = ("default", "whitespace")

# Words (Unicode letters/digits, with inner apostrophes or hyphens: "don't", "e-mail") or
# single punctuation/symbol characters.
_DEFAULT_PATTERN = re.compile(r"\w+(?:['\u2019\-]\w+)*|[^\w\s]", re.UNICODE)
_WHITESPACE_PATTERN = re.compile(r"\S+")
_ALLOWED_CONTROL = {"\t", "\n", "\r"}


@dataclass(frozen=True)
class Token:
    """One token: its surface text, the normalized form used for matching, and its span."""

    text: str
    norm: str
    start: int
    end: int


TextOrTokens = Union[str, Sequence[str]]


def _check_controls(text: str, field: str) -> None:
    for offset, ch in enumerate(text):
        if ch not in _ALLOWED_CONTROL and unicodedata.category(ch) == "Cc":
            raise MeteorInputError(
                f"{field} contains control character U+{ord(ch):04X} at character {offset}; "
                "remove it (only tab and newline are accepted as whitespace)"
            )


def is_punctuation(text: str) -> bool:
    """True for tokens made only of punctuation or symbols (no letter or digit)."""
    return not any(ch.isalnum() for ch in text)


def tokenize(
    text: TextOrTokens,
    *,
    field: str = "text",
    tokenizer: str = "default",
    keep_case: bool = False,
    drop_punctuation: bool = False,
    max_tokens: int = MAX_TOKENS,
) -> tuple[Token, ...]:
    """Split `text` into tokens (or accept a pre-tokenized sequence as is).

    Pre-tokenized input keeps its tokens unchanged; their offsets refer to the tokens joined
    by single spaces, which is how they are displayed.
    """
    if tokenizer not in TOKENIZERS:
        raise MeteorParameterError(f"unknown tokenizer {tokenizer!r}; choose one of {', '.join(TOKENIZERS)}")
    if isinstance(text, str):
        _check_controls(text, field)
        pattern = _DEFAULT_PATTERN if tokenizer == "default" else _WHITESPACE_PATTERN
        spans = [(m.group(0), m.start(), m.end()) for m in pattern.finditer(text)]
    else:
        spans = []
        offset = 0
        for position, piece in enumerate(text):
            if not isinstance(piece, str):
                raise MeteorInputError(f"{field} token {position} is not a string: {piece!r}")
            _check_controls(piece, field)
            if not piece or any(ch.isspace() for ch in piece):
                raise MeteorInputError(
                    f"{field} token {position} ({piece!r}) is empty or contains whitespace"
                )
            spans.append((piece, offset, offset + len(piece)))
            offset += len(piece) + 1
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

