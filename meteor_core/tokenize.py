"""Tokenization with surface forms and character offsets kept for display.

Tokens are never copied strings detached from their source: each one records the half-open
character span [start, end) it came from, so the app can highlight the original text.

Unicode decisions (issue 12):
  * Combining marks belong to the word they follow: "cafe\u0301" (NFD) is one token, and so is
    Devanagari "\u0915\u093f"; `drop_punctuation` never strips an accent. (The standard library's
    `re` counts marks as non-word characters; the `regex` module, already required by nltk,
    follows Unicode's definition of a word character.)
  * Format characters (category Cf: zero-width joiner and non-joiner, soft hyphen, word joiner,
    BOM, direction marks) are never tokens; inside a word they stay in its surface text and are
    left out of its matching form. U+200B ZERO WIDTH SPACE separates words like a space.
  * Matching form: NFC (after case folding unless keep_case), so NFC and NFD spellings of a
    word match. nltk mode keeps nltk's own matching form (str.lower only: nltk does not
    normalize), so its results stay nltk's; the token boundaries are the same in both modes.
  * Offsets always point into the text the user gave (never into a normalized copy).
  * An emoji is one token, as on screen: flags, skin tones, ZWJ sequences (families), keycaps.
  * Lone surrogates (a broken "\ud800" escape, or bytes that were not UTF-8) are rejected:
    they are not text and cannot be written out as UTF-8.
  * Limits before work: the length in characters (MAX_CHARS) is checked before the text is
    scanned at all, so a 20 MB paste is refused at once instead of being tokenized whole first
    (within MAX_CHARS, tokenizing everything costs at most a few tens of milliseconds).
"""
from __future__ import annotations

import re
import unicodedata
from sys import intern
from dataclasses import FrozenInstanceError, dataclass
from functools import lru_cache
from itertools import accumulate
from operator import add, sub
from typing import Sequence, Union

import regex

from .caches import word_cache
from .errors import MeteorInputError, MeteorParameterError, TooManyCharacters, TooManyTokens
from .frozen import field_setters, new_object, slotted

#: Hard cap per side. The exact aligner is fast on real sentences, but a cap keeps worst-case
#: memory and time predictable for a web app; 2,000 tokens is far above any MT segment.
MAX_TOKENS = 2000
#: References per candidate. Each is aligned in full, so the work grows with their number; a
#: cap keeps a call's time bounded (captioning sets have 5, PASCAL-50S 50). It also catches a
#: token list passed where the list of references belongs.
MAX_REFERENCES = 100
#: Iterable but unordered (a set's order follows the hash seed): refused wherever order decides
#: the result (tokens, references, stages).
UNORDERED = (set, frozenset, dict)
#: Characters per side, checked first (before any scan of the text): 100 per token on average
#: at the token limit, so no real text reaches it, and a 20 MB paste is refused at once.
MAX_CHARS = 200_000
CHARS_PER_TOKEN = 100


def max_chars(max_tokens: int) -> int:
    """The character limit per side: MAX_CHARS, or more when max_tokens is raised past the
    default (a 40,000-word document under --max-tokens 50000 was refused at 200,000
    characters, with no option that raised it: a tester)."""
    return max(MAX_CHARS, CHARS_PER_TOKEN * max_tokens)

TOKENIZERS = ("default", "whitespace", "char", "segmenter", "nltk")

# Inside a word: word characters (regex's \w includes marks), marks, and format characters
# other than ZERO WIDTH SPACE (which separates words).
_IN_WORD = r"(?:\w|\p{M}|(?!\u200b)\p{Cf})"
# Words (letters/digits with their marks, inner apostrophes or hyphens: "don't", "e-mail"; a
# period or comma between digits: "3.5", "1,000") or single punctuation/symbol characters with
# any marks on them. Numbers stay whole as in sacreBLEU's 13a, nltk's word_tokenize and
# METEOR 1.5's -norm: split, "3.5" and "4.5" matched two of their three tokens.
_PUNCT = r"[^\w\s\p{Cf}]\p{M}*"
# An emoji as one token, as it is one character on screen (UTS #51): a flag (two regional
# indicators), or a pictograph with its presentation selector and skin tone, joined to
# others by ZERO WIDTH JOINER (a family), with tag characters (a subdivision flag). Split, a
# flag became two letters that matched another flag's ("DE" and "ES" share E).
_EMOJI = (r"[\U0001F1E6-\U0001F1FF]{2}"
          r"|\p{ExtPict}[\p{M}\p{EMod}]*(?:\u200d\p{ExtPict}[\p{M}\p{EMod}]*)*[\U000E0020-\U000E007F]*")
_IN_NUMBER = r"(?<=\d)[.,](?=\d)"
_DEFAULT_PATTERN = regex.compile(
    rf"\w{_IN_WORD}*(?:['\u2019\-]\w{_IN_WORD}*|{_IN_NUMBER}\w{_IN_WORD}*)*|{_EMOJI}|{_PUNCT}")
_WHITESPACE_PATTERN = regex.compile(r"[^\s\u200b]+")
# Character level for scripts written without spaces: each CJK character (Han, kana) is a
# token (with its marks, e.g. a combining voiced-sound mark); runs of other letters/digits stay
# words; punctuation stays one character per token. Kana include the phonetic extensions and
# half-width katakana (with their own voiced-sound marks U+FF9E-FF9F), Han the extension
# planes: "ｶﾀｶﾅ" was one word, and scored 0 against "ｶﾀｶﾅﾃｽﾄ" where "カタカナ" scores 0.5924
# against "カタカナテスト" (a tester).
#: The ranges as character-class text: kana, and Han (its extension planes B-G hold the
#: compatibility supplement); result.py's hint to choose Japanese or Chinese reads them too.
KANA_RANGES = "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d"
HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CJK = KANA_RANGES + HAN_RANGES
_NOT_CJK_IN_WORD = rf"(?:(?![{_CJK}]){_IN_WORD})"
_CHAR_PATTERN = regex.compile(
    rf"[{_CJK}][\p{{M}}\uff9e\uff9f]*|[^\W{_CJK}]{_NOT_CJK_IN_WORD}*(?:(?:['\u2019\-]|{_IN_NUMBER})[^\W{_CJK}]{_NOT_CJK_IN_WORD}*)*"
    rf"|{_EMOJI}|{_PUNCT}")
_PATTERNS = {"default": _DEFAULT_PATTERN, "whitespace": _WHITESPACE_PATTERN, "char": _CHAR_PATTERN}
# ASCII text has no marks or format characters, and \w means the same in both engines: the
# standard library's faster `re` gives the same tokens there.
_ASCII_WORD = rf"\w+(?:(?:['\-]|{_IN_NUMBER})\w+)*"
_ASCII_PATTERNS = {"default": rf"{_ASCII_WORD}|[^\w\s]", "whitespace": r"\S+", "char": rf"{_ASCII_WORD}|[^\w\s]"}
_ASCII_SPLITTERS = {name: re.compile(f"({pattern})") for name, pattern in _ASCII_PATTERNS.items()}
# Unicode category Cc is exactly U+0000-U+001F and U+007F-U+009F; tab, newline, CR are whitespace.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FORMAT = regex.compile(r"\p{Cf}")
# Tag characters (format characters too) after a pictograph spell which subdivision flag it is.
_TAG_SEQUENCE = regex.compile(r"\p{ExtPict}[\U000E0020-\U000E007E]+\U000E007F")
_FORMAT_BUT_TAGS = regex.compile(r"(?![\U000E0020-\U000E007F])\p{Cf}")


@slotted
@dataclass(frozen=True, slots=True, weakref_slot=True)
class Token:
    """One token: its surface text, the normalized form used for matching, and its span."""

    text: str
    norm: str
    start: int
    end: int


TextOrTokens = Union[str, Sequence[str]]


class Tokens(Sequence[Token]):
    """The tokens of one side: an immutable sequence of Token, stored as four parallel tuples
    (texts, norms, starts, ends). A Token object is made when one is read.

    Why not a tuple of Tokens: a result keeps its tokens as long as it lives, and one object per
    token made every kept result about 38 more objects for Python's garbage collector to walk
    again and again (score_corpus over 3,968 WMT22 pairs took 1.9x the time of scoring them one
    by one). Tuples of strings and ints are not walked at all. Equality, hashing and pickling go
    by value; a slice is a tuple of Tokens. Texts and norms are interned (see __init__)."""

    __slots__ = ("texts", "norms", "starts", "ends")

    def __init__(self, texts: Sequence[str], norms: Sequence[str], starts: Sequence[int], ends: Sequence[int]):
        # Interned: a word is one string in every result that holds it, not one per occurrence
        # ("the" 40,000 times in a corpus). cs-en's 12 WMT22 systems kept 164 -> 119 MB, 124 MB
        # on 2 workers (unpickling comes here too); ~0.5 us a side. Interned strings are freed
        # with their last reference, so this keeps nothing alive.
        values = (_interned(texts), _interned(norms), tuple(starts), tuple(ends))
        if not len(values[0]) == len(values[1]) == len(values[2]) == len(values[3]):
            raise ValueError("texts, norms, starts and ends must have the same length")
        for name, value in zip(self.__slots__, values):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, tokens: Sequence[Token]) -> "Tokens":
        """From Token objects (or another Tokens: returned as is)."""
        if isinstance(tokens, Tokens):
            return tokens
        tokens = tuple(tokens)
        for position, token in enumerate(tokens):
            if not isinstance(token, Token):
                raise TypeError(f"token {position} is a {type(token).__name__}, not a Token: make tokens with "
                                "tokenize() (it also takes a list of token strings)")
        return cls([t.text for t in tokens], [t.norm for t in tokens], [t.start for t in tokens],
                   [t.end for t in tokens])

    def __setattr__(self, name, value):
        raise FrozenInstanceError("Tokens is immutable")  # an AttributeError, as the results raise

    def __delattr__(self, name):
        raise FrozenInstanceError("Tokens is immutable")

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(map(_token, self.texts[index], self.norms[index], self.starts[index], self.ends[index]))
        return _token(self.texts[index], self.norms[index], self.starts[index], self.ends[index])

    def __iter__(self):
        return map(_token, self.texts, self.norms, self.starts, self.ends)

    def __reversed__(self):
        return iter(self[::-1])

    def __eq__(self, other) -> bool:
        if isinstance(other, Tokens):
            return (self.texts, self.norms, self.starts, self.ends) == (other.texts, other.norms, other.starts,
                                                                        other.ends)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        # Equal to the tuple of its Tokens, so hashed as that tuple (equal objects, equal hashes).
        return hash(tuple(self))

    def __add__(self, other):
        if isinstance(other, (Tokens, tuple)):
            return tuple(self) + tuple(other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, tuple):
            return other + tuple(self)
        return NotImplemented

    def __reduce__(self):
        return Tokens, (self.texts, self.norms, self.starts, self.ends)

    def __repr__(self) -> str:
        return f"Tokens({list(self)!r})"


def _interned(strings: Sequence[str]) -> tuple:
    strings = tuple(strings)
    try:
        return tuple(map(intern, strings))
    except TypeError:
        # A str subclass cannot be interned (numpy.str_, from tokens kept in an array: "can't
        # intern numpy.str_" broke such input); its plain str can. Anything else stays as given.
        return tuple([intern(str.__str__(s)) if isinstance(s, str) else s for s in strings])


_SET_TEXT, _SET_NORM, _SET_START, _SET_END = field_setters(Token)


def _token(text: str, norm: str, start: int, end: int) -> Token:
    token = new_object(Token)  # frozen.build, inline: a Python call less per token
    _SET_TEXT(token, text)
    _SET_NORM(token, norm)
    _SET_START(token, start)
    _SET_END(token, end)
    return token


def _shared_forms(texts: list[str], forms: list[str]) -> list[str]:
    """The matching forms, each one equal to its token's text being that same string: a kept
    result then holds one string for most words, not two (about 50 bytes a token; ~1 us a
    side of 25 tokens)."""
    return [text if text == form else form for text, form in zip(texts, forms)]


def check_text(text: str, field: str) -> None:
    """Refuse control characters (other than tab, newline, carriage return) and lone
    surrogates, with where they are: every mode applies this to its input text."""
    found = _CONTROL.search(text)
    if found:
        offset, ch = found.start(), found.group(0)
        raise MeteorInputError(
                f"{field} contains control character U+{ord(ch):04X} at character {offset}; "
                "remove it (only tab, newline and carriage return are accepted as whitespace)"
            )
    found = _SURROGATE.search(text)
    if found:
        raise MeteorInputError(
            f"{field} is not valid Unicode text: lone surrogate U+{ord(found.group(0)):04X} at character "
            f"{found.start()} (bytes that were not UTF-8, or a broken \\u escape)")


def matching_form(surface: str, keep_case: bool = False, unicode_normalize: bool = True) -> str:
    """The form a token is matched by: format characters left out, NFC, case folded (lower)
    unless keep_case. Without unicode_normalize (nltk mode): str.lower only, as nltk."""
    if not unicode_normalize:
        return surface if keep_case else surface.lower()
    if surface.isascii():
        return surface if keep_case else surface.lower()
    form = _FORMAT.sub("", surface)
    if form and _TAG_SEQUENCE.search(surface):  # a subdivision flag: its tags tell Scotland from Wales
        form = _FORMAT_BUT_TAGS.sub("", surface)
    # A typographic apostrophe is the same mark as the typed one: "l’auto" / "l'auto",
    # "don’t" / "don't" never matched (a tester), and French elisions made it common. A
    # variation selector only picks how a character is drawn: "❤️" / "❤" never
    # matched (a tester); a token of nothing else keeps it.
    form = form.translate(_APOSTROPHES)
    form = unicodedata.normalize("NFC", _VARIATION_SELECTORS.sub("", form) or form)
    if not keep_case:
        # Capital dotted I lowercases to i + COMBINING DOT ABOVE, which never matched the "i" of
        # the same word in lowercase ("İstanbul" / "istanbul": a teacher); it is that i. After
        # NFC, so a decomposed I + U+0307 is that letter too.
        form = unicodedata.normalize("NFC", form.replace("\u0130", "I").lower())
    return form


_VARIATION_SELECTORS = regex.compile(r"[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
#: RIGHT SINGLE QUOTATION MARK and MODIFIER LETTER APOSTROPHE, the apostrophes of typeset text.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})


#: matching_form per distinct token (NFC and the format-character scan are the costly part of
#: tokenizing non-ASCII text); bounded, and lru_cache is safe across threads.
_cached_form = word_cache(matching_form)


def unit_of_tokens(configured_unit: str, *sides: Sequence[str]) -> str:
    """What these tokens are called: configured_unit (MeteorConfig.token_unit) where it is
    "word"; under the char tokenizer, which splits Chinese and Japanese characters and keeps
    other words whole, "character" when every token is one character, "word" when none is, and
    "token" for a mix ("我 love 猫": "love" was called the second character, a tester)."""
    if configured_unit == "word":
        return "word"
    single = [len(text) == 1 for side in sides for text in side]
    return "character" if all(single) else "word" if not any(single) else "token"


def is_punctuation(text: str) -> bool:
    """True for tokens made only of punctuation or symbols (no letter or digit)."""
    return not any(ch.isalnum() for ch in text)


@lru_cache(maxsize=256)  # per call otherwise: an import statement and two lookups per side of a pair
def _resolve_tokenizer(tokenizer: str, language: str) -> str:
    """The tokenizer `tokenizer` means for `language` (default: characters for CJK)."""
    from .languages import resolve

    lang = resolve(language)
    if tokenizer == "default" and lang is not None and lang.char_level:
        return "char"
    if tokenizer == "nltk" and (lang is None or lang.code != "en"):
        raise MeteorParameterError(f"the nltk tokenizer (word_tokenize, English) is for en, not {language}")
    if tokenizer == "segmenter" and (lang is None or not lang.segmenter):
        raise MeteorParameterError(f"no word segmenter for language {language!r}; use default or whitespace")
    return tokenizer


#: The sentence model nltk's word_tokenize splits sentences with (nltk.download("punkt_tab")).
PUNKT_LANGUAGE = "english"
#: A double quote as nltk's word tokenizer writes it (`` or '') and as text holds it.
_QUOTE_TOKENS = ("``", "''", '"')
_QUOTE_IN_TEXT = re.compile(r"``|''|\"")


@lru_cache(maxsize=1)  # looked up once per process, so that the signature and the tokens agree
def punkt_available() -> bool:
    """Whether nltk's English sentence model is installed: word_tokenize needs it, and without
    it the nltk tokenizer takes the text as one sentence (the signature says which)."""
    try:
        from nltk.tokenize import punkt_model_available  # 3.10.4: loads it as sent_tokenize does
    except ImportError:  # older 3.10: the model's directory
        import nltk.data

        try:
            nltk.data.find(f"tokenizers/punkt_tab/{PUNKT_LANGUAGE}/")
        except LookupError:
            return False
        return True
    return bool(punkt_model_available(PUNKT_LANGUAGE))


@lru_cache(maxsize=1)
def _nltk_word_tokenizer():
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


@lru_cache(maxsize=1)
def _punkt_tokenizer():
    from nltk.tokenize.punkt import PunktTokenizer  # what word_tokenize's sent_tokenize loads

    return PunktTokenizer(PUNKT_LANGUAGE)


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    if not punkt_available():
        return [(0, len(text))]
    return list(_punkt_tokenizer().span_tokenize(text))


def _split_nltk(text: str) -> list[tuple[str, int, int]]:
    """The tokens of nltk's word_tokenize (what Hugging Face evaluate's meteor scores), with
    where each stands in the text. Tokens are word_tokenize's own, double quotes included (``
    and ''), so nltk mode scores what evaluate scores; the offsets find each token in the text
    in order (a quote token: the next quote of any form), as nltk's span_tokenize does."""
    tokenizer = _nltk_word_tokenizer()
    spans = []
    for sentence_start, sentence_end in _sentence_spans(text):
        position = sentence_start
        for token in tokenizer.tokenize(text[sentence_start:sentence_end]):
            if token in _QUOTE_TOKENS:
                found = _QUOTE_IN_TEXT.search(text, position, sentence_end)
                start, end = (found.start(), found.end()) if found else (position, position)
            else:
                start = text.find(token, position, sentence_end)
                end = start + len(token)
            if start < 0:  # not in the text as written (nltk changed it): where the last one ended
                start = end = position
            spans.append((token, start, end))  # searched from position: position <= start <= end
            position = end
    # word_tokenize keeps a zero-width space or joiner inside a token; a token of them only is no word
    return [span for span in spans if not _only_format(span[0])]


def _split(text: str, tokenizer: str, language: str) -> list[tuple[str, int, int]]:
    """(token, start, end) of the text the ASCII path leaves (non-ASCII text, and any text for
    the segmenter and for nltk's tokenizer): _split_ascii does the rest."""
    if tokenizer == "nltk":
        return _split_nltk(text)
    if tokenizer == "segmenter":
        from .languages import resolve

        return _segment(text, resolve(language).segmenter)
    spans = [(m.group(0), m.start(), m.end()) for m in _PATTERNS[tokenizer].finditer(text)]
    # Format-only pieces are never tokens. Besides whitespace pieces, they come from the two
    # format characters that regex counts as word characters (Join_Control: ZWNJ, ZWJ), e.g.
    # a lone joiner between spaces, or the ZWJ of an emoji sequence.
    if tokenizer == "whitespace" or "\u200c" in text or "\u200d" in text:
        return [span for span in spans if not _only_format(span[0])]
    return spans


def _split_ascii(text: str, tokenizer: str) -> tuple[list[str], list[int], list[int]]:
    """(tokens, starts, ends) of ASCII text, in C-level passes: split on the token pattern
    (captured) gives [gap, token, gap, token, ..., gap], so the running sum of the pieces'
    lengths is where each piece starts, and a token ends where the next gap starts."""
    pieces = _ASCII_SPLITTERS[tokenizer].split(text)
    offsets = list(accumulate(map(len, pieces), initial=0))
    return pieces[1::2], offsets[1:-1:2], offsets[2::2]


def _only_format(piece: str) -> bool:
    return not _FORMAT.sub("", piece)


def _segment(text: str, package: str) -> list[tuple[str, int, int]]:
    """Word segmentation with offsets; whitespace and format-only pieces dropped."""
    try:
        if package == "jieba":
            import jieba

            jieba.setLogLevel(60)
            pieces = list(jieba.tokenize(text))
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
    return [(w, a, b) for w, a, b in pieces if w.strip() and not _only_format(w)]


def token_pieces(text, field: str) -> list:
    """The tokens of pre-tokenized input as a list; anything else than a string or a sequence
    (None, a number) is refused with a message rather than a TypeError."""
    if text is not None and not isinstance(text, (bytes, bytearray, *UNORDERED)):
        try:
            return list(text)
        except TypeError:
            pass
    raise MeteorInputError(f"{field} must be a string or a list of token strings, not {type(text).__name__}")


def joined_words(pieces: list, field: str, limit: int) -> str:
    """Token pieces joined by single spaces, once each is known to be a word: a string, not
    empty, without whitespace (MeteorInputError naming the first that is not). Format-only
    tokens are the callers' to refuse (they know whether forms are normalized)."""
    try:
        joined = " ".join(pieces)
    except TypeError:  # a token that is not a string: the loop below names it
        joined = None
    if joined is not None and len(joined) > limit:
        raise TooManyCharacters(f"{field} has {len(joined):,} characters; the limit is {limit:,} per side")
    # Fast check: every token a non-empty string without whitespace <=> the joined text
    # splits back into exactly the same tokens. Only on failure look for the culprit.
    if joined is None or joined.split(" ") != pieces or len(joined.split()) != len(pieces):
        for position, piece in enumerate(pieces):
            if not isinstance(piece, str):
                raise MeteorInputError(f"{field} token {position} is not a string: {piece!r}")
            if not piece or any(ch.isspace() for ch in piece):
                raise MeteorInputError(
                    f"{field} token {position} ({piece!r}) is empty or contains whitespace")
    return joined


def refuse_format_only(pieces: Sequence[str], field: str) -> None:
    """A token of invisible format characters only (a lone zero-width joiner) is not a word."""
    for position, piece in enumerate(pieces):
        if _only_format(piece):
            raise MeteorInputError(f"{field} token {position} ({piece!r}) has only invisible format characters")


@lru_cache(maxsize=64)
def _elision_pattern(language: str):
    """The language's elided words before an apostrophe and a word (Language.elisions), or None."""
    from .languages import resolve

    lang = resolve(language)
    if lang is None or not lang.elisions:
        return None
    return regex.compile(r"(?i)(?:" + "|".join(sorted(lang.elisions, key=len, reverse=True)) + r")['\u2019\u02bc](?=\w)")


def _split_elisions(spans: list, pattern) -> list:
    """Each token that starts with an elided word ("l'", "dell'") as two: the elision, with its
    apostrophe, and the word. Offsets stay in the text."""
    split = []
    for token, start, end in spans:
        found = pattern.match(token)
        if found is None:
            split.append((token, start, end))
        else:
            cut = found.end()
            split += [(token[:cut], start, start + cut), (token[cut:], start + cut, end)]
    return split


def tokenize(
    text: TextOrTokens,
    *,
    field: str = "text",
    tokenizer: str = "default",
    keep_case: bool = False,
    drop_punctuation: bool = False,
    max_tokens: int = MAX_TOKENS,
    language: str = "en",
    unicode_normalize: bool = True,
    allow_empty: bool = False,
) -> Tokens:
    """Split `text` into tokens (or accept a pre-tokenized sequence as is).

    Pre-tokenized input keeps its tokens unchanged; their offsets refer to the tokens joined
    by single spaces, which is how they are displayed. No token is an error unless
    `allow_empty` (nltk mode's candidate: nltk's meteor_score scores it 0).
    """
    if tokenizer not in TOKENIZERS:
        raise MeteorParameterError(f"unknown tokenizer {tokenizer!r}; choose one of {', '.join(TOKENIZERS)}")
    if isinstance(text, str):
        limit = max_chars(max_tokens)
        if len(text) > limit:
            raise TooManyCharacters(f"{field} has {len(text):,} characters; the limit is {limit:,} per side")
        check_text(text, field)
        tokenizer = _resolve_tokenizer(tokenizer, language)
        if tokenizer not in ("segmenter", "nltk") and text.isascii():
            # The common case, in C-level passes only. ASCII has no marks or format characters
            # and \w means the same in `re` and `regex`, so the faster engine gives the same
            # tokens; a token's matching form is itself or its lowercase (matching_form), and
            # lowercasing ASCII moves no token boundary.
            texts, starts, ends = _split_ascii(text, tokenizer)
            forms = texts if keep_case or not texts else _shared_forms(texts, " ".join(texts).lower().split(" "))
            spans = list(zip(texts, starts, ends)) if drop_punctuation else None
        else:
            spans = _split(text, tokenizer, language)
            forms = None  # matching forms: computed below, per token kept
        elided = _elision_pattern(language) if tokenizer == "default" else None
        if elided is not None and ("'" in text or "\u2019" in text or "\u02bc" in text):
            spans = _split_elisions(list(zip(texts, starts, ends)) if spans is None else spans, elided)
            forms = None
    else:
        pieces = token_pieces(text, field)
        if len(pieces) > max_tokens:
            raise TooManyTokens(f"{field} has {len(pieces):,} tokens; the limit is {max_tokens:,} per side")
        joined = joined_words(pieces, field, max_chars(max_tokens))
        check_text(joined, field)
        if joined.isascii():
            # The common case: no format characters to look for, and the matching form of an
            # ASCII token is the token or its lowercase (matching_form).
            forms = pieces if keep_case else _shared_forms(pieces, joined.lower().split(" "))
        else:
            forms = [_cached_form(piece, keep_case, unicode_normalize) for piece in pieces]
            for position, (piece, form) in enumerate(zip(pieces, forms)):
                # Normalized, a form is empty exactly when its piece is only format characters.
                if not form or (not unicode_normalize and _only_format(piece)):
                    raise MeteorInputError(
                        f"{field} token {position} ({piece!r}) has only invisible format characters")
        # Offsets in the tokens joined by single spaces: token k ends after the lengths of
        # tokens 0..k and k spaces (C-level passes: no Python loop per token).
        lengths = list(map(len, pieces))
        ends = list(map(add, accumulate(lengths), range(len(pieces))))
        texts, starts = pieces, list(map(sub, ends, lengths))
        # Kept as three lists (no spans to zip and unzip again) unless punctuation is dropped.
        spans = list(zip(texts, starts, ends)) if drop_punctuation else None
    if spans is None:  # every token kept: (texts, starts, ends) as split, and their forms
        count = len(texts)
    else:
        if drop_punctuation:
            kept = [k for k, span in enumerate(spans) if not is_punctuation(span[0])]
            spans = [spans[k] for k in kept]
            forms = None if forms is None else [forms[k] for k in kept]
        count = len(spans)
    if not count:
        if allow_empty:
            return Tokens((), (), (), ())
        raise MeteorInputError(f"{field} is empty (no tokens after tokenization)")
    if count > max_tokens:
        raise TooManyTokens(f"{field} has {count:,} tokens; the limit is {max_tokens:,} per side")
    if spans is not None:
        if forms is None:
            forms = [_cached_form(surface, keep_case, unicode_normalize) for surface, _, _ in spans]
        texts, starts, ends = zip(*spans)
    return Tokens(texts, forms, starts, ends)
