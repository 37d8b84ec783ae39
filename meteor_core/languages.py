"""What each language gets, honestly: tokenizer, stemmer, synonym source, and whether that
resource is on this machine. METEOR's original stem and synonym modules are English only;
other languages get Snowball stemmers (nltk) and, for Portuguese and French, the Debian
MyThes thesauri; Chinese and Japanese get character tokens or a word segmenter whose
dictionary ships inside its wheel (jieba, janome)."""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .caches import word_cache

MYTHES_DIR = Path("/usr/share/mythes")


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    snowball: Optional[str] = None  # nltk SnowballStemmer language; None: Porter (en) or no stemmer
    thesaurus: Optional[str] = None  # MyThes .dat file name under /usr/share/mythes
    debian_package: Optional[str] = None
    segmenter: Optional[str] = None  # PyPI package for word segmentation (zh, ja)
    char_level: bool = False  # default tokens are characters (no spaces between words)
    # Elided words written onto the next one with an apostrophe ("l'automobile", "dell'anno"):
    # the default tokens split them off, so the word itself can match ("voiture" / "automobile"
    # matched, "la voiture" / "l'automobile" scored 0: a teacher). Lowercase, without apostrophe.
    elisions: tuple[str, ...] = ()


LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    Language("en", "English"),
    Language("pt-BR", "Portuguese (Brazil)", "portuguese", "th_pt_BR.dat", "mythes-pt-br"),
    Language("pt-PT", "Portuguese (Portugal)", "portuguese", "th_pt_PT_v2.dat", "mythes-pt-pt"),
    Language("fr", "French", "french", "thes_fr.dat", "mythes-fr",
             # not presqu' and quelqu': "presqu'île" and "quelqu'un" are words of their own
             # (split, "un" of "quelqu'un" matched an article: a tester)
             elisions=("l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu")),
    Language("es", "Spanish", "spanish"),
    Language("de", "German", "german"),
    Language("it", "Italian", "italian",
             elisions=("l", "un", "d", "dell", "all", "dall", "nell", "sull", "coll", "quest", "quell", "c", "m",
                       "t", "s", "v", "n")),
    Language("nl", "Dutch", "dutch"),
    Language("ru", "Russian", "russian"),
    Language("da", "Danish", "danish"),
    Language("fi", "Finnish", "finnish"),
    Language("hu", "Hungarian", "hungarian"),
    Language("no", "Norwegian", "norwegian"),
    Language("ro", "Romanian", "romanian"),
    Language("sv", "Swedish", "swedish"),
    Language("ar", "Arabic", "arabic"),
    Language("zh", "Chinese", segmenter="jieba", char_level=True),
    Language("ja", "Japanese", segmenter="janome", char_level=True),
)}
ALIASES = {"pt": "pt-BR", "pt-br": "pt-BR", "pt-pt": "pt-PT", "en-us": "en", "en-gb": "en"}


_CODE_OF = {code.lower(): code for code in LANGUAGES}


def resolve(code: str) -> Optional[Language]:
    """The language of a code in any case, with - or _ ("FR", "pt_BR"); a region the list does
    not name falls back to its language when that has no regions of its own ("fr-FR" is fr,
    "pt-AO" is refused: Portuguese comes as pt-BR or pt-PT)."""
    if not code:
        return None
    key = code.lower().replace("_", "-")
    key = ALIASES.get(key, key).lower()
    if key not in _CODE_OF and "-" in key:
        key = key.split("-", 1)[0]
    return LANGUAGES.get(_CODE_OF.get(key, ""))


def stemmer_name(lang: Language) -> Optional[str]:
    if lang.code == "en":
        return "porter"
    return f"snowball-{lang.snowball}" if lang.snowball else None


def segmenter_available(lang: Language) -> bool:
    return bool(lang.segmenter) and importlib.util.find_spec(lang.segmenter) is not None


def thesaurus_path(lang: Language) -> Optional[Path]:
    if not lang.thesaurus:
        return None
    path = MYTHES_DIR / lang.thesaurus
    return path if path.exists() else None


@dataclass(frozen=True)
class Capability:
    code: str
    name: str
    tokenizers: str
    stemmer: str
    synonyms: str
    synonyms_available: bool


def capabilities() -> list[Capability]:
    """Per language, what is really available on this machine."""
    from .wordnet import wordnet_status

    rows = []
    for lang in LANGUAGES.values():
        if lang.char_level:
            seg = f"{lang.segmenter} ({'installed' if segmenter_available(lang) else 'NOT installed: pip install ' + lang.segmenter})"
            tokenizers = f"characters (default); words: {seg}"
        elif lang.code == "en":
            tokenizers = "words and punctuation (default); whitespace; nltk (word_tokenize)"
        else:
            tokenizers = "words and punctuation (default); whitespace"
        stem = stemmer_name(lang)
        stem_text = {"porter": "Porter (nltk), as the paper"}.get(stem, f"Snowball {lang.snowball} (nltk)" if stem else "none")
        if lang.code == "en":
            status = wordnet_status()
            synonyms, ok = (f"WordNet {status.version}" if status.available else f"WordNet: UNAVAILABLE ({status.fix})",
                            status.available)
        elif lang.thesaurus:
            path = thesaurus_path(lang)
            synonyms, ok = ((f"MyThes {path.name} (Debian {lang.debian_package})", True) if path else
                            (f"UNAVAILABLE: apt-get install {lang.debian_package}", False))
        else:
            synonyms, ok = ("none (add a user synonym table)", False)
        rows.append(Capability(lang.code, lang.name, tokenizers, stem_text, synonyms, ok))
    return rows


@lru_cache(maxsize=8)
def load_thesaurus_index(path: str) -> dict[str, int]:
    """MyThes .idx: line 1 encoding, line 2 count, then word|byte offset into the .dat."""
    index: dict[str, int] = {}
    idx = Path(path).with_suffix(".idx")
    with open(idx, encoding="utf-8", errors="replace") as f:
        f.readline()
        f.readline()
        for line in f:
            word, _, offset = line.rstrip("\n").rpartition("|")
            if word and offset.isdigit():
                index.setdefault(word.lower(), int(offset))
    return index


class Thesaurus:
    """Lazy MyThes reader: entries read from the .dat at the offset the .idx gives."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._index = load_thesaurus_index(str(self.path))
        # Bounded: a long-running server sees unlimited words.
        self._meanings = word_cache(self._read_meanings)

    def meanings(self, word: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """((part of speech label, synonyms), ...) for `word`, lowercased; () if absent."""
        return self._meanings(word.lower())

    def _read_meanings(self, word: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        offset = self._index.get(word)
        result: list[tuple[str, tuple[str, ...]]] = []
        if offset is not None:
            with open(self.path, "rb") as f:
                f.seek(offset)
                head = f.readline().decode("utf-8", "replace").strip()
                _, _, count = head.rpartition("|")
                for _ in range(int(count) if count.isdigit() else 0):
                    fields = f.readline().decode("utf-8", "replace").strip().split("|")
                    synonyms = tuple(s.strip().lower() for s in fields[1:] if s.strip() and " " not in s.strip())
                    label = fields[0].strip()
                    label = label[: label.index(")") + 1] if ")" in label else label  # "(Sinônimo)x" -> "(Sinônimo)"
                    result.append((label, synonyms))
        return tuple(result)

    def relation(self, a: str, b: str) -> Optional[str]:
        """Evidence when b is listed among a's synonyms or a among b's (symmetric)."""
        for head, other in ((a, b), (b, a)):
            for pos, synonyms in self.meanings(head):
                if other.lower() in synonyms:
                    return f"{self.path.name}: {head!r} lists {other!r} {pos}".strip()
        return None


@lru_cache(maxsize=1)
def janome_tokenizer():
    from janome.tokenizer import Tokenizer

    return Tokenizer()
